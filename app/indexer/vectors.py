"""Embed every chunk that has no vector yet for the configured model, batch by batch, each
batch committed on its own so a killed or cancelled run keeps what it finished."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

import numpy as np

from app.core.events import IndexProgress, ProgressCallback, RunControl
from app.core.models import Chunk
from app.core.paths import is_test_path
from app.core.settings import Settings
from app.indexer.context import embed_text
from app.indexer.rows import chunk_from_row, embed_chars
from app.search.words import text_key, word_text
from app.store.store import CHUNK_COLUMNS, Store

if TYPE_CHECKING:
    from app.indexer.pipeline import IndexReport

# Called with each committed batch (keys, matrix), so a searcher can use vectors as they come.
VectorCallback = Callable[[list[str], np.ndarray], None]

# Vectors are committed (and survive a kill) this many at a time; between commits the run
# checks in every two model batches, so a change waiting for the index waits little.
VECTORS_PER_COMMIT = 256
# Names the texts embedded beside each chunk's own (1: each definition's word text); a change
# of them makes the next run look for missing vectors again.
WORD_VECTORS = 1


def embed_missing(
    store: Store,
    settings: Settings,
    progress: ProgressCallback,
    report: IndexReport,
    control: RunControl,
    paths: Collection[str] | None = None,
    on_vectors: VectorCallback | None = None,
    embedder: Any | None = None,
) -> None:
    """Embed what is missing, among the chunks of `paths` (all chunks when None); shortest
    texts first, so batches pad little."""
    from app.indexer.embed import Embedder, model_id_for

    started = time.perf_counter()
    model_id = model_id_for(settings.embedding_model, settings.embedding_max_tokens)
    if store.manifest.vectors_complete == _complete_marker(store, model_id, settings):
        # Nothing was written since every chunk got its vector: count, do not read.
        paths_counted = Counter(store.chunk_table(["path"]).column("path").to_pylist())
        report.vectors_wanted = report.vectors_total = sum(
            count
            for path, count in paths_counted.items()
            if settings.embed_tests or not is_test_path(path)
        )
        return
    rows = _rows(store, paths)
    if not settings.embed_tests:
        rows = [row for row in rows if not is_test_path(row["path"])]
    row_keys = [row["embed_key"] for row in rows]
    chunks = [chunk_from_row(row) for row in rows]
    # Each definition's words get a vector of their own (app.search.words).
    words = {text_key(text): text for text in map(_word_text, chunks) if text}
    keys = set(row_keys) | words.keys()
    done_keys = store.vector_keys(model_id) if paths is None else store.present_keys(model_id, keys)
    max_chars = embed_chars(settings)
    todo: dict[str, str] = {}
    for key, chunk in zip(row_keys, chunks, strict=True):
        if key not in done_keys and key not in todo:
            todo[key] = embed_text(chunk, max_chars)
    todo.update((key, text) for key, text in words.items() if key not in done_keys)
    if paths is None:
        report.vectors_wanted = len(rows)
    del rows, chunks
    ordered = sorted(todo.items(), key=lambda item: len(item[1]))
    del todo
    # Progress counts every chunk's vector, those a stopped run left too: a run that resumes
    # goes on from where the last one stopped, never from 0%.
    present = len(keys) - len(ordered)
    if ordered and embedder is None:  # loading takes a second; skip it when nothing is new
        embedder = Embedder(
            settings.embedding_model,
            max_tokens=settings.embedding_max_tokens,
            threads=settings.embedding_threads,
            batch_size=settings.embedding_batch_size,
        )
    step = settings.embedding_batch_size * 2
    chars = np.cumsum([0] + [len(text) for _, text in ordered])
    embed_started = time.perf_counter()
    waiting_keys: list[str] = []
    waiting: list[np.ndarray] = []
    chunk_keys = set(row_keys)
    embedded = 0

    def commit() -> None:
        nonlocal embedded
        if waiting_keys:
            matrix = np.concatenate(waiting)
            store.add_vectors(model_id, waiting_keys, matrix)
            embedded += len(waiting_keys)
            own = sum(key in chunk_keys for key in waiting_keys)
            report.vectors_added += own
            report.word_vectors_added += len(waiting_keys) - own
            if on_vectors is not None:
                on_vectors(list(waiting_keys), matrix)
            waiting_keys.clear()
            waiting.clear()

    for start in range(0, len(ordered), step):
        if control.checkpoint() or control.should_yield():
            report.vectors_deferred = not control.cancelled
            break
        eta = _eta(embed_started, start, chars)
        progress(IndexProgress("embed", present + start, len(keys), "embedding chunks", eta))
        batch = ordered[start : start + step]
        assert embedder is not None
        waiting.append(embedder.embed([text for _, text in batch]))
        waiting_keys.extend(key for key, _ in batch)
        if len(waiting_keys) >= VECTORS_PER_COMMIT:
            commit()
    commit()
    if embedded:
        store.compact_vectors(model_id)
    progress(IndexProgress("embed", present + embedded, len(keys), "vectors ready", 0.0))
    complete = paths is None and not report.vectors_deferred and not control.cancelled
    complete = complete and embedded == len(ordered)
    marker = _complete_marker(store, model_id, settings) if complete else ""
    if (store.manifest.embedding_model, store.manifest.vectors_complete) != (model_id, marker):
        store.manifest.embedding_model = model_id
        store.manifest.vectors_complete = marker
        store.save_manifest()
    if paths is None:
        have = done_keys | {key for key, _ in ordered[:embedded]}
        report.vectors_total = sum(1 for key in row_keys if key in have)
    report.seconds["embed"] = time.perf_counter() - started


def _word_text(chunk: Chunk) -> str:
    return word_text(chunk.kind, chunk.symbol, chunk.parent, chunk.path, chunk.doc, chunk.part)


def _complete_marker(store: Store, model_id: str, settings: Settings) -> str:
    """What the manifest records once every chunk has a vector; the shared table's epoch
    changes when it is dropped, and the marker with it."""
    epoch = store.vectors_epoch(model_id)
    return f"{model_id} tests={settings.embed_tests} words={WORD_VECTORS} epoch={epoch}"


def _rows(store: Store, paths: Collection[str] | None) -> list[dict[str, Any]]:
    if paths is None:
        return list(store.chunk_table(CHUNK_COLUMNS).to_pylist())
    return list(store.chunks_for_paths(paths, CHUNK_COLUMNS).to_pylist())


def _eta(started: float, done: int, chars: np.ndarray) -> float | None:
    """Seconds left, from the characters embedded so far (later texts are longer);
    `chars` holds the running total of text lengths in embedding order."""
    if not done:
        return None
    chars_left = float(chars[-1] - chars[done])
    return (time.perf_counter() - started) * chars_left / max(float(chars[done]), 1.0)
