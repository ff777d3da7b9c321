"""`repolens-tui-bench fit DUMP`: a linear rerank fitted on the ranker's own signals and on
what the question looks like (listwise softmax, pulled toward the hand-set factors), scored
leave-one-repository-out beside the engine's ranking of the same candidates, per set."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from app.bench import devbench, semble
from app.bench.signals import read
from app.search import calls, diversity, rerank
from app.search.tokenize import identifiers, member_names, tokens

RRF_K = 60
BASE_FEATURES = ("log_fused", "bm25_rrf", "vector_rrf", "bm25_only", "vector_only")
EXTRA_FEATURES = ("exact-name-held", "kind_method", "kind_class", "log_lines", "example_path")
# Steps after the factors, not in the linear model: the per-file decay (re-applied to the
# fitted order, as the search does), and two markers whose factor is always 1.
POST_STEPS = frozenset({*diversity.SIGNALS, "overloads", "double-first"})
# Signals whose factor differs per candidate (a call question's lift: above the best hit, by
# the edge's confidence; exact-name, smaller for a common name): a log-factor feature, weight
# 1 by hand, not a flag.
VARYING = frozenset({"calls", "called-by", "exact-name"})
# What the engine sees of the question (never the gold label's kind): it is one name alone, a
# call-graph question, names identifiers, or names none (prose); and its length in tokens.
QUESTION_KINDS = ("prose", "lookup", "call")
CROSSED = ("bm25_rrf", "vector_rrf", "log_lines", "kind_class")
LENGTH_CROSSED = ("bm25_rrf", "vector_rrf")
CLASS_KINDS = frozenset({"class", "struct", "interface", "enum", "trait", "impl", "module"})
_EXAMPLE = re.compile(r"(^|/)(examples?|samples?|benchmarks?|benches|demos?)/")
DEFAULT_L2 = (0.01, 0.1)
STEPS = 200
LEARNING_RATE = 0.05
K = 10


@dataclass(frozen=True, slots=True)
class Block:
    """One question's candidates as a feature matrix, in the current ranker's order."""

    set_name: str
    repo: str
    n_targets: int
    x: np.ndarray  # candidates x features
    final: np.ndarray  # the current ranker's score of each candidate
    hits: list[list[int]]  # per candidate: the targets it hits
    paths: tuple[str, ...] = ()  # per candidate; empty: no per-file decay after the score
    double: int | None = None  # the candidate both retrievers rank first, kept in the top K
    kind: str = ""  # the gold label's kind, for the report only
    language: str = ""

    @property
    def gold(self) -> np.ndarray:
        return np.array([1.0 if h else 0.0 for h in self.hits])


def question_facts(query: str) -> dict[str, float]:
    """The question as the engine can read it: its kind (one flag of QUESTION_KINDS, none
    when it names identifiers) and log(1 + its token count); nothing for an empty one."""
    if not query.strip():
        return {}
    if calls.question_of(query) is not None:
        kind = "call"
    elif rerank.looked_up(query):
        kind = "lookup"
    elif identifiers(query) or member_names(query):
        kind = "names"
    else:
        kind = "prose"
    facts = {name: float(kind == name) for name in QUESTION_KINDS}
    facts["log_length"] = math.log1p(len(tokens(query)))
    return facts


def crossed_names() -> list[str]:
    """A candidate feature times a question fact: how much each retriever (and length, a
    class) counts may depend on the question."""
    names = [f"{feature}@{kind}" for kind in QUESTION_KINDS for feature in CROSSED]
    return names + [f"{feature}@log_length" for feature in LENGTH_CROSSED]


def feature_names(records: Sequence[dict[str, Any]], crossed: bool = False) -> list[str]:
    """The fixed features, one per rerank signal name the dump holds, and (`crossed`) the
    question-dependent ones."""
    found = {name for r in records for c in r["candidates"] for name, _ in c["signals"]}
    names = sorted(found - POST_STEPS)
    return [*BASE_FEATURES, *names, *EXTRA_FEATURES, *(crossed_names() if crossed else [])]


def _row(c: dict[str, Any], index: dict[str, int], facts: dict[str, float]) -> np.ndarray:
    x = np.zeros(len(index))
    x[index["log_fused"]] = math.log(max(c["fused"], 1e-12))
    if c["bm25"] is not None:
        x[index["bm25_rrf"]] = RRF_K / (RRF_K + c["bm25"])
    if c["vector"] is not None:
        x[index["vector_rrf"]] = RRF_K / (RRF_K + c["vector"])
    x[index["bm25_only"]] = float(c["bm25"] is not None and c["vector"] is None)
    x[index["vector_only"]] = float(c["vector"] is not None and c["bm25"] is None)
    for name, factor in c["signals"]:
        if name in POST_STEPS:
            continue
        if name == "exact-name" and factor == 1.0:
            x[index["exact-name-held"]] = 1.0
        elif name in VARYING:
            x[index[name]] = math.log(factor)
        elif factor != 1.0:
            x[index[name]] = 1.0
    x[index["kind_method"]] = float(c["kind"] == "method")
    x[index["kind_class"]] = float(c["kind"] in CLASS_KINDS)
    x[index["log_lines"]] = math.log(max(1, c["end"] - c["start"] + 1))
    x[index["example_path"]] = float(bool(_EXAMPLE.search(c["path"])))
    for name, i in index.items():
        feature, _, fact = name.partition("@")
        if fact:
            x[i] = x[index[feature]] * facts.get(fact, 0.0)
    return x


def blocks_of(
    records: Sequence[dict[str, Any]],
    names: Sequence[str],
    languages: dict[str, str] | None = None,
) -> list[Block]:
    index = {name: i for i, name in enumerate(names)}
    out = []
    for r in records:
        cands = r["candidates"]
        facts = question_facts(r.get("question", ""))
        rows = [_row(c, index, facts) for c in cands]
        x = np.array(rows) if cands else np.zeros((0, len(names)))
        final = np.array([c["final"] for c in cands])
        hits = [c["hits"] for c in cands]
        paths = tuple(c["path"] for c in cands)
        double = next((i for i, c in enumerate(cands) if c["bm25"] == 1 and c["vector"] == 1), None)
        language = (languages or {}).get(r["repo"], "")
        block = Block(r["set"], r["repo"], r["n_targets"], x, final, hits, paths, double)
        out.append(replace(block, kind=r.get("kind", ""), language=language))
    return out


def hand_weights(records: Sequence[dict[str, Any]], names: Sequence[str]) -> np.ndarray:
    """The current ranker in this space: log(final) = log(fused) + sum of log(factor)."""
    w = np.zeros(len(names))
    w[names.index("log_fused")] = 1.0
    factors: dict[str, list[float]] = {}
    for r in records:
        for c in r["candidates"]:
            for name, factor in c["signals"]:
                if factor != 1.0 and name not in POST_STEPS:
                    factors.setdefault(name, []).append(factor)
    for name, seen in factors.items():
        w[names.index(name)] = 1.0 if name in VARYING else math.log(float(np.median(seen)))
    return w


def fit(
    blocks: Sequence[Block],
    start: np.ndarray,
    l2: float,
    steps: int = STEPS,
    free: np.ndarray | None = None,
) -> np.ndarray:
    """Listwise softmax over each question's candidates (the gold ones together), every set
    weighted alike, plus l2 * |w - start|^2; Adam from `start`, moving only the `free`
    weights (None: all)."""
    train = [b for b in blocks if len(b.hits) and b.gold.any()]
    if not train:
        return start.copy()
    x = np.vstack([b.x for b in train])
    y = np.concatenate([b.gold for b in train])
    sizes = np.array([len(b.hits) for b in train])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    owner = np.repeat(np.arange(len(train)), sizes)
    per_set: dict[str, int] = {}
    for b in train:
        per_set[b.set_name] = per_set.get(b.set_name, 0) + 1
    weight = np.array([1.0 / (per_set[b.set_name] * len(per_set)) for b in train])
    w, m, v = start.copy(), np.zeros_like(start), np.zeros_like(start)
    for step in range(1, steps + 1):
        s = x @ w
        s = s - np.maximum.reduceat(s, starts)[owner]
        e = np.exp(s)
        z = np.add.reduceat(e, starts)
        zg = np.add.reduceat(e * y, starts)
        coeff = (e / z[owner] - e * y / zg[owner]) * weight[owner]
        grad = x.T @ coeff + 2 * l2 * (w - start)
        if free is not None:
            grad = grad * free
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w = w - LEARNING_RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def order(block: Block, w: np.ndarray | None) -> list[int]:
    """Candidate indices best first: by `w` then spread over files as the search does, or
    (None) by the current ranker's final score."""
    if w is None:
        return sorted(range(len(block.hits)), key=lambda i: (-block.final[i], i))
    score = block.x @ w
    ranked = sorted(range(len(block.hits)), key=lambda i: (-score[i], i))
    if not block.paths:
        return ranked
    positive = {str(i): float(v) for i, v in enumerate(np.exp(score - score.max()))}
    ids = [str(i) for i in ranked]
    keep = None if block.double is None else str(block.double)
    spread, _ = diversity.spread(ids, positive, lambda i: block.paths[int(i)], keep=keep)
    if keep is not None:
        spread = diversity.keep_in_list(spread, keep, K)
    return [int(i) for i in spread]


def question_metrics(block: Block, ranked: Sequence[int]) -> dict[str, float]:
    top = ranked[:K]
    first = next((r for r, i in enumerate(top, 1) if block.hits[i]), None)
    target_ranks = []
    for t in range(block.n_targets):
        rank = next((r for r, i in enumerate(top, 1) if t in block.hits[i]), None)
        if rank is not None:
            target_ranks.append(rank)
    return {
        "top1": float(first == 1),
        "top5": float(first is not None and first <= 5),
        "mrr": 1.0 / first if first else 0.0,
        "ndcg": semble.ndcg_at_k(target_ranks, block.n_targets),
    }


def set_figures(blocks: Sequence[Block], ranked: Sequence[Sequence[int]]) -> dict[str, float]:
    """The set's own aggregate: semble means per repo, then over repos; others per question."""
    per = [question_metrics(b, r) for b, r in zip(blocks, ranked, strict=True)]
    if blocks and blocks[0].set_name == "semble":
        repos = sorted({b.repo for b in blocks})

        def over(key: str) -> float:
            return semble.mean(
                [
                    semble.mean([m[key] for b, m in zip(blocks, per, strict=True) if b.repo == r])
                    for r in repos
                ]
            )

        figures = {key: over(key) for key in ("top1", "top5", "mrr", "ndcg")}
        figures["score"] = figures["ndcg"]
    else:
        figures = {key: semble.mean([m[key] for m in per]) for key in ("top1", "top5", "mrr")}
        figures["score"] = figures["mrr"]
    figures["n"] = float(len(blocks))
    return figures


def loro(
    blocks: Sequence[Block],
    start: np.ndarray,
    l2: float,
    train_sets: set[str],
    free: np.ndarray | None = None,
) -> list[list[int]]:
    """Each repository ranked by weights fitted on every other repository."""
    ranked: list[list[int]] = [[] for _ in blocks]
    for repo in sorted({b.repo for b in blocks}):
        print(f"fit: l2 {l2:g}, {repo} held out", file=sys.stderr, flush=True)
        train = [b for b in blocks if b.repo != repo and b.set_name in train_sets]
        w = fit(train, start, l2, free=free)
        for i, b in enumerate(blocks):
            if b.repo == repo:
                ranked[i] = order(b, w)
    return ranked


def rankings(
    blocks: Sequence[Block],
    start: np.ndarray,
    l2_values: Sequence[float],
    train_sets: set[str],
    free: np.ndarray | None = None,
) -> dict[str, list[list[int]]]:
    """Per variant, each question's candidates best first: "engine" (the order the search
    returned), "current" (by its final score), "hand (linear)", "loro l2=..."."""
    variants = {"engine": [list(range(len(b.hits))) for b in blocks]}
    variants["current"] = [order(b, None) for b in blocks]
    variants["hand (linear)"] = [order(b, start) for b in blocks]
    for l2 in l2_values:
        variants[f"loro l2={l2:g}"] = loro(blocks, start, l2, train_sets, free)
    return variants


def table_of(
    blocks: Sequence[Block], variants: dict[str, list[list[int]]]
) -> dict[str, dict[str, dict[str, float]]]:
    """Per variant, per set: top1, top5, mrr, ndcg, score."""
    sets = sorted({b.set_name for b in blocks})
    out: dict[str, dict[str, dict[str, float]]] = {}
    for variant, ranked in variants.items():
        out[variant] = {}
        for name in sets:
            chosen = [i for i, b in enumerate(blocks) if b.set_name == name]
            out[variant][name] = set_figures(
                [blocks[i] for i in chosen], [ranked[i] for i in chosen]
            )
    return out


def compare(
    blocks: Sequence[Block], start: np.ndarray, l2_values: Sequence[float], train_sets: set[str]
) -> dict[str, dict[str, dict[str, float]]]:
    """Per variant ("engine", "current", "loro l2=..."), per set: top1, top5, mrr, ndcg, score."""
    return table_of(blocks, rankings(blocks, start, l2_values, train_sets))


def breakdown(
    blocks: Sequence[Block], ranked: Sequence[Sequence[int]], field: str
) -> dict[str, float]:
    """The set's score (MRR@10, semble NDCG@10) per "set field-value", mean per question."""
    groups: dict[str, list[float]] = {}
    for b, r in zip(blocks, ranked, strict=True):
        if b.set_name == "mined":
            continue
        key = "ndcg" if b.set_name == "semble" else "mrr"
        name = f"{b.set_name} {getattr(b, field) or '?'}"
        groups.setdefault(name, []).append(question_metrics(b, r)[key])
    return {name: semble.mean(values) for name, values in sorted(groups.items())}


def format_breakdown(
    blocks: Sequence[Block], variants: dict[str, list[list[int]]], field: str
) -> str:
    columns = {v: breakdown(blocks, ranked, field) for v, ranked in variants.items()}
    groups = list(next(iter(columns.values())))
    lines = [f"by {field}: " + " | ".join(columns)]
    for g in groups:
        count = sum(1 for b in blocks if f"{b.set_name} {getattr(b, field) or '?'}" == g)
        cells = " ".join(f"{columns[v][g]:.3f}" for v in columns)
        lines.append(f"  {g:32s} n={count:<4d} {cells}")
    return "\n".join(lines)


def format_compare(
    table: dict[str, dict[str, dict[str, float]]], benchmarked: Sequence[str]
) -> str:
    sets = list(next(iter(table.values())))
    lines = [
        "score = MRR@10 (dev, dev2, mined) or NDCG@10 (semble) of the candidate pool re-ranked; "
        f"mean over {', '.join(benchmarked)}",
        f"{'variant':18s}" + "".join(f" {s:>14s}" for s in sets) + f" {'mean':>7s}",
    ]
    for variant, per in table.items():
        cells = "".join(f" {per[s]['score']:6.3f}/{per[s]['top5']:.2f}t5" for s in sets)
        mean = semble.mean([per[s]["score"] for s in benchmarked if s in per])
        lines.append(f"{variant:18s}{cells} {mean:7.3f}")
    return "\n".join(lines)


def languages(bench: Path) -> dict[str, str]:
    """Repository -> language, from the sets' own corpus lists (mined questions: "?")."""
    found: dict[str, str] = {}
    for name in ("dev", "dev2"):
        if (bench / name / "corpora.json").is_file():
            found.update({c.name: c.language for c in devbench.load_corpora(bench / name)})
    if (bench / "semble-dev").is_dir():
        found.update({r.name: r.language for r in semble.load_repos(bench / "semble-dev")})
    return found


def top_of(records: Sequence[dict[str, Any]], pool: int) -> list[dict[str, Any]]:
    """Each question's candidates cut to the engine's first `pool` (0: all): a re-ranking of
    those, fitted and scored in a fraction of the time."""
    if pool <= 0:
        return list(records)
    return [{**r, "candidates": r["candidates"][:pool]} for r in records]


def run_fit(args: argparse.Namespace) -> int:
    records = top_of(read(args.dump), getattr(args, "pool", 0))
    names = feature_names(records, crossed=getattr(args, "crossed", False))
    bench = getattr(args, "bench", None)
    blocks = blocks_of(records, names, languages(bench) if bench else None)
    start = hand_weights(records, names)
    sets = sorted({b.set_name for b in blocks})
    train_sets = {s for s in sets if not (args.no_mined and s == "mined")}
    benchmarked = [s for s in sets if s != "mined"]  # the labelled sets decide
    # --factors-only: refit the hand-set factors (and the fused score's weight), nothing new
    free = (start != 0).astype(float) if getattr(args, "factors_only", False) else None
    variants = rankings(blocks, start, args.l2 or DEFAULT_L2, train_sets, free)
    table = table_of(blocks, variants)
    if args.weights:
        chosen = [b for b in blocks if b.set_name in train_sets]
        w = fit(chosen, start, (args.l2 or DEFAULT_L2)[0], free=free)
        weights = {n: round(float(v), 4) for n, v in zip(names, w, strict=True)}
        args.weights.write_text(json.dumps(weights, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps({"features": names, "hand": start.tolist(), "table": table}, indent=2))
    else:
        print(format_compare(table, benchmarked))
        print(
            "hand-set weights: "
            + ", ".join(f"{n} {v:+.2f}" for n, v in zip(names, start, strict=True) if v)
        )
        if getattr(args, "breakdown", False):
            for field in ("language", "kind"):
                print(format_breakdown(blocks, variants, field))
    return 0
