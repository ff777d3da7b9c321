"""The local model's answer, streamed as Markdown; says plainly when answers are unavailable."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widgets import Markdown


class AnswerPane(VerticalScroll):
    def compose(self):  # type: ignore[no-untyped-def]
        yield Markdown("Press **Enter** in the search field to ask the local model.", id="answer")

    def show_text(self, markdown: str) -> None:
        self.streamed = ""
        self.query_one("#answer", Markdown).update(markdown)

    def append(self, text: str) -> None:
        self.streamed = getattr(self, "streamed", "") + text
        self.query_one("#answer", Markdown).update(self.streamed)

    def plain_text(self) -> str:
        """What the pane shows, as Markdown source (for copying)."""
        return str(self.query_one("#answer", Markdown).source)

    def finish(self, citations: list[str], grounded: bool) -> None:
        lines = [getattr(self, "streamed", "").strip() or "_(no answer)_", ""]
        if not grounded:
            lines.append("**Ungrounded:** this answer cites none of the excerpts.")
        lines += [f"- {line}" for line in citations]
        self.query_one("#answer", Markdown).update("\n".join(lines))
