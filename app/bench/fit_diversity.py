"""`repolens-tui-bench fit-diversity DUMP`: the per-file decay of `app.search.diversity` fitted
on every set of a `signals` dump together, and leave-one-repository-out, beside the ranking
without it (each candidate's `same-file` factor, if the dump has one, is taken out first)."""

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

GRID = tuple(round(0.05 * step, 2) for step in range(4, 21))  # 0.20 .. 1.00
K = fit.K
MAX_LOSS = 0.01  # what a ranking change may cost any one set


@dataclass(frozen=True, slots=True)
class Question:
    """One question's candidates, best first by their score without the per-file decay."""

    block: fit.Block
    paths: tuple[str, ...]
    double_first: int | None  # the candidate both retrievers rank first, if any


def questions_of(records: Sequence[dict[str, Any]]) -> list[Question]:
    out = []
    for r in records:
        cands = sorted(r["candidates"], key=lambda c: -undecayed(c))
        block = fit.Block(
            r["set"],
            r["repo"],
            r["n_targets"],
            np.zeros((len(cands), 0)),
            np.array([undecayed(c) for c in cands]),
            [c["hits"] for c in cands],
        )
        first = next((i for i, c in enumerate(cands) if c["bm25"] == 1 and c["vector"] == 1), None)
        out.append(Question(block, tuple(c["path"] for c in cands), first))
    return out


def undecayed(candidate: dict[str, Any]) -> float:
    """The candidate's final score before the `same-file` factor."""
    score = float(candidate["final"])
    for name, factor in candidate["signals"]:
        if name == "same-file":
            score /= factor
    return score


def ranked(q: Question, decay: float) -> list[int]:
    """Candidate indices best first, as the search orders them with this decay."""
    ids = [str(i) for i in range(len(q.paths))]
    score = {str(i): float(v) for i, v in enumerate(q.block.final)}
    double = None if q.double_first is None else str(q.double_first)
    order, _ = diversity.spread(ids, score, lambda i: q.paths[int(i)], decay, keep=double)
    if double is not None:
        order = diversity.keep_in_list(order, double, K)
    return [int(i) for i in order]


def by_set(
    questions: Sequence[Question], orders: Sequence[Sequence[int]]
) -> dict[str, dict[str, float]]:
    sets = sorted({q.block.set_name for q in questions})
    figures = {}
    for name in sets:
        chosen = [i for i, q in enumerate(questions) if q.block.set_name == name]
        figures[name] = fit.set_figures(
            [questions[i].block for i in chosen], [orders[i] for i in chosen]
        )
        figures[name]["files@10"] = semble.mean(
            [float(len({questions[i].paths[j] for j in orders[i][:K]})) for i in chosen]
        )
    return figures


def mean_score(figures: dict[str, dict[str, float]]) -> float:
    return semble.mean([per["score"] for per in figures.values()])


def best_decay(questions: Sequence[Question]) -> float:
    """The grid's decay with the best mean over the sets among those that cost no set more
    than MAX_LOSS against no decay (the house rule for ranking changes); the mildest among
    equals."""
    base = by_set(questions, [ranked(q, 1.0) for q in questions])
    allowed = []
    for d in GRID:
        figures = by_set(questions, [ranked(q, d) for q in questions])
        if all(figures[s]["score"] >= base[s]["score"] - MAX_LOSS for s in base):
            allowed.append((mean_score(figures), d))
    top = max(score for score, _ in allowed)
    return max(d for score, d in allowed if score >= top - 1e-9)


def loro(questions: Sequence[Question]) -> tuple[list[list[int]], dict[str, float]]:
    """Each repository ranked with the decay fitted on every other repository."""
    orders: list[list[int]] = [[] for _ in questions]
    chosen: dict[str, float] = {}
    for repo in sorted({q.block.repo for q in questions}):
        decay = best_decay([q for q in questions if q.block.repo != repo])
        chosen[repo] = decay
        for i, q in enumerate(questions):
            if q.block.repo == repo:
                orders[i] = ranked(q, decay)
    return orders, chosen


def run_fit_diversity(args: argparse.Namespace) -> int:
    questions = questions_of(read(args.dump))
    table = {f"decay {d:.2f}": by_set(questions, [ranked(q, d) for q in questions]) for d in GRID}
    fitted = best_decay(questions)
    loro_orders, chosen = loro(questions)
    table["loro"] = by_set(questions, loro_orders)
    if args.json:
        print(json.dumps({"fitted": fitted, "loro_decays": chosen, "table": table}, indent=2))
        return 0
    sets = list(table["decay 1.00"])
    print(
        "score = MRR@10 (dev, dev2) or NDCG@10 (semble) of the dumped candidates re-ranked; "
        "files = distinct files in the top 10"
    )
    print(f"{'variant':12s}" + "".join(f" {s:>20s}" for s in sets) + f" {'mean':>7s}")
    for variant, per in table.items():
        cells = "".join(
            f" {per[s]['score']:6.3f}/{per[s]['top5']:.2f}t5/{per[s]['files@10']:4.1f}f"
            for s in sets
        )
        print(f"{variant:12s}{cells} {mean_score(per):7.3f}")
    print(
        f"fitted on every set (no set losing more than {MAX_LOSS}): decay {fitted:.2f}; "
        f"leave-one-repository-out chose {chosen}"
    )
    return 0
