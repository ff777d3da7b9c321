"""The call-graph step of an index run, which may trail the chunks.

Chunks are published first, so a saved file is searchable at once; the graph is resolved
after, over every path whose facts changed since the graph was last written. Those paths are
kept in the manifest (`graph_pending`) until the graph catches up, so a run killed in between,
or a watcher that defers the graph while edits keep coming, never leaves it silently behind.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from app.core.settings import Settings
from app.graph.build import update_graph
from app.graph.facts import FileFacts, keeps_facts
from app.indexer.chunk import parse_file
from app.indexer.walk import read_source
from app.store.store import Store


def facts_from_disk(
    root: Path, paths: Collection[str], indexed: Collection[str], settings: Settings
) -> dict[str, FileFacts]:
    """Parse `paths` again (those still indexed) for their symbols and calls."""
    out: dict[str, FileFacts] = {}
    for path in sorted(set(paths) & set(indexed)):
        text, _ = read_source(root / path, max_file_bytes=settings.max_file_bytes, root=root)
        if text is None:
            continue
        parsed = parse_file(path, text, max_chunk_lines=settings.max_chunk_lines)
        if keeps_facts(parsed):
            out[path] = FileFacts.from_parsed(parsed)
    return out


def catch_up_graph(
    store: Store,
    root: Path,
    settings: Settings,
    facts: dict[str, FileFacts],
    parsed_paths: Collection[str] = (),
    should_stop: Callable[[], bool] = lambda: False,
) -> dict[str, Any]:
    """Bring the graph tables up to date with every pending path; the caller publishes.
    `facts` holds the symbols and calls of the files this run parsed (`parsed_paths`, some of
    which have none); other pending paths are parsed again."""
    pending = set(store.manifest.graph_pending)
    if not pending and store.manifest.table_versions.get("graph_files") is not None:
        return {}
    missing = pending - set(facts) - set(parsed_paths)
    parsed = dict(facts)
    if missing:
        parsed.update(facts_from_disk(root, missing, store.files(), settings))
    report = update_graph(store, parsed, pending | set(parsed), should_stop=should_stop).as_dict()
    store.manifest.graph_pending = []
    return report
