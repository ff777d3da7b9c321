"""The hit list spread over files: one file's many similar chunks must not fill it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from app.core.models import Signal

# The k-th chunk of one file in the list is scored x FILE_DECAY^(k-1): the decay with the best
# mean over every eval set that costs no set more than 0.01 (`repolens-tui-bench fit-diversity`;
# stronger decays lift semble-dev further but cost dev2's one-definition answers, RESULTS.md).
FILE_DECAY = 0.95


def spread(
    ranked: Sequence[str],
    score: Mapping[str, float],
    path_of: Callable[[str], str],
    decay: float = FILE_DECAY,
    keep: str | None = None,
) -> tuple[list[str], dict[str, int]]:
    """`ranked` (best first by `score`) re-sorted once the k-th chunk of each file is scored
    x decay^(k-1), all but `keep` (the chunk both retrievers rank first: an exact double #1
    loses nothing to its file's other chunks); also, per chunk so lowered, how many of its
    file's chunks rank above it."""
    listed: dict[str, int] = {}
    earlier: dict[str, int] = {}
    for chunk_id in ranked:
        path = path_of(chunk_id)
        before = listed.get(path, 0)
        listed[path] = before + 1
        if before and decay != 1.0 and chunk_id != keep:
            earlier[chunk_id] = before
    place = {chunk_id: i for i, chunk_id in enumerate(ranked)}

    def key(chunk_id: str) -> tuple[float, int]:
        return (-score[chunk_id] * decay ** earlier.get(chunk_id, 0), place[chunk_id])

    return sorted(ranked, key=key), earlier


def signal(earlier: int, decay: float = FILE_DECAY) -> Signal:
    """What `--explain` says of a chunk lowered because `earlier` chunks of its file rank
    above it."""
    return Signal("same-file", decay**earlier, f"{earlier} chunk(s) of its file rank above it")


def keep_in_list(ranked: Sequence[str], chunk_id: str, k: int) -> list[str]:
    """`ranked` with `chunk_id` moved up to the k-th place if it ranks below it."""
    order = list(ranked)
    if chunk_id in order[k:]:
        order.remove(chunk_id)
        order.insert(k - 1, chunk_id)
    return order
