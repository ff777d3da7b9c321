"""The local model's answer, streamed as Markdown under a brief of the top hits; says plainly
when answers are unavailable. `n` / `p` (or a click) step through the answer's citations."""

from __future__ import annotations

import re
from collections.abc import Callable

from textual import events
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownBlock
from textual.worker import Worker

from app.core.literal import literal

_BACKTICKS = re.compile("`+")
_INLINE_MARKS = re.compile(r"([\\`*_\[\]<>&~])")
_CITE_LINK = re.compile(r"\[\\\[(\d+)\\\]\]\(cite:\d+\)")
PLACEHOLDER = "Press **Enter** in the search field to ask the local model."
BULLET_CELLS = 2  # a brief line's text starts after the list's bullet, `• `


def markdown_code(text: str) -> str:
    """`text` as a Markdown code span, shown as written: no emphasis, link or escape in it is
    read, and a backtick in it cannot close the span early."""
    fence = "`" * (1 + max((len(run) for run in _BACKTICKS.findall(text)), default=0))
    shown = literal(text)
    padded = f" {shown} " if shown.startswith("`") or shown.endswith("`") else shown
    return f"{fence}{padded}{fence}"


def markdown_literal(text: str) -> str:
    """`text` as Markdown prose shown as written: the marks that would open emphasis, a code
    span, a link (and so a citation), an entity or HTML are escaped."""
    return _INLINE_MARKS.sub(r"\\\1", literal(text))


def citation_link(n: int) -> str:
    """`[n]` as a link the pane answers (a click selects excerpt n's chunk)."""
    return f"[\\[{n}\\]](cite:{n})"


class AnswerPane(VerticalScroll):
    """The model's text may echo a file's escape sequences: they are shown as visible
    escapes, never sent to the terminal. Links are never opened: only our `cite:` links act."""

    ALLOW_MAXIMIZE = True  # f11: a container is not maximizable unless it says so
    BINDINGS = [
        Binding("n", "next_citation", "Next citation"),
        Binding("p", "previous_citation", "Previous citation"),
    ]

    class CitationChosen(Message):
        """The reader chose citation `n` (an excerpt number of the answer shown)."""

        def __init__(self, n: int) -> None:
            super().__init__()
            self.n = n

    def compose(self):  # type: ignore[no-untyped-def]
        yield Markdown(PLACEHOLDER, id="answer", open_links=False)

    def on_mount(self) -> None:
        self.brief = ""
        self.brief_at: Callable[[int], str] | None = None  # the brief, its code cut to a width
        self.below: tuple[str, ...] = ()  # what the pane shows under the brief
        self.finished_at: Callable[[int], str] | None = None  # the finished answer, cut to a width
        self.streamed = ""
        self.status = ""
        self.cited: list[int] = []
        self.chosen = -1
        self.wanted = PLACEHOLDER  # the Markdown to show once the running update ends
        self._rendering: Worker[None] | None = None
        # Where the answer starts in `wanted` (a line number) while it is still to be
        # scrolled into view: a brief taller than the pane would hide it below.
        self._reveal_line: int | None = None

    def _render_parts(self, *below: str) -> None:
        """Show the brief and `below` it now when no update runs, else once it ends: tokens
        that arrive while the Markdown re-renders leave only the newest text waiting."""
        self.below = below
        parts = (self.brief, *below)
        self.wanted = literal("\n\n".join(p for p in parts if p), multiline=True)
        if self._rendering is None:
            started = self._next_update(self.query_one("#answer", Markdown))
            self._rendering = self.run_worker(
                self._render_latest(started), group="answer-render", exit_on_error=False
            )

    async def _render_latest(self, started: AwaitComplete) -> None:
        """Await every update: one pending when the app quits is cancelled, and unless something
        awaits it asyncio prints "exception was never retrieved" on the terminal after the app."""
        markdown = self.query_one("#answer", Markdown)
        try:
            await started
            while markdown.source != self.wanted:
                await self._next_update(markdown)
        finally:
            self._rendering = None
        if self._reveal_line is not None:
            self.call_after_refresh(self._reveal_answer, self._reveal_line)
            self._reveal_line = None

    def _next_update(self, markdown: Markdown) -> AwaitComplete:
        """Append what streamed since the last render: the blocks above stay, and so does
        where the reader scrolled to (a whole update remounts them and scrolls to the top)."""
        shown = markdown.source
        if shown and self.wanted.startswith(shown):
            return markdown.append(self.wanted[len(shown) :])
        return markdown.update(self.wanted)

    def _reveal_answer(self, line: int) -> None:
        """Scroll the answer's first block to the top, the brief above it: when its first
        words arrive and when it is finished; in between the reader scrolls freely."""
        markdown = self.query_one("#answer", Markdown)
        blocks = markdown.query_children(MarkdownBlock)
        first = next((block for block in blocks if block.source_range[0] >= line), None)
        if first is not None:
            self.scroll_to_widget(first, top=True, animate=False)

    def _answer_starts(self, first: bool) -> None:
        """The answer follows the brief from here: reveal it (`first`: its first words)."""
        if first:
            self._reveal_line = len(self.brief.splitlines()) + 1 if self.brief else 0

    def show_text(self, markdown: str) -> None:
        self.brief, self.brief_at, self.finished_at = "", None, None
        self.streamed, self.status, self.cited = "", "", []
        self._render_parts(markdown)
        self.refresh_bindings()

    def show_brief(self, brief_at: Callable[[int], str], status: str) -> None:
        """The brief of the top hits, at once; the answer streams under it. `brief_at(width)`
        is its Markdown with each code span cut to `width` cells (0: uncut), so that a path
        wraps whole onto a line of its own rather than breaking mid-name."""
        self.brief_at, self.brief = brief_at, brief_at(self._code_width())
        self.finished_at = None
        self.streamed, self.status, self.cited = "", status, []
        self._render_parts(self.status)
        self.refresh_bindings()

    def _code_width(self) -> int:
        """The cells a brief line has: the pane's, less the Markdown's padding, the bullet and
        the scrollbar even before it shows (a brief cut wider would break once it shows)."""
        width = self.scrollable_content_region.width + self.scrollbar_size_vertical
        width -= self.styles.scrollbar_size_vertical
        gutter = self.query_one("#answer", Markdown).styles.gutter.width
        return max(0, width - gutter - BULLET_CELLS)

    def on_resize(self, event: events.Resize) -> None:
        # Shown again, or resized: the brief's and the citations' code spans are cut to the
        # new width.
        width = self._code_width()
        brief = self.brief_at(width) if self.brief_at is not None else self.brief
        below = (self.finished_at(width),) if self.finished_at is not None else self.below
        if (brief, below) != (self.brief, self.below):
            self.brief = brief
            self._render_parts(*below)

    def show_status(self, status: str) -> None:
        self.status = status
        if not self.streamed:
            self.finished_at = None
            self._render_parts(self.status)

    def show_answer(self, text: str) -> None:
        """The answer as far as it may be shown, under the brief: longer than before as it
        streams, or shorter when a sentence was taken back (the status again when none is left)."""
        self._answer_starts(first=not self.streamed and bool(text))
        self.streamed, self.finished_at = text, None
        self._render_parts(self.streamed or self.status)

    def plain_text(self) -> str:
        """What the pane shows, as Markdown source (for copying), without the escapes that
        keep `[1]` from reading as a Markdown link."""
        source = _CITE_LINK.sub(r"[\1]", self.wanted)
        return source.replace("\\[", "[").replace("\\]", "]")

    def finish(
        self,
        citations_at: Callable[[int], list[str]],
        grounded: bool,
        body: str | None = None,
        notes: list[str] | None = None,
        cited: list[int] | None = None,
    ) -> None:
        """The whole answer: `body` (the checked sentences) replaces the streamed text.
        `citations_at(width)` lists the citations with each code span cut to `width` cells."""
        text = body if body is not None else self.streamed
        lines = [text.strip() or "_(no answer)_", ""]
        if not grounded:
            lines.append("**Ungrounded:** this answer cites none of the excerpts.")
        lines += notes or []

        def finished_at(width: int) -> str:
            return "\n".join([*lines, *(f"- {line}" for line in citations_at(width))])

        self.cited, self.chosen = list(cited or []), -1
        self.finished_at = finished_at
        self._answer_starts(first=True)
        self._render_parts(finished_at(self._code_width()))
        self.refresh_bindings()

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        if event.href.startswith("cite:") and event.href[5:].isdigit():
            self.post_message(self.CitationChosen(int(event.href[5:])))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The citation keys exist (and show in the footer) only while an answer cites.
        if action in {"next_citation", "previous_citation"}:
            return bool(getattr(self, "cited", []))
        return True

    def action_next_citation(self) -> None:
        self._step(1)

    def action_previous_citation(self) -> None:
        self._step(-1)

    def _step(self, by: int) -> None:
        if not self.cited:
            return
        self.chosen = (self.chosen + by) % len(self.cited)
        self.post_message(self.CitationChosen(self.cited[self.chosen]))
