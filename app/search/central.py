"""Centrality as a prior: a definition called from many places is more often what a question
that names no identifier is after; one bounded factor per chunk, from the stored call graph."""

from __future__ import annotations

from app.core.models import Signal
from app.store.graph_tables import GRAPH_SYMBOLS
from app.store.store import Store

WEIGHT = 0.0  # the exponent w of (1 + centrality) ^ w; 0 turns the prior off
# "fan_in": distinct callers; "pagerank": PageRank times the number of definitions (mean 1)
MEASURE = "fan_in"
MOST = 1.5  # the factor's bound: a hub called from everywhere is no answer by that alone

Centrality = dict[tuple[str, str], float]  # (path, qualified name) -> fan-in or scaled PageRank


def read(store: Store) -> Centrality:
    """Each graph definition's centrality, the most central of a name's overloads kept;
    empty when the index has no call graph yet."""
    if GRAPH_SYMBOLS not in store.manifest.table_versions:
        return {}
    table = store.read_table(GRAPH_SYMBOLS, ["path", "qualified_name", "fan_in", "pagerank"])
    rows = table.to_pylist()
    found: Centrality = {}
    for row in rows:
        value = float(row["fan_in"]) if MEASURE == "fan_in" else row["pagerank"] * len(rows)
        key = (row["path"], row["qualified_name"])
        found[key] = max(found.get(key, 0.0), value)
    return found


def signal(value: float) -> Signal | None:
    """The factor for a chunk of this centrality, or None where it changes nothing."""
    factor = min(MOST, (1.0 + value) ** WEIGHT)
    if not WEIGHT or factor <= 1.0:
        return None
    said = f"called from {value:.0f} definitions"
    if MEASURE != "fan_in":
        said = f"PageRank {value:.3g}x the mean"
    return Signal("central", factor, f"{said} (call graph)")
