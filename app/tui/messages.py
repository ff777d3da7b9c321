"""Messages the App's workers post: past events, so handlers own every state change."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from textual.app import App
from textual.message import Message

from app.core.events import WorkerStatus
from app.core.models import CallLink, Hit, SymbolRef
from widgets.code_preview import Highlighted

AppT = TypeVar("AppT", bound=App[Any])
MessageT = TypeVar("MessageT", bound=Message)


def while_open(
    handler: Callable[[AppT, MessageT], None],
) -> Callable[[AppT, MessageT], None]:
    """A worker's message handled only while the app shows a screen: one sent just before the
    app closed arrives after its screens are gone, and there is nothing left to update."""

    @functools.wraps(handler)
    def handle(app: AppT, message: MessageT) -> None:
        if app.screen_stack:
            handler(app, message)

    return handle


class HitsReady(Message):
    """A search finished; `generation` lets the App drop answers to outdated queries."""

    def __init__(
        self, query: str, hits: list[Hit], timings_ms: dict[str, float], generation: int
    ) -> None:
        super().__init__()
        self.query = query
        self.hits = hits
        self.timings_ms = timings_ms
        self.generation = generation


class SearchFailed(Message):
    """A search ended without results: an error (`reason`), or a newer query replaced it."""

    def __init__(self, query: str, reason: str, *, superseded: bool = False) -> None:
        super().__init__()
        self.query = query
        self.reason = reason
        self.superseded = superseded


class IndexStatusChanged(Message):
    """The live index's latest status; coalesced like progress (only the newest matters)."""

    def __init__(self, status: WorkerStatus) -> None:
        super().__init__()
        self.status = status

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, IndexStatusChanged)


class SourceLoaded(Message):
    """A file read and highlighted for the preview, around the chunk or symbol chosen;
    `why`: for a hit, why it ranks where it does (one line)."""

    def __init__(self, text: str, highlighted: Highlighted, why: str = "") -> None:
        super().__init__()
        self.text = text
        self.highlighted = highlighted
        self.why = why


class SymbolOpened(Message):
    """The symbol browser chose a definition: show it in the preview and open its graph."""

    def __init__(self, symbol: SymbolRef) -> None:
        super().__init__()
        self.symbol = symbol


class SymbolWalked(Message):
    """The call-graph navigator moved to a definition: the preview follows it."""

    def __init__(self, symbol: SymbolRef) -> None:
        super().__init__()
        self.symbol = symbol


class SymbolsFound(Message):
    """A fuzzy symbol search finished; `generation` drops answers to outdated queries;
    `building`: there is no call graph yet, the index run is still to build it."""

    def __init__(
        self,
        symbols: list[SymbolRef],
        generation: int,
        error: str = "",
        *,
        building: bool = False,
        empty: str = "No symbol matches.",
    ) -> None:
        super().__init__()
        self.symbols = symbols
        self.generation = generation
        self.error = error
        self.building = building
        self.empty = empty  # what the list says when `symbols` is empty


class CallsLoaded(Message):
    """Callers and callees of one symbol, or `error` when the graph cannot answer
    (`building`: there is no call graph yet)."""

    def __init__(
        self,
        symbol: SymbolRef | None,
        callers: list[CallLink],
        callees: list[CallLink],
        error: str = "",
        *,
        building: bool = False,
        calls_not_read: str = "",
    ) -> None:
        super().__init__()
        self.symbol = symbol
        self.callers = callers
        self.callees = callees
        self.error = error
        self.building = building
        self.calls_not_read = calls_not_read  # the symbol's language, when its calls are unread


class HotspotsLoaded(Message):
    def __init__(
        self,
        symbols: list[SymbolRef],
        error: str = "",
        *,
        building: bool = False,
        calls_not_read: list[str] | None = None,
    ) -> None:
        super().__init__()
        self.symbols = symbols
        self.error = error
        self.building = building
        self.calls_not_read = calls_not_read or []  # languages that are never hotspots


class AnswerShown(Message):
    """The answer as far as it may be shown: it grows as the model writes, and takes back a
    sentence that fails its checks (app.answer.shown)."""

    def __init__(self, text: str, generation: int) -> None:
        super().__init__()
        self.text = text
        self.generation = generation


class AnswerFinished(Message):
    """`answer` is app.answer.engine.Answer, or None with `error` set."""

    def __init__(self, answer: object | None, generation: int, error: str = "") -> None:
        super().__init__()
        self.answer = answer
        self.generation = generation
        self.error = error


class CallPreviewLoaded(Message):
    """The code of the call highlighted in the graph navigator, read and highlighted;
    `caption` says what it shows (a call site or a definition)."""

    def __init__(self, highlighted: Highlighted, caption: str) -> None:
        super().__init__()
        self.highlighted = highlighted
        self.caption = caption


class AnswerContext(Message):
    """The excerpts the answer reads (excerpt n is `hits[n - 1]`), before the model starts."""

    def __init__(self, hits: list[Hit], generation: int) -> None:
        super().__init__()
        self.hits = hits
        self.generation = generation


class AnswerProgress(Message):
    """The model has read `done` of the `total` prompt tokens it must read."""

    def __init__(self, done: int, total: int, generation: int) -> None:
        super().__init__()
        self.done = done
        self.total = total
        self.generation = generation


class AnswerModelChanged(Message):
    """The answer model's state changed (app.answer.engine: loading, ready, failed, cold);
    `error` says why it failed."""

    def __init__(self, state: str, error: str = "") -> None:
        super().__init__()
        self.state = state
        self.error = error


class AnswerPrepared(Message):
    """The prompt for `query` was read into the answer model's cache (`tokens` of it)."""

    def __init__(self, query: str, tokens: int) -> None:
        super().__init__()
        self.query = query
        self.tokens = tokens
