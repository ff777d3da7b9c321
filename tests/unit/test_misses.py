"""`misses` tells a recall failure from a fusion one and from a rerank one, on dumped records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.bench import misses
from app.bench.cli import build_parser


def _cand(path: str, bm25: int | None, vector: int | None, fused: float, gold: bool) -> dict:
    return {
        "path": path,
        "start": 1,
        "end": 9,
        "kind": "function",
        "bm25": bm25,
        "vector": vector,
        "fused": fused,
        "final": fused,
        "signals": [],
        "hits": [0] if gold else [],
    }


def _record(qid: str, kind: str, candidates: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "set": "dev2",
        "repo": "r",
        "id": qid,
        "kind": kind,
        "n_targets": 1,
        "candidates": candidates,
    }


NO_ID = "no-identifier"
HIT = _record("q1", "api-name", [_cand("a", 1, 1, 0.03, True), _cand("b", 2, 3, 0.02, False)])
# The gold joined by name only: neither retriever listed it.
RECALL = _record("q2", NO_ID, [_cand("a", 1, 1, 0.03, False), _cand("g", None, None, 0.006, True)])
# Listed by BM25 alone at 2: fused below a chunk both lists hold, and left there.
FUSION = _record("q3", NO_ID, [_cand("a", 5, 4, 0.031, False), _cand("g", 2, None, 0.016, True)])
# Fused first, then a factor (a thin wrapper, say) put it second.
RERANK = _record("q4", "conceptual", [_cand("a", 2, 2, 0.03, False), _cand("g", 1, 1, 0.032, True)])


def test_each_kind_of_miss_is_told_apart() -> None:
    verdicts = [misses.classify(r).verdict for r in (HIT, RECALL, FUSION, RERANK)]
    assert verdicts == [misses.HIT, misses.RECALL, misses.FUSION, misses.RERANK]
    found = misses.classify(FUSION)
    ranks = (found.final_rank, found.fused_rank, found.bm25_rank, found.vector_rank)
    assert ranks == (2, 2, 2, None)
    assert misses.classify(RERANK).fused_rank == 1 and misses.classify(RERANK).final_rank == 2
    nothing = _record("q5", "api-name", [_cand("a", 1, 1, 0.03, False)])
    assert misses.classify(nothing).verdict == misses.RECALL
    assert misses.classify(nothing).final_rank is None


def test_the_shares_are_per_set_and_per_kind(tmp_path: Path, capsys: Any) -> None:
    dump = tmp_path / "dump.jsonl"
    records = [HIT, RECALL, FUSION, RERANK]
    dump.write_text("".join(json.dumps(r) + "\n" for r in records))
    rows = misses.table([misses.classify(r) for r in records], "kind")
    no_id = next(row for row in rows if row["group"] == "dev2 no-identifier")
    assert no_id["n"] == 2 and no_id[misses.RECALL] == 0.5 and no_id[misses.FUSION] == 0.5
    args = build_parser().parse_args(["misses", str(dump)])
    assert args.run(args) == 0
    out = capsys.readouterr().out
    assert "dev2 no-identifier" in out and "0.25" in out  # each verdict 1 of the 4 in dev2
