"""A long chunk's second embedding window: which chunks have one and the key of its vector,
shared by the indexer (which embeds it) and the corpus (which scores a chunk by its best window)."""

from __future__ import annotations

import hashlib

# Code runs 2.6-4.2 characters per wordpiece (median 3.35 over the dev, dev2 and semble
# chunks), so the model has read about this many characters per token when it stops. Taking
# the low end starts the second window a little early: an overlap rather than a gap.
CHARS_PER_TOKEN = 3
DEFAULT_TOKENS = 384  # the settings' default, for a model id that does not say


def has_window(text: str, max_tokens: int) -> bool:
    """Whether a chunk's body runs past what the model reads of its first window."""
    return len(text) > max_tokens * CHARS_PER_TOKEN


def window_key(embed_key: str, content_hash: str) -> str:
    """The vector key of the second window: the first window's key and the whole body's hash
    fix its text, so the corpus need not build the text to find the vector."""
    return hashlib.sha1(f"{embed_key}|{content_hash}|window 2".encode()).hexdigest()[:24]


def max_tokens_of(model_id: str) -> int:
    """The truncation a model id records (`name@384`, as the indexer writes it)."""
    _, _, tokens = model_id.rpartition("@")
    return int(tokens) if tokens.isdigit() else DEFAULT_TOKENS
