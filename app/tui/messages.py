"""Messages the App's workers post: past events, so handlers own every state change."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from app.core.events import IndexProgress
from app.core.models import Hit


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
    def __init__(self, query: str, reason: str) -> None:
        super().__init__()
        self.query = query
        self.reason = reason


class IndexProgressed(Message):
    """Coalesced: a fast indexer replaces its last unprocessed progress message."""

    def __init__(self, progress: IndexProgress) -> None:
        super().__init__()
        self.progress = progress

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, IndexProgressed)


@dataclass
class IndexSummary:
    files: int
    chunks: int
    vectors: int
    vectors_wanted: int


class IndexFinished(Message):
    def __init__(self, summary: IndexSummary | None, error: str = "") -> None:
        super().__init__()
        self.summary = summary
        self.error = error


class SourceLoaded(Message):
    """The file of the selected hit, read for the preview."""

    def __init__(self, hit: Hit, text: str) -> None:
        super().__init__()
        self.hit = hit
        self.text = text


class AnswerToken(Message):
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
