"""The ranked chunks: symbol, path:lines, kind and a score bar per hit."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from app.core.literal import literal
from app.core.models import Hit

BAR_WIDTH = 8


def hit_prompt(hit: Hit, best_score: float) -> Text:
    """One hit as plain Text: code names never go through markup, so `[bold]` stays literal,
    and their control characters are shown as escapes."""
    share = hit.score / best_score if best_score > 0 else 0.0
    filled = max(1, round(share * BAR_WIDTH))
    name = literal(hit.qualified_name or hit.symbol or hit.kind)
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append("█" * filled + "░" * (BAR_WIDTH - filled), style="bold")
    line.append(" ")
    line.append(name, style="bold")
    line.append(f"  {hit.kind}", style="italic")
    line.append(f"\n{literal(hit.path)}:{hit.start_line}-{hit.end_line}", style="dim")
    if hit.packed == "signature":
        line.append("  (signature)", style="dim")
    if hit.stale:
        line.append("  ● changed since indexed", style="bold")
    return line


class HitList(OptionList):
    """Emits HitSelected when the highlight moves; j/k move like the arrow keys."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]

    class HitSelected(Message):
        """`new_results`: the first hit of results that just arrived, not a move."""

        def __init__(self, hit: Hit, new_results: bool = False) -> None:
            super().__init__()
            self.hit = hit
            self.new_results = new_results

    class HitOpened(Message):
        """Enter (or a click) on a hit: open it."""

        def __init__(self, hit: Hit) -> None:
            super().__init__()
            self.hit = hit

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.hits: list[Hit] = []

    def show_hits(self, hits: list[Hit]) -> None:
        self.hits = list(hits)
        best = max((hit.score for hit in hits), default=0.0)
        self.clear_options()
        self.add_options([Option(hit_prompt(hit, best), id=hit.chunk_id) for hit in hits])
        if hits:
            with self.prevent(OptionList.OptionHighlighted):  # not a move: said below
                self.highlighted = 0
            self.post_message(self.HitSelected(hits[0], new_results=True))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self.hits):
            self.post_message(self.HitOpened(self.hits[event.option_index]))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option_index < len(self.hits):
            self.post_message(self.HitSelected(self.hits[event.option_index]))
