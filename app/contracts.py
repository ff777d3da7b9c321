"""The JSON contracts every front end answers with (the CLI's `--json`, the MCP tools), and
their dump with every character a terminal would act on escaped."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.answer.engine import Answer
    from app.core.models import Hit
    from app.graph.navigate import CallsAnswer
    from app.search.searcher import SearchResult

# json.dumps escapes C0 controls; with ensure_ascii=False it leaves these raw (U+009B is a
# one-character CSI; lone surrogates are undecodable bytes of a file name and cannot print).
_JSON_RAW = re.compile(r"[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def json_text(payload: Any, **options: Any) -> str:
    """`payload` as indented JSON, readable non-ASCII text kept, every character a terminal
    would act on written as a \\u escape: still valid JSON holding the same data."""
    dumped = json.dumps(payload, indent=2, ensure_ascii=False, **options)
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)


def search_json(result: SearchResult, explain: bool) -> dict[str, Any]:
    """`search --json`: the query, the packed hits best first, timings, vectors ready."""
    return {
        "query": result.query,
        "hits": [hit_json(hit, explain) for hit in result.hits],
        "timings_ms": result.timings_ms,
        "vectors_ready": round(result.vectors_ready, 4),
    }


def hit_json(hit: Hit, explain: bool) -> dict[str, Any]:
    """One hit in the `search --json` contract (the README documents it)."""
    data: dict[str, Any] = {
        "path": hit.path,
        "start_line": hit.start_line,
        "end_line": hit.end_line,
        "symbol": hit.qualified_name or hit.symbol,
        "kind": hit.kind,
        "language": hit.language,
        "score": round(hit.score, 6),
        "packed": hit.packed,
        "stale": hit.stale,
        "text": hit.text,
    }
    if explain:
        data["explain"] = explain_json(hit)
    return data


def explain_json(hit: Hit) -> dict[str, Any]:
    e = hit.explanation
    return {
        "bm25_rank": e.bm25_rank,
        "bm25_fields": list(e.bm25_fields),
        "vector_rank": e.vector_rank,
        "vector_by_words": e.vector_by_words,
        "vector_by_owner": e.vector_by_owner,
        "fused_score": round(e.fused_score, 6),
        "signals": [{"name": s.name, "factor": s.factor, "reason": s.reason} for s in e.signals],
        "final_score": round(e.final_score, 6),
    }


def calls_json(answer: CallsAnswer, direction: str) -> dict[str, Any]:
    """`callers --json` / `callees --json`: `direction` is "callers" or "callees"."""
    return {
        "symbol": answer.symbol,
        direction: [entry.as_json() for entry in answer.entries],
        "unresolved": list(answer.unresolved),
        "hidden_tests": answer.hidden_tests,
        "calls_not_read": answer.calls_not_read,
    }


def answer_json(answer: Answer) -> dict[str, Any]:
    """`ask --json`: the answer, its checked citations, the excerpts it read, timings."""
    return {
        "answer": answer.text,
        "citations": [c.as_dict() for c in answer.citations],
        "context": [hit_json(hit, False) for hit in answer.context],
        "grounded": answer.grounded,
        "timings_ms": answer.timings_ms,
    }
