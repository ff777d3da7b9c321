"""Damaged table files: a LanceDB or Arrow read failure becomes one IndexDamaged line naming
the file, and a note beside the damaged folder tells the next index run what to rebuild."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pyarrow as pa

from app.store.manifest import IndexChanged, IndexDamaged, is_write_failure

# What LanceDB and Arrow raise when a file is short, garbled or missing.
READ_FAILURES = (RuntimeError, OSError, ValueError, pa.ArrowException)
# Every data file and version manifest of a Lance table ends with these four bytes.
LANCE_MAGIC = b"LANC"
NOTE_SUFFIX = ".damaged"
_RUST_PLACE = re.compile(r",\s*/\S+\.rs:\d+:\d+\s*$")
_PREFIXES = ("lance error: ", "LanceError(IO): ", "Generic LocalFileSystem error: ")


def note_path(folder: Path) -> Path:
    """Where the note about a damaged folder (a tables folder, a vectors table) is kept."""
    return folder.with_name(folder.name + NOTE_SUFFIX)


def read_note(folder: Path) -> str:
    """The damage a reader noted for `folder` ("" when none)."""
    try:
        return note_path(folder).read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def clear_note(folder: Path) -> None:
    note_path(folder).unlink(missing_ok=True)


def damaged_file(table_folder: Path) -> Path | None:
    """The first data file or version manifest of a Lance table that is cut short or has
    lost its closing magic bytes; None when every file looks whole (the damage is inside)."""
    for part in ("_versions", "data"):
        for path in sorted((table_folder / part).glob("*.*")):
            if path.suffix not in (".lance", ".manifest"):
                continue
            try:
                with path.open("rb") as handle:
                    size = handle.seek(0, 2)
                    handle.seek(max(size - len(LANCE_MAGIC), 0))
                    if size < 2 * len(LANCE_MAGIC) or handle.read() != LANCE_MAGIC:
                        return path
            except OSError:
                return path
    return None


def short_error(error: BaseException) -> str:
    """LanceDB's message without its prefixes and the Rust source line it ends with."""
    text = " ".join(str(error).split())
    text = _RUST_PLACE.sub("", text)
    for prefix in _PREFIXES:
        text = text.replace(prefix, "")
    return text[:160] or type(error).__name__


@contextlib.contextmanager
def reading(
    table: str,
    table_folder: Path,
    note_folder: Path,
    repo: str,
    *,
    shared: bool,
    superseded: Callable[[], bool] = lambda: False,
) -> Iterator[None]:
    """Turn a failure to read `table` into IndexDamaged; the disk refusing a write (full,
    read-only) passes through for `write_errors_explained` to explain. A reader whose
    manifest was `superseded` meanwhile may have lost old versions to pruning: that is no
    damage, and it is told to read again."""
    try:
        yield
    except (IndexDamaged, IndexChanged):
        raise
    except READ_FAILURES as error:
        if is_write_failure(error):
            raise
        if superseded():
            raise IndexChanged(
                f"the index of {repo} was updated while it was being read; run it again"
            ) from error
        raise damage(table, table_folder, note_folder, repo, error, shared=shared) from error


def damage(
    table: str,
    table_folder: Path,
    note_folder: Path,
    repo: str,
    error: BaseException,
    *,
    shared: bool,
) -> IndexDamaged:
    """The one-line error for a damaged table; notes it (best effort: a reader may not be
    allowed to write) so that the next index run repairs it."""
    bad = damaged_file(table_folder)
    place = str(bad) if bad is not None else f"the {table} table ({table_folder})"
    note = f"{place} cannot be read ({short_error(error)})"
    with contextlib.suppress(OSError):
        note_path(note_folder).write_text(note + "\n", encoding="utf-8")
    if shared:
        advice = f"it is a cache: `repolens-tui index {repo}` drops it and embeds again"
    else:
        advice = f"`repolens-tui index {repo}` rebuilds it from the repository"
    return IndexDamaged(
        f"{_subject(shared)} is damaged: {note}; {advice}", table=table, note=note, shared=shared
    )


def repair_line(note: str, *, shared: bool) -> str:
    """What an index run says when it repairs the damage `note` describes."""
    action = "dropping it and embedding again" if shared else "rebuilding it from the repository"
    return f"{_subject(shared)} is damaged: {note}; {action}"


def _subject(shared: bool) -> str:
    return "the shared vectors table" if shared else "the index"
