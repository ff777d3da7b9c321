"""`repolens-tui-bench fit-diversity DUMP`: the per-file decay and the file-evidence weight of
`app.search.diversity` fitted on every set of a `signals` dump together, and
leave-one-repository-out, beside the ranking without them (each candidate's `same-file` and
`file-evidence` factors, if the dump has them, are taken out first)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.bench import fit, semble
from app.bench.signals import read
from app.search import diversity

DECAYS = tuple(round(0.05 * step, 2) for step in range(10, 21))  # 0.50 .. 1.00
WEIGHTS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5)
K = fit.K
MAX_LOSS = 0.01  # what a ranking change may cost any one set
NONE = (1.0, 0.0)  # no decay, no evidence: the ranking without either
OURS = frozenset(diversity.SIGNALS)
Config = tuple[float, float]  # (decay, evidence weight)


@dataclass(frozen=True, slots=True)
class Question:
    """One question's candidates, best first by their score without this module's factors."""

    block: fit.Block
    paths: tuple[str, ...]
    double_first: int | None  # the candidate both retrievers rank first, if any


def without_ours(candidate: dict[str, Any]) -> float:
    """The candidate's final score before the `same-file` and `file-evidence` factors."""
    score = float(candidate["final"])
    for name, factor in candidate["signals"]:
        if name in OURS:
            score /= factor
    return score


def questions_of(records: Sequence[dict[str, Any]]) -> list[Question]:
    out = []
    for r in records:
        cands = sorted(r["candidates"], key=lambda c: -without_ours(c))
        block = fit.Block(
            r["set"],
            r["repo"],
            r["n_targets"],
            np.zeros((len(cands), 0)),
            np.array([without_ours(c) for c in cands]),
            [c["hits"] for c in cands],
        )
        first = next((i for i, c in enumerate(cands) if c["bm25"] == 1 and c["vector"] == 1), None)
        out.append(Question(block, tuple(c["path"] for c in cands), first))
    return out


def ranked(q: Question, config: Config) -> list[int]:
    """Candidate indices best first, as the search orders them with this configuration."""
    decay, weight = config
    ids = [str(i) for i in range(len(q.paths))]
    score = {str(i): float(v) for i, v in enumerate(q.block.final)}

    def path_of(chunk_id: str) -> str:
        return q.paths[int(chunk_id)]

    raised = diversity.evidence_factors(ids, score, path_of, weight)
    score = {i: s * raised.get(i, 1.0) for i, s in score.items()}
    ids.sort(key=lambda i: (-score[i], int(i)))
    double = None if q.double_first is None else str(q.double_first)
    order, _ = diversity.spread(ids, score, path_of, decay, keep=double)
    if double is not None:
        order = diversity.keep_in_list(order, double, K)
    return [int(i) for i in order]


Measured = dict[Config, list[dict[str, float]]]  # per configuration, per question


def measure(questions: Sequence[Question]) -> Measured:
    out: Measured = {}
    for decay in DECAYS:
        for weight in WEIGHTS:
            per = []
            for q in questions:
                order = ranked(q, (decay, weight))
                metrics = fit.question_metrics(q.block, order)
                metrics["files"] = float(len({q.paths[j] for j in order[:K]}))
                per.append(metrics)
            out[(decay, weight)] = per
    return out


def by_set(
    questions: Sequence[Question], per: Sequence[dict[str, float]], chosen: Sequence[int]
) -> dict[str, dict[str, float]]:
    """Per set among the `chosen` questions: its own aggregate (semble: per repo, then over
    repos), and the mean distinct files in the top 10."""
    figures: dict[str, dict[str, float]] = {}
    for name in sorted({questions[i].block.set_name for i in chosen}):
        mine = [i for i in chosen if questions[i].block.set_name == name]
        if name == "semble":
            repos = sorted({questions[i].block.repo for i in mine})
            groups = [[i for i in mine if questions[i].block.repo == r] for r in repos]
        else:
            groups = [mine]
        key = "ndcg" if name == "semble" else "mrr"
        figures[name] = {
            metric: semble.mean([semble.mean([per[i][metric] for i in g]) for g in groups])
            for metric in ("top1", "top5", "mrr", "ndcg", "files")
        }
        figures[name]["score"] = figures[name][key]
    return figures


def mean_score(figures: dict[str, dict[str, float]]) -> float:
    return semble.mean([per["score"] for per in figures.values()])


def best_config(questions: Sequence[Question], measured: Measured, chosen: Sequence[int]) -> Config:
    """The configuration with the best mean over the sets among those that cost no set more
    than MAX_LOSS against neither (the house rule for ranking changes); the mildest among
    equals."""
    base = by_set(questions, measured[NONE], chosen)
    allowed = []
    for config, per in measured.items():
        figures = by_set(questions, per, chosen)
        if all(figures[s]["score"] >= base[s]["score"] - MAX_LOSS for s in base):
            allowed.append((round(mean_score(figures), 9), config[0], -config[1], config))
    return max(allowed)[3]


def loro(questions: Sequence[Question], measured: Measured) -> tuple[list[int], dict[str, Config]]:
    """Each repository ranked with the configuration fitted on every other repository: per
    question, the index of its configuration's figures."""
    picked: dict[str, Config] = {}
    for repo in sorted({q.block.repo for q in questions}):
        train = [i for i, q in enumerate(questions) if q.block.repo != repo]
        picked[repo] = best_config(questions, measured, train)
    return [list(measured).index(picked[q.block.repo]) for q in questions], picked


def run_fit_diversity(args: argparse.Namespace) -> int:
    questions = questions_of(read(args.dump))
    measured = measure(questions)
    every = list(range(len(questions)))
    fitted = best_config(questions, measured, every)
    table = {
        f"decay {d:.2f} w {w:.2f}": by_set(questions, per, every)
        for (d, w), per in measured.items()
    }
    configs, picked = loro(questions, measured)
    lists = list(measured.values())
    held_out = [lists[c][i] for i, c in enumerate(configs)]
    table["loro"] = by_set(questions, held_out, every)
    if args.json:
        out = {"fitted": fitted, "loro": picked, "table": table}
        print(json.dumps(out, indent=2))
        return 0
    sets = list(table["loro"])
    print(
        "score = MRR@10 (dev, dev2) or NDCG@10 (semble) of the dumped candidates re-ranked; "
        "f = distinct files in the top 10; w = file-evidence weight"
    )
    print(f"{'variant':18s}" + "".join(f" {s:>20s}" for s in sets) + f" {'mean':>7s}")
    for variant, per_set in table.items():
        cells = "".join(
            f" {per_set[s]['score']:6.3f}/{per_set[s]['top5']:.2f}t5/{per_set[s]['files']:4.1f}f"
            for s in sets
        )
        print(f"{variant:18s}{cells} {mean_score(per_set):7.3f}")
    print(
        f"fitted on every set (no set losing more than {MAX_LOSS}): decay {fitted[0]:.2f}, "
        f"evidence weight {fitted[1]:.2f}; leave-one-repository-out chose "
        + ", ".join(f"{repo} {d:.2f}/{w:.2f}" for repo, (d, w) in picked.items())
    )
    return 0
