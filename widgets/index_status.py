"""One always-visible line: what the live index is doing and what it holds."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from app.core.events import WorkerStatus
from app.core.literal import literal

BAR = 20


def status_text(status: WorkerStatus) -> Text:
    """State first (a badge), then what the index holds (kept in view while a run works),
    then the run's progress, then what waits: queued changes, a trailing call graph, an
    error. The message and the error name files: their control characters are shown as
    escapes."""
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(f" {status.state} ", style="reverse")
    # A run that has not reported a phase yet (the start-up scan opening the index) is
    # working too: its counts are not known, and "0 files · 0 chunks" read as an empty index.
    working = status.state in ("indexing", "starting") and status.phase != "done"
    if status.files or not working:
        line.append(f"  {status.files} {plural(status.files, 'file')}")
        line.append(f" · {status.chunks} {plural(status.chunks, 'chunk')}")
        if status.vectors_share is not None:
            line.append(f" · vectors {status.vectors_share:.0%}")
    if working:
        line.append(f"  {status.phase}")
        if status.total:
            share = status.done / status.total
            line.append(f" {'━' * int(share * BAR):<{BAR}} {status.done}/{status.total}")
        if status.eta_seconds:
            line.append(f" ~{status.eta_seconds:.0f} s left")
        if status.phase == "embed" and status.files:  # the chunks are published already
            line.append(" · search works meanwhile; vectors sharpen it", style="italic")
        line.append(f"  {literal(status.message)}", style="dim")
    if not status.watching:
        line.append("  ·  not watching")
    elif status.state != "watching":  # the badge says it already
        line.append("  ·  watching files")
    if status.pending:
        changes = plural(status.pending, "change")
        line.append(f" · {status.pending} {changes} pending", style="bold")
    if status.graph_pending:
        line.append(" · call graph updating")
    if status.error:
        line.append(f"  {literal(status.error)}", style="bold")
    return line


def plural(count: int, word: str) -> str:
    return word if count == 1 else f"{word}s"


class IndexStatus(Static):
    """The index's status line, then the answer model's state (`show_answer_model`)."""

    _status: WorkerStatus | None = None
    _answer_model: Text | None = None

    def show_status(self, status: WorkerStatus) -> None:
        self._status = status
        self._show()

    def show_answer_model(self, note: str, *, problem: bool = False) -> None:
        """`note` ("answer model ready") after the index's status; "" removes it."""
        self._answer_model = Text(note, style="bold" if problem else "") if note else None
        self._show()

    def _show(self) -> None:
        line = status_text(self._status) if self._status is not None else Text(no_wrap=True)
        if self._answer_model is not None:
            line.append("  ·  " if line.plain else " ")
            line.append_text(self._answer_model)
        self.update(line)
