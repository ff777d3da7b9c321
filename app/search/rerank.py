"""Explicit rerank signals applied to fused scores; each one says what it did and why."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.core.models import Signal

TEST_FACTOR = 0.5  # tests mention everything they exercise, so they outrank the implementation
PROSE_FACTOR = 0.7  # docs describe a feature; people asking "where" want the code
GLUE_FACTOR = 0.75  # imports and module-level statements rarely answer a question
TINY_FACTOR = 0.8  # a one- or two-line chunk carries too little to be the answer
WRAPPER_FACTOR = 0.6  # a body that is one call forwards to the code that does the work
DECLARATION_FACTOR = 0.8  # interfaces and type aliases describe shapes, not behaviour
DECLARATION_KINDS = frozenset({"interface", "type"})
# The query names this definition exactly (an identifier such as `parse_url` or `getUser`):
# fusion by rank alone lets a loose match found by both retrievers beat it.
EXACT_NAME_FACTOR = 3.0  # flat: scaling it down for common names measured worse (README)


@dataclass(frozen=True, slots=True)
class Candidate:
    """What the reranker reads about one chunk."""

    chunk_id: str
    path: str
    kind: str
    language: str
    line_count: int
    is_test: bool
    is_prose: bool
    delegates: bool = False
    name: str = ""  # the chunk's symbol name, lower-cased ("" for glue and text windows)


def signals_for(candidate: Candidate, named: Mapping[str, int] | None = None) -> list[Signal]:
    """`named`: identifiers the query spells out (lower-cased), with how many chunks define
    each (shown in the reason: a name defined in many places may point elsewhere)."""
    found: list[Signal] = []
    definitions = (named or {}).get(candidate.name, 0) if candidate.name else 0
    if definitions:
        reason = f"the query names `{candidate.name}` ({definitions} definition(s) by that name)"
        found.append(Signal("exact-name", EXACT_NAME_FACTOR, reason))
    if candidate.is_test:
        found.append(Signal("test", TEST_FACTOR, "chunk is in a test file"))
    if candidate.is_prose:
        found.append(Signal("prose", PROSE_FACTOR, "chunk is documentation, not code"))
    if candidate.kind == "glue":
        found.append(Signal("glue", GLUE_FACTOR, "module-level glue between definitions"))
    if candidate.delegates:
        found.append(Signal("wrapper", WRAPPER_FACTOR, "its body only forwards to another call"))
    if candidate.kind in DECLARATION_KINDS:
        found.append(Signal("declaration", DECLARATION_FACTOR, f"a {candidate.kind} declaration"))
    if candidate.line_count <= 2:
        found.append(Signal("tiny", TINY_FACTOR, f"only {candidate.line_count} line(s)"))
    return found


def apply(score: float, signals: list[Signal]) -> float:
    for signal in signals:
        score *= signal.factor
    return score
