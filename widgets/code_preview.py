"""The selected chunk's code, syntax highlighted, its lines marked, with some context.

Highlighting (the costly part: Pygments lexes every line) runs in a worker thread through
`highlight`; the widget only shows the finished text, so a large chunk never stalls keys."""

from __future__ import annotations

from dataclasses import dataclass

from rich.syntax import Syntax
from rich.text import Text
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from app.core.literal import literal
from widgets.fitted import elide_start

CONTEXT_LINES = 12
MAX_LINE_CHARS = 500
TITLE_MARGIN = 6  # a corner, a dash and a space on each side of the border's title
MARKED = {True: "on grey23", False: "on grey89"}  # the chunk's lines, dark and light themes
CODE_THEMES = {True: "monokai", False: "default"}


def safe_code(text: str) -> str:
    """Control characters (ANSI escapes among them) shown, never sent to the terminal; very
    long lines cut."""
    lines = []
    for line in literal(text, multiline=True).split("\n"):
        if len(line) > MAX_LINE_CHARS:
            line = line[:MAX_LINE_CHARS] + " …"
        lines.append(line)
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Highlighted:
    """A window of a file around a chunk, ready to show."""

    path: str
    start_line: int
    end_line: int
    first_line: int  # the window's first line in the file
    text: Text


def highlight(path: str, source: str, start_line: int, end_line: int, dark: bool) -> Highlighted:
    """The chunk's lines with CONTEXT_LINES around them, numbered, highlighted, marked.
    Thread-safe: call it off the event loop."""
    lines = source.split("\n")
    first = max(1, start_line - CONTEXT_LINES)
    last = min(len(lines), end_line + CONTEXT_LINES)
    window = safe_code("\n".join(lines[first - 1 : last]))
    syntax = Syntax(window, Syntax.guess_lexer(path, window), theme=CODE_THEMES[dark])
    coloured = syntax.highlight(window).split("\n", allow_blank=True)
    width = len(str(last))
    out = Text(no_wrap=True, overflow="crop", end="")
    for number, line in enumerate(coloured, first):
        marked = start_line <= number <= end_line
        out.append(f"{'▌' if marked else ' '}{number:>{width}} ", style="dim")
        if marked:
            line.stylize(MARKED[dark])
        out.append_text(line)
        out.append("\n")
    return Highlighted(path, start_line, end_line, first, out)


class CodePreview(VerticalScroll):
    """Shows a window of a file around a chunk; the chunk's lines are marked."""

    ALLOW_MAXIMIZE = True  # f11: a container is not maximizable unless it says so

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.chunk_y = 0  # where the chunk's first line sits in the window shown
        self.location = ""  # path:lines of the chunk shown, before it is fitted to the border

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(Text("Select a hit to see its code.", style="dim"), id="code")

    def on_resize(self) -> None:
        # A new height (a narrow layout, f11) changes how far the view can scroll: the
        # chunk is brought back into view rather than left where the old height put it.
        self.scroll_to(y=self.chunk_y, animate=False)
        self._fit_title()

    def _fit_title(self) -> None:
        """The border shows the end of path:lines (its file and lines) when all of it does
        not fit; Textual would cut its end."""
        if self.location:
            width = self.outer_size.width
            room = width - TITLE_MARGIN if width else len(self.location)  # not laid out yet
            # Content, not a str: a str title is markup, and `[@click=app.quit]x.py` would run.
            self.border_title = Content(elide_start(self.location, room))

    def show(self, shown: Highlighted, why: str = "") -> None:
        """`why`: one line under the code, why the hit ranks where it does ("" for none)."""
        self.query_one("#code", Static).update(shown.text)
        start, end = shown.start_line, shown.end_line
        self.location = f"{literal(shown.path)}:{start}" + (f"-{end}" if end != start else "")
        self._fit_title()
        self.border_subtitle = Content(literal(why))
        self.chunk_y = max(0, shown.start_line - shown.first_line - 2)
        self.scroll_to(y=self.chunk_y, animate=False)
        # Until the new text is laid out the view may be too short to scroll that far (the
        # scroll is clamped, and the chunk stayed out of view on a loaded machine): again
        # once it is.
        self.call_after_refresh(self.scroll_to, y=self.chunk_y, animate=False)

    def show_message(self, message: str) -> None:
        self.query_one("#code", Static).update(Text(literal(message), style="dim"))
        self.chunk_y = 0
        self.location = ""
        self.border_title = self.border_subtitle = ""
