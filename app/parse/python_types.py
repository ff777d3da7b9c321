"""The one class a Python annotation names beside None: `Optional[Conn]`, `Conn | None`,
`Union[Conn, None]` and the forward reference `"Conn | None"` all hold a Conn wherever a method
is called on them, since None has none of the project's methods (a type checker narrows them
so). Any other annotation is returned as written, for the caller's own rules."""

from __future__ import annotations

import re

_OPTIONAL = re.compile(r"(?:typing\.|t\.)?Optional\[(.*)\]", re.S)
_UNION = re.compile(r"(?:typing\.|t\.)?Union\[(.*)\]", re.S)
_NONE = frozenset({"None", "'None'", '"None"', "NoneType", "type(None)"})
_QUOTES = "'\""
_ROUNDS = 4  # `Optional["Conn | None"]` peels in three


def python_annotation(written: str) -> str:
    """`Optional["Conn"]` -> `Conn`; `Conn | None` -> `Conn`; `A | B` and `List[Conn]` as
    written."""
    return _peel(written)[0]


def allows_none(written: str) -> bool:
    """Whether the annotation lets its variable hold None (`Optional[Conn]`, `Conn | None`)."""
    return _peel(written)[1]


def _peel(written: str) -> tuple[str, bool]:
    """The annotation without its quotes and None, and whether it allowed None."""
    text, none = written.strip(), False
    for _ in range(_ROUNDS):
        before = text
        if len(text) >= 2 and text[0] == text[-1] and text[0] in _QUOTES:
            text = text[1:-1].strip()
        if optional := _OPTIONAL.fullmatch(text):
            text, none = optional.group(1).strip(), True
        else:
            union = _UNION.fullmatch(text)
            parts = _split(union.group(1), ",") if union else _split(text, "|")
            kept = [part for part in parts if part not in _NONE]
            if len(parts) > 1 and len(kept) == 1:
                text, none = kept[0], True
        if text == before:
            break
    return text, none


def _split(text: str, separator: str) -> list[str]:
    """`text` split at each `separator` outside brackets and quotes, parts stripped."""
    parts, depth, start, quote = [], 0, 0, ""
    for i, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in _QUOTES:
            quote = char
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    return [*parts, text[start:].strip()]
