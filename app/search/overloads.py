"""Overloads share one name in one file (C#, Java, C++, Python `@overload` stubs; in Swift
also the argument labels): the best ranked stands for them all, so they do not fill the hit
list with one name."""

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


def swift_labels(signature: str, name: str) -> str:
    """The argument labels of a Swift function's signature, `count:using:` for
    `func randomSample(count k: Int, using g: inout G)`: Swift names a function by them, so
    functions that differ in labels are not overloads of one another."""
    at = signature.find(f"{name}")
    opening = signature.find("(", at + len(name)) if at >= 0 else -1
    if opening < 0:
        return ""
    labels: list[str] = []
    depth, start = 0, opening + 1
    for index in range(opening, len(signature)):
        char = signature[index]
        if char in "([<":
            depth += 1
        elif char in ")]>" and not (char == ">" and signature[index - 1] == "-"):
            depth -= 1
        if (char == "," and depth == 1) or depth == 0:
            parameter = signature[start:index].split(":", 1)[0].split()
            if parameter:
                labels.append(f"{parameter[0]}:")
            start = index + 1
        if depth == 0:
            break
    return "".join(labels)
