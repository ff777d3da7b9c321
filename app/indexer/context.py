"""Deterministic chunk headers (`path | in Class | def name(...)`) and the texts derived from
a chunk for the full-text index and for the embedding model."""

from __future__ import annotations

from app.core.models import Chunk
from app.search.tokenize import name_words, token_text
from app.search.windows import CHARS_PER_TOKEN, has_window


def header(chunk: Chunk) -> str:
    """Where the chunk lives and what it is, in one line."""
    parts = [chunk.path]
    if chunk.parent:
        parts.append(f"in {chunk.parent}")
    if chunk.signature:
        parts.append(chunk.signature)
    elif chunk.qualified_name or chunk.symbol:
        parts.append(f"{chunk.kind} {chunk.qualified_name or chunk.symbol}")
    if chunk.parts > 1:
        parts.append(f"part {chunk.part}/{chunk.parts}")
    return " | ".join(parts)


def search_text(chunk: Chunk) -> str:
    """Token text for BM25: header, qualified name, doc and body, identifier-split."""
    return token_text(f"{header(chunk)}\n{chunk.qualified_name}\n{chunk.doc}\n{chunk.text}")


def embed_text(chunk: Chunk, max_chars: int) -> str:
    """What the embedding model sees: header, the name in plain words (`$ZodCatch` -> "zod
    catch": the model reads words, and split identifiers are sub-word pieces to it), doc,
    then the body, cut to a character budget (the model truncates at its token limit anyway;
    cutting first saves tokenizer time)."""
    head, doc = _head(chunk), chunk.doc.strip()
    body = chunk.text
    text = f"{head}\n{doc}\n{body}" if doc and doc not in body else f"{head}\n{body}"
    return text[:max_chars]


def later_window(chunk: Chunk, max_tokens: int, max_chars: int) -> str:
    """The second window of a chunk too long for the model: the same header, then the body
    from the line where the first window's wordpieces run out ("" when there is none)."""
    if not has_window(chunk.text, max_tokens):
        return ""
    head, doc = _head(chunk), chunk.doc.strip()
    before = len(head) + 1 + (len(doc) + 1 if doc and doc not in chunk.text else 0)
    start = max(0, max_tokens * CHARS_PER_TOKEN - before)
    start = chunk.text.rfind("\n", 0, start) + 1  # from a line's start
    return f"{head}\n{chunk.text[start:]}"[:max_chars]


def _head(chunk: Chunk) -> str:
    head = header(chunk)
    name = chunk.qualified_name or chunk.symbol
    return f"{head}\n{name_words(name)}" if name else head
