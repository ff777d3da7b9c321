"""The help screen (f1): every key of every screen, read from the bindings themselves so it
cannot drift from what the keys do."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

EXTRA_KEYS = [  # keys that belong to Textual's own widgets or to text input
    ("Everywhere", "ctrl+p", "Command palette: every action by name"),
    ("Lists", "j / k, up / down", "Move"),
    (
        "Ranked chunks",
        "enter / click",
        "A definition: its call graph; other text: its code, maximized",
    ),
    ("Everywhere", "tab / shift+tab", "Next / previous pane (then f11 maximizes it)"),
    ("Search field", "enter", "Ask the local model about the question"),
]


def shown_keys(bindings: Iterable[BindingType]) -> list[BindingType]:
    """A widget's keys that its footer shows (its j/k are the Lists row's)."""
    return [b for b in bindings if not isinstance(b, Binding) or b.show]


def key_rows(sections: Iterable[tuple[str, Iterable[BindingType]]]) -> list[tuple[str, str, str]]:
    rows = []
    for section, bindings in sections:
        for binding in bindings:
            if isinstance(binding, Binding) and binding.description:
                rows.append((section, binding.key.replace(",", " / "), binding.description))
    return rows + EXTRA_KEYS


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1,q", "close", "Close")]

    def __init__(self, sections: Iterable[tuple[str, Iterable[BindingType]]]) -> None:
        super().__init__()
        self.rows = key_rows(sections)

    def compose(self) -> ComposeResult:
        table = Table(title="repolens keys", expand=True, show_edge=False)
        for column in ("where", "key", "what it does"):
            table.add_column(column)
        for row in self.rows:
            table.add_row(*row)
        with VerticalScroll(id="help"):
            yield Static(table)
            yield Static("Escape closes this screen.", classes="hint")

    def action_close(self) -> None:
        self.dismiss()
