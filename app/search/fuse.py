"""Reciprocal Rank Fusion of ranked candidate lists."""

from __future__ import annotations

from collections.abc import Sequence

# The constant from the RRF paper; it damps the head so one list cannot dominate.
RRF_K = 60


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[str]], k: int = RRF_K, weights: Sequence[float] | None = None
) -> dict[str, float]:
    """Fused score per id: the sum over lists of weight / (k + rank), ranks from 1."""
    scores: dict[str, float] = {}
    for index, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else weights[index]
        for rank, item in enumerate(ranking, 1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return scores
