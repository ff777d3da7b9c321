"""The index run: walk, read changed files, chunk, write, publish, then embed what is missing."""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core.events import IndexProgress, ProgressCallback, ignore_progress
from app.core.models import SkippedFile
from app.core.settings import Settings
from app.graph.build import update_graph
from app.graph.facts import FileFacts
from app.indexer.chunk import parse_file
from app.indexer.context import embed_text, is_test_path
from app.indexer.rows import chunk_from_row, chunk_row, embed_chars
from app.indexer.walk import WalkedFile, read_source, walk
from app.store.manifest import STRATEGY_VERSION, WriteLock
from app.store.store import CHUNK_COLUMNS, Store


@dataclass(slots=True)
class IndexReport:
    """What an index run did, for the summary line and `stats`."""

    files_seen: int = 0
    files_parsed: int = 0
    files_unchanged: int = 0
    files_removed: int = 0
    chunks_added: int = 0
    chunks_total: int = 0
    skipped_by_reason: dict[str, int] = field(default_factory=dict)
    vectors_wanted: int = 0  # chunks that get a vector (test files only with embed_tests)
    vectors_added: int = 0
    vectors_total: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    graph: dict[str, Any] = field(default_factory=dict)  # app.graph.build.GraphReport

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _file_row(
    walked: WalkedFile, sha: str, language: str, strategy: str, count: int
) -> dict[str, Any]:
    return {
        "path": walked.path,
        "sha256": sha,
        "size": walked.size,
        "mtime_ns": walked.mtime_ns,
        "language": language,
        "strategy": strategy,
        "strategy_version": STRATEGY_VERSION,
        "chunk_count": count,
    }


def index_repository(
    root: Path,
    index_dir: Path,
    settings: Settings,
    progress: ProgressCallback = ignore_progress,
    *,
    with_vectors: bool = True,
    should_stop: Callable[[], bool] = lambda: False,
) -> IndexReport:
    """Bring the index of `root` up to date. Only files whose size, mtime (then hash) or the
    chunking strategy changed are re-read; readers see the old index until `publish`."""
    report = IndexReport()
    with WriteLock(index_dir):
        store = Store.open_for_write(index_dir, root)
        started = time.perf_counter()
        progress(IndexProgress("walk", 0, 0, f"walking {root}"))
        walked = walk(
            root, max_file_bytes=settings.max_file_bytes, extra_ignores=settings.extra_ignores
        )
        report.seconds["walk"] = time.perf_counter() - started
        report.files_seen = len(walked.files)

        started = time.perf_counter()
        previous = store.files()
        same_strategy = store.manifest.strategy_version == STRATEGY_VERSION
        skipped: list[SkippedFile] = list(walked.skipped)
        replaced: set[str] = set(previous) - {f.path for f in walked.files}
        report.files_removed = len(replaced)
        chunk_rows: list[dict[str, Any]] = []
        file_rows: list[dict[str, Any]] = []
        touched_rows: list[dict[str, Any]] = []
        max_chars = embed_chars(settings)
        graph_facts: dict[str, FileFacts] = {}
        total = len(walked.files)
        for number, walked_file in enumerate(walked.files, 1):
            if should_stop():
                return report
            if number % 200 == 0 or number == total:
                progress(IndexProgress("parse", number, total, walked_file.path))
            old = previous.get(walked_file.path)
            fresh = same_strategy and old is not None and old.strategy_version == STRATEGY_VERSION
            if (
                fresh
                and old
                and (old.size, old.mtime_ns) == (walked_file.size, walked_file.mtime_ns)
            ):
                report.files_unchanged += 1
                continue
            text, problem = read_source(
                walked_file.abs_path, max_file_bytes=settings.max_file_bytes
            )
            if text is None:
                reason = problem.reason if problem else "unreadable"
                detail = problem.detail if problem else ""
                skipped.append(SkippedFile(walked_file.path, reason, detail))
                if old is not None:
                    replaced.add(walked_file.path)
                continue
            sha = _sha256(text)
            if fresh and old and old.sha256 == sha:
                touched_rows.append(
                    _file_row(walked_file, sha, old.language, old.strategy, old.chunk_count)
                )
                report.files_unchanged += 1
                continue
            parsed = parse_file(walked_file.path, text, max_chunk_lines=settings.max_chunk_lines)
            replaced.add(walked_file.path)
            if parsed.symbols or parsed.calls:
                graph_facts[walked_file.path] = FileFacts.from_parsed(parsed)
            chunk_rows.extend(chunk_row(chunk, max_chars) for chunk in parsed.chunks)
            file_rows.append(
                _file_row(walked_file, sha, parsed.language, parsed.strategy, len(parsed.chunks))
            )
            report.files_parsed += 1
        report.seconds["parse"] = time.perf_counter() - started

        started = time.perf_counter()
        progress(IndexProgress("write", 0, 1, f"writing {len(chunk_rows)} chunks"))
        store.replace_files(replaced, chunk_rows, file_rows)
        store.touch_files(touched_rows)
        store.set_skipped(
            [{"path": s.path, "reason": s.reason, "detail": s.detail} for s in skipped]
        )
        if replaced or chunk_rows or not store.manifest.table_versions:
            store.build_text_index()
        report.chunks_added = len(chunk_rows)
        report.chunks_total = int(store.chunk_table(["id"]).num_rows)
        report.skipped_by_reason = dict(Counter(s.reason for s in skipped))
        report.seconds["write"] = time.perf_counter() - started
        started = time.perf_counter()
        if replaced or graph_facts or not store.manifest.table_versions:
            progress(IndexProgress("graph", 0, 1, "resolving calls"))
            report.graph = update_graph(store, graph_facts, replaced).as_dict()
        report.seconds["graph"] = time.perf_counter() - started
        store.publish(**{k: v for k, v in report.as_dict().items() if k != "seconds"})
        progress(IndexProgress("write", 1, 1, "lexical search ready"))
        # The rows are written; embedding reads them back, so hold no second copy meanwhile.
        del chunk_rows, file_rows, touched_rows, graph_facts, walked, previous

        if with_vectors:
            embed_missing(store, settings, progress, report, should_stop)
        progress(IndexProgress("done", 1, 1, "index up to date"))
    return report


def embed_missing(
    store: Store,
    settings: Settings,
    progress: ProgressCallback,
    report: IndexReport,
    should_stop: Callable[[], bool] = lambda: False,
) -> None:
    """Embed every chunk whose embedding text has no vector yet for this model, batch by
    batch (each batch committed), shortest texts first so batches pad little."""
    from app.indexer.embed import Embedder, model_id_for

    started = time.perf_counter()
    model_id = model_id_for(settings.embedding_model, settings.embedding_max_tokens)
    done_keys = store.vector_keys(model_id)
    rows = store.chunk_table(CHUNK_COLUMNS).to_pylist()
    max_chars = embed_chars(settings)
    todo: dict[str, str] = {}
    if not settings.embed_tests:
        rows = [row for row in rows if not is_test_path(row["path"])]
    report.vectors_wanted = len(rows)
    for row in rows:
        key = row["embed_key"]
        if key not in done_keys and key not in todo:
            todo[key] = embed_text(chunk_from_row(row), max_chars)
    ordered = sorted(todo.items(), key=lambda item: len(item[1]))
    embedder = None
    if ordered:  # loading the model costs a second; an up-to-date index needs none of it
        embedder = Embedder(
            settings.embedding_model,
            max_tokens=settings.embedding_max_tokens,
            threads=settings.embedding_threads,
            batch_size=settings.embedding_batch_size,
        )
    batch_size = max(settings.embedding_batch_size * 4, 64)
    for start in range(0, len(ordered), batch_size):
        if should_stop():
            break
        batch = ordered[start : start + batch_size]
        progress(IndexProgress("embed", start, len(ordered), "embedding chunks"))
        assert embedder is not None
        matrix = embedder.embed([text for _, text in batch])
        store.add_vectors(model_id, [key for key, _ in batch], matrix)
        report.vectors_added += len(batch)
    progress(IndexProgress("embed", len(ordered), len(ordered), "vectors ready"))
    store.manifest.embedding_model = model_id
    store.save_manifest()
    have = done_keys | {key for key, _ in ordered[: report.vectors_added]}
    report.vectors_total = sum(1 for row in rows if row["embed_key"] in have)
    report.seconds["embed"] = time.perf_counter() - started
