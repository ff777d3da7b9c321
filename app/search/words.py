"""A documented definition told in a few English words, embedded as a second vector beside
its code's, and the content key every embedded text is stored under."""

from __future__ import annotations

import hashlib
import re

from app.core.models import DEFINITION_KINDS
from app.search.tokenize import name_words

DOC_SENTENCES = 2  # of the doc comment
DOC_CHARS = 300
_SENTENCE_END = re.compile(r"(?<=[.!?])\s|\n\s*\n")
_TAG_LINE = re.compile(r"^[@:]")  # `@param x`, `:param x:`: not prose


def text_key(text: str) -> str:
    """The key of an embedded text in the shared vectors table."""
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def word_text(kind: str, symbol: str, parent: str, path: str, doc: str, part: int) -> str:
    """Kind, name and owner in words, where it lives, its doc's first sentences; no body,
    which the model reads as noise and which crowds the doc out of its 256-384 wordpieces.
    "" for what is not a documented definition's first part: without a doc the words are
    its name alone, which lifts every look-alike of that name (app/bench/RESULTS.md)."""
    if kind not in DEFINITION_KINDS or not symbol or part != 1:
        return ""
    sentences = [" ".join(s.split()) for s in _SENTENCE_END.split(doc.strip())]
    prose = [s for s in sentences if s and not _TAG_LINE.match(s)][:DOC_SENTENCES]
    said = " ".join(prose)[:DOC_CHARS]
    if not said:
        return ""
    owner = f" of {name_words(parent)}" if parent else ""
    return f"{kind} {name_words(symbol)}{owner}, in {_path_words(path)}. {said}"


def _path_words(path: str) -> str:
    """`httpx/_transports/default.py` -> "httpx transports default"."""
    folder, _, name = path.rpartition("/")
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return name_words(f"{folder} {stem}")
