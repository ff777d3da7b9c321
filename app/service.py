"""The one facade every front end uses: open a repository, index it, search it, report on it."""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core import paths
from app.core.events import ProgressCallback, RunControl, ignore_progress
from app.core.paths import is_test_path
from app.core.settings import Settings, load_settings
from app.indexer.pipeline import IndexReport, index_repository
from app.search.searcher import Searcher, SearchResult
from app.store.manifest import SCHEMA_VERSION, IndexCorrupt, read_manifest
from app.store.shared_vectors import vectors_note
from app.store.store import Store

if TYPE_CHECKING:
    from app.answer.engine import (
        Answer,
        Answerer,
        CitationCallback,
        ContextCallback,
        TokenCallback,
    )
    from app.answer.llm import ReadingCallback
    from app.core.events import WorkerStatus
    from app.graph.navigate import CallsAnswer, GraphView
    from app.indexer.embed import Embedder
    from app.indexer.worker import IndexWorker, StatusCallback


class RepositoryError(Exception):
    """A problem with the repository path itself; the message is for people."""


def _ignore_status(status: WorkerStatus) -> None:
    pass


class Service:
    """One repository and its index. Thread-safe for one writer and many searches."""

    def __init__(self, repo_root: Path, settings: Settings | None = None) -> None:
        root = Path(repo_root).expanduser()
        if not root.exists():
            raise RepositoryError(f"{root} does not exist")
        if not root.is_dir():
            raise RepositoryError(f"{root} is not a directory; give the repository's folder")
        self.root = root.resolve()
        self.settings = settings or load_settings()
        self.index_dir = paths.index_dir_for(self.settings.resolved_index_root(), self.root)
        self._searcher: Searcher | None = None
        self._embedder: Embedder | None = None
        self._answerer: Answerer | None = None
        self._graph: GraphView | None = None  # loaded on first use
        self._lock = threading.Lock()
        self._embedder_lock = threading.Lock()

    # -- indexing --------------------------------------------------------------------------
    def needs_indexing(self, *, with_vectors: bool = False) -> str:
        """Why the index cannot be read as it is ("" when it can): none yet, one written by
        an older repolens-tui, whose tables this one does not read, or one a reader found
        damaged (with `with_vectors`, the shared vectors table too); indexing repairs it."""
        manifest = read_manifest(self.index_dir)
        if manifest is None:
            return "is not indexed yet"
        if manifest.schema_version != SCHEMA_VERSION:
            return (
                f"has an index written by an older repolens-tui (schema "
                f"{manifest.schema_version}, this one reads {SCHEMA_VERSION})"
            )
        note = Store.damage_note(self.index_dir)
        if not note and with_vectors:
            from app.indexer.embed import model_id_for

            model_id = model_id_for(
                self.settings.embedding_model, self.settings.embedding_max_tokens
            )
            note = vectors_note(self.index_dir, model_id)
        return f"has a damaged index ({note})" if note else ""

    def index(
        self,
        progress: ProgressCallback = ignore_progress,
        *,
        with_vectors: bool = True,
        rebuild: bool = False,
        control: RunControl | None = None,
        changed: Collection[str] | None = None,
        with_graph: bool = True,
        verify: bool = False,
    ) -> IndexReport:
        """Bring the index up to date: everything, or the `changed` paths (the watcher's);
        `rebuild` builds every table anew, beside the published ones; `verify` reads every
        table first and rebuilds when one is damaged. Searches made meanwhile see the old
        index until the new one is published, then the new chunks at once and their vectors
        as they are embedded."""
        return index_repository(
            self.root,
            self.index_dir,
            self.settings,
            progress,
            with_vectors=with_vectors,
            control=control,
            changed=changed,
            on_publish=self._published,
            on_vectors=self._vectors_arrived,
            with_graph=with_graph,
            embedder=self._embedder,
            rebuild=rebuild,
            verify=verify,
        )

    def embed(
        self, progress: ProgressCallback = ignore_progress, control: RunControl | None = None
    ) -> IndexReport:
        """Embed the chunks still without vectors; searches use each batch as it lands."""
        from app.indexer.pipeline import embed_run

        return embed_run(
            self.root,
            self.index_dir,
            self.settings,
            progress,
            control=control,
            on_vectors=self._vectors_arrived,
            embedder=self._embedder,
        )

    def live(
        self,
        on_status: StatusCallback | None = None,
        *,
        watch: bool = True,
        with_vectors: bool = True,
    ) -> IndexWorker:
        """Start the live index: bring the index up to date, then (with `watch`) keep it so
        as files change, in a thread of its own. `on_status` gets every `WorkerStatus` from
        that thread; `stop()` the returned worker when done."""
        from app.indexer.worker import IndexWorker

        worker = IndexWorker(
            self, on_status or _ignore_status, watch=watch, with_vectors=with_vectors
        )
        worker.start()
        return worker

    def catch_up_graph(self, control: RunControl | None = None) -> dict[str, Any] | None:
        """Resolve the calls an index run left pending (see `index(with_graph=False)`);
        None when `control` stopped it first."""
        from app.indexer.pipeline import catch_up_graph_run

        report = catch_up_graph_run(self.root, self.index_dir, self.settings, control)
        if report:
            self._published(set())
        return report

    def _published(self, paths: set[str] | None) -> None:
        """Follow a publish: searches use the new chunks from now on."""
        with self._lock:
            current = self._searcher
            self._graph = None
        if current is None or paths == set():
            return  # no searcher yet, or only the graph changed
        current.apply(Store.open(self.index_dir), paths)

    def _vectors_arrived(self, keys: list[str], matrix: Any) -> None:
        with self._lock:
            current = self._searcher
        if current is not None:
            current.add_vectors(keys, matrix)

    def counts(self) -> dict[str, Any]:
        """Files and chunks of the published index, and the share of chunks searches can
        already find by vector (None while unknown: no search has loaded the index yet and
        the last run did not finish embedding)."""
        store = Store.open(self.index_dir)
        with self._lock:
            searcher = self._searcher
        share = searcher.vectors_ready if searcher is not None else None
        if share is None and store.manifest.vectors_complete:
            share = 1.0
        return {
            "files": store.count_rows("files"),
            "chunks": store.count_rows(),
            "vectors_share": share,
        }

    def skipped(self) -> list[dict[str, str]]:
        """Every file the index left out: `path`, `reason` and `detail`."""
        return Store.open(self.index_dir).skipped()

    def pending_changes(self) -> dict[str, list[str]]:
        """Files that differ from the index right now (by size and mtime, nothing is read):
        `changed`, `added` and `removed` paths, sorted."""
        from app.indexer.walk import walk

        store = Store.open(self.index_dir)
        indexed = store.files()
        walked = walk(
            self.root,
            max_file_bytes=self.settings.max_file_bytes,
            extra_ignores=self.settings.extra_ignores,
            exclude_dirs=paths.index_folders(self.index_dir, self.root),
        )
        on_disk = {f.path: f for f in walked.files}
        changed = [
            path
            for path, f in on_disk.items()
            if path in indexed
            and (indexed[path].size, indexed[path].mtime_ns) != (f.size, f.mtime_ns)
        ]
        skipped = {s["path"] for s in store.skipped()}
        return {
            "changed": sorted(changed),
            "added": sorted(p for p in on_disk if p not in indexed and p not in skipped),
            "removed": sorted(p for p in indexed if p not in on_disk),
        }

    # -- searching -------------------------------------------------------------------------
    def embedder(self) -> Embedder:
        with self._embedder_lock:
            if self._embedder is None:
                from app.indexer.embed import Embedder

                self._embedder = Embedder(
                    self.settings.embedding_model,
                    max_tokens=self.settings.embedding_max_tokens,
                    threads=self.settings.embedding_threads,
                    batch_size=self.settings.embedding_batch_size,
                )
            return self._embedder

    def searcher(self) -> Searcher:
        """The in-memory searcher, loaded once; the embedding model loads alongside."""
        with self._lock:
            if self._searcher is None:
                from app.indexer.embed import model_id_for

                loading = threading.Thread(target=self._load_embedder, name="repolens-model")
                loading.start()
                searcher = Searcher(
                    Store.open(self.index_dir),
                    None,
                    embed_tests=self.settings.embed_tests,
                    model_id=model_id_for(
                        self.settings.embedding_model, self.settings.embedding_max_tokens
                    ),
                )
                loading.join()
                searcher.embedder = self.embedder()  # raises here if the model cannot load
                self._searcher = searcher
            return self._searcher

    def _load_embedder(self) -> None:
        with contextlib.suppress(Exception):  # the caller loads again and sees the error
            self.embedder()

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        budget_tokens: int | None = None,
        superseded: threading.Event | None = None,
    ) -> SearchResult:
        """`superseded`: set it when a newer query replaces this one; the search then stops
        early with SearchSuperseded."""
        return self.searcher().search(
            query,
            k or self.settings.search_k,
            budget_tokens or self.settings.search_budget_tokens,
            superseded,
        )

    # -- answering -------------------------------------------------------------------------
    def answerer(self, model_file: Path | None = None) -> Answerer:
        """The answer side, loaded once; `model_file` overrides the `answer_model` setting."""
        from app.answer.engine import Answerer

        with self._lock:
            if self._answerer is None or (model_file and self._answerer.model_file != model_file):
                self._answerer = Answerer(self.settings, model_file)
            return self._answerer

    def ask(
        self,
        question: str,
        *,
        on_token: TokenCallback | None = None,
        on_citation: CitationCallback | None = None,
        cancel: threading.Event | None = None,
        budget_tokens: int | None = None,
        max_tokens: int | None = None,
        model_file: Path | None = None,
        on_context: ContextCallback | None = None,
        on_progress: ReadingCallback | None = None,
    ) -> Answer:
        """A streamed, cited answer (app.answer.engine.Answer); a newer call cancels this one."""
        return self.answerer(model_file).ask(
            question,
            lambda query, budget: self.search(
                query, k=self.settings.answer_k, budget_tokens=budget
            ),
            budget_tokens=budget_tokens,
            max_tokens=max_tokens,
            on_token=on_token,
            on_citation=on_citation,
            cancel=cancel,
            on_context=on_context,
            on_progress=on_progress,
        )

    def source(self, path: str) -> str:
        """The current text of a repository file (for previews), or a one-line reason."""
        from app.indexer.walk import read_source

        target = (self.root / path).resolve()
        if not target.is_relative_to(self.root):
            return f"{path} lies outside the repository"
        text, problem = read_source(
            target, max_file_bytes=self.settings.max_file_bytes, root=self.root
        )
        if text is None:
            return f"{path} cannot be shown: {problem.reason if problem else 'unreadable'}"
        return text

    # -- call graph ------------------------------------------------------------------------
    def graph(self) -> GraphView:
        """The published call graph in memory."""
        with self._lock:
            if self._graph is None:
                from app.graph.navigate import GraphView

                manifest = read_manifest(self.index_dir)
                if manifest is None or "graph_files" not in manifest.table_versions:
                    state = "is not indexed yet" if manifest is None else "has no call graph yet"
                    raise IndexCorrupt(f"{self.root} {state}: run `repolens-tui index {self.root}`")
                self._graph = GraphView(Store.open(self.index_dir))
            return self._graph

    def callers(self, symbol: str, min_tier: str = "uncertain") -> CallsAnswer:
        """Who calls `symbol` (name, Class.method or qualified name), most confident first."""
        return self.graph().callers(symbol, min_tier)

    def callees(self, symbol: str, min_tier: str = "uncertain") -> CallsAnswer:
        return self.graph().callees(symbol, min_tier)

    def hotspots(self, n: int = 20, *, include_tests: bool = False) -> list[dict[str, Any]]:
        return list(self.graph().hotspots(n, include_tests=include_tests))

    def symbol(self, query: str, limit: int = 20) -> list[dict[str, Any]]:
        """Definitions whose qualified name fuzzily matches `query` (rapidfuzz)."""
        return list(self.graph().search_symbols(query, limit))

    # -- reporting -------------------------------------------------------------------------
    def stats(self, *, coverage: bool = False) -> dict[str, Any]:
        manifest = read_manifest(self.index_dir)
        if manifest is None:
            raise IndexCorrupt(
                f"{self.root} is not indexed yet: run `repolens-tui index {self.root}`"
            )
        store = Store.open(self.index_dir)
        files = store.files()
        chunks = store.chunk_table(["path", "kind", "language", "embed_key"])
        skipped = store.skipped()
        paths = chunks.column("path").to_pylist()
        keys = [
            key
            for key, path in zip(chunks.column("embed_key").to_pylist(), paths, strict=True)
            if self.settings.embed_tests or not is_test_path(path)
        ]
        # Counted as search finds them: under the model the settings name, whose vectors a
        # killed run keeps (each batch lands at once) before the manifest records the model.
        from app.indexer.embed import model_id_for

        model = model_id_for(self.settings.embedding_model, self.settings.embedding_max_tokens)
        vectors = store.vector_keys(model)
        stored = sum(1 for key in keys if key in vectors)
        result: dict[str, Any] = {
            "repository": str(self.root),
            "index_dir": str(self.index_dir),
            "schema_version": manifest.schema_version,
            "strategy_version": manifest.strategy_version,
            "embedding_model": model if stored or manifest.embedding_model else "",
            "files": len(files),
            "chunks": chunks.num_rows,
            "vectors": stored,
            "vectors_wanted": len(keys),
            "languages": dict(Counter(f.language for f in files.values()).most_common()),
            "chunk_kinds": dict(Counter(chunks.column("kind").to_pylist()).most_common()),
            "skipped_by_reason": dict(Counter(s["reason"] for s in skipped).most_common()),
            "skipped": skipped,
            "last_run": manifest.last_run,
            "pending": self.pending_changes(),
        }
        if coverage:
            result["coverage"] = self._coverage(store)
        return result

    def _coverage(self, store: Store) -> dict[str, Any]:
        from app.indexer.coverage import coverage_report

        return coverage_report(self.root, store)
