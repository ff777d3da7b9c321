"""Fan-in, fan-out and PageRank per symbol, and the hotspot score built on them.

PageRank is networkx's algorithm (weighted, dangling mass spread uniformly, alpha 0.85) run as
a numpy sparse power iteration, because networkx's own fast path needs scipy, which we do not
ship; tests/unit/test_graph.py checks it against networkx's reference implementation."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from app.core.models import Edge

# A hotspot is a definition that carries the code: called from central places (PageRank), long,
# and calling much itself. PageRank alone puts one-line helpers first (throw helpers such as
# Ecto's `Builder.error!`, constructors, loggers) and fills the list with what everything
# calls but nobody needs to read first. The exponents were fitted on the definitions the dev
# and dev2 questions ask about (12 repositories, 11 languages), leaving each repository out in
# turn: `repolens-tui-bench hotspot-bench` (app/bench/RESULTS.md, 2026-12-05).
HOTSPOT_LINES_EXPONENT = 1.0
HOTSPOT_CALLS_EXPONENT = 1.5


def hotspot_score(
    pagerank: float,
    lines: int,
    fan_out: int,
    lines_exponent: float = HOTSPOT_LINES_EXPONENT,
    calls_exponent: float = HOTSPOT_CALLS_EXPONENT,
) -> float:
    """How much a definition carries: PageRank x lines x (1 + distinct callees)^1.5 (the
    exponents are parameters for the bench that fits them)."""
    return pagerank * max(lines, 1) ** lines_exponent * (1 + fan_out) ** calls_exponent


def pagerank(
    nodes: Sequence[str],
    edges: Sequence[tuple[str, str, float]],
    *,
    alpha: float = 0.85,
    max_iter: int = 100,
    tol: float = 1.0e-6,
) -> dict[str, float]:
    """networkx.pagerank(G, alpha, weight="weight") for a DiGraph with these weighted edges
    (parallel edges summed, as a DiGraph built edge by edge with added weights would be)."""
    n = len(nodes)
    if n == 0:
        return {}
    index = {node: i for i, node in enumerate(nodes)}
    src = np.fromiter((index[a] for a, _, _ in edges), dtype=np.int64, count=len(edges))
    dst = np.fromiter((index[b] for _, b, _ in edges), dtype=np.int64, count=len(edges))
    weight = np.fromiter((w for _, _, w in edges), dtype=np.float64, count=len(edges))
    out_weight = np.bincount(src, weights=weight, minlength=n)
    dangling = out_weight == 0
    share = np.divide(weight, out_weight[src], out=np.zeros_like(weight), where=out_weight[src] > 0)
    rank = np.full(n, 1.0 / n)
    for _ in range(max_iter):
        previous = rank
        spread = np.bincount(dst, weights=previous[src] * share, minlength=n)
        rank = alpha * spread + (alpha * previous[dangling].sum() + 1.0 - alpha) / n
        if np.abs(rank - previous).sum() < n * tol:
            break
    return dict(zip(nodes, rank.tolist(), strict=True))


def rank_symbols(
    symbol_ids: Sequence[str], edges: Sequence[Edge], min_confidence: float = 0.7
) -> dict[str, tuple[int, int, float]]:
    """symbol id -> (fan-in, fan-out, PageRank) over the edges at `min_confidence` or above
    (certain and probable by default: a guess between 5 candidates confers no centrality).
    Fan counts distinct callers/callees; PageRank weighs each edge by its confidence."""
    callers: dict[str, set[str]] = {sid: set() for sid in symbol_ids}
    callees: dict[str, set[str]] = {sid: set() for sid in symbol_ids}
    weighted: dict[tuple[str, str], float] = {}
    for e in edges:
        if e.callee not in callers or e.caller not in callers or e.caller == e.callee:
            continue  # module-level callers and self-recursion add no centrality
        if e.confidence < min_confidence:
            continue
        callers[e.callee].add(e.caller)
        callees[e.caller].add(e.callee)
        key = (e.caller, e.callee)
        weighted[key] = weighted.get(key, 0.0) + e.confidence
    scores = pagerank(list(symbol_ids), [(a, b, w) for (a, b), w in weighted.items()])
    return {sid: (len(callers[sid]), len(callees[sid]), scores[sid]) for sid in symbol_ids}
