"""`repolens-tui-bench fit DUMP`: a linear rerank fitted on the ranker's own signals (listwise
softmax, pulled toward the hand-set factors), scored leave-one-repository-out beside the
current ranking of the same candidates, per set."""

from __future__ import annotations

import argparse
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.bench import semble
from app.bench.signals import read

RRF_K = 60
BASE_FEATURES = ("log_fused", "bm25_rrf", "vector_rrf", "bm25_only", "vector_only")
EXTRA_FEATURES = ("exact-name-held", "kind_method", "kind_class", "log_lines", "example_path")
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

    @property
    def gold(self) -> np.ndarray:
        return np.array([1.0 if h else 0.0 for h in self.hits])


def feature_names(records: Sequence[dict[str, Any]]) -> list[str]:
    """The fixed features, then one per rerank signal name the dump holds."""
    names = sorted({name for r in records for c in r["candidates"] for name, _ in c["signals"]})
    return [*BASE_FEATURES, *names, *EXTRA_FEATURES]


def _row(c: dict[str, Any], index: dict[str, int]) -> np.ndarray:
    x = np.zeros(len(index))
    x[index["log_fused"]] = math.log(max(c["fused"], 1e-12))
    if c["bm25"] is not None:
        x[index["bm25_rrf"]] = RRF_K / (RRF_K + c["bm25"])
    if c["vector"] is not None:
        x[index["vector_rrf"]] = RRF_K / (RRF_K + c["vector"])
    x[index["bm25_only"]] = float(c["bm25"] is not None and c["vector"] is None)
    x[index["vector_only"]] = float(c["vector"] is not None and c["bm25"] is None)
    for name, factor in c["signals"]:
        if factor != 1.0:
            x[index[name]] = 1.0
        elif name == "exact-name":
            x[index["exact-name-held"]] = 1.0
    x[index["kind_method"]] = float(c["kind"] == "method")
    x[index["kind_class"]] = float(c["kind"] in CLASS_KINDS)
    x[index["log_lines"]] = math.log(max(1, c["end"] - c["start"] + 1))
    x[index["example_path"]] = float(bool(_EXAMPLE.search(c["path"])))
    return x


def blocks_of(records: Sequence[dict[str, Any]], names: Sequence[str]) -> list[Block]:
    index = {name: i for i, name in enumerate(names)}
    out = []
    for r in records:
        cands = r["candidates"]
        x = np.array([_row(c, index) for c in cands]) if cands else np.zeros((0, len(names)))
        final = np.array([c["final"] for c in cands])
        hits = [c["hits"] for c in cands]
        out.append(Block(r["set"], r["repo"], r["n_targets"], x, final, hits))
    return out


def hand_weights(records: Sequence[dict[str, Any]], names: Sequence[str]) -> np.ndarray:
    """The current ranker in this space: log(final) = log(fused) + sum of log(factor)."""
    w = np.zeros(len(names))
    w[names.index("log_fused")] = 1.0
    factors: dict[str, list[float]] = {}
    for r in records:
        for c in r["candidates"]:
            for name, factor in c["signals"]:
                if factor != 1.0:
                    factors.setdefault(name, []).append(factor)
    for name, seen in factors.items():
        w[names.index(name)] = math.log(float(np.median(seen)))
    return w


def fit(blocks: Sequence[Block], start: np.ndarray, l2: float, steps: int = STEPS) -> np.ndarray:
    """Listwise softmax over each question's candidates (the gold ones together), every set
    weighted alike, plus l2 * |w - start|^2; Adam from `start`."""
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
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w = w - LEARNING_RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def order(block: Block, w: np.ndarray | None) -> list[int]:
    """Candidate indices best first: by `w`, or (None) by the current ranker's score."""
    score = block.final if w is None else block.x @ w
    return sorted(range(len(block.hits)), key=lambda i: (-score[i], i))


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
    blocks: Sequence[Block], start: np.ndarray, l2: float, train_sets: set[str]
) -> list[list[int]]:
    """Each repository ranked by weights fitted on every other repository."""
    ranked: list[list[int]] = [[] for _ in blocks]
    for repo in sorted({b.repo for b in blocks}):
        train = [b for b in blocks if b.repo != repo and b.set_name in train_sets]
        w = fit(train, start, l2)
        for i, b in enumerate(blocks):
            if b.repo == repo:
                ranked[i] = order(b, w)
    return ranked


def compare(
    blocks: Sequence[Block], start: np.ndarray, l2_values: Sequence[float], train_sets: set[str]
) -> dict[str, dict[str, dict[str, float]]]:
    """Per variant ("current", "loro l2=..."), per set: top1, top5, mrr, ndcg, score."""
    sets = sorted({b.set_name for b in blocks})
    variants = {"current": [order(b, None) for b in blocks]}
    variants["hand (linear)"] = [order(b, start) for b in blocks]
    for l2 in l2_values:
        variants[f"loro l2={l2:g}"] = loro(blocks, start, l2, train_sets)
    out: dict[str, dict[str, dict[str, float]]] = {}
    for variant, ranked in variants.items():
        out[variant] = {}
        for name in sets:
            chosen = [i for i, b in enumerate(blocks) if b.set_name == name]
            out[variant][name] = set_figures(
                [blocks[i] for i in chosen], [ranked[i] for i in chosen]
            )
    return out


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


def run_fit(args: argparse.Namespace) -> int:
    records = read(args.dump)
    names = feature_names(records)
    blocks = blocks_of(records, names)
    start = hand_weights(records, names)
    sets = sorted({b.set_name for b in blocks})
    train_sets = {s for s in sets if not (args.no_mined and s == "mined")}
    benchmarked = [s for s in sets if s != "mined"]  # the labelled sets decide
    table = compare(blocks, start, args.l2 or DEFAULT_L2, train_sets)
    if args.weights:
        w = fit([b for b in blocks if b.set_name in train_sets], start, (args.l2 or DEFAULT_L2)[0])
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
    return 0
