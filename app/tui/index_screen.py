"""The index detail view (f6): what the live index is doing, which changes wait for it, and
every file it skipped with the reason, read in a worker thread."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from app.core.events import WorkerStatus
from app.core.literal import literal
from widgets.footer import FittedFooter
from widgets.index_status import status_text

if TYPE_CHECKING:
    from app.service import Service

MAX_ROWS = 5_000  # a table this long is already more than anyone scrolls; the CLI lists all
PENDING_SHOWN = 5


class IndexDetailsLoaded(Message):
    def __init__(
        self,
        skipped: list[dict[str, str]],
        pending: dict[str, list[str]],
        details: dict[str, Any],
    ) -> None:
        super().__init__()
        self.skipped = skipped
        self.pending = pending
        self.details = details


class IndexDetailsFailed(Message):
    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


def summary_text(status: WorkerStatus | None) -> Text:
    text = Text()
    if status is None:
        return text.append("The indexer has not reported yet.", style="dim")
    text.append_text(status_text(status))
    if status.last_update:
        text.append(f"\nlast run: {literal(status.last_update)}", style="dim")
    if status.error:
        text.append(f"\nerror: {literal(status.error)}", style="bold")
    return text


def where_text(details: dict[str, Any]) -> Text:
    """Where the index lives, which models it uses, and the call graph's state."""
    text = Text()
    rows = [
        ("index", literal(details["index_dir"])),
        (
            "embedding model",
            f"{literal(details['embedding_model'])} ({details['embedding_max_tokens']} wordpieces)",
        ),
        ("answer model", literal(details["answer_model"])),
        ("call graph", graph_state(details["graph"])),
    ]
    for label, value in rows:
        text.append(f"{label}: ", style="bold")
        text.append(f"{value}\n")
    text.rstrip()
    return text


def graph_state(graph: dict[str, Any]) -> str:
    if not graph["built"] and graph.get("not_yet"):
        return "building: the calls are resolved after the files are read (search works)"
    if not graph["built"]:
        return f"not built: {literal(graph['reason'])}"
    state = (
        f"built · {graph['definitions']:,} definitions · {graph['edges']:,} resolved calls"
        f" · {graph['unresolved']:,} unresolved"
    )
    if graph["pending_files"]:
        state += f" · {graph['pending_files']:,} files not yet caught up"
    return state


def pending_text(pending: dict[str, list[str]]) -> Text:
    text = Text()
    waiting = {kind: paths for kind, paths in pending.items() if paths}
    if not waiting:
        return text.append("No changes wait for the index.")
    for kind, paths in waiting.items():
        shown = ", ".join(literal(path) for path in paths[:PENDING_SHOWN])
        more = f" and {len(paths) - PENDING_SHOWN} more" if len(paths) > PENDING_SHOWN else ""
        text.append(f"{len(paths)} {kind}: ", style="bold")
        text.append(f"{shown}{more}\n")
    return text


def skipped_text(skipped: list[dict[str, str]]) -> Text:
    if not skipped:
        return Text("No file was skipped.")
    counts = Counter(row["reason"] for row in skipped)
    text = Text(f"{len(skipped)} files skipped: ", style="bold")
    text.append(", ".join(f"{literal(reason)} {count}" for reason, count in counts.most_common()))
    if len(skipped) > MAX_ROWS:
        text.append(
            f"\nThe first {MAX_ROWS:,} are listed; `repolens-tui stats PATH --json` lists all.",
            style="dim",
        )
    return text


class IndexScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f6,q", "close", "Close")]

    def __init__(self, service: Service, status: WorkerStatus | None) -> None:
        super().__init__()
        self.service = service
        self.status = status

    def compose(self) -> ComposeResult:
        with Vertical(id="index-details"):
            yield Static(summary_text(self.status), id="index-summary")
            yield Static("Reading where the index lives…", id="index-where")
            yield Static("Looking for changes…", id="index-pending")
            yield Static("Reading the list of skipped files…", id="skipped-summary")
            yield DataTable(id="skipped", cursor_type="row", zebra_stripes=True)
        yield FittedFooter()

    def on_mount(self) -> None:
        self.query_one("#index-details", Vertical).border_title = "Index"
        self._load()

    @work(thread=True, exclusive=True, group="index-details")
    def _load(self) -> None:
        try:
            skipped = sorted(self.service.skipped(), key=lambda r: (r["reason"], r["path"]))
            pending = self.service.pending_changes()
            details = self.service.details()
        except Exception as error:  # no index yet, or it cannot be read: say so
            self.post_message(IndexDetailsFailed(str(error)))
            return
        self.post_message(IndexDetailsLoaded(skipped, pending, details))

    @on(IndexDetailsLoaded)
    def _show(self, message: IndexDetailsLoaded) -> None:
        self.query_one("#index-where", Static).update(where_text(message.details))
        self.query_one("#index-pending", Static).update(pending_text(message.pending))
        self.query_one("#skipped-summary", Static).update(skipped_text(message.skipped))
        table = self.query_one("#skipped", DataTable)
        table.clear(columns=True)  # read again when the call graph arrives
        rows = message.skipped[:MAX_ROWS]
        for column, most in (("path", 80), ("reason", 20), ("detail", 60)):
            # Widths from the rows themselves: auto widths can settle on the headers alone.
            longest = max((len(literal(row[column] or "")) for row in rows), default=0)
            table.add_column(column, width=min(max(longest, len(column)), most))
        # Text cells: a path such as `[bold].py` is shown as written, never as markup.
        table.add_rows(
            tuple(Text(literal(row[column] or "")) for column in ("path", "reason", "detail"))
            for row in rows
        )

    @on(IndexDetailsFailed)
    def _failed(self, message: IndexDetailsFailed) -> None:
        self.query_one("#index-where", Static).update("")
        self.query_one("#index-pending", Static).update("")
        self.query_one("#skipped-summary", Static).update(
            Text(literal(message.reason), style="bold")
        )

    def graph_arrived(self) -> None:
        """A call graph was published: the details say what it holds now."""
        self._load()

    def update_status(self, status: WorkerStatus) -> None:
        self.status = status
        self.query_one("#index-summary", Static).update(summary_text(status))

    def action_close(self) -> None:
        self.dismiss()
