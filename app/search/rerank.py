"""Explicit rerank signals applied to fused scores; each one says what it did and why."""

from __future__ import annotations

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
EXACT_NAME_FACTOR = 3.0


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


def signals_for(candidate: Candidate, named: frozenset[str] = frozenset()) -> list[Signal]:
    """`named`: identifiers the query spells out, lower-cased."""
    found: list[Signal] = []
    if candidate.name and candidate.name in named:
        found.append(Signal("exact-name", EXACT_NAME_FACTOR, f"the query names `{candidate.name}`"))
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
