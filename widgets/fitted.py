"""Rows cut to the width they are drawn at: a path or a qualified name loses its start
(`…/core/Koin.kt:55`), never the file name, the line or the method that tell hits apart."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

from app.core.literal import literal

ELLIPSIS = "…"


SNAP_CELLS = 6  # a cut moves this far at most to start at a separator
MIN_KEPT = 12  # cells a shrinking part keeps however narrow the row: `…Factory.kt:23`


@dataclass(frozen=True, slots=True)
class Part:
    """Some text of a row. A part that `shrinks` is cut from its start, at one of the
    `cut_at` separators when that loses a few cells (see fit_row for how far)."""

    text: str
    style: str = ""
    shrinks: bool = False
    cut_at: str = "/"
    optional: bool = False  # left out before a path is cut into its file name
    spare: bool = False  # left out before anything is cut: a note the row reads without
    # What a path becomes once it does not fit whole, when its file name alone would not tell
    # it from another listed path's (`…/jvmMain/…/GlobalContext.kt:55`): see telling_paths.
    short: str = ""


def path_part(text: str, style: str = "dim", short: str = "") -> Part:
    return Part(text, style, shrinks=True, cut_at="/", short=short)


def location_part(path: str, lines: str, told: str = "") -> Part:
    """A repository path and its `:lines`, shown literally (no markup, control characters as
    escapes), with `told`, its folders that tell it from a listed namesake (telling_paths), as
    the short form it takes once cut."""
    short = f"{literal(told)}{lines}" if told else ""
    return path_part(f"{literal(path)}{lines}", short=short)


def telling_paths(paths: Iterable[str]) -> dict[str, str]:
    """For each path whose file name another of `paths` has too, the folders that tell it
    apart with `…` for the rest: `src/jvmMain/kotlin/org/koin/GlobalContext.kt` beside
    `src/wasmJsMain/kotlin/org/koin/GlobalContext.kt` gives `…/jvmMain/…/GlobalContext.kt`.
    Folders are compared from the root, the first that differs first; paths whose file name
    is their own are not in the answer (`…/Koin.kt` tells them apart already)."""
    by_name: dict[str, list[list[str]]] = {}
    for path in dict.fromkeys(paths):
        parts = path.split("/")
        by_name.setdefault(parts[-1], []).append(parts)
    told: dict[str, str] = {}
    for group in by_name.values():
        for parts in group if len(group) > 1 else ():
            told["/".join(parts)] = _telling(parts, [o for o in group if o is not parts])
    return told


def _telling(parts: list[str], others: list[list[str]]) -> str:
    folders = parts[:-1]
    kept: list[int] = []
    left = others
    while left:
        differs = [
            i
            for i in range(len(folders))
            if i not in kept and any(_at(o, i) != folders[i] for o in left)
        ]
        if not differs:
            break
        kept.append(differs[0])
        left = [o for o in left if _at(o, differs[0]) == folders[differs[0]]]
    pieces: list[str] = []
    last = -1
    for i in sorted(kept):
        if i > last + 1:
            pieces.append(ELLIPSIS)
        pieces.append(folders[i])
        last = i
    if last < len(folders) - 1:
        pieces.append(ELLIPSIS)
    return "/".join([*pieces, parts[-1]])


def _at(parts: list[str], index: int) -> str | None:
    """A path's folder at `index` (None past its last folder)."""
    return parts[index] if index < len(parts) - 1 else None


def name_part(text: str, style: str = "bold") -> Part:
    return Part(text, style, shrinks=True, cut_at=".:")


def elide_start(text: str, width: int, cut_at: str = "/") -> str:
    """`text` in `width` cells: whole when it fits, else `…` and its end, started at a
    separator when that loses a few cells (`…/core/Koin.kt:55`, not `…re/Koin.kt:55`)."""
    if cell_len(text) <= width:
        return text
    if width <= 1:
        return ELLIPSIS[:width]
    kept = ""
    for char in reversed(text):
        if cell_len(kept) + cell_len(char) > width - 1:
            break
        kept = char + kept
    if kept[:1] in cut_at:  # already cut at a separator: `…/algo/mod.rs`, not `…/mod.rs`
        return ELLIPSIS + kept
    starts = [kept.find(separator, 1) for separator in cut_at]
    start = min((s for s in starts if 0 < s <= min(len(kept) // 4, SNAP_CELLS)), default=0)
    return ELLIPSIS + kept[start:]


def elide_middle(short: str, width: int) -> str:
    """A short form (`…/jvmMain/…/GlobalContext.kt:55`) in `width` cells: whole when it fits,
    else its telling folders, `…` and as much of its end as fits (`…/jvmMain/…Context.kt:55`),
    so the folder that tells it apart stays in a narrow list; cut from the start once not even
    MIN_KEPT cells of the end fit beside them."""
    if cell_len(short) <= width:
        return short
    head, _, tail = short.rpartition(f"/{ELLIPSIS}/")
    room = width - cell_len(head) - 2
    if not head or room < MIN_KEPT:
        return elide_start(short, width, "")
    return f"{head}/{ELLIPSIS}{elide_start(tail, room + 1, '')[1:]}"


def last_piece(part: Part) -> int:
    """The cells of `…` and the part's last separated piece (a file name and its lines), or
    of its short form's folders that tell it from the other rows' paths and its end."""
    if part.short:  # its telling folders and MIN_KEPT cells of its end (see elide_middle)
        head = part.short.rpartition(f"/{ELLIPSIS}/")[0]
        return min(cell_len(part.short), cell_len(head) + 2 + MIN_KEPT)
    cut = max(part.text.rfind(separator) for separator in part.cut_at)
    return cell_len(part.text) if cut <= 0 else 1 + cell_len(part.text[cut:])


def fit_row(parts: Iterable[Part], width: int) -> Text:
    """One row in `width` cells. Spare parts are left out; then shrinking parts are cut (the
    last first) down to their last piece; then optional parts are left out; then shrinking
    parts are cut down to MIN_KEPT cells; then the row ends in `…` if it still does not fit."""
    row = list(parts)
    if sum(cell_len(part.text) for part in row) > width:
        row = [part for part in row if not part.spare]
    texts = [part.text for part in row]

    def shrink(least: Callable[[Part], int]) -> None:
        for index in reversed(range(len(row))):
            excess = sum(cell_len(text) for text in texts) - width
            part = row[index]
            if excess > 0 and part.shrinks:
                room = max(least(part), cell_len(texts[index]) - excess)
                if part.short and cell_len(part.text) > room:
                    texts[index] = elide_middle(part.short, room)
                else:
                    texts[index] = elide_start(part.text, room, part.cut_at)

    shrink(last_piece)
    if sum(cell_len(text) for text in texts) > width:
        # Without the optional parts the others are cut again from whole: the room they
        # leave may hold a path's folders (`src/algo/mod.rs`, not `…/mod.rs`).
        texts = ["" if part.optional else part.text for part in row]
        shrink(last_piece)
    shrink(lambda part: min(MIN_KEPT, cell_len(part.text)))
    line = Text(no_wrap=True, overflow="ellipsis")  # each row ends its line: Textual counts them
    for part, text in zip(row, texts, strict=True):
        line.append(text, style=part.style)
    line.truncate(width, overflow="ellipsis")
    return line


def fits_whole(row: Iterable[Part], width: int) -> bool:
    """Whether `row` fits `width` cells with nothing cut (its spare parts may go)."""
    return sum(cell_len(part.text) for part in row if not part.spare) <= width


class Fitted:
    """Rows of parts, each fitted to the width Rich draws it at (a list's width, after a
    resize too); `narrow`, when given, is drawn instead where a row would have to be cut (a
    call's path:line on a line of its own under its name, as the answer pane wraps a cited
    path whole). `plain` is the whole text, uncut."""

    def __init__(self, rows: list[list[Part]], narrow: list[list[Part]] | None = None) -> None:
        self.rows = rows
        self.narrow = narrow

    @property
    def plain(self) -> str:
        return "\n".join("".join(part.text for part in row) for row in self.rows)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        rows = self.rows
        if self.narrow and not all(fits_whole(row, width) for row in rows):
            rows = self.narrow
        for row in rows:
            yield fit_row(row, width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths = [sum(cell_len(part.text) for part in row) for row in self.rows]
        return Measurement(1, max(widths, default=1))
