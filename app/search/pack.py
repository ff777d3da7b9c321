"""Fill a token budget with hits, best first: whole body, else signature, else left out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

CHARS_PER_TOKEN = 3.6  # the benchmark's conversion; code averages about that


def estimate_tokens(text: str) -> int:
    return int(len(text) / CHARS_PER_TOKEN + 0.999)


@dataclass(frozen=True, slots=True)
class Packable:
    """A ranked candidate as the packer sees it."""

    chunk_id: str
    body: str
    signature: str
    parent_signature: str  # set for a method whose class is not packed with it


@dataclass(frozen=True, slots=True)
class Packed:
    chunk_id: str
    text: str
    form: str  # "body" or "signature"


def pack(
    candidates: Sequence[Packable],
    budget_tokens: int,
    limit: int,
    measure: Callable[[str], int] = estimate_tokens,
) -> list[Packed]:
    """Take candidates in order until `limit` are packed or nothing more fits."""
    packed: list[Packed] = []
    used = 0
    for candidate in candidates:
        if len(packed) >= limit:
            break
        prefix = f"{candidate.parent_signature}\n    ...\n" if candidate.parent_signature else ""
        body = prefix + candidate.body
        cost = measure(body)
        if used + cost <= budget_tokens:
            packed.append(Packed(candidate.chunk_id, body, "body"))
            used += cost
            continue
        signature = prefix + (candidate.signature or candidate.body.split("\n", 1)[0])
        cost = measure(signature)
        if used + cost <= budget_tokens:
            packed.append(Packed(candidate.chunk_id, signature, "signature"))
            used += cost
    return packed
