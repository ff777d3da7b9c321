"""The one facade every front end uses: open a repository, index it, search it, report on it."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core import paths
from app.core.events import ProgressCallback, ignore_progress
from app.core.settings import Settings, load_settings
from app.indexer.context import is_test_path
from app.indexer.pipeline import IndexReport, index_repository
from app.search.searcher import Searcher, SearchResult
from app.store.manifest import IndexCorrupt, read_manifest
from app.store.store import Store

if TYPE_CHECKING:
    from app.answer.engine import Answer, Answerer, CitationCallback, TokenCallback


class RepositoryError(Exception):
    """A problem with the repository path itself; the message is for people."""


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
        self._embedder: Any | None = None
        self._answerer: Answerer | None = None
        self._graph: Any | None = None  # app.graph.navigate.GraphView, loaded on first use
        self._lock = threading.Lock()

    # -- indexing --------------------------------------------------------------------------
    def is_indexed(self) -> bool:
        return read_manifest(self.index_dir) is not None

    def index(
        self,
        progress: ProgressCallback = ignore_progress,
        *,
        with_vectors: bool = True,
        rebuild: bool = False,
    ) -> IndexReport:
        if rebuild:
            self._drop_index()
        report = index_repository(
            self.root, self.index_dir, self.settings, progress, with_vectors=with_vectors
        )
        with self._lock:
            self._searcher = None
            self._graph = None
        return report

    def _drop_index(self) -> None:
        import shutil

        from app.store.manifest import WriteLock

        with WriteLock(self.index_dir):
            for name in ("tables", "manifest.json"):
                target = self.index_dir / name
                if target.is_dir():
                    shutil.rmtree(target)
                elif target.exists():
                    target.unlink()

    # -- searching -------------------------------------------------------------------------
    def embedder(self) -> Any:
        if self._embedder is None:
            from app.indexer.embed import Embedder

            self._embedder = Embedder(
                self.settings.embedding_model,
                max_tokens=self.settings.embedding_max_tokens,
                threads=self.settings.embedding_threads,
            )
        return self._embedder

    def searcher(self) -> Searcher:
        with self._lock:
            if self._searcher is None:
                self._searcher = Searcher(
                    Store.open(self.index_dir),
                    self.embedder(),
                    embed_tests=self.settings.embed_tests,
                )
            return self._searcher

    def search(
        self, query: str, *, k: int | None = None, budget_tokens: int | None = None
    ) -> SearchResult:
        return self.searcher().search(
            query,
            k or self.settings.search_k,
            budget_tokens or self.settings.search_budget_tokens,
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
        )

    def source(self, path: str) -> str:
        """The current text of a repository file (for previews), or a one-line reason."""
        from app.indexer.walk import read_source

        target = (self.root / path).resolve()
        if not target.is_relative_to(self.root):
            return f"{path} lies outside the repository"
        text, problem = read_source(target, max_file_bytes=self.settings.max_file_bytes)
        if text is None:
            return f"{path} cannot be shown: {problem.reason if problem else 'unreadable'}"
        return text

    # -- call graph ------------------------------------------------------------------------
    def graph(self) -> Any:
        """The published call graph in memory (app.graph.navigate.GraphView)."""
        with self._lock:
            if self._graph is None:
                from app.graph.navigate import GraphView

                manifest = read_manifest(self.index_dir)
                if manifest is None or "graph_files" not in manifest.table_versions:
                    state = "is not indexed yet" if manifest is None else "has no call graph yet"
                    raise IndexCorrupt(f"{self.root} {state}: run `repolens-tui index {self.root}`")
                self._graph = GraphView(Store.open(self.index_dir))
            return self._graph

    def callers(self, symbol: str, min_tier: str = "uncertain") -> Any:
        """Who calls `symbol` (name, Class.method or qualified name), most confident first."""
        return self.graph().callers(symbol, min_tier)

    def callees(self, symbol: str, min_tier: str = "uncertain") -> Any:
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
        model = manifest.embedding_model
        vectors = store.vector_keys(model) if model else set()
        result: dict[str, Any] = {
            "repository": str(self.root),
            "index_dir": str(self.index_dir),
            "schema_version": manifest.schema_version,
            "strategy_version": manifest.strategy_version,
            "embedding_model": manifest.embedding_model,
            "files": len(files),
            "chunks": chunks.num_rows,
            "vectors": sum(1 for key in keys if key in vectors),
            "vectors_wanted": len(keys),
            "languages": dict(Counter(f.language for f in files.values()).most_common()),
            "chunk_kinds": dict(Counter(chunks.column("kind").to_pylist()).most_common()),
            "skipped_by_reason": dict(Counter(s["reason"] for s in skipped).most_common()),
            "skipped": skipped,
            "last_run": manifest.last_run,
        }
        if coverage:
            result["coverage"] = self._coverage(store)
        return result

    def _coverage(self, store: Store) -> dict[str, Any]:
        from app.indexer.coverage import coverage_report

        return coverage_report(self.root, store)
