"""Abstention before the model runs: a question that names a technology or a thing the
repository never mentions anywhere (`QUIC`, `GraphQL`, `Kerberos`) cannot be answered from it."""

from __future__ import annotations

import re
from collections.abc import Callable

from app.search.tokenize import tokens

# Code in backticks is the asker's own example (`MyInterface::class`), often not in the
# repository by design: only the question's prose is read.
_CODE_SPAN = re.compile(r"`[^`]*`")
_SENTENCE = re.compile(r"(?<=[.?!:;])\s+")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_PROSE_WORD = re.compile(r"(?<![\w.])[a-z]{4,}(?![\w.])")
# Below this share of its plain lower-case words found in the repository, the question is
# written in another language than the code's (German capitalises every noun): a capital
# then marks no name.
SHARED_LANGUAGE = 0.5


def named_words(question: str) -> list[str]:
    """The words of the question's prose spelled as names: acronyms (`JWT`), PascalCase
    (`WebSocket`) and a capital inside a sentence (`Kerberos`). A lower camelCase word
    (`isName`) is code the asker made up, and a number (`404`) a value asked about: neither
    is a name the repository must hold."""
    found: list[str] = []
    for sentence in _SENTENCE.split(_CODE_SPAN.sub(" ", question)):
        for position, match in enumerate(_WORD.finditer(sentence)):
            word = match.group()
            capitals = sum(c.isupper() for c in word)
            named = word[0].isupper() and (capitals >= 2 or position > 0)
            if named and word not in found:
                found.append(word)
    return found


def _shares_language(question: str, in_repository: Callable[[str], bool]) -> bool:
    """Whether most plain lower-case words of the question's prose occur in the repository."""
    prose = _CODE_SPAN.sub(" ", question)
    words = {part for word in _PROSE_WORD.findall(prose) for part in tokens(word)[-1:]}
    if not words:
        return True
    found = sum(1 for word in words if in_repository(word))
    return found >= SHARED_LANGUAGE * len(words)


def absent_names(question: str, in_repository: Callable[[str], bool]) -> list[str]:
    """The named words of the question that the repository holds nowhere: `in_repository`
    says whether a search token occurs in any chunk. A word is absent when its whole-word
    token is (`WebSocket` -> `websocket`, whatever `web` and `socket` do). In a question
    written in another language than the repository's, only acronyms and PascalCase count:
    a word with one capital there is likely a plain noun (`Unterbefehle`)."""
    names = named_words(question)
    if not _shares_language(question, in_repository):
        names = [word for word in names if sum(c.isupper() for c in word) >= 2]
    absent = []
    for word in names:
        parts = tokens(word)
        if parts and not in_repository(parts[-1]):
            absent.append(word)
    return absent


def abstention_note(absent: list[str]) -> str:
    names = ", ".join(f"`{word}`" for word in absent)
    return f"The repository never mentions {names}, so it cannot answer this."
