"""The symbol browser: a fuzzy finder over every definition; Enter opens one's call graph
above it, so leaving the graph comes back to the list as it was."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input

from app.core.models import no_hotspots_note
from app.service import GraphNotBuilt
from app.tui.graph_rows import GRAPH_BUILDING, graphs_published, symbol_ref
from app.tui.messages import SymbolOpened, SymbolsFound
from widgets.footer import FittedFooter
from widgets.symbol_list import SymbolList

if TYPE_CHECKING:
    from app.service import Service

SYMBOL_LIMIT = 100
EMPTY_QUERY_HOTSPOTS = 30


class SymbolScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("enter", "open_highlighted", "Open", priority=True),
        Binding("down", "cursor_down", "Down", show=False),
        Binding("up", "cursor_up", "Up", show=False),
    ]

    def __init__(self, service: Service) -> None:
        super().__init__()
        self.service = service
        self.generation = 0
        self.waiting_for_graph = False  # it said the graph is building: search once built
        self.graphs_seen = 0  # graphs published when the last search began

    def compose(self) -> ComposeResult:
        with Vertical(id="symbol-browser"):
            yield Input(
                placeholder="Find a symbol… (kind:class, lang:python narrow it)", id="symbol-query"
            )
            yield SymbolList(id="symbol-list")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.query_one("#symbol-browser").border_title = "Symbols"
        self.query_one("#symbol-list", SymbolList).show_message("Loading the call graph…")
        self._find()

    @on(Input.Changed, "#symbol-query")
    def _query_changed(self, event: Input.Changed) -> None:
        self._find()

    def _find(self) -> None:
        """Search the graph for what the field holds (the hotspots while it is empty)."""
        self.generation += 1
        self.graphs_seen = graphs_published(self.app)
        self._search(self.query_one("#symbol-query", Input).value.strip(), self.generation)

    @work(thread=True, exclusive=True, group="symbols")
    def _search(self, query: str, generation: int) -> None:
        empty = "No symbol matches."
        try:
            if query:
                rows = self.service.symbol(query, SYMBOL_LIMIT)
            else:
                rows = self.service.hotspots(EMPTY_QUERY_HOTSPOTS)
                empty = no_hotspots_note(self.service.graph().calls_not_read)
        except Exception as error:  # no index, no graph yet: said in the list
            building = isinstance(error, GraphNotBuilt)
            self.post_message(SymbolsFound([], generation, str(error), building=building))
            return
        found = [symbol_ref(row) for row in rows]
        self.post_message(SymbolsFound(found, generation, empty=empty))

    @on(SymbolsFound)
    def _show_symbols(self, message: SymbolsFound) -> None:
        if message.generation != self.generation:
            return
        found = self.query_one("#symbol-list", SymbolList)
        if message.building:
            if graphs_published(self.app) > self.graphs_seen:  # one came meanwhile: search it
                self._find()
                return
            self.waiting_for_graph = True
            found.show_message(GRAPH_BUILDING)
            self.query_one("#symbol-browser").border_subtitle = ""
            return
        if message.error:
            found.show_message(f"No call graph: {message.error}")
        elif not message.symbols:
            found.show_message(message.empty)
        else:
            found.show_symbols(message.symbols)
        # On the browser's border (the list has none): how many, and before a name is typed,
        # which ones, since the list does not say it by itself.
        browser = self.query_one("#symbol-browser")
        if self.query_one("#symbol-query", Input).value.strip():
            browser.border_subtitle = f"{len(message.symbols)} shown"
        elif not message.symbols:
            browser.border_subtitle = "type a name to find any"
        else:
            browser.border_subtitle = f"the {len(message.symbols)} most central; type to find any"

    @on(SymbolList.SymbolChosen)
    def _symbol_chosen(self, message: SymbolList.SymbolChosen) -> None:
        self.app.post_message(SymbolOpened(message.symbol))

    def action_open_highlighted(self) -> None:
        symbol = self.query_one("#symbol-list", SymbolList).highlighted_symbol
        if symbol is not None:
            self.app.post_message(SymbolOpened(symbol))

    def action_cursor_down(self) -> None:
        self.query_one("#symbol-list", SymbolList).action_cursor_down()

    def action_cursor_up(self) -> None:
        self.query_one("#symbol-list", SymbolList).action_cursor_up()

    def action_close(self) -> None:
        self.dismiss()

    def graph_arrived(self) -> None:
        """A call graph was published: if the list waited for the first one, it fills now."""
        if self.waiting_for_graph:
            self.waiting_for_graph = False
            self._find()
