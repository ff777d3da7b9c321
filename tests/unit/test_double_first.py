"""The thin-code penalty never overrules both retrievers: a chunk BM25 and the vectors both
rank first keeps its place (`return max(0, end - start)` reads as a wrapper, and is the answer)."""

from __future__ import annotations

from collections.abc import Callable

from app.search import rerank
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

FILES = {
    "util/gap.py": "def clamp_gap(start, end):\n"
    '    """The gap between start and end, never negative."""\n'
    "    return max(0, end - start)\n",
    "util/spans.py": "def span_length(start, end):\n"
    '    """Length of a span from its start to its end."""\n'
    "    length = end - start\n    if length < 0:\n"
    '        raise ValueError("a span ends before it starts")\n    return length\n',
    "util/ranges.py": "def range_size(first, last):\n"
    '    """How many items lie between first and last."""\n'
    "    size = last - first + 1\n    return size if size > 0 else 0\n",
}


def test_an_exact_double_first_is_not_buried_by_the_wrapper_penalty(indexed: Indexed) -> None:
    hits = indexed(FILES).search("the gap between start and end, never negative").hits
    top = hits[0]
    assert (top.symbol, top.explanation.bm25_rank, top.explanation.vector_rank) == (
        "clamp_gap",
        1,
        1,
    )
    thin = [s for s in top.explanation.signals if s.name == "wrapper"]
    assert [s.factor for s in thin] == [1.0] and "both retrievers rank it first" in thin[0].reason


def test_the_penalty_still_holds_for_any_other_rank() -> None:
    candidate = rerank.Candidate("c", "a.py", "function", "python", 3, False, False, thin="wrapper")
    assert [s.factor for s in rerank.signals_for(candidate)] == [rerank.THIN_FACTOR]
    assert [s.factor for s in rerank.signals_for(candidate, first_in_both=True)] == [1.0]
