"""Overloads share one name in one file (C#, Java, C++, Python `@overload` stubs): the best
ranked stands for them all, so they do not fill the hit list with one name."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.core.models import Signal

FUNCTION_KINDS = frozenset({"function", "method"})

# (path, qualified name) of a whole function or method; None for anything else.
OverloadKey = Callable[[str], "tuple[str, str] | None"]


def fold(ranked: Sequence[str], key: OverloadKey) -> tuple[list[str], dict[str, list[str]]]:
    """`ranked` without the overloads ranked below the best of their group, and for each kept
    chunk the ids it stands for (best first)."""
    kept: list[str] = []
    best: dict[tuple[str, str], str] = {}
    folded: dict[str, list[str]] = {}
    for chunk_id in ranked:
        group = key(chunk_id)
        if group is None:
            kept.append(chunk_id)
        elif group in best:
            folded.setdefault(best[group], []).append(chunk_id)
        else:
            best[group] = chunk_id
            kept.append(chunk_id)
    return kept, folded


def signal(name: str, lines: Sequence[int]) -> Signal:
    """What `--explain` says of a hit standing for its overloads (their first lines)."""
    where = ", ".join(map(str, lines))
    reason = f"stands for {len(lines)} more overload(s) of `{name}` in this file (lines {where})"
    return Signal("overloads", 1.0, reason)
