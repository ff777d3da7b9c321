"""The index run: find what changed, read and chunk it, write, publish, then embed what is
missing. A full run walks the repository; a run given `changed` paths (from the watcher)
looks at those alone unless one of them needs a walk (a directory, an ignore file)."""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core.events import IndexProgress, ProgressCallback, RunControl, ignore_progress
from app.core.models import SkippedFile
from app.core.paths import index_folders
from app.core.settings import Settings
from app.graph.build import GraphStopped
from app.graph.facts import FileFacts, keeps_facts
from app.indexer.chunk import parse_file
from app.indexer.gitinfo import head_commit
from app.indexer.graph_step import catch_up_graph
from app.indexer.rows import chunk_row, embed_chars
from app.indexer.targets import classify_paths
from app.indexer.vectors import VectorCallback, embed_missing
from app.indexer.walk import WalkedFile, read_source, walk
from app.store.damage import repair_line
from app.store.manifest import STRATEGY_VERSION, IndexDamaged, WriteLock, write_errors_explained
from app.store.store import Store

FLUSH_ROWS = 5_000  # chunk rows held in memory before they are written (not yet published)

# Called after each publish with the paths whose chunks changed (None: too many to list, or
# a fresh build), or with an empty set when only the call graph changed.
PublishCallback = Callable[[set[str] | None], None]


@dataclass(slots=True)
class IndexReport:
    """What an index run did, for the summary line and `stats`."""

    mode: str = "full"  # "full" (walked everything) or "paths" (looked at changed paths only)
    rescan_reason: str = ""  # why a run given paths walked everything instead
    files_seen: int = 0
    files_parsed: int = 0
    files_unchanged: int = 0
    files_removed: int = 0
    chunks_added: int = 0
    chunks_total: int = 0
    skipped_by_reason: dict[str, int] = field(default_factory=dict)
    vectors_wanted: int = 0  # chunks that get a vector (test files only with embed_tests)
    vectors_added: int = 0  # chunk texts embedded
    word_vectors_added: int = 0  # definitions' word texts embedded (app.search.words)
    vectors_total: int = 0
    cancelled: bool = False
    graph_pending: int = 0  # changed paths whose calls are not yet resolved (graph deferred)
    vectors_deferred: bool = False  # embedding stopped early for newer work; resumes later
    repairs: list[str] = field(default_factory=list)  # damaged tables found and rebuilt
    seconds: dict[str, float] = field(default_factory=dict)
    graph: dict[str, Any] = field(default_factory=dict)  # app.graph.build.GraphReport

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass(slots=True)
class _Plan:
    """What a run looks at: files to check, paths to drop, and the skipped list to record."""

    files: list[WalkedFile]
    removed: set[str]  # indexed paths that are gone or no longer indexable
    skipped: list[SkippedFile]
    skipped_scope: set[str] | None  # paths whose skipped rows this run replaces; None: all


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
    control: RunControl | None = None,
    changed: Collection[str] | None = None,
    on_publish: PublishCallback | None = None,
    on_vectors: VectorCallback | None = None,
    with_graph: bool = True,
    embedder: Any | None = None,
    rebuild: bool = False,
    verify: bool = False,
) -> IndexReport:
    """Bring the index of `root` up to date. Only files whose size, mtime (then hash) or the
    chunking strategy changed are re-read; readers see the old index until `publish`.

    Chunks are published first, then the call graph (unless `with_graph` is False: the
    watcher defers it to `catch_up_graph_run` while edits keep coming), then vectors.
    `rebuild` builds every table anew beside the published ones; so does a run that finds
    a table damaged (`verify` reads every table first to find out). A damaged vectors
    table is dropped and embedded again."""
    run = _Run(
        root, settings, progress, control or RunControl(), with_vectors, with_graph, embedder
    )
    run.on_publish, run.on_vectors = on_publish, on_vectors
    with write_errors_explained(index_dir), WriteLock(index_dir):
        store = _open_store(index_dir, root, rebuild, verify, run)
        try:
            _index(store, changed, run)
        except IndexDamaged as error:
            if error.shared or store.fresh:
                raise
            _repairing(run, repair_line(error.note, shared=False))
            run.report = IndexReport(repairs=run.report.repairs)
            _index(Store.open_for_write(index_dir, root, fresh=True), changed, run)
    return run.report


@dataclass(slots=True)
class _Run:
    """What one index run was asked to do, and its report so far."""

    root: Path
    settings: Settings
    progress: ProgressCallback
    control: RunControl
    with_vectors: bool
    with_graph: bool
    embedder: Any | None
    on_publish: PublishCallback | None = None
    on_vectors: VectorCallback | None = None
    report: IndexReport = field(default_factory=IndexReport)


def _open_store(index_dir: Path, root: Path, rebuild: bool, verify: bool, run: _Run) -> Store:
    """The store to write: fresh tables beside the published ones for a rebuild, or when a
    reader noted damage or the published tables cannot be opened (or read, with `verify`)."""
    note = "" if rebuild else Store.damage_note(index_dir)
    if note:
        _repairing(run, repair_line(note, shared=False))
    if rebuild or note:
        return Store.open_for_write(index_dir, root, fresh=True)
    try:
        store = Store.open_for_write(index_dir, root)
        if verify:
            store.raise_damage()
        return store
    except IndexDamaged as error:
        _repairing(run, repair_line(error.note, shared=False))
        return Store.open_for_write(index_dir, root, fresh=True)


def _repairing(run: _Run, line: str) -> None:
    run.report.repairs.append(line)
    run.progress(IndexProgress("repair", 0, 0, line))


def _index(store: Store, changed: Collection[str] | None, run: _Run) -> None:
    """One pass of `index_repository` over `store`, reporting into `run.report`."""
    report, progress, control = run.report, run.progress, run.control
    root, settings = run.root, run.settings
    fresh = store.fresh  # a new build: readers must reload everything once it is published
    started = time.perf_counter()
    previous = store.files()
    plan = None
    own_folders = index_folders(store.index_dir, root)  # never indexed, wherever they lie
    if changed is not None and store.manifest.table_versions:
        plan = _plan_for_paths(root, settings, changed, previous, report, own_folders)
    if plan is None:
        progress(IndexProgress("walk", 0, 0, f"walking {root}"))
        walked = walk(
            root,
            max_file_bytes=settings.max_file_bytes,
            extra_ignores=settings.extra_ignores,
            exclude_dirs=own_folders,
        )
        seen = {f.path for f in walked.files}
        plan = _Plan(walked.files, set(previous) - seen, walked.skipped, None)
    report.seconds["walk"] = time.perf_counter() - started
    report.files_seen = len(plan.files)

    written = _write_changes(store, plan, previous, settings, progress, control, report)
    if written is None:
        report.cancelled = True
        return  # nothing was published; the next writer rolls the tables back
    touched, facts, parsed_paths = written
    if run.on_publish is not None and (touched or fresh):  # searchable now, graph or not
        run.on_publish(touched if len(touched) <= 2_000 and not fresh else None)
    if run.with_graph:
        started = time.perf_counter()
        progress(IndexProgress("graph", 0, 1, "resolving calls"))
        report.graph = catch_up_graph(store, root, settings, facts, parsed_paths)
        report.graph_pending = 0
        if report.graph:
            store.publish(**_run_summary(report))
            if run.on_publish is not None:
                run.on_publish(set())
        report.seconds["graph"] = time.perf_counter() - started
    del facts, parsed_paths, previous, plan
    if run.with_vectors and not control.checkpoint():
        scope = touched if report.mode == "paths" else None
        _embed(store, run, scope, verify=fresh)
        report.cancelled = control.cancelled
    progress(IndexProgress("done", 1, 1, "index up to date"))


def _embed(store: Store, run: _Run, scope: Collection[str] | None, *, verify: bool) -> None:
    """Embed what is missing. A vectors table a reader noted as damaged (or, with `verify`,
    any damage a full read finds) is dropped first: its vectors are embedded again."""
    from app.indexer.embed import model_id_for

    model_id = model_id_for(run.settings.embedding_model, run.settings.embedding_max_tokens)
    if verify or store.vectors_note(model_id):
        damaged = store.vectors_damage(model_id)
        if damaged is not None:
            _repairing(run, repair_line(damaged.note, shared=True))
            store.drop_vectors(model_id)
    args = (run.settings, run.progress, run.report, run.control, scope, run.on_vectors)
    try:
        embed_missing(store, *args, run.embedder)
    except IndexDamaged as error:
        if not error.shared:
            raise
        _repairing(run, repair_line(error.note, shared=True))
        store.drop_vectors(model_id)
        embed_missing(store, *args, run.embedder)


def _plan_for_paths(
    root: Path,
    settings: Settings,
    changed: Collection[str],
    previous: dict[str, Any],
    report: IndexReport,
    own_folders: list[Path],
) -> _Plan | None:
    targets = classify_paths(
        root,
        changed,
        max_file_bytes=settings.max_file_bytes,
        extra_ignores=settings.extra_ignores,
        exclude_dirs=own_folders,
    )
    if targets.rescan:
        report.rescan_reason = targets.rescan
        return None
    report.mode = "paths"
    dropped = targets.gone | targets.outside | {s.path for s in targets.skipped}
    scope = dropped | {f.path for f in targets.files}
    return _Plan(targets.files, dropped & set(previous), targets.skipped, scope)


def _write_changes(
    store: Store,
    plan: _Plan,
    previous: dict[str, Any],
    settings: Settings,
    progress: ProgressCallback,
    control: RunControl,
    report: IndexReport,
) -> tuple[set[str], dict[str, FileFacts], set[str]] | None:
    """Read, chunk and write every changed file, then publish. Returns the paths whose chunks
    changed, the graph facts parsed on the way and the paths parsed, or None when cancelled
    before publishing."""
    started = time.perf_counter()
    same_strategy = store.manifest.strategy_version == STRATEGY_VERSION
    skipped = list(plan.skipped)
    removed = set(plan.removed)
    replaced: set[str] = set(removed)
    store.replace_files(removed, [], [])
    report.files_removed = len(removed)
    pending_rows: list[dict[str, Any]] = []
    pending_files: list[dict[str, Any]] = []
    touched_rows: list[dict[str, Any]] = []
    max_chars = embed_chars(settings)
    graph_facts: dict[str, FileFacts] = {}
    parsed_paths: set[str] = set()
    total = len(plan.files)
    for number, walked_file in enumerate(plan.files, 1):
        if control.checkpoint():
            return None
        if number % 200 == 0 or number == total:
            progress(IndexProgress("parse", number, total, walked_file.path))
        old = previous.get(walked_file.path)
        fresh = same_strategy and old is not None and old.strategy_version == STRATEGY_VERSION
        if fresh and old and (old.size, old.mtime_ns) == (walked_file.size, walked_file.mtime_ns):
            report.files_unchanged += 1
            continue
        text, problem = read_source(
            walked_file.abs_path,
            max_file_bytes=settings.max_file_bytes,
            root=Path(walked_file.root),
        )
        if text is None:
            reason = problem.reason if problem else "unreadable"
            skipped.append(SkippedFile(walked_file.path, reason, problem.detail if problem else ""))
            if old is not None:
                removed.add(walked_file.path)
                replaced.add(walked_file.path)
                store.replace_files([walked_file.path], [], [])
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
        parsed_paths.add(walked_file.path)
        if keeps_facts(parsed):
            graph_facts[walked_file.path] = FileFacts.from_parsed(parsed)
        pending_rows.extend(chunk_row(chunk, max_chars) for chunk in parsed.chunks)
        pending_files.append(
            _file_row(walked_file, sha, parsed.language, parsed.strategy, len(parsed.chunks))
        )
        report.files_parsed += 1
        report.chunks_added += len(parsed.chunks)
        if len(pending_rows) >= FLUSH_ROWS:
            store.replace_files([row["path"] for row in pending_files], pending_rows, pending_files)
            pending_rows, pending_files = [], []
    store.replace_files([row["path"] for row in pending_files], pending_rows, pending_files)
    del pending_rows, pending_files
    report.seconds["parse"] = time.perf_counter() - started

    started = time.perf_counter()
    progress(IndexProgress("write", 0, 1, f"writing {report.chunks_added} chunks"))
    store.touch_files(touched_rows)
    skipped_rows = [{"path": s.path, "reason": s.reason, "detail": s.detail} for s in skipped]
    skipped_changed = plan.skipped_scope is not None or _sorted(skipped_rows) != _sorted(
        store.skipped()
    )
    if skipped_changed:
        store.replace_skipped(skipped_rows, plan.skipped_scope)
    first_run = not store.manifest.table_versions
    report.chunks_total = store.count_rows()
    report.skipped_by_reason = dict(Counter(s.reason for s in skipped))
    if replaced:
        store.manifest.vectors_complete = ""
    store.manifest.graph_pending = sorted(set(store.manifest.graph_pending) | replaced)
    report.graph_pending = len(store.manifest.graph_pending)
    commit = head_commit(store.repo_root)  # a shipped index says what it was built from
    moved = commit != store.manifest.commit
    store.manifest.commit = commit
    if replaced or touched_rows or skipped_changed or first_run or moved:  # else nothing new
        store.publish(**_run_summary(report))
    report.seconds["write"] = time.perf_counter() - started
    progress(IndexProgress("write", 1, 1, "lexical search ready"))
    return replaced, graph_facts, parsed_paths


def _sorted(rows: list[dict[str, str]]) -> list[tuple[str, str, str]]:
    return sorted((row["path"], row["reason"], row["detail"]) for row in rows)


def _run_summary(report: IndexReport) -> dict[str, Any]:
    return {k: v for k, v in report.as_dict().items() if k != "seconds"}


def embed_run(
    root: Path,
    index_dir: Path,
    settings: Settings,
    progress: ProgressCallback = ignore_progress,
    *,
    control: RunControl | None = None,
    on_vectors: VectorCallback | None = None,
    embedder: Any | None = None,
) -> IndexReport:
    """Embed every chunk still without a vector (what a deferred or killed run left)."""
    run = _Run(root, settings, progress, control or RunControl(), True, False, embedder)
    run.on_vectors = on_vectors
    with write_errors_explained(index_dir), WriteLock(index_dir):
        store = Store.open_for_write(index_dir, root)
        _embed(store, run, None, verify=False)
        run.report.cancelled = run.control.cancelled
    return run.report


def catch_up_graph_run(
    root: Path, index_dir: Path, settings: Settings, control: RunControl | None = None
) -> dict[str, Any] | None:
    """Resolve the calls of every path the graph has not caught up with, and publish.
    Returns the graph report ({} when nothing was pending), or None when `control` was
    cancelled first (nothing is written then; the paths stay pending)."""
    control = control or RunControl()
    with write_errors_explained(index_dir), WriteLock(index_dir):
        store = Store.open_for_write(index_dir, root)
        if not store.manifest.graph_pending:
            return {}
        try:
            report = catch_up_graph(store, root, settings, {}, (), lambda: control.cancelled)
        except GraphStopped:
            return None
        store.publish(**store.manifest.last_run)
        return report
