"""Questions the call graph answers ("what does X call", "who calls X"): their form, and the
neighbours that join the ranking with them."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from app.core.models import Signal
from app.search.tokenize import as_dotted

CALLERS = "callers"
CALLEES = "callees"
# A neighbour of at least this confidence (the probable tier) is lifted among the top hits:
# an uncertain edge (an ambiguous name) is as likely wrong as right.
LIFT_CONFIDENCE = 0.7

# A name in any member syntax the query parser knows (`A::b`, `A#b`, `A.b`, `$a->b`), with
# optional backticks and an argument list (`randomSample(count:using:)`, `send()`).
_NAME = r"`?(?P<name>[A-Za-z_$][\w$]*(?:(?:::|->|#|\\|\.)[A-Za-z_$][\w$]*)*)(?:\([^)]*\))?`?"
_END = r"\s*[?.!]?\s*$"
_FORMS = (
    (CALLEES, rf"^\s*what\s+(?:\w+\s+)?(?:does|do)\s+{_NAME}\s+(?:call|invoke){_END}"),
    (CALLEES, rf"^\s*(?:the\s+)?(?:callees|calls)\s+(?:of|from|made\s+by)\s+{_NAME}{_END}"),
    (CALLEES, rf"^\s*what\s+(?:is|gets|are)\s+called\s+(?:by|from)\s+{_NAME}{_END}"),
    (CALLERS, rf"^\s*(?:who|what|which\s+\w+)\s+calls?\s+{_NAME}{_END}"),
    (CALLERS, rf"^\s*where\s+(?:is|are)\s+{_NAME}\s+(?:called|used|invoked){_END}"),
    (CALLERS, rf"^\s*(?:the\s+)?callers\s+of\s+{_NAME}{_END}"),
)
_PATTERNS = tuple((direction, re.compile(form, re.IGNORECASE)) for direction, form in _FORMS)


@dataclass(frozen=True, slots=True)
class CallQuestion:
    direction: str  # CALLERS or CALLEES
    name: str  # as `Owner.member` (`App._process`, `Hashie.Mash.custom_writer`) or bare


@dataclass(frozen=True, slots=True)
class Definition:
    """Where a definition is, as the call graph knows it."""

    path: str
    qualified_name: str
    start_line: int
    end_line: int


@dataclass(frozen=True, slots=True)
class Neighbour:
    definition: Definition
    tier: str
    confidence: float


@dataclass(frozen=True, slots=True)
class CallAnswer:
    """The definitions the question names, and their callers or callees."""

    question: CallQuestion
    targets: tuple[Definition, ...]
    neighbours: tuple[Neighbour, ...]


CallGraph = Callable[[CallQuestion], CallAnswer | None]


def question_of(query: str) -> CallQuestion | None:
    """The call-graph question `query` asks, if it has one of the forms above."""
    for direction, pattern in _PATTERNS:
        match = pattern.match(query)
        if match:
            return CallQuestion(direction, as_dotted(match.group("name")).lstrip("$"))
    return None


def lifted_score(top: float, confidence: float, fused: float) -> float:
    """A lifted neighbour's score before its other signals: above the best hit, ordered by
    the edge's confidence, then by what the retrievers thought of it (`fused` < 0.05, below
    one confidence step)."""
    return top * (1.0 + confidence + fused)


def signal(answer: CallAnswer, neighbour: Neighbour, factor: float) -> Signal:
    """What --explain says of a lifted neighbour."""
    names = ", ".join(f"`{target.qualified_name}`" for target in answer.targets)
    how = "called by" if answer.question.direction == CALLEES else "calls"
    reason = f"{how} {names} ({neighbour.tier}, {neighbour.confidence:.2f})"
    return Signal("called-by" if answer.question.direction == CALLEES else "calls", factor, reason)
