"""The local model's answer, streamed as Markdown; says plainly when answers are unavailable."""

from __future__ import annotations

import re

from textual.containers import VerticalScroll
from textual.widgets import Markdown

from app.core.literal import literal

_BACKTICKS = re.compile("`+")


def markdown_code(text: str) -> str:
    """`text` as a Markdown code span, shown as written: no emphasis, link or escape in it is
    read, and a backtick in it cannot close the span early."""
    fence = "`" * (1 + max((len(run) for run in _BACKTICKS.findall(text)), default=0))
    shown = literal(text)
    padded = f" {shown} " if shown.startswith("`") or shown.endswith("`") else shown
    return f"{fence}{padded}{fence}"


class AnswerPane(VerticalScroll):
    """The model's text may echo a file's escape sequences: they are shown as visible
    escapes, never sent to the terminal."""

    ALLOW_MAXIMIZE = True  # f11: a container is not maximizable unless it says so

    def compose(self):  # type: ignore[no-untyped-def]
        yield Markdown("Press **Enter** in the search field to ask the local model.", id="answer")

    def show_text(self, markdown: str) -> None:
        self.streamed = ""
        self.query_one("#answer", Markdown).update(literal(markdown, multiline=True))

    def append(self, text: str) -> None:
        self.streamed = getattr(self, "streamed", "") + text
        self.query_one("#answer", Markdown).update(literal(self.streamed, multiline=True))

    def plain_text(self) -> str:
        """What the pane shows, as Markdown source (for copying), without the escapes that
        keep `[1]` from reading as a Markdown link."""
        source = str(self.query_one("#answer", Markdown).source)
        return source.replace("\\[", "[").replace("\\]", "]")

    def finish(self, citations: list[str], grounded: bool) -> None:
        lines = [getattr(self, "streamed", "").strip() or "_(no answer)_", ""]
        if not grounded:
            lines.append("**Ungrounded:** this answer cites none of the excerpts.")
        lines += [f"- {line}" for line in citations]
        self.query_one("#answer", Markdown).update(literal("\n".join(lines), multiline=True))
