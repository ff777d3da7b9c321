"""`repolens-tui-bench misses DUMP`: why each question of a `signals` dump misses rank 1, as
recall (no retriever listed the gold), fusion (listed, fused low) or rerank (pushed down)."""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from app.bench.signals import read

HIT = "hit"
RECALL = "recall"  # (a) the gold is in neither retriever's list
FUSION = "fusion"  # (b) listed, but fusion ranked it below rank 1 and rerank did not lower it
RERANK = "rerank"  # (c) the rerank factors put it lower than fusion did
CLASSES = (HIT, RECALL, FUSION, RERANK)


@dataclass(frozen=True, slots=True)
class Miss:
    """One question's best gold candidate: where fusion and the final order put it."""

    set_name: str
    repo: str
    qid: str
    kind: str
    verdict: str
    final_rank: int | None  # 1-based among every candidate; None: no gold candidate at all
    fused_rank: int | None
    bm25_rank: int | None
    vector_rank: int | None
    gold: str  # path:start-end of that candidate, "" when none


def _listed(candidate: dict[str, Any]) -> bool:
    return candidate["bm25"] is not None or candidate["vector"] is not None


def classify(record: dict[str, Any]) -> Miss:
    """The verdict for one dump record, read from its best-ranked listed gold candidate."""
    cands = record["candidates"]
    by_fused = sorted(range(len(cands)), key=lambda i: (-cands[i]["fused"], i))
    fused_rank = {i: rank for rank, i in enumerate(by_fused, 1)}
    gold = [i for i, c in enumerate(cands) if c["hits"]]
    listed = [i for i in gold if _listed(cands[i])]
    best = min(listed or gold, default=None)
    verdict = _verdict(best, fused_rank.get(best) if best is not None else None, bool(listed))
    c = cands[best] if best is not None else None
    return Miss(
        record["set"],
        record["repo"],
        record["id"],
        record["kind"],
        verdict,
        None if best is None else best + 1,
        None if best is None else fused_rank[best],
        None if c is None else c["bm25"],
        None if c is None else c["vector"],
        "" if c is None else f"{c['path']}:{c['start']}-{c['end']}",
    )


def _verdict(best: int | None, fused: int | None, listed: bool) -> str:
    if best == 0:
        return HIT
    if best is None or fused is None or not listed:
        return RECALL
    return RERANK if fused < best + 1 else FUSION


def table(misses: Sequence[Miss], key: str) -> list[dict[str, Any]]:
    """Per value of `key` (set, or set and kind): questions and the share of each verdict."""
    groups: dict[str, list[Miss]] = defaultdict(list)
    for m in misses:
        groups["all" if key == "all" else _key(m, key)].append(m)
    rows = []
    for name in sorted(groups):
        counts = Counter(m.verdict for m in groups[name])
        n = len(groups[name])
        rows.append({"group": name, "n": n, **{v: round(counts[v] / n, 3) for v in CLASSES}})
    return rows


def _key(m: Miss, key: str) -> str:
    return m.set_name if key == "set" else f"{m.set_name} {m.kind}"


def run(args: argparse.Namespace) -> int:
    misses = [classify(r) for r in read(args.dump) if r["set"] != "mined" or args.mined]
    if args.json:
        print(json.dumps([asdict(m) for m in misses], indent=1))
        return 0
    for key in ("set", "kind"):
        print(f"{'group':<28} {'n':>4} " + " ".join(f"{v:>7}" for v in CLASSES))
        for row in table(misses, key):
            print(f"{row['group']:<28} {row['n']:>4} " + " ".join(f"{row[v]:>7}" for v in CLASSES))
        print()
    return 0
