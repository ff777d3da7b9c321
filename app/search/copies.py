"""Copies: one definition, word for word or nearly, in several files (a platform's copy of a
source set, a vendored or generated duplicate). The best ranked copy stands for the others, so
one piece of code does not fill several places of the hit list."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from rapidfuzz import fuzz

from app.core.models import Signal

# Two definitions of one name in two files are copies when their code (whitespace aside) is at
# least this similar (rapidfuzz's normalised Indel similarity, 0-100).
SIMILARITY = 90.0
# Below this many characters of code two definitions may well be alike by chance (`return nil`,
# a getter's body), so short ones are never folded.
MIN_CHARS = 80
# Long code is first compared by its opening PREFIX_CHARS alone (PREFIX_SIMILARITY at least):
# a full comparison of two long texts costs about a millisecond, and one name shared by
# many long chunks (a data file's top-level key in six versions of a manual) made it
# quadratic. Copies differ little anywhere, so their openings are alike too.
PREFIX_CHARS = 256
PREFIX_SIMILARITY = 70.0


def fold(
    ranked: Sequence[str],
    group_of: Callable[[str], str],
    path_of: Callable[[str], str],
    text_of: Callable[[str], str],
) -> tuple[list[str], dict[str, list[str]]]:
    """`ranked` without the copies ranked below their best copy, and for each kept chunk the
    ids it stands for (best first). Only chunks of one `group_of` (a name; "": none) can be
    copies of one another."""
    names = Counter(group_of(chunk_id) for chunk_id in ranked)
    kept: list[str] = []
    shown: dict[str, list[tuple[str, str]]] = {}  # group -> (chunk id, code) of kept chunks
    folded: dict[str, list[str]] = {}
    for chunk_id in ranked:
        name = group_of(chunk_id)
        code = "".join(text_of(chunk_id).split()) if name and names[name] > 1 else ""
        if len(code) < MIN_CHARS:
            kept.append(chunk_id)
            continue
        path = path_of(chunk_id)
        same = shown.setdefault(name, [])
        best = next(
            (held for held, held_code in same if path_of(held) != path and alike(code, held_code)),
            None,
        )
        if best is None:
            same.append((chunk_id, code))
            kept.append(chunk_id)
        else:
            folded.setdefault(best, []).append(chunk_id)
    return kept, folded


def alike(code: str, other: str) -> bool:
    """Whether two definitions' code (whitespace removed) is SIMILARITY alike."""
    if min(len(code), len(other)) > 2 * PREFIX_CHARS and not fuzz.ratio(
        code[:PREFIX_CHARS], other[:PREFIX_CHARS], score_cutoff=PREFIX_SIMILARITY
    ):
        return False
    return bool(fuzz.ratio(code, other, score_cutoff=SIMILARITY))


def signal(paths: Sequence[str]) -> Signal:
    """What `--explain` says of a hit standing for its copies in other files."""
    shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    copies = "a copy" if len(paths) == 1 else f"{len(paths)} copies"
    return Signal("copies", 1.0, f"stands for {copies}, the same or nearly, in {shown}")
