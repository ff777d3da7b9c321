"""One always-visible line: what the live index is doing and what it holds."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from app.core.events import WorkerStatus
from app.core.literal import literal

# What a run is doing, in words, by its phase (a run that has not reported one yet is the
# start-up scan or an update opening the index).
_DOING = {
    "": "checking files",
    "repair": "repairing the index",
    "walk": "checking files",
    "parse": "reading files",
    "write": "writing chunks",
    "graph": "resolving calls",
    "embed": "adding vectors",
}


def status_text(status: WorkerStatus) -> Text:
    """One thing at a time, short enough for 80 columns beside the answer model's note: the
    state (a badge), then what the index is doing (and that search works meanwhile, once an
    index is published), or, when idle, what it holds; then a problem or queued changes.
    An error names files: its control characters are shown as escapes."""
    line = Text(no_wrap=True, overflow="ellipsis")
    working = status.state in ("indexing", "starting") and status.phase != "done"
    badge = "ready" if status.state == "watching" else status.state
    line.append(f" {badge} ", style="reverse")
    if status.error:
        line.append(f"  {literal(status.error)}", style="bold")
        return line
    if working:
        line.append(f"  {_doing(status)}")
        if status.files:  # an index is published: searches use it meanwhile
            line.append(" · search works", style="italic")
    else:
        line.append(f"  {status.files} {plural(status.files, 'file')}")
        line.append(f" · {status.chunks} {plural(status.chunks, 'chunk')}")
        line.append(_trailing(status))
    if status.pending:
        line.append(f" · {status.pending} queued", style="bold")
    if not status.watching and status.state not in ("stopped", "starting"):
        line.append(" · not watching")
    return line


def _trailing(status: WorkerStatus) -> str:
    """What trails the published chunks, unless changes wait (they are said instead)."""
    if status.pending:
        return ""
    if status.vectors_share is not None and status.vectors_share < 1:
        return f" · vectors {status.vectors_share:.0%}"
    return " · call graph pending" if status.graph_pending else ""


def _doing(status: WorkerStatus) -> str:
    """The run's work in words, with its progress when it counts files or chunks; the time
    left only for the first run, the one wait that search cannot bridge."""
    first = not status.files
    if first and status.phase in ("", "walk", "parse", "write"):
        doing = "building the index"
    else:
        doing = _DOING.get(status.phase, status.phase)
    if status.phase in ("parse", "embed") and status.total:
        doing += f" {status.done / status.total:.0%}"
    if first and status.eta_seconds:
        doing += f" ~{status.eta_seconds:.0f} s"
    return doing


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
            line.append(" · " if line.plain else " ")
            line.append_text(self._answer_model)
        self.update(line)
