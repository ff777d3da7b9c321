"""The selected chunk's code, syntax highlighted, its lines marked, with some context."""

from __future__ import annotations

import re

from rich.syntax import Syntax
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

CONTEXT_LINES = 12
MAX_LINE_CHARS = 500
# Control characters (ANSI escapes among them) are shown, never sent to the terminal.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def safe_code(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        line = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", line)
        if len(line) > MAX_LINE_CHARS:
            line = line[:MAX_LINE_CHARS] + " …"
        lines.append(line)
    return "\n".join(lines)


class CodePreview(VerticalScroll):
    """Shows a window of a file around a chunk; the chunk's lines are highlighted."""

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(Text("Select a hit to see its code.", style="dim"), id="code")

    def show(self, path: str, text: str, start_line: int, end_line: int, theme: str) -> None:
        lines = text.split("\n")
        first = max(1, start_line - CONTEXT_LINES)
        last = min(len(lines), end_line + CONTEXT_LINES)
        window = safe_code("\n".join(lines[first - 1 : last]))
        syntax = Syntax(
            window,
            Syntax.guess_lexer(path, window),
            line_numbers=True,
            start_line=first,
            highlight_lines=set(range(start_line, end_line + 1)),
            theme=theme,
            word_wrap=False,
        )
        self.query_one("#code", Static).update(syntax)
        self.border_title = f"{path}:{start_line}-{end_line}"
        self.scroll_to(y=max(0, start_line - first - 2), animate=False)

    def show_message(self, message: str) -> None:
        self.query_one("#code", Static).update(Text(message, style="dim"))
        self.border_title = ""
