"""The brief shown before the model speaks: each top hit's symbol, `path:line` and the first
sentence of its doc comment, read from the chunk itself (no model, a few microseconds)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.models import Hit

BRIEF_HITS = 4
MAX_SENTENCE_CHARS = 140
# A line of a leading doc comment: `///`, `//`, `#` (not `#include`, `#[attr]`, `#!`), `--`,
# `/**`, ` * `, `*/`.
_COMMENT = re.compile(r"^\s*(?:///?|#(?![!\[]|include|define|if|pragma)|--|/\*+|\*+/?)\s?(.*)$")
_DOCSTRING = re.compile(r"^\s*[rRuU]?(\"\"\"|''')\s*(.*?)(?:\1|$)", re.DOTALL)
_DECORATOR = re.compile(r"^\s*(?:@|#\[)")
_SENTENCE = re.compile(r"(.+?[.!?])(?:\s|$)")
_DOC_TAG = re.compile(r"^\s*@\w+")  # `@param`, `@returns`: past the summary


@dataclass(frozen=True, slots=True)
class BriefEntry:
    n: int  # the excerpt number this hit has in the answer's prompt
    symbol: str
    path: str
    line: int
    summary: str  # the first sentence of its doc comment, or ""


def brief(hits: Sequence[Hit], limit: int = BRIEF_HITS) -> list[BriefEntry]:
    return [
        BriefEntry(
            n,
            hit.qualified_name or hit.symbol or hit.kind,
            hit.path,
            hit.start_line,
            first_doc_sentence(hit.text),
        )
        for n, hit in enumerate(hits[:limit], 1)
    ]


def first_doc_sentence(text: str) -> str:
    """The first sentence of the chunk's leading comment, or of the docstring just under its
    first line (Python), cut to MAX_SENTENCE_CHARS."""
    lines = text.splitlines()
    doc = _leading_comment(lines) or _docstring(lines)
    doc = " ".join(doc.split())
    if not doc:
        return ""
    match = _SENTENCE.match(doc)
    sentence = match.group(1) if match else doc
    if len(sentence) > MAX_SENTENCE_CHARS:
        sentence = sentence[: MAX_SENTENCE_CHARS - 1].rsplit(" ", 1)[0] + " …"
    return sentence


def _leading_comment(lines: list[str]) -> str:
    words: list[str] = []
    for line in lines:
        if not line.strip() and not words:
            continue
        match = _COMMENT.match(line)
        if match is None:
            break
        body = match.group(1).strip().rstrip("*/").strip()
        if _DOC_TAG.match(body):
            break
        if body:
            words.append(body)
        elif words:
            break  # a blank comment line ends the summary paragraph
    return " ".join(words)


def _docstring(lines: list[str]) -> str:
    body = [line for line in lines if not _DECORATOR.match(line)]
    for index, line in enumerate(body[:4]):
        if line.rstrip().endswith(":") and index + 1 < len(body):
            rest = "\n".join(body[index + 1 : index + 8])
            match = _DOCSTRING.match(rest)
            if match:
                return match.group(2).split("\n\n")[0]
            return ""
    return ""
