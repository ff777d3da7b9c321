"""How a chunk becomes a row of the chunks table, and back."""

from __future__ import annotations

from typing import Any

from app.core.models import Chunk
from app.core.settings import Settings
from app.indexer.context import embed_text, search_text
from app.search.words import text_key


def chunk_id(chunk: Chunk) -> str:
    return f"{chunk.path}:{chunk.start_line}-{chunk.end_line}"


def embed_chars(settings: Settings) -> int:
    # Code runs about 3-4 characters per wordpiece; cut a little past the token limit.
    return settings.embedding_max_tokens * 5


def chunk_row(chunk: Chunk, max_embed_chars: int) -> dict[str, Any]:
    return {
        "id": chunk_id(chunk),
        "path": chunk.path,
        "language": chunk.language,
        "kind": chunk.kind,
        "symbol": chunk.symbol,
        "qualified_name": chunk.qualified_name,
        "parent": chunk.parent,
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "signature": chunk.signature,
        "doc": chunk.doc,
        "text": chunk.text,
        "part": chunk.part,
        "parts": chunk.parts,
        "content_hash": chunk.hash,
        "embed_key": text_key(embed_text(chunk, max_embed_chars)),
        "search_text": search_text(chunk),
        "thin": chunk.thin,
    }


def chunk_from_row(row: dict[str, Any]) -> Chunk:
    fields = Chunk.__dataclass_fields__
    return Chunk(**{key: value for key, value in row.items() if key in fields})
