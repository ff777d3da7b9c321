"""A consistency check of one published index: what `stats --check` and the crash tests run."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from app.store.graph_tables import GRAPH_EDGES, GRAPH_FILES, GRAPH_SYMBOLS
from app.store.manifest import IndexStoreError
from app.store.store import Store


def check_index(index_dir: Path) -> list[str]:
    """Problems found (an empty list means consistent): the manifest and every table open at
    their published versions and read whole (the shared vectors too), chunks and files agree,
    and the graph knows only indexed files or lists the rest as pending."""
    try:
        store = Store.open(index_dir)
    except IndexStoreError as error:
        return [str(error)]
    damaged = store.verify(store.manifest.embedding_model)
    if damaged:
        return damaged
    files = store.files()
    rows = store.chunk_table(["id", "path"]).to_pylist()
    problems = []
    ids = Counter(row["id"] for row in rows)
    duplicates = [chunk_id for chunk_id, n in ids.items() if n > 1]
    if duplicates:
        problems.append(f"{len(duplicates)} chunk ids appear twice, e.g. {duplicates[0]}")
    per_path = Counter(row["path"] for row in rows)
    unknown = sorted(set(per_path) - set(files))
    if unknown:
        problems.append(f"chunks of {len(unknown)} files the files table lacks, e.g. {unknown[0]}")
    for path, record in files.items():
        if per_path[path] != record.chunk_count:
            problems.append(
                f"{path}: {per_path[path]} chunks, the files table says {record.chunk_count}"
            )
    if "graph_files" in store.manifest.table_versions:
        graphed = set(store.read_table(GRAPH_FILES, ["path"]).column("path").to_pylist())
        pending = set(store.manifest.graph_pending)
        stray = sorted(graphed - set(files) - pending)
        if stray:
            problems.append(f"the call graph holds {len(stray)} files not indexed, e.g. {stray[0]}")
    return problems


def index_fingerprint(index_dir: Path) -> dict[str, list[Any]]:
    """What two indexes of the same tree must share, however they were built: chunks (id,
    content, embedded text), indexed files, call edges and symbols with their fan-in/out."""
    store = Store.open(index_dir)
    chunks = store.chunk_table(["id", "content_hash", "embed_key"]).to_pylist()
    edges = store.read_table(GRAPH_EDGES).to_pylist()
    symbols = store.read_table(GRAPH_SYMBOLS, ["id", "fan_in", "fan_out"]).to_pylist()
    return {
        "chunks": sorted((r["id"], r["content_hash"], r["embed_key"]) for r in chunks),
        "files": sorted(store.files()),
        "edges": sorted(
            (e["path"], e["caller"], e["callee"], e["line"], round(e["confidence"], 3), e["rule"])
            for e in edges
        ),
        "symbols": sorted((s["id"], s["fan_in"], s["fan_out"]) for s in symbols),
    }
