"""Deterministic chunk headers (`path | in Class | def name(...)`) and the texts derived from
a chunk for the full-text index and for the embedding model."""

from __future__ import annotations

from app.core.models import Chunk
from app.search.tokenize import name_words, token_text


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
    head = header(chunk)
    name = chunk.qualified_name or chunk.symbol
    if name:
        head = f"{head}\n{name_words(name)}"
    doc = chunk.doc.strip()
    body = chunk.text
    text = f"{head}\n{doc}\n{body}" if doc and doc not in body else f"{head}\n{body}"
    return text[:max_chars]
