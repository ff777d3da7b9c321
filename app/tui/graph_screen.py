"""The call-graph navigator: callers and callees of one symbol by tier, with history, and
the highlighted call's code below them; opened without a symbol it lists the hotspots."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Static

from app.core.literal import literal
from app.core.models import CallLink, SymbolRef, calls_not_read_note, no_hotspots_note
from app.core.paths import is_test_code
from app.service import GraphNotBuilt
from app.tui.graph_rows import GRAPH_BUILDING, call_links, graphs_published, symbol_ref
from app.tui.main_screen import NARROW_BELOW
from app.tui.messages import CallPreviewLoaded, CallsLoaded, HotspotsLoaded, SymbolWalked
from widgets.call_list import CallList
from widgets.code_preview import CodePreview, highlight
from widgets.fitted import Fitted, Part, location_part, name_part
from widgets.footer import FittedFooter
from widgets.symbol_list import SymbolList

if TYPE_CHECKING:
    from app.service import Service

HOTSPOT_COUNT = 40


class GraphScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "close", "Return"),
        Binding("backspace,alt+left", "back", "Back"),
        Binding("alt+right", "forward", "Forward"),
        Binding("t", "toggle_tests", "Tests"),
    ]

    def __init__(self, service: Service, symbol: SymbolRef | None) -> None:
        super().__init__()
        self.service = service
        # None stands for the hotspots list, so walking back from the first symbol reaches it.
        self.history: list[SymbolRef | None] = [symbol]
        self.position = 0
        self.show_tests = False  # callers in tests crowd out the code's own (t shows them)
        self.loaded: CallsLoaded | None = None  # the current symbol's calls, unfiltered
        self.waiting_for_graph = False  # it said the graph is building: load it once built
        self.graphs_seen = 0  # graphs published when the last load began

    @property
    def current(self) -> SymbolRef | None:
        return self.history[self.position]

    def compose(self) -> ComposeResult:
        yield Static(id="graph-title")
        with ContentSwitcher(id="graph-views", initial="graph-calls"):
            with Vertical(id="graph-calls"):
                with Horizontal(id="graph-lists"):
                    yield CallList(id="callers")
                    yield CallList(id="callees")
                yield CodePreview(id="graph-preview")
            yield SymbolList(id="hotspots")
        yield FittedFooter()

    def on_resize(self, event: events.Resize) -> None:
        # A narrow terminal keeps f1 Help in view with fewer spaces between keys.
        self.query_one(Footer).compact = event.size.width < NARROW_BELOW

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
        self.dismiss()  # back to the list it was opened from: the results, or the symbols

    def graph_arrived(self) -> None:
        """A call graph was published: a view that waited for the first one loads it."""
        if self.waiting_for_graph:
            self.waiting_for_graph = False
            self._show_current()

    def _still_building(self) -> bool:
        """A load found no graph: wait for one, unless one was published since it began
        (then load again now)."""
        if graphs_published(self.app) > self.graphs_seen:
            self.call_later(self._show_current)
            return False
        self.waiting_for_graph = True
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The hotspots leave test code out: `t` is offered where it shows or hides callers.
        return action != "toggle_tests" or self.current is not None

    def action_toggle_tests(self) -> None:
        self.show_tests = not self.show_tests
        self._show_title()
        if self.loaded is not None:
            self._show_calls(self.loaded)

    def _show_current(self) -> None:
        symbol = self.current
        self.refresh_bindings()  # `t` comes and goes with the hotspots
        title = self.query_one("#graph-title", Static)
        views = self.query_one("#graph-views", ContentSwitcher)
        if symbol is None:
            title.update(Text("Hotspots: the definitions that carry the code", style="bold"))
            views.current = "hotspots"
            self.query_one("#hotspots", SymbolList).show_message("Loading hotspots…")
            self.graphs_seen = graphs_published(self.app)
            self._load_hotspots()
            return
        self._show_title()
        views.current = "graph-calls"
        self.post_message(SymbolWalked(symbol))  # the preview and f4/ctrl+y follow the walk
        self.loaded = None
        for side in ("#callers", "#callees"):
            self.query_one(side, CallList).show_message("Loading…")
        preview = self.query_one("#graph-preview", CodePreview)
        preview.show_message("The highlighted call's code shows here.")
        preview.border_title = "Code"
        self.graphs_seen = graphs_published(self.app)
        self._load_calls(symbol)

    def _show_title(self) -> None:
        symbol = self.current
        if symbol is None:
            return
        parts = [name_part(literal(symbol.symbol))]
        if symbol.kind:
            parts.append(Part(f"  {literal(symbol.kind)}", "italic"))
        parts += [Part("  "), location_part(symbol.path, f":{symbol.start_line}")]
        if len(self.history) > 1:  # a walk: where in it, so backspace and alt+right read
            step = f"   step {self.position + 1} of {len(self.history)}"
            parts.append(Part(step, "dim", spare=True))
        # The notes give way before the name or the path is cut (the lists' subtitles
        # still count the tests hidden).
        hidden = self._hides_tests()
        note = "tests hidden (t shows them)" if hidden else "tests shown (t hides them)"
        parts.append(Part(f"   {note}", "italic", spare=True))
        line = Fitted([parts])
        self.query_one("#graph-title", Static).update(line)

    def _hides_tests(self) -> bool:
        """Tests are hidden unless asked for, or the symbol is itself test code."""
        symbol = self.current
        return not self.show_tests and not (
            symbol is not None and is_test_code(symbol.path, symbol.kind, symbol.symbol)
        )

    # -- workers -----------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="graph")
    def _load_calls(self, symbol: SymbolRef) -> None:
        try:
            graph = self.service.graph()
            callers = self.service.callers(symbol.graph_id)
            callees = self.service.callees(symbol.graph_id)
        except Exception as error:  # no graph yet, a symbol gone since: said on screen
            building = isinstance(error, GraphNotBuilt)
            self.post_message(CallsLoaded(symbol, [], [], str(error), building=building))
            return

        def kind_of(sid: str) -> str:
            return str(graph.symbols.get(sid, {}).get("kind", ""))

        self.post_message(
            CallsLoaded(
                symbol,
                call_links(callers, "callers", kind_of),
                call_links(callees, "callees", kind_of),
                calls_not_read=callees.calls_not_read,
            )
        )

    @work(thread=True, exclusive=True, group="graph")
    def _load_hotspots(self) -> None:
        try:
            rows = self.service.hotspots(HOTSPOT_COUNT)
            unread = self.service.graph().calls_not_read
        except Exception as error:
            building = isinstance(error, GraphNotBuilt)
            self.post_message(HotspotsLoaded([], str(error), building=building))
            return
        self.post_message(HotspotsLoaded([symbol_ref(row) for row in rows], calls_not_read=unread))

    # -- handlers ----------------------------------------------------------------------------
    @on(CallsLoaded)
    def _show_calls(self, message: CallsLoaded) -> None:
        if message.symbol != self.current:
            return  # the user walked on before this answer came
        self.loaded = message
        callers = self.query_one("#callers", CallList)
        callees = self.query_one("#callees", CallList)
        if message.building and self._still_building():
            callers.show_message(GRAPH_BUILDING)
            callees.show_message("")
            return
        if message.error:
            callers.show_message(f"No call graph to show: {message.error}")
            callees.show_message("")
            return
        unread = calls_not_read_note(message.calls_not_read) if message.calls_not_read else ""
        for calls, links, empty in (
            (callers, message.callers, unread or "Nothing in the index calls this."),
            (callees, message.callees, unread or "This calls nothing in the index."),
        ):
            shown = [link for link in links if not self._hides_tests() or not in_tests(link)]
            hidden = len(links) - len(shown)
            calls.show_links(shown, empty + (f" ({hidden} in tests hidden)" if hidden else ""))
            calls.border_subtitle = f"{calls.resolved_count} resolved" + (
                f" · {hidden} in tests hidden" if hidden else ""
            )
        if callers.resolved_count or not callees.resolved_count:
            callers.focus()
        else:
            callees.focus()
        self._preview_highlighted()

    @on(HotspotsLoaded)
    def _show_hotspots(self, message: HotspotsLoaded) -> None:
        if self.current is not None:
            return
        hotspots = self.query_one("#hotspots", SymbolList)
        if message.building and self._still_building():
            hotspots.show_message(GRAPH_BUILDING)
        elif message.error:
            hotspots.show_message(f"No call graph to show: {message.error}")
        elif not message.symbols:
            hotspots.show_message(no_hotspots_note(message.calls_not_read))
        else:
            hotspots.show_symbols(message.symbols)
        hotspots.focus()

    @on(CallList.CallChosen)
    def _call_chosen(self, message: CallList.CallChosen) -> None:
        if message.link.target is not None:
            self.walk_to(message.link.target)

    @on(CallList.CallUnresolved)
    def _call_unresolved(self, message: CallList.CallUnresolved) -> None:
        link = message.link
        why = link.reason or "no definition found"
        self.notify(
            f"{literal(link.name)} has no definition in the index to walk to: {literal(why)}.",
            markup=False,
        )

    @on(SymbolList.SymbolChosen)
    def _hotspot_chosen(self, message: SymbolList.SymbolChosen) -> None:
        self.walk_to(message.symbol)

    # -- the highlighted call's code ---------------------------------------------------------
    @on(CallList.CallHighlighted)
    def _call_highlighted(self, message: CallList.CallHighlighted) -> None:
        if message.call_list is self.focused:
            self._preview(message.link, message.call_list.id == "callers")

    def on_descendant_focus(self) -> None:
        self._preview_highlighted()

    def _preview_highlighted(self) -> None:
        focused = self.focused
        if isinstance(focused, CallList) and focused.highlighted_link is not None:
            self._preview(focused.highlighted_link, focused.id == "callers")

    def _preview(self, link: CallLink, caller: bool) -> None:
        """A caller shows where it makes the call; a callee shows its definition."""
        target = link.target
        if target is None:  # unresolved: the call's line, and why the graph found no definition
            where = (link.call_path, link.call_line, link.call_line)
            whose = f"in {link.name}" if caller else f"of {link.name}"
            caption = f"the call {whose}, unresolved: {link.reason or 'no definition found'}"
        elif caller:
            where = (link.call_path, link.call_line, link.call_line)
            caption = f"the call in {link.name}" + (f", {link.reason}" if link.reason else "")
        else:
            where = (target.path, target.start_line, target.end_line)
            told = f", an {link.reason}" if link.reason else ""
            caption = f"the definition of {link.name}{told}"
        self._read_preview(*where, caption, self.app.current_theme.dark)

    @work(thread=True, exclusive=True, group="graph-preview")
    def _read_preview(self, path: str, start: int, end: int, caption: str, dark: bool) -> None:
        shown = highlight(path, self.service.source(path), start, end, dark)
        self.post_message(CallPreviewLoaded(shown, caption))

    @on(CallPreviewLoaded)
    def _show_preview(self, message: CallPreviewLoaded) -> None:
        self.query_one("#graph-preview", CodePreview).show(message.highlighted, message.caption)


def in_tests(link: CallLink) -> bool:
    """Whether the other end of a call is test code (a caller in a test, a test helper)."""
    return link.test
