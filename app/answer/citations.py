"""Citations: `[n]` markers in the answer, checked against the excerpts the model was given."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.answer.prompt import Excerpt

# `[1]`, `[2][3]`, `[1, 2]` and `[1-3]`; not an index such as `args[0]` or `f()[1]`.
_BRACKET = re.compile(r"(?<![\w).'\"])\[\s*(\d{1,4}(?:\s*[,\-–]\s*\d{1,4})*)\s*\]")
# Code in the answer is not prose: `items[1]` inside backticks cites nothing.
_CODE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.DOTALL)
_RANGE_LIMIT = 50  # a range wider than this is not a citation of excerpts


@dataclass(frozen=True, slots=True)
class Citation:
    """One cited excerpt number; `valid` means the model was given excerpt `n`."""

    n: int
    path: str
    start_line: int
    end_line: int
    symbol: str
    valid: bool

    def as_dict(self) -> dict[str, object]:
        return {
            "n": self.n,
            "path": self.path,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "symbol": self.symbol,
            "valid": self.valid,
        }


def cited_numbers(text: str) -> list[int]:
    """Every excerpt number cited in `text`, in order of first appearance."""
    seen: dict[int, None] = {}
    for match in _BRACKET.finditer(_CODE.sub(" ", text)):
        for piece in re.split(r"\s*,\s*", match.group(1)):
            bounds = [int(x) for x in re.split(r"\s*[\-–]\s*", piece)]
            if len(bounds) == 2 and 0 <= bounds[1] - bounds[0] <= _RANGE_LIMIT:
                bounds = list(range(bounds[0], bounds[1] + 1))
            for n in bounds:
                seen.setdefault(n, None)
    return list(seen)


def check_citations(text: str, excerpts: Sequence[Excerpt]) -> list[Citation]:
    given = {e.n: e for e in excerpts}
    citations = []
    for n in cited_numbers(text):
        excerpt = given.get(n)
        if excerpt is None:
            citations.append(Citation(n, "", 0, 0, "", False))
            continue
        hit = excerpt.hit
        symbol = hit.qualified_name or hit.symbol or hit.kind
        citations.append(Citation(n, hit.path, hit.start_line, hit.end_line, symbol, True))
    return citations


class CitationStream:
    """Checks citations while tokens arrive: `feed` returns the ones completed by a piece."""

    def __init__(self, excerpts: Sequence[Excerpt]) -> None:
        self.excerpts = list(excerpts)
        self.text = ""
        self._reported: set[int] = set()

    def feed(self, piece: str) -> list[Citation]:
        self.text += piece
        tail = self.text
        # A citation still open at the end (`[1` or `[1,`) is completed by a later piece.
        open_at = tail.rfind("[")
        if open_at > tail.rfind("]"):
            tail = tail[:open_at]
        fresh = [c for c in check_citations(tail, self.excerpts) if c.n not in self._reported]
        self._reported.update(c.n for c in fresh)
        return fresh

    def finish(self) -> list[Citation]:
        return check_citations(self.text, self.excerpts)
