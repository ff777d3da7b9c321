"""The brief shown before the model speaks: each top hit's symbol, `path:line` and the first
sentence of its doc comment as the parser read it, or, where it has none, its signature (no
model, a few microseconds)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from app.core.models import Hit

BRIEF_HITS = 4
MAX_SENTENCE_CHARS = 140
_SENTENCE = re.compile(r"(.+?[.!?])(?:\s|$)")
_DOC_TAG = re.compile(r"^\s*@\w+")  # `@param`, `@returns`: past the summary
# Javadoc's and JSDoc's inline tags and C#'s references read as their text: `{@code values}`
# is `values`, `<see cref="Trigger"/>` is `Trigger`.
_INLINE_TAG = re.compile(
    r"\{@(?:code|link|linkplain|literal|value)\s+([^{}]*)\}"
    r"|<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword)=\"([^\"]*)\"\s*/>"
)
# Formatting tags (Javadoc's <p>, C#'s <c>), in lower case: not `List<T>` or `Map<K, B>`,
# which name types.
_HTML_TAG = re.compile(
    r"</?(?:p|br|b|i|em|strong|code|c|tt|pre|ul|ol|li|a|para|blockquote|h[1-6]|sup|sub)"
    r"(?:\s[^<>]*)?/?>"
)


@dataclass(frozen=True, slots=True)
class BriefEntry:
    n: int  # the excerpt number this hit has in the answer's prompt
    symbol: str
    path: str
    line: int
    summary: str  # the first sentence of its doc comment, or ""
    signature: str = ""  # without a summary: its declaration on one line, or "" (a window)


def brief(hits: Sequence[Hit], limit: int = BRIEF_HITS) -> list[BriefEntry]:
    """A line per top hit. A chunk that is no definition (a window of a text file) goes by
    its file's name, as in the result list."""
    entries = []
    for n, hit in enumerate(hits[:limit], 1):
        summary = first_doc_sentence(hit.doc)
        entries.append(
            BriefEntry(
                n,
                hit.qualified_name or hit.symbol or PurePosixPath(hit.path).name,
                hit.path,
                hit.start_line,
                summary,
                "" if summary else one_line(hit.signature),
            )
        )
    return entries


def one_line(signature: str) -> str:
    """A signature on one line (its whitespace runs as one space), cut to MAX_SENTENCE_CHARS."""
    line = " ".join(signature.split())
    if len(line) > MAX_SENTENCE_CHARS:
        line = line[: MAX_SENTENCE_CHARS - 2] + " …"
    return line


def as_prose(text: str) -> str:
    """Doc comment text as a reader says it: inline tags as their text (`{@code values}` is
    `values`), formatting tags out, whitespace runs as one space."""
    text = _INLINE_TAG.sub(lambda m: m.group(1) or m.group(2), text)
    return " ".join(_HTML_TAG.sub("", text).split())


def first_doc_sentence(doc: str) -> str:
    """The first sentence of a doc comment as the parser read it (comment markers out): its
    first paragraph up to a tag line (`@param`), inline tags as their text, HTML tags out,
    cut to MAX_SENTENCE_CHARS."""
    words: list[str] = []
    for line in doc.splitlines():
        if _DOC_TAG.match(line):
            break
        if line.strip():
            words.append(line.strip())
        elif words:
            break  # a blank line ends the summary paragraph
    summary = as_prose(" ".join(words))
    if not summary:
        return ""
    match = _SENTENCE.match(summary)
    sentence = match.group(1) if match else summary
    if len(sentence) > MAX_SENTENCE_CHARS:
        sentence = sentence[: MAX_SENTENCE_CHARS - 1].rsplit(" ", 1)[0] + " …"
    return sentence
