"""Schemas of the call-graph tables: per-file facts, resolved edges (and unresolved calls),
and symbols with their ranks. Versioned and published with the rest of the index."""

from __future__ import annotations

import pyarrow as pa

GRAPH_FILES = "graph_files"
GRAPH_EDGES = "graph_edges"
GRAPH_SYMBOLS = "graph_symbols"
GRAPH_TABLES = (GRAPH_FILES, GRAPH_EDGES, GRAPH_SYMBOLS)

GRAPH_FILE_SCHEMA = pa.schema(
    [("path", pa.string()), ("language", pa.string()), ("facts", pa.large_string())]
)
# One row per edge; an unresolved call is a row with callee "" and its reason in `rule`.
GRAPH_EDGE_SCHEMA = pa.schema(
    [
        ("path", pa.string()),
        ("call", pa.int32()),  # index of the call in its file's facts
        ("caller", pa.string()),
        ("callee", pa.string()),
        ("callee_text", pa.string()),
        ("line", pa.int32()),
        ("confidence", pa.float32()),
        ("rule", pa.string()),
    ]
)
GRAPH_SYMBOL_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("path", pa.string()),
        ("name", pa.string()),
        ("qualified_name", pa.string()),
        ("kind", pa.string()),
        ("parent", pa.string()),
        ("language", pa.string()),
        ("start_line", pa.int32()),
        ("end_line", pa.int32()),
        ("fan_in", pa.int32()),
        ("fan_out", pa.int32()),
        ("pagerank", pa.float64()),
    ]
)
GRAPH_SCHEMAS = (
    (GRAPH_FILES, GRAPH_FILE_SCHEMA),
    (GRAPH_EDGES, GRAPH_EDGE_SCHEMA),
    (GRAPH_SYMBOLS, GRAPH_SYMBOL_SCHEMA),
)
