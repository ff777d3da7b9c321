"""The Textual App: workers call the service in threads; handlers own every state change."""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, on, work
from textual.app import App, SuspendNotSupported, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from app.answer.engine import MODEL_LOADING
from app.core.events import WorkerStatus
from app.core.leave import exit_now_if_busy
from app.core.literal import literal
from app.core.models import DEFINITION_KINDS, Hit, SymbolRef
from app.tui import state
from app.tui.answer_view import (
    READING,
    answer_body,
    brief_markdown,
    citation_lines,
    model_note,
    progress_markdown,
)
from app.tui.editor import editor_command, run_editor
from app.tui.graph_screen import GraphScreen
from app.tui.index_screen import IndexScreen
from app.tui.main_screen import MainScreen
from app.tui.messages import (
    AnswerContext,
    AnswerFinished,
    AnswerModelChanged,
    AnswerPrepared,
    AnswerProgress,
    AnswerShown,
    HitsReady,
    IndexStatusChanged,
    SearchFailed,
    SourceLoaded,
    SymbolOpened,
    SymbolWalked,
    while_open,
)
from app.tui.search_flow import SearchFlow, SearchRequest
from app.tui.symbol_screen import SymbolScreen
from themes import DEFAULT_THEME, THEMES
from widgets.answer_pane import PLACEHOLDER, AnswerPane
from widgets.call_list import CallList
from widgets.code_preview import CodePreview, highlight
from widgets.hit_list import HitList
from widgets.index_status import IndexStatus

if TYPE_CHECKING:
    from app.core.settings import Settings
    from app.indexer.worker import IndexWorker
    from app.service import Service

PREVIEW_SETTLE_S = 0.15  # results that stay this long get their code shown
REFRESH_SETTLE_S = 0.3  # an index update re-runs the query once typing pauses this long
MAIN_SCREEN_ACTIONS = frozenset(
    {"focus_search", "focus_results", "toggle_maximize", "open_symbols", "open_hotspots"}
)
PALETTE = [  # (title, help, action): the command palette's entries for our actions
    ("Search", "Focus the search field (ctrl+f)", "focus_search"),
    ("Results", "Focus the ranked chunks (ctrl+r)", "focus_results"),
    ("Symbols", "Fuzzy-find a symbol and open its call graph (ctrl+o)", "open_symbols"),
    ("Hotspots", "The definitions that carry the code (ctrl+g)", "open_hotspots"),
    ("Edit", "Open the previewed chunk in $EDITOR at its line (f4)", "edit"),
    ("Copy", "Copy the previewed chunk, or the answer when it has focus (ctrl+y)", "copy"),
    (
        "Copy path:line",
        "Copy where the previewed chunk starts, as path:line (ctrl+l)",
        "copy_location",
    ),
    (
        "Index details",
        "Pending changes and every skipped file with its reason (f6)",
        "index_details",
    ),
    ("Pause or resume indexing", "Changes queue while paused (f7)", "pause_indexer"),
    ("Maximize", "Maximize the focused pane, or restore it (f11)", "toggle_maximize"),
    ("Next theme", "Cycle repolens-dark, repolens-light (ctrl+t)", "next_theme"),
    ("Keys", "Every key of every screen (f1)", "help"),
]
# Quitting waits this long for the indexer's thread, no longer: the index is safe against a kill
# at any moment (a batch in flight is rolled back by the next writer), so ctrl+q is immediate.
QUIT_WAIT_S = 0.2
QUIT_LOAD_WAIT_S = 10.0  # at most this long for an answer model that is loading
MAX_QUERY_CHARS = 4000  # a pasted page still searches; its first 4,000 characters decide
NO_QUESTION = "Type a question: its best code shows here."


class RepolensApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "repolens"
    BINDINGS = [  # in the footer's order: Help first, so a narrow terminal still shows it
        Binding("f1", "help", "Help"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("ctrl+f", "focus_search", "Search"),
        Binding("ctrl+r", "focus_results", "Results"),
        Binding("f11", "toggle_maximize", "Maximize"),  # ctrl+x is cut in the search field
        Binding("ctrl+t", "next_theme", "Theme"),
        Binding("ctrl+o", "open_symbols", "Symbols"),
        # ctrl+g is the one shown: most terminals send ctrl+h as backspace
        Binding("ctrl+g,ctrl+h", "open_hotspots", "Hotspots"),
        Binding("f6", "index_details", "Index"),
        Binding("f7", "pause_indexer", "Pause index"),
        Binding("f4", "edit", "Edit"),  # ctrl+e is end-of-line in the search field
        Binding("ctrl+y", "copy", "Copy"),
        Binding("ctrl+l", "copy_location", "Copy path:line", show=False),  # f1, ctrl+p list it
    ]

    def __init__(self, service: Service, theme_name: str | None = None) -> None:
        super().__init__()
        self.service = service
        self.initial_theme = theme_name or state.load().get("theme", DEFAULT_THEME)
        self.searches = SearchFlow(MAX_QUERY_CHARS)
        self.index_ready = False  # a first index run has published its chunks
        self.index_updates = 0  # index runs ended, as the indexer last said
        self.index_published = 0  # publishes searches see, as the indexer last said
        self.graph_updates = 0  # call graphs published
        self.indexer: IndexWorker | None = None
        self.index_status: WorkerStatus | None = None  # the indexer's latest report
        self.shown: tuple[str, int, int, str] | None = None  # the preview: path, lines, text
        self._search_worker: Worker[None] | None = None
        self._preview_timer: Timer | None = None
        self._refresh_timer: Timer | None = None
        self.searched_once = False
        self.listed_query = ""  # the query whose hits the list shows
        self._answer_cancel: threading.Event | None = None
        self._preload_cancel = threading.Event()
        self._prepare_cancel = threading.Event()
        self._prepare_timer: Timer | None = None
        self.preparing = ""  # the query whose prompt the model reads ahead, or has read
        self.prepared: tuple[str, int] = ("", 0)  # the last query read ahead, its tokens
        self.answer_generation = 0
        self.answer_context: list[Hit] = []  # the shown answer's excerpts, [1] first
        self.early_keys: list[events.Key] = []  # typed before the search field took focus

    async def on_event(self, event: events.Event) -> None:
        """Keys typed while nothing has focus (during start-up, before the search field took
        it: Textual hands them to the screen, which drops them) wait, then go in order to
        what takes focus, the search field unless something else did."""
        if self._typed_early(event):
            return
        await super().on_event(event)

    def _typed_early(self, event: events.Event) -> bool:
        """Hold `event` when it is a key typed with nothing focused (or after such keys)."""
        if not isinstance(event, events.Key) or not event.is_printable or event.is_forwarded:
            return False
        if not self.early_keys and (
            self.focused is not None or self.screen is not self.default_screen
        ):
            return False
        self.early_keys.append(event)
        if len(self.early_keys) == 1:
            self.call_after_refresh(self._type_early_keys)
        return True

    def _type_early_keys(self) -> None:
        focused = self.focused
        if focused is None:  # not yet (or a click left nothing focused): the field takes them
            for field in self.query("#search").results(Input):
                field.focus()
            self.call_after_refresh(self._type_early_keys)
            return
        keys, self.early_keys = self.early_keys, []
        for key in keys:
            focused._forward_event(key)

    def get_default_screen(self) -> MainScreen:
        return MainScreen()

    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = (
            self.initial_theme if self.initial_theme in self.available_themes else (DEFAULT_THEME)
        )
        self.sub_title = str(self.service.root)
        self._start_indexer()
        self.service.answerer().watch(self._heard_answer_model)
        if self.service.settings.answer_preload:
            # After the first frame: the model's import and load must not delay it.
            self.call_after_refresh(self._preload, self._preload_cancel)

    # -- the live index ----------------------------------------------------------------------
    def _start_indexer(self) -> None:
        """The live index runs in its own thread; its status arrives as coalesced messages."""

        def report(status: WorkerStatus) -> None:
            self.post_message(IndexStatusChanged(status))

        self.indexer = self.service.live(report, watch=self.service.settings.watch)

    async def action_quit(self) -> None:
        self._stop_background()  # first: no answer token or index status arrives meanwhile
        if self.service.answer_model_state() == MODEL_LOADING:
            # llama.cpp's load cannot be stopped, and what it prints as it ends would reach
            # the terminal once the app has given it back: the app waits for it (about a
            # second), then `leave` ends the process at once should it still be loading.
            self.notify("Quitting once the answer model has loaded…", timeout=QUIT_LOAD_WAIT_S)
            waited = 0.0
            while self.service.answer_model_state() == MODEL_LOADING and waited < QUIT_LOAD_WAIT_S:
                await asyncio.sleep(0.05)
                waited += 0.05
        self.exit()

    def on_unmount(self) -> None:
        self._stop_background()
        release_heap()

    def still_running(self) -> bool:
        """Whether work `_stop_background` asked to stop goes on: the indexer inside the
        embedding model or a batch (past QUIT_WAIT_S), or the answer model loading. Neither
        can be interrupted; the load would also print llama.cpp's lines on the terminal the
        app has given back, and the indexer abort Python's shutdown."""
        indexing = self.indexer is not None and not self.indexer.join(0)
        return indexing or self.service.answer_model_state() == MODEL_LOADING

    def _stop_background(self) -> None:
        self._preload_cancel.set()  # a prefix being read stops within milliseconds
        self._prepare_cancel.set()
        if self._answer_cancel is not None:
            self._answer_cancel.set()  # an answer in flight stops within milliseconds
        if self.indexer is not None:
            self.indexer.stop(timeout=QUIT_WAIT_S)

    @on(IndexStatusChanged)
    @while_open
    def _index_status_changed(self, message: IndexStatusChanged) -> None:
        status = message.status
        self.index_status = status
        stack = self.screen_stack
        for line in self.query("#status").results(IndexStatus):
            line.show_status(status)
        if isinstance(stack[-1], IndexScreen):
            stack[-1].update_status(status)
        if status.graph_updates > self.graph_updates:  # views that wait for a graph load it
            self.graph_updates = status.graph_updates
            for screen in stack:
                if isinstance(screen, GraphScreen | SymbolScreen | IndexScreen):
                    screen.graph_arrived()
        # Searches see what a run publishes before the run ends (its call graph, then its
        # vectors follow): shown results may have changed at each publish and at a run's end.
        if status.updates > self.index_updates or status.published > self.index_published:
            self.index_updates, self.index_published = status.updates, status.published
            first = not self.index_ready
            if first:
                settle_heap()
            self.index_ready = True
            query = self._typed()
            if query.strip():  # the first publish: the question waits for nothing else
                self._refresh_search(query, 0.0 if first else REFRESH_SETTLE_S)

    def action_index_details(self) -> None:
        if not isinstance(self.screen, IndexScreen):
            self.push_screen(IndexScreen(self.service, self.index_status))

    def action_pause_indexer(self) -> None:
        if self.indexer is None:
            return
        if self.indexer.status.state == "paused":
            self.indexer.resume()
            self.notify("Indexing resumed; queued changes are indexed now.")
        else:
            self.indexer.pause()
            self.notify("Indexing paused: changes are queued until you press f7 again.")

    # -- the answer model --------------------------------------------------------------------
    def _heard_answer_model(self, state: str, error: str) -> None:
        self.post_message(AnswerModelChanged(state, error))  # from the loading thread

    @work(thread=True, group="answer-model")
    def _preload(self, cancel: threading.Event) -> None:
        """Load the answer model and read its fixed prefix while the person types, so that
        the first Enter waits only for its own excerpts. Its state reaches the status line
        through the answerer's watch; a failure is said there and again at Enter."""
        try:
            self.service.preload_answers(cancel)
        except Exception:  # reported by the watch (AnswerModelChanged); search is unaffected
            return

    def _prepare_when_typing_pauses(self, query: str) -> None:
        """Results for `query` are shown: once typing pauses, read its prompt ahead."""
        if self._prepare_timer is not None:
            self._prepare_timer.stop()
        if not self.service.settings.answer_preload or not query.strip():
            return

        def start() -> None:
            self._prepare_timer = None
            if self._typed() == query and query != self.preparing:
                self._prepare_cancel.set()
                self._prepare_cancel = threading.Event()
                self.preparing = query
                self._prepare(query, self._prepare_cancel)

        # Enter then finds the prompt read; the next key stops the reading within milliseconds.
        self._prepare_timer = self.set_timer(self.service.settings.answer_read_ahead_after_s, start)

    def _stop_preparing(self) -> None:
        if self._prepare_timer is not None:
            self._prepare_timer.stop()
            self._prepare_timer = None
        self._prepare_cancel.set()
        self.preparing = ""

    @work(thread=True, exclusive=True, group="answer-prepare")
    def _prepare(self, query: str, cancel: threading.Event) -> None:
        try:
            tokens = self.service.prepare_answer(query[:MAX_QUERY_CHARS], cancel)
        except Exception:  # the model or the index is not there: Enter says why
            return
        self.post_message(AnswerPrepared(query, tokens))

    @on(AnswerPrepared)
    def _answer_prepared(self, message: AnswerPrepared) -> None:
        self.prepared = (message.query, message.tokens)

    @on(AnswerModelChanged)
    @while_open
    def _answer_model_changed(self, message: AnswerModelChanged) -> None:
        failed = bool(message.error)
        for line in self.query("#status").results(IndexStatus):  # none while closing
            line.show_answer_model(model_note(message.state), problem=failed)
        if failed:
            self.notify(
                literal(message.error),
                title="The answer model did not load; search still works",
                severity="warning",
                markup=False,
            )

    # -- searching ---------------------------------------------------------------------------
    @on(Input.Changed, "#search")
    def _query_changed(self, event: Input.Changed) -> None:
        self._stop_preparing()  # a key: the search gets the cores
        self._start_search(event.value)

    @on(Input.Submitted, "#search")
    def _query_submitted(self, event: Input.Submitted) -> None:
        self._start_search(event.value)
        if not event.value.strip():
            return
        if event.value != self.preparing:  # the same question's reading goes on for it
            self._stop_preparing()
        if self._answer_cancel is not None:
            self._answer_cancel.set()  # a new question stops the answer in flight
        self._answer_cancel = threading.Event()
        self.answer_generation += 1
        self.answer_context = []
        pane = self.query_one("#answer-pane", AnswerPane)
        hits = self.query_one("#hits", HitList)
        if hits.hits and self.listed_query == event.value:  # the brief at once, from the hits shown
            shown = list(hits.hits)
            pane.show_brief(lambda width: brief_markdown(shown, False, width), READING)
        else:
            pane.show_text(READING)
        self._ask(event.value[:MAX_QUERY_CHARS], self.answer_generation, self._answer_cancel)

    @work(thread=True, exclusive=True, group="answer")
    def _ask(self, question: str, generation: int, cancel: threading.Event) -> None:
        def shown(text: str) -> None:
            self.post_message(AnswerShown(text, generation))

        def context(hits: list[Hit]) -> None:
            self.post_message(AnswerContext(hits, generation))

        def progress(done: int, total: int) -> None:
            self.post_message(AnswerProgress(done, total, generation))

        try:
            answer = self.service.ask(
                question, on_shown=shown, cancel=cancel, on_context=context, on_progress=progress
            )
        except Exception as error:  # no model, a broken file: say so; search keeps working
            self.post_message(AnswerFinished(None, generation, str(error)))
            return
        self.post_message(AnswerFinished(answer, generation))

    @on(AnswerContext)
    @while_open
    def _answer_context(self, message: AnswerContext) -> None:
        if message.generation == self.answer_generation:
            self.answer_context = message.hits
            pane = self.query_one("#answer-pane", AnswerPane)
            context = message.hits
            pane.show_brief(lambda width: brief_markdown(context, True, width), READING)

    @on(AnswerProgress)
    @while_open
    def _answer_progress(self, message: AnswerProgress) -> None:
        if message.generation == self.answer_generation:
            pane = self.query_one("#answer-pane", AnswerPane)
            pane.show_status(progress_markdown(message.done, message.total))

    @on(AnswerShown)
    @while_open
    def _answer_shown(self, message: AnswerShown) -> None:
        if message.generation == self.answer_generation:
            self.query_one("#answer-pane", AnswerPane).show_answer(message.text)

    @on(AnswerPane.CitationChosen)
    def _citation_chosen(self, message: AnswerPane.CitationChosen) -> None:
        """A citation selects its excerpt's chunk: in the results when it is there, and in
        the code preview."""
        if not 1 <= message.n <= len(self.answer_context):
            self.notify(f"[{message.n}] is not one of the answer's excerpts.")
            return
        hit = self.answer_context[message.n - 1]
        hits = self.query_one("#hits", HitList)
        for index, shown in enumerate(hits.hits):
            if (shown.path, shown.start_line) == (hit.path, hit.start_line):
                hits.highlighted = index
        self._load_source(hit)

    @on(AnswerFinished)
    @while_open
    def _answer_finished(self, message: AnswerFinished) -> None:
        if message.generation != self.answer_generation:
            return
        pane = self.query_one("#answer-pane", AnswerPane)
        answer: Any = message.answer
        if answer is None:
            pane.show_text(f"**No answer:** {literal(message.error)}")
            return
        self.answer_context = list(answer.context)
        citations = list(answer.citations)
        body, notes = answer_body(answer)
        valid = [c.n for c in citations if c.valid]
        pane.finish(
            lambda width: citation_lines(citations, width),
            answer.grounded or answer.abstained,
            body=body,
            notes=notes,
            cited=valid,
        )

    @on(AnswerShown)
    @on(AnswerFinished)
    def _answer_heard(self, message: AnswerShown | AnswerFinished) -> None:
        if message.generation == self.answer_generation and self.main_screen is not None:
            self.main_screen.answer_heard()  # its wait clock stops

    @property
    def main_screen(self) -> MainScreen | None:
        """The main screen; None once the app is closing."""
        if not self.screen_stack:
            return None
        screen = self.default_screen
        return screen if isinstance(screen, MainScreen) else None

    def _start_search(self, query: str) -> None:
        if not self.searches.typed(query):
            hits = self.query_one("#hits", HitList)
            hits.show_hits([])
            hits.border_subtitle = ""
            self.listed_query = ""
            self._clear_code_and_answer()
            return
        self._run_waiting_search()

    def _clear_code_and_answer(self) -> None:
        """The question was cleared: its code and its answer (stopped if still coming) go."""
        if self._preview_timer is not None:
            self._preview_timer.stop()
            self._preview_timer = None
        if self._answer_cancel is not None:
            self._answer_cancel.set()
        self.answer_generation += 1  # what the stopped answer still posts is ignored
        self.answer_context = []
        self.shown = None
        self.query_one("#preview", CodePreview).show_message(NO_QUESTION)
        self.query_one("#answer-pane", AnswerPane).show_text(PLACEHOLDER)

    def _refresh_search(self, query: str, settle_s: float) -> None:
        """The index changed under an unchanged query: search again once typing pauses
        `settle_s` (0: now; the next key's search sees the new index anyway), after any
        running search."""
        if self._refresh_timer is not None:
            self._refresh_timer.stop()

        def refresh() -> None:
            self._refresh_timer = None
            if self._typed() == query:
                self.searches.refresh(query)
                self._run_waiting_search()

        if settle_s <= 0:
            refresh()
            return
        self._refresh_timer = self.set_timer(settle_s, refresh)

    def _typed(self) -> str:
        """The search field's text; "" once the app is closing and the field is gone."""
        return next((field.value for field in self.query("#search").results(Input)), "")

    def _run_waiting_search(self) -> None:
        request = self.searches.next_request()
        if request is not None:
            self.query_one("#hits", HitList).border_subtitle = "searching…"
            self._search_worker = self._search(request)

    def _search_done(self) -> None:
        """The running search ended: run the query typed meanwhile, if any."""
        self.searches.done()
        self._run_waiting_search()

    @work(thread=True, group="search")  # one at a time: the App runs the next when it ends
    def _search(self, request: SearchRequest) -> None:
        from app.search.searcher import SearchSuperseded

        query = request.query
        try:
            result = self.service.search(query, superseded=request.superseded)
        except SearchSuperseded:
            self.post_message(SearchFailed(query, "", superseded=True))
            return
        except Exception as error:  # an index still being built says so; others are shown
            self.post_message(SearchFailed(query, str(error)))
            return
        self.post_message(HitsReady(query, result.hits, result.timings_ms, request.generation))

    @on(HitsReady)
    @while_open
    def _show_hits(self, message: HitsReady) -> None:
        if not self.searched_once:
            self.searched_once = True
            settle_heap()  # the searcher has just loaded the index into memory
        self._search_done()
        if not self.searches.is_current(message.generation):
            return  # an answer to a query the user has already changed
        hits = self.query_one("#hits", HitList)
        # The same query on a changed index (an edit in f4, vectors arrived): the hit the
        # person moved to stays selected.
        hits.show_hits(message.hits, keep_chosen=message.query == self.listed_query)
        self.listed_query = message.query
        self._prepare_when_typing_pauses(message.query)
        hits.border_subtitle = f"{len(message.hits)} hits"
        if not message.hits:
            self.query_one("#preview", CodePreview).show_message("No results.")

    @on(SearchFailed)
    @while_open
    def _search_failed(self, message: SearchFailed) -> None:
        self._search_done()
        if message.superseded:
            return
        self.query_one("#hits", HitList).border_subtitle = ""
        text = (
            "The index is still being built: results show here once its files are read."
            if not self.index_ready
            else message.reason
        )
        self.query_one("#preview", CodePreview).show_message(text)

    # -- preview -----------------------------------------------------------------------------
    @on(HitList.HitSelected)
    def _hit_selected(self, message: HitList.HitSelected) -> None:
        if self._preview_timer is not None:
            self._preview_timer.stop()
            self._preview_timer = None
        if not message.new_results:
            self._load_source(message.hit)  # a move in the list: show it now
            return
        hit = message.hit
        if self.shown is not None and self.shown[:3] == (hit.path, hit.start_line, hit.end_line):
            # Re-ranked results with the same chunk on top: its "why" changes at once.
            self.query_one("#preview", CodePreview).border_subtitle = hit.explanation.summary()
        # New results while typing: the list updates at once, the code once typing pauses,
        # so painting a file per key never delays the next key.
        self._preview_timer = self.set_timer(PREVIEW_SETTLE_S, lambda: self._load_source(hit))

    def _load_source(self, code: Hit | SymbolRef) -> None:
        why = code.explanation.summary() if isinstance(code, Hit) else ""
        self._read_source(code.path, code.start_line, code.end_line, self.current_theme.dark, why)

    @work(thread=True, exclusive=True, group="preview")
    def _read_source(self, path: str, start_line: int, end_line: int, dark: bool, why: str) -> None:
        text = self.service.source(path)
        shown = highlight(path, text, start_line, end_line, dark)
        self.post_message(SourceLoaded(text, shown, why))

    @on(SourceLoaded)
    @while_open
    def _show_source(self, message: SourceLoaded) -> None:
        shown = message.highlighted
        self.shown = (shown.path, shown.start_line, shown.end_line, message.text)
        for preview in self.query("#preview").results(CodePreview):  # the main screen's
            preview.show(shown, message.why)

    # -- symbols and the call graph ----------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # These act on the main screen's panes; elsewhere they are hidden from the footer.
        return action not in MAIN_SCREEN_ACTIONS or self.screen is self.default_screen

    def action_open_symbols(self) -> None:
        self.push_screen(SymbolScreen(self.service))

    def action_open_hotspots(self) -> None:
        self.push_screen(GraphScreen(self.service, None))

    @on(SymbolOpened)
    def _symbol_opened(self, message: SymbolOpened) -> None:
        self.push_screen(GraphScreen(self.service, message.symbol))  # which shows its source

    @on(HitList.HitOpened)
    def _hit_opened(self, message: HitList.HitOpened) -> None:
        """Enter on a hit: a definition opens its call graph (callers, callees, its code);
        anything else (a doc section, glue) shows its code maximized."""
        hit = message.hit
        if hit.kind in DEFINITION_KINDS and (hit.qualified_name or hit.symbol):
            name = hit.qualified_name or hit.symbol
            ref = SymbolRef(name, hit.kind, hit.path, hit.start_line, hit.end_line)
            self.push_screen(GraphScreen(self.service, ref))
            return
        self._load_source(hit)
        self.screen.maximize(self.query_one("#preview", CodePreview))

    @on(SymbolWalked)
    def _symbol_walked(self, message: SymbolWalked) -> None:
        self._load_source(message.symbol)

    # -- everything else ---------------------------------------------------------------------
    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        ended = event.state in (WorkerState.ERROR, WorkerState.CANCELLED)
        if ended and event.worker is self._search_worker:
            self._search_done()  # it posted no result: do not leave typed queries waiting
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            message = literal(str(event.worker.error))  # it may name a file: never markup
            self.notify(message, title="Something failed", severity="error", markup=False)

    def action_focus_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_focus_results(self) -> None:
        self.query_one("#hits", HitList).focus()

    def action_toggle_maximize(self) -> None:
        if self.screen.maximized is not None:
            self.screen.minimize()
            return
        focused = self.focused
        pane: Widget = self.query_one("#hits", HitList)
        for ancestor in focused.ancestors_with_self if focused else []:
            if isinstance(ancestor, Widget) and ancestor.id in {"hits", "preview", "answer-pane"}:
                pane = ancestor
                break
        self.screen.maximize(pane)

    def action_next_theme(self) -> None:
        names = [theme.name for theme in THEMES]
        current = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(current + 1) % len(names)]

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette (ctrl+p) lists every action of ours beside Textual's own."""
        ours = {title for title, _, _ in PALETTE}
        # Textual's own "Keys" and "Maximize" do what ours do (f1, f11): each is listed once.
        yield from (c for c in super().get_system_commands(screen) if c.title not in ours)
        for title, help_text, action in PALETTE:
            yield SystemCommand(title, help_text, getattr(self, f"action_{action}"))

    def action_help(self) -> None:
        from app.tui.help_screen import HelpScreen, shown_keys

        self.push_screen(
            HelpScreen(
                [
                    ("Main screen", [*self.BINDINGS, *MainScreen.BINDINGS]),
                    ("Answer pane", AnswerPane.BINDINGS),
                    ("Symbol browser", SymbolScreen.BINDINGS),
                    ("Call graph", [*GraphScreen.BINDINGS, *shown_keys(CallList.BINDINGS)]),
                    ("Index details", IndexScreen.BINDINGS),
                ]
            )
        )

    def action_copy(self) -> None:
        """Copy the answer when the answer pane has focus, else the chunk in the preview."""
        focused = self.focused
        answer = self.query_one("#answer-pane", AnswerPane)
        if focused is not None and answer in focused.ancestors_with_self:
            self.copy_to_clipboard(answer.plain_text())
            self.notify("Copied the answer.")
            return
        if self.shown is None:
            self.notify("Select a chunk first: there is nothing to copy.", severity="warning")
            return
        path, start, end, text = self.shown
        lines = text.split("\n")[start - 1 : end]
        self.copy_to_clipboard("\n".join(lines))
        self.notify(f"Copied {len(lines)} lines of {literal(path)}:{start}-{end}.", markup=False)

    def action_copy_location(self) -> None:
        """Copy `path:line` of the chunk in the preview, for an editor, a chat or a commit."""
        if self.shown is None:
            self.notify("Select a chunk first: there is nothing to copy.", severity="warning")
            return
        path, start, _, _ = self.shown
        self.copy_to_clipboard(f"{path}:{start}")
        self.notify(f"Copied {literal(path)}:{start}.", markup=False)

    def action_edit(self) -> None:
        """Open the chunk in the preview in $VISUAL or $EDITOR (vi when neither is set)."""
        if self.shown is None:
            self.notify("Select a chunk first: there is nothing to open.", severity="warning")
            return
        path, start, _, _ = self.shown
        command = editor_command(path_in=self.service.root / path, line=start)
        try:
            with self.suspend():  # errors must not escape it, or the terminal stays handed over
                problem = run_editor(command)
        except SuspendNotSupported:  # no terminal to hand over (tests, some web hosts)
            problem = run_editor(command, interactive=False)
        if problem:
            self.notify(literal(problem), severity="error", markup=False)

    def watch_theme(self, theme: str) -> None:
        state.save({"theme": theme})


def settle_heap() -> None:
    """Exempt what start-up loaded (the index in memory, the widgets) from Python's cycle
    collector. Every full collection walks every live object: with the index loaded it took
    130-150 ms, about once a second while the indexer worked, and froze keys and paints for
    that long (`repolens-tui-bench tui-bench` measured it). Frozen objects are still freed when no
    longer referenced; only cycles among them are left to the end.

    Only once: freezing after every index update also froze the renderer's short-lived cycles
    (1.5 million objects in 2.5 minutes of typing, never freed); and fewer, larger full
    collections (a tenfold gen-2 threshold) made the slowest keys slower. Both measured with
    tui-bench, in the README."""
    gc.freeze()


def release_heap() -> None:
    """Give what `settle_heap` exempted back to the cycle collector when the app closes.
    The app, its `Service` and the index in memory hold cycles, so frozen they would outlive
    the app in a process that goes on (the test suite: about 100 MB per app run, never
    freed)."""
    gc.unfreeze()


def run(path: Path, settings: Settings, **options: Any) -> None:
    """The TUI on `path` until the person quits; `options` go to `App.run` (the tests
    pass `headless` and `auto_pilot`)."""
    from app.service import Service

    app = RepolensApp(Service(path, settings))
    app.run(**options)
    leave(app)


def leave(app: App[Any]) -> None:
    """After the app has closed (the terminal is restored): work it could not stop is still
    running (`RepolensApp.still_running`), so the process ends now, not in Python's
    shutdown (see `exit_now_if_busy`). Any other app has nothing running and returns."""
    busy = isinstance(app, RepolensApp) and app.still_running()
    exit_now_if_busy(busy, app.return_code or 0)
