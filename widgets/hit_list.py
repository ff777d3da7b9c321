"""The ranked chunks: rank, symbol and kind, then the score against the best and path:lines."""

from __future__ import annotations

from pathlib import PurePosixPath

from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from app.core.literal import literal
from app.core.models import Hit
from widgets.fitted import Fitted, Part, location_part, name_part, telling_paths

# Chunk kinds that name no definition, in a reader's words, no longer (the file name before
# them would be cut): a `window` is lines of a text file, `glue` code between definitions.
KIND_LABELS = {"window": "text", "glue": "code"}


def hit_prompt(hit: Hit, best_score: float, rank: int = 1, told: str = "") -> Fitted:
    """One hit, its name and path cut from the start to the list's width: code names never
    go through markup, so `[bold]` stays literal, and their control characters are shown as
    escapes. The score is shown against the best hit's as a figure (1.00 for the best): 0.95
    and 0.88 read apart where bars of a few cells looked alike, and it leaves the narrow list
    room for the path. `told`: the folders that tell its path from another listed hit's of
    the same file name (`widgets.fitted.telling_paths`), kept when the path is cut."""
    share = hit.score / best_score if best_score > 0 else 0.0
    # Code between definitions has no name of its own: its file's ("glue  glue" said nothing).
    name = literal(hit.qualified_name or hit.symbol or PurePosixPath(hit.path).name)
    span = f":{hit.start_line}-{hit.end_line}"
    where = [Part(f"   {share:.2f} ", "bold"), location_part(hit.path, span, told)]
    if hit.packed == "signature":
        where.append(Part("  (signature)", "dim", optional=True))
    if hit.stale:
        where.append(Part("  ● changed since indexed", "bold"))
    kind = Part(f"  {KIND_LABELS.get(hit.kind, hit.kind)}", "italic")
    return Fitted([[Part(f"{rank:>2} ", "bold"), name_part(name), kind], where])


class HitList(OptionList):
    """Emits HitSelected when the highlight moves; j/k move like the arrow keys."""

    # A long name or path ends in an ellipsis at the pane's edge; a folded one would push
    # the next hits out of a narrow list.
    DEFAULT_CSS = """
    HitList { text-wrap: nowrap; text-overflow: ellipsis; }
    """

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
        self.chosen: Hit | None = None  # the hit the person moved to, if any

    def show_hits(self, hits: list[Hit], *, keep_chosen: bool = False) -> None:
        """New results, the first highlighted; with `keep_chosen` (the same query again, on
        a changed index) the hit the person moved to stays highlighted while it is listed."""
        kept = self._position_of(self.chosen, hits) if keep_chosen else None
        if kept is None:
            self.chosen = None
        self.hits = list(hits)
        best = max((hit.score for hit in hits), default=0.0)
        told = telling_paths(hit.path for hit in hits)
        self.clear_options()
        self.add_options(
            [
                Option(hit_prompt(hit, best, rank, told.get(hit.path, "")), id=hit.chunk_id)
                for rank, hit in enumerate(hits, 1)
            ]
        )
        if hits:
            shown = kept or 0
            with self.prevent(OptionList.OptionHighlighted):  # not a move: said below
                self.highlighted = shown
            self.post_message(self.HitSelected(hits[shown], new_results=True))

    @staticmethod
    def _position_of(chosen: Hit | None, hits: list[Hit]) -> int | None:
        """Where `chosen` is in `hits`: the same chunk, or (its lines moved by an edit) the
        same definition in the same file."""
        if chosen is None:
            return None
        for matches in (
            lambda hit: hit.chunk_id == chosen.chunk_id,
            lambda hit: (
                (hit.path, hit.qualified_name, hit.kind)
                == (chosen.path, chosen.qualified_name, chosen.kind)
            ),
        ):
            found = next((n for n, hit in enumerate(hits) if matches(hit)), None)
            if found is not None:
                return found
        return None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self.hits):
            self.post_message(self.HitOpened(self.hits[event.option_index]))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option_index < len(self.hits):
            self.chosen = self.hits[event.option_index]
            self.post_message(self.HitSelected(self.chosen))
