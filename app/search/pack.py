"""Fill a token budget with hits, best first: whole body, else (when asked) the body's first
lines, else signature, else left out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

CHARS_PER_TOKEN = 3.6  # the benchmark's conversion; code averages about that
# A body cut to its first lines is worth packing only if this many tokens of it fit beyond
# the signature: fewer say no more than the signature does.
CUT_MIN_TOKENS = 40
BODY, CUT, SIGNATURE = "body", "cut", "signature"


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
    form: str  # BODY, CUT (the body's first lines, then a line saying how many follow) or SIGNATURE


def pack(
    candidates: Sequence[Packable],
    budget_tokens: int,
    limit: int,
    measure: Callable[[str], int] = estimate_tokens,
    cut_tokens: int = 0,
) -> list[Packed]:
    """Up to `limit` candidates, in order. First every one gets its signature (a pointer is
    cheap and keeps good hits from being crowded out by one long body); then, best first,
    each is upgraded to its whole body while the budget allows. With `cut_tokens`, what is
    left then goes, best first, to the bodies that did not fit: their first lines, up to
    `cut_tokens` more than the signature (at least CUT_MIN_TOKENS more, or none)."""
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
            packed.append(Packed(candidate.chunk_id, body, BODY))
        else:
            packed.append(Packed(candidate.chunk_id, signature, SIGNATURE))
    if cut_tokens < CUT_MIN_TOKENS:
        return packed
    for index, (item, (_, signature, body)) in enumerate(zip(packed, chosen, strict=True)):
        if item.form != SIGNATURE:
            continue
        room = min(budget_tokens - used, cut_tokens) + measure(signature)
        head = cut_body(body, room, measure)
        if head and measure(head) - measure(signature) >= CUT_MIN_TOKENS:
            used += measure(head) - measure(signature)
            packed[index] = Packed(item.chunk_id, head, CUT)
    return packed


def cut_body(body: str, room: int, measure: Callable[[str], int] = estimate_tokens) -> str:
    """The body's first lines that fit `room` tokens together with a last line saying how
    many lines follow ("" when not even the first line fits). Each line is measured once."""
    lines = body.split("\n")
    tail = measure(_more(len(lines)))  # the longest "N more lines" it can need
    used = 0
    kept = 0
    for line in lines:
        cost = measure(line + "\n")
        if used + cost + tail > room:
            break
        used += cost
        kept += 1
    if not kept:
        return ""
    if kept == len(lines):
        return body
    return "\n".join([*lines[:kept], _more(len(lines) - kept)])


def _more(count: int) -> str:
    return f"... ({count} more line{'' if count == 1 else 's'})"
