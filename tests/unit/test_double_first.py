"""The rerank factors never push a chunk both retrievers rank first off the list: the thin
penalty may lower it (`return positive_gap(start, end)` only forwards), never bury it."""

from __future__ import annotations

from collections.abc import Callable

from app.search import rerank
from app.search.searcher import DOUBLE_FIRST
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

GAP = (
    "def clamp_gap(start, end):\n"
    '    """The gap between start and end, never negative."""\n'
    "    return positive_gap(start, end)\n"
)
# Functions that share some of the question's words: each ranks below the gap for both
# retrievers, and above it once the x0.6 wrapper penalty applies.
NEIGHBOUR = (
    "def {name}(start, end):\n"
    '    """The {what} between a start and an end."""\n'
    "    value = end - start\n    if value < 0:\n        value = 0\n    return value\n"
)
WHATS = ("span", "distance", "length", "interval", "spacing", "offset", "delta",
         "width", "extent", "range", "stretch", "reach")  # fmt: skip


def test_a_double_first_stays_in_the_list(indexed: Indexed) -> None:
    files = {"util/gap.py": GAP}
    for what in WHATS:
        files[f"util/{what}_between.py"] = NEIGHBOUR.format(name=f"{what}_between", what=what)
    hits = indexed(files).search("the gap between start and end, never negative", k=10).hits
    gap = [h for h in hits if h.symbol == "clamp_gap"]
    assert gap, [h.symbol for h in hits]
    explanation = gap[0].explanation
    assert (explanation.bm25_rank, explanation.vector_rank) == (1, 1)
    factors = {s.name: s.factor for s in explanation.signals}
    assert factors["wrapper"] == rerank.THIN_FACTOR  # still lowered: it only forwards
    assert DOUBLE_FIRST in explanation.signals and hits.index(gap[0]) == len(hits) - 1
