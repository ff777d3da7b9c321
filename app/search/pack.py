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
    """Up to `limit` candidates, in order. First every one gets its signature (a pointer is
    cheap and keeps good hits from being crowded out by one long body); then, best first,
    each is upgraded to its whole body while the budget allows."""
    chosen: list[tuple[Packable, str, str]] = []  # candidate, signature text, body text
    used = 0
    for candidate in candidates:
        if len(chosen) >= limit:
            break
        prefix = f"{candidate.parent_signature}\n    ...\n" if candidate.parent_signature else ""
        signature = prefix + (candidate.signature or candidate.body.split("\n", 1)[0])
        cost = measure(signature)
        if used + cost <= budget_tokens:
            chosen.append((candidate, signature, prefix + candidate.body))
            used += cost
    packed: list[Packed] = []
    for candidate, signature, body in chosen:
        extra = measure(body) - measure(signature)
        if used + extra <= budget_tokens:
            used += extra
            packed.append(Packed(candidate.chunk_id, body, "body"))
        else:
            packed.append(Packed(candidate.chunk_id, signature, "signature"))
    return packed
