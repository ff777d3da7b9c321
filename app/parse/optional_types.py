"""The one type an annotation names beside "nothing": Python's `Optional[Conn]`, `Conn | None`,
`Union[Conn, None]` and the forward reference `"Conn | None"`, TypeScript's `Conn | null`,
`Conn | undefined` and `Promise<Conn>` as awaited, all hold a Conn wherever a method is called
on them, since None, null and undefined have none of the project's methods (a type checker
narrows them so). Any other annotation is returned as written, for the caller's own rules."""

from __future__ import annotations

import re

_OPTIONAL = re.compile(r"(?:typing\.|t\.)?Optional\[(.*)\]", re.S)
_UNION = re.compile(r"(?:typing\.|t\.)?Union\[(.*)\]", re.S)
_NOTHING = {
    "python": frozenset({"None", "'None'", '"None"', "NoneType", "type(None)"}),
    "typescript": frozenset({"null", "undefined", "void"}),
}
_NOTHING["tsx"] = _NOTHING["typescript"]
_QUOTES = "'\""
_ROUNDS = 4  # `Optional["Conn | None"]` peels in three
# What an `await` or a `then` hands over: a TypeScript async function's `Promise<Conn>` (the
# value a chain on it can reach at all: a promise's own `then` is no project method).
_PROMISE = re.compile(r"(?:Promise|PromiseLike)\s*<(.*)>", re.S)


def one_type(written: str, language: str) -> str:
    """`Optional["Conn"]` -> `Conn`; `Conn | None` -> `Conn`; TypeScript's `Conn | null` and
    `Promise<Conn | undefined>` -> `Conn`; `A | B` and `List[Conn]` as written."""
    return _peel(written, language)[0]


def allows_none(written: str, language: str) -> bool:
    """Whether the annotation lets its name hold nothing (`Optional[Conn]`, `Conn | null`)."""
    return _peel(written, language)[1]


def _peel(written: str, language: str) -> tuple[str, bool]:
    """The annotation without its quotes, promise and nothing, and whether it allowed nothing."""
    nothing = _NOTHING.get(language, frozenset())
    python = language == "python"
    text, none = written.strip(), False
    for _ in range(_ROUNDS):
        before = text
        if python and len(text) >= 2 and text[0] == text[-1] and text[0] in _QUOTES:
            text = text[1:-1].strip()
        if python and (optional := _OPTIONAL.fullmatch(text)):
            text, none = optional.group(1).strip(), True
        elif not python and (promised := _PROMISE.fullmatch(text)):
            text = promised.group(1).strip()
        else:
            union = _UNION.fullmatch(text) if python else None
            parts = _split(union.group(1), ",") if union else _split(text.lstrip("|"), "|")
            kept = [part for part in parts if part not in nothing]
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
        elif char in "[(<{":
            depth += 1
        elif char in "])>}":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    return [*parts, text[start:].strip()]
