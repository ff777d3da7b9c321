"""The call-graph navigator: callers and callees of one symbol by tier, with history;
opened without a symbol it lists the hotspots to start from."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Static

from app.core.literal import literal
from app.core.models import SymbolRef
from app.tui.graph_rows import call_links, symbol_ref
from app.tui.messages import CallsLoaded, HotspotsLoaded, SymbolWalked
from widgets.call_list import CallList
from widgets.symbol_list import SymbolList

if TYPE_CHECKING:
    from app.service import Service

HOTSPOT_COUNT = 40


class GraphScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "close", "Main screen"),
        Binding("backspace,alt+left", "back", "Back"),
        Binding("alt+right", "forward", "Forward"),
    ]

    def __init__(self, service: Service, symbol: SymbolRef | None) -> None:
        super().__init__()
        self.service = service
        # None stands for the hotspots list, so walking back from the first symbol reaches it.
        self.history: list[SymbolRef | None] = [symbol]
        self.position = 0

    @property
    def current(self) -> SymbolRef | None:
        return self.history[self.position]

    def compose(self) -> ComposeResult:
        yield Static(id="graph-title")
        with ContentSwitcher(id="graph-views", initial="graph-calls"):
            with Horizontal(id="graph-calls"):
                yield CallList(id="callers")
                yield CallList(id="callees")
            yield SymbolList(id="hotspots")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#callers", CallList).border_title = "Callers"
        self.query_one("#callees", CallList).border_title = "Callees"
        self.query_one("#hotspots", SymbolList).border_title = "Hotspots"
        self._show_current()

    # -- history -----------------------------------------------------------------------------
    def walk_to(self, symbol: SymbolRef) -> None:
        del self.history[self.position + 1 :]
        self.history.append(symbol)
        self.position += 1
        self._show_current()

    def action_back(self) -> None:
        if self.position > 0:
            self.position -= 1
            self._show_current()

    def action_forward(self) -> None:
        if self.position < len(self.history) - 1:
            self.position += 1
            self._show_current()

    def action_close(self) -> None:
        self.dismiss()

    def _show_current(self) -> None:
        symbol = self.current
        title = self.query_one("#graph-title", Static)
        views = self.query_one("#graph-views", ContentSwitcher)
        if symbol is None:
            title.update(Text("Hotspots: the most central definitions", style="bold"))
            views.current = "hotspots"
            self.query_one("#hotspots", SymbolList).show_message("Loading hotspots…")
            self._load_hotspots()
            return
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append(literal(symbol.symbol), style="bold")
        if symbol.kind:
            line.append(f"  {literal(symbol.kind)}", style="italic")
        line.append(f"  {literal(symbol.path)}:{symbol.start_line}", style="dim")
        line.append(f"   {self.position + 1}/{len(self.history)}", style="dim")
        title.update(line)
        views.current = "graph-calls"
        self.post_message(SymbolWalked(symbol))  # the preview and f4/ctrl+y follow the walk
        for side in ("#callers", "#callees"):
            self.query_one(side, CallList).show_message("Loading…")
        self._load_calls(symbol)

    # -- workers -----------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="graph")
    def _load_calls(self, symbol: SymbolRef) -> None:
        try:
            graph = self.service.graph()
            callers = self.service.callers(symbol.graph_id)
            callees = self.service.callees(symbol.graph_id)
        except Exception as error:  # no graph yet, a symbol gone since: said on screen
            self.post_message(CallsLoaded(symbol, [], [], str(error)))
            return

        def kind_of(sid: str) -> str:
            return str(graph.symbols.get(sid, {}).get("kind", ""))

        self.post_message(
            CallsLoaded(
                symbol,
                call_links(callers, "callers", kind_of),
                call_links(callees, "callees", kind_of),
            )
        )

    @work(thread=True, exclusive=True, group="graph")
    def _load_hotspots(self) -> None:
        try:
            rows = self.service.hotspots(HOTSPOT_COUNT)
        except Exception as error:
            self.post_message(HotspotsLoaded([], str(error)))
            return
        self.post_message(HotspotsLoaded([symbol_ref(row) for row in rows]))

    # -- handlers ----------------------------------------------------------------------------
    @on(CallsLoaded)
    def _show_calls(self, message: CallsLoaded) -> None:
        if message.symbol != self.current:
            return  # the user walked on before this answer came
        callers = self.query_one("#callers", CallList)
        callees = self.query_one("#callees", CallList)
        if message.error:
            callers.show_message(f"No call graph to show: {message.error}")
            callees.show_message("")
            return
        callers.show_links(message.callers, "Nothing in the index calls this.")
        callees.show_links(message.callees, "This calls nothing in the index.")
        callers.border_subtitle = f"{callers.resolved_count} resolved"
        callees.border_subtitle = f"{callees.resolved_count} resolved"
        if callers.resolved_count or not callees.resolved_count:
            callers.focus()
        else:
            callees.focus()

    @on(HotspotsLoaded)
    def _show_hotspots(self, message: HotspotsLoaded) -> None:
        if self.current is not None:
            return
        hotspots = self.query_one("#hotspots", SymbolList)
        if message.error:
            hotspots.show_message(f"No call graph to show: {message.error}")
        elif not message.symbols:
            hotspots.show_message("The call graph has no definitions.")
        else:
            hotspots.show_symbols(message.symbols)
        hotspots.focus()

    @on(CallList.CallChosen)
    def _call_chosen(self, message: CallList.CallChosen) -> None:
        if message.link.target is not None:
            self.walk_to(message.link.target)

    @on(SymbolList.SymbolChosen)
    def _hotspot_chosen(self, message: SymbolList.SymbolChosen) -> None:
        self.walk_to(message.symbol)
