"""The main screen: search field, ranked chunks, code and answer, status line and footer,
laid out per width (three columns when wide, results above code or answer when narrow)."""

from __future__ import annotations

import time

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input

from widgets.answer_pane import AnswerPane
from widgets.code_preview import CodePreview
from widgets.footer import FittedFooter
from widgets.hit_list import HitList
from widgets.index_status import IndexStatus

# Below this many columns three panes leave the code too narrow to read: the results stack
# above one pane that shows the code or the answer (f2 switches).
NARROW_BELOW = 120
WAIT_TICK_S = 1.0


class MainScreen(Screen[None]):
    BINDINGS = [Binding("f2", "switch_code_answer", "Code/Answer")]

    def __init__(self) -> None:
        super().__init__()
        self._asked_at = 0.0
        self._answer_clock: Timer | None = None
        self.asked = ""  # the question the answer pane answers

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Ask about this repository…", id="search")
        with Horizontal(id="panes"):
            yield HitList(id="hits")
            yield CodePreview(id="preview")
            yield AnswerPane(id="answer-pane")
        yield IndexStatus(id="status")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.query_one("#hits", HitList).border_title = "Ranked chunks"
        self.query_one("#preview", CodePreview).border_title = "Code"
        self.query_one("#answer-pane", AnswerPane).border_title = "Answer"
        self.query_one("#search", Input).focus()
        self._fit(self.size.width)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width)

    @property
    def narrow(self) -> bool:
        return self.has_class("-narrow")

    def _fit(self, width: int) -> None:
        narrow = width < NARROW_BELOW
        if narrow != self.narrow:
            self.set_class(narrow, "-narrow")
            self.query_one(Footer).compact = narrow
            self.refresh_bindings()  # f2 is shown only when it does something

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action != "switch_code_answer" or self.narrow

    def action_switch_code_answer(self) -> None:
        self.show_answer(not self.has_class("-answer"))

    def show_answer(self, answer: bool) -> None:
        """In the narrow layout: the answer pane in the code's place, or the code back."""
        self.set_class(answer, "-answer")

    @on(Input.Submitted, "#search")
    def _asked(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.asked = event.value
            self._mark_answer(event.value)
            self.show_answer(True)  # the answer streams where it can be read
            self._start_answer_clock()

    @on(Input.Changed, "#search")
    def _question_changed(self, event: Input.Changed) -> None:
        if not event.value.strip():
            self.asked = ""  # the app clears the answer and stops it
            self.answer_heard()  # so the wait for its first words is over
            self.show_answer(False)  # the next question's code shows, not an empty answer
        self._mark_answer(event.value)

    def _mark_answer(self, question: str) -> None:
        """The answer pane's title says when its answer is to another question than the
        one in the search field."""
        stale = bool(self.asked) and question != self.asked
        pane = self.query_one("#answer-pane", AnswerPane)
        pane.border_title = "Answer · to an earlier question" if stale else "Answer"

    # -- the wait before an answer's first words (search, loading the model, its reading) -----
    def _start_answer_clock(self) -> None:
        self._asked_at = time.monotonic()
        if self._answer_clock is not None:
            self._answer_clock.stop()
        self._answer_clock = self.set_interval(WAIT_TICK_S, self._show_wait)
        self._show_wait()

    def _show_wait(self) -> None:
        waited = time.monotonic() - self._asked_at
        pane = self.query_one("#answer-pane", AnswerPane)
        pane.border_subtitle = f"waiting for its first words · {waited:.0f} s"

    def answer_heard(self) -> None:
        """The answer's first words (or its end) arrived: the wait is over."""
        if self._answer_clock is not None:
            self._answer_clock.stop()
            self._answer_clock = None
            self.query_one("#answer-pane", AnswerPane).border_subtitle = ""

    @on(HitList.HitSelected)
    def _hit_moved(self, message: HitList.HitSelected) -> None:
        if not message.new_results:
            self.show_answer(False)  # a move in the list asks to see that code

    @on(HitList.HitOpened)
    def _hit_opened(self, message: HitList.HitOpened) -> None:
        self.show_answer(False)
