"""The one facade every front end uses: open a repository, index it, search it, report on it."""

from __future__ import annotations

import contextlib
import threading
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core import paths
from app.core.events import ProgressCallback, RunControl, ignore_progress
from app.core.models import tier_of
from app.core.paths import is_test_path
from app.core.settings import Settings, load_settings
from app.graph.facts import split_id
from app.indexer.chunk import CALLS_UNREAD
from app.indexer.pipeline import IndexReport, PublishCallback, index_repository
from app.search import calls
from app.search.searcher import Searcher, SearchResult
from app.store.graph_tables import GRAPH_FILES
from app.store.manifest import MANIFEST_NAME, SCHEMA_VERSION, IndexCorrupt, read_manifest
from app.store.shared_vectors import vectors_note
from app.store.store import FileRecord, Store

if TYPE_CHECKING:
    from app.answer.engine import (
        Answer,
        Answerer,
        CitationCallback,
        ContextCallback,
        ShownCallback,
        TokenCallback,
    )
    from app.answer.llm import ReadingCallback
    from app.core.events import WorkerStatus
    from app.graph.navigate import CallsAnswer, GraphView
    from app.indexer.embed import Embedder
    from app.indexer.worker import IndexWorker, StatusCallback


class RepositoryError(Exception):
    """A problem with the repository path itself; the message is for people."""


class GraphNotBuilt(IndexCorrupt):
    """No call graph yet: no index run has got past its graph step, which follows the
    publishing of the chunks (searches may already use them)."""


def user_errors() -> tuple[type[Exception], ...]:
    """The errors whose message tells a person what to do: every front end prints them as one
    line and exits 1 (imported here, not at start, so `--help` stays instant)."""
    from app.answer.model import AnswerModelUnavailable
    from app.core.settings import SettingsError
    from app.indexer.embed import ModelUnavailable
    from app.indexer.walk import WalkError
    from app.store.manifest import IndexStoreError

    return (
        RepositoryError,
        WalkError,
        IndexStoreError,
        ModelUnavailable,
        AnswerModelUnavailable,
        SettingsError,
    )


def _ignore_status(status: WorkerStatus) -> None:
    pass


def _repository_folder(path: Path) -> Path:
    root = path.expanduser()
    if not root.exists():
        raise RepositoryError(f"{root} does not exist")
    if not root.is_dir():
        raise RepositoryError(f"{root} is not a directory; give the repository's folder")
    return root.resolve()


class Service:
    """One repository and its index. Thread-safe for one writer and many searches."""

    def __init__(
        self, repo_root: Path, settings: Settings | None = None, *, stored: Path | None = None
    ) -> None:
        """`stored`: answer from that index folder alone, its source tree absent (a copied
        index); `repo_root` is then the path it was built from, kept for messages."""
        self.settings = settings or load_settings()
        self.stored_manifest = read_manifest(stored) if stored is not None else None
        if stored is not None and self.stored_manifest is None:
            raise RepositoryError(f"{stored} holds no index (no {MANIFEST_NAME})")
        if stored is not None:
            self.root, self.index_dir = Path(repo_root), stored
        else:
            self.root = _repository_folder(Path(repo_root))
            self.index_dir = paths.index_dir_for(self.settings.resolved_index_root(), self.root)
        self._searcher: Searcher | None = None
        self._embedder: Embedder | None = None
        self._answerer: Answerer | None = None
        self._graph: GraphView | None = None  # loaded on first use
        self._lock = threading.Lock()
        self._embedder_lock = threading.Lock()

    @property
    def source_tree(self) -> bool:
        """Whether the repository's files are here (False: answering from a copied index)."""
        return self.stored_manifest is None

    def stored_note(self) -> str:
        """What a front end says when answering from a copied index ("" otherwise)."""
        manifest = self.stored_manifest
        if manifest is None:
            return ""
        built = f"built at {manifest.commit}" if manifest.commit else "built from a non-git tree"
        return f"source tree not found; answering from the stored index {built} ({self.root})"

    def _needs_source(self, what: str) -> None:
        if not self.source_tree:
            raise RepositoryError(
                f"cannot {what} {self.root}: its source tree is not here (the index at "
                f"{self.index_dir} was copied); run it where the repository is"
            )

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

    def index_if_needed(
        self,
        progress: ProgressCallback,
        say: Callable[[str], None],
        *,
        with_vectors: bool = True,
    ) -> None:
        """Index first when there is no index that can be read (none, an old one, a damaged
        one), after `say`ing why; a copied index without its source tree is said so, and
        answers as it is. What `say` gets holds repository text: show it through `literal`."""
        if not self.source_tree:
            say(self.stored_note())
            return
        reason = self.needs_indexing(with_vectors=with_vectors)
        if reason:
            say(f"{self.root} {reason}; indexing it first")
            self.index(progress, with_vectors=with_vectors)

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
        on_publish: PublishCallback | None = None,
    ) -> IndexReport:
        """Bring the index up to date: everything, or the `changed` paths (the watcher's);
        `rebuild` builds every table anew, beside the published ones; `verify` reads every
        table first and rebuilds when one is damaged. Searches made meanwhile see the old
        index until the new one is published, then the new chunks at once and their vectors
        as they are embedded. `on_publish` hears each publish once searches see it: the paths
        whose chunks changed (None: all may have), or an empty set for the call graph."""

        def published(paths: set[str] | None) -> None:
            self._published(paths)
            if on_publish is not None:
                on_publish(paths)

        self._needs_source("index")
        return index_repository(
            self.root,
            self.index_dir,
            self.settings,
            progress,
            with_vectors=with_vectors,
            control=control,
            changed=changed,
            on_publish=published,
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

        self._needs_source("embed")

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

        self._needs_source("watch")
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
        `changed`, `added` and `removed` paths, sorted; none without the source tree."""
        from app.indexer.walk import walk

        if not self.source_tree:
            return {"changed": [], "added": [], "removed": []}

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
                    check_stale=self.source_tree,
                    model_id=model_id_for(
                        self.settings.embedding_model, self.settings.embedding_max_tokens
                    ),
                )
                loading.join()
                searcher.embedder = self.embedder()  # raises here if the model cannot load
                searcher.call_graph = self._call_answer
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
        cut_tokens: int = 0,
    ) -> SearchResult:
        """`superseded`: set it when a newer query replaces this one; the search then stops
        early with SearchSuperseded. `cut_tokens`: a hit whose body does not fit gets up to
        this many tokens of its first lines, where the budget has room (answers use it)."""
        return self.searcher().search(
            query,
            k or self.settings.search_k,
            budget_tokens or self.settings.search_budget_tokens,
            superseded,
            cut_tokens,
        )

    # -- answering -------------------------------------------------------------------------
    def answerer(self, model_file: Path | None = None) -> Answerer:
        """The answer side, loaded once; `model_file` overrides the `answer_model` setting."""
        from app.answer.engine import Answerer

        with self._lock:
            if self._answerer is None or (model_file and self._answerer.model_file != model_file):
                self._answerer = Answerer(self.settings, model_file)
            return self._answerer

    def preload_answers(self, cancel: threading.Event | None = None) -> bool:
        """Load the answer model and read its fixed prefix now, so that the first question
        reads only its own excerpts; False when `cancel` stopped it. Raises
        AnswerModelUnavailable (search is unaffected)."""
        return self.answerer().preload(cancel)

    def prepare_answer(self, question: str, cancel: threading.Event) -> int:
        """Read the prompt `ask(question)` would read into the model's cache now; the
        tokens read (app.answer.engine.Answerer.prepare)."""
        return self.answerer().prepare(
            question,
            self._answer_search,
            cancel,
            in_repository=lambda word: self.searcher().holds(word),
        )

    def _answer_search(self, query: str, budget: int) -> SearchResult:
        """The search an answer is written from: answer_k hits in `budget` tokens."""
        return self.search(
            query,
            k=self.settings.answer_k,
            budget_tokens=budget,
            cut_tokens=self.settings.answer_cut_tokens,
        )

    def answer_model_state(self) -> str:
        """The answer model's state: cold (not loaded yet), loading, ready or failed."""
        from app.answer.engine import MODEL_COLD

        answerer = self._answerer
        return answerer.state if answerer is not None else MODEL_COLD

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
        constrained: bool | None = None,
        on_shown: ShownCallback | None = None,
    ) -> Answer:
        """A streamed, cited answer (app.answer.engine.Answer); a newer call cancels this one.
        `constrained` overrides the answer_constrained setting; `on_shown` hears the whole
        answer a pane may show so far."""
        return self.answerer(model_file).ask(
            question,
            self._answer_search,
            budget_tokens=budget_tokens,
            max_tokens=max_tokens,
            in_repository=lambda word: self.searcher().holds(word),
            on_token=on_token,
            on_citation=on_citation,
            cancel=cancel,
            on_context=on_context,
            on_progress=on_progress,
            constrained=constrained,
            on_shown=on_shown,
        )

    def source(self, path: str) -> str:
        """The current text of a repository file (for previews), or a one-line reason."""
        text, problem = self.read_text(path)
        return text if text is not None else f"{path} cannot be shown: {problem}"

    def read_text(self, path: str) -> tuple[str | None, str]:
        """The current text of a repository file, or None and why not."""
        from app.indexer.walk import read_source

        if not self.source_tree:
            return None, self.stored_note()
        target = (self.root / path).resolve()
        if not target.is_relative_to(self.root):
            return None, "it lies outside the repository"
        text, problem = read_source(
            target, max_file_bytes=self.settings.max_file_bytes, root=self.root
        )
        if text is None:
            return None, problem.reason if problem else "unreadable"
        return text, ""

    # -- call graph ------------------------------------------------------------------------
    def graph(self) -> GraphView:
        """The published call graph in memory."""
        with self._lock:
            if self._graph is None:
                from app.graph.navigate import GraphView

                if read_manifest(self.index_dir) is None:
                    raise GraphNotBuilt(
                        f"{self.root} is not indexed yet: run `repolens-tui index {self.root}`"
                    )
                store = Store.open(self.index_dir)
                if not _graph_built(store):
                    raise GraphNotBuilt(
                        f"{self.root} has no call graph yet: run `repolens-tui index {self.root}`"
                    )
                self._graph = GraphView(store)
            return self._graph

    def callers(
        self, symbol: str, min_tier: str = "uncertain", *, include_tests: bool = True
    ) -> CallsAnswer:
        """Who calls `symbol` (name, Class.method or qualified name), most confident first."""
        return self.graph().callers(symbol, min_tier, include_tests=include_tests)

    def callees(
        self, symbol: str, min_tier: str = "uncertain", *, include_tests: bool = True
    ) -> CallsAnswer:
        return self.graph().callees(symbol, min_tier, include_tests=include_tests)

    def _call_answer(self, question: calls.CallQuestion) -> calls.CallAnswer | None:
        """The call graph's answer to a search that asks what X calls or what calls X; None
        when there is no graph yet or X names no definition (the search then ranks as usual)."""
        try:
            graph = self.graph()
        except IndexCorrupt:
            return None
        return call_answer(graph, question)

    def hotspots(self, n: int = 20, *, include_tests: bool = False) -> list[dict[str, Any]]:
        return list(self.graph().hotspots(n, include_tests=include_tests))

    def definitions(self, name: str) -> list[dict[str, Any]]:
        """The definitions `name` names (all, when several), each with its full text as
        indexed (read from the stored chunks, so no source tree is needed) and `location`
        as `path:line`."""
        rows = self.graph().definitions(name)
        if not rows:
            return []
        chunks = Store.open(self.index_dir).chunks_for_paths(
            {row["path"] for row in rows}, ["path", "start_line", "text"]
        )
        lines: dict[tuple[str, int], str] = {}  # (path, line number): that line, as indexed
        for chunk in chunks.to_pylist():
            for offset, line in enumerate(chunk["text"].split("\n")):
                lines[(chunk["path"], chunk["start_line"] + offset)] = line
        for row in rows:
            span = range(row["start_line"], row["end_line"] + 1)
            row["location"] = f"{row['path']}:{row['start_line']}"
            row["text"] = "\n".join(lines.get((row["path"], n), "") for n in span)
        return rows

    def symbol(self, query: str, limit: int = 20) -> list[dict[str, Any]]:
        """Definitions whose qualified name fuzzily matches `query` (rapidfuzz)."""
        return list(self.graph().search_symbols(query, limit))

    # -- reporting -------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        """What the index holds and how fresh it is: files, chunks, vectors ready, pending
        changes, the last update, the commit, strategy and model it was built with, and the
        files whose call facts could not be read (their calls are missing from the graph)."""
        manifest = read_manifest(self.index_dir)
        if manifest is None:
            raise IndexCorrupt(
                f"{self.root} is not indexed yet: run `repolens-tui index {self.root}`"
            )
        counts = self.counts()
        pending = self.pending_changes()
        return {
            "repository": str(self.root),
            "source_tree": self.source_tree,
            "note": self.stored_note(),
            "files": counts["files"],
            "chunks": counts["chunks"],
            "vectors_ready": counts["vectors_share"],
            "pending_changes": sum(len(paths) for paths in pending.values()),
            "pending": pending,
            "last_update": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(manifest.updated_at)),
            "commit": manifest.commit,
            "strategy_version": manifest.strategy_version,
            "embedding_model": manifest.embedding_model,
            "graph_pending": len(manifest.graph_pending),
            "calls_unread": calls_unread(Store.open(self.index_dir).files()),
        }

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
            "commit": manifest.commit,
            "source_tree": self.source_tree,
            "embedding_model": model if stored or manifest.embedding_model else "",
            "files": len(files),
            "chunks": chunks.num_rows,
            "vectors": stored,
            "vectors_wanted": len(keys),
            "languages": dict(Counter(f.language for f in files.values()).most_common()),
            "chunk_kinds": dict(Counter(chunks.column("kind").to_pylist()).most_common()),
            "skipped_by_reason": dict(Counter(s["reason"] for s in skipped).most_common()),
            "skipped": skipped,
            "calls_unread": calls_unread(files),
            "last_run": manifest.last_run,
            "pending": self.pending_changes(),
        }
        if coverage:
            result["coverage"] = self._coverage(store)
        return result

    def details(self) -> dict[str, Any]:
        """Where the index lives, the models it uses and the call graph's state: `graph` has
        `built`, and when built `definitions`, `edges`, `unresolved`, `pending_files`; else
        `reason` and `not_yet` (no run has built it yet; a damaged one is not that)."""
        graph: dict[str, Any]
        try:
            view = self.graph()
        except IndexCorrupt as error:
            graph = {
                "built": False,
                "reason": str(error),
                "not_yet": isinstance(error, GraphNotBuilt),
            }
        else:
            graph = {
                "built": True,
                "definitions": len(view.symbols),
                "edges": sum(len(rows) for rows in view.outgoing.values()),
                "unresolved": sum(len(rows) for rows in view.unresolved_from.values()),
                "pending_files": view.pending_files,
            }
        return {
            "index_dir": str(self.index_dir),
            "embedding_model": self.settings.embedding_model,
            "embedding_max_tokens": self.settings.embedding_max_tokens,
            "answer_model": self.settings.answer_model,
            "graph": graph,
        }

    def _coverage(self, store: Store) -> dict[str, Any]:
        from app.indexer.coverage import coverage_report

        self._needs_source("measure the coverage of")
        return coverage_report(self.root, store)


def calls_unread(files: Mapping[str, FileRecord]) -> list[str]:
    """The files whose call facts could not be read: they keep their chunks, and the graph
    lacks their calls (a defect to report, not a property of the file)."""
    return sorted(path for path, record in files.items() if record.strategy == CALLS_UNREAD)


def _graph_built(store: Store) -> bool:
    """Whether an index run has resolved the calls: the first publish holds the chunks and
    empty graph tables, every file pending (an empty graph is not a graph yet)."""
    manifest = store.manifest
    if GRAPH_FILES not in manifest.table_versions:
        return False
    return not manifest.graph_pending or store.count_rows(GRAPH_FILES) > 0


MAX_CALL_TARGETS = 3  # a name that means more definitions than this names none in particular


def call_answer(graph: GraphView, question: calls.CallQuestion) -> calls.CallAnswer | None:
    """The definitions `question` names (by exact name) and their callers or callees."""
    targets = _named(graph, question.name)
    if not targets:
        return None
    callees = question.direction == calls.CALLEES
    other, edges = ("callee", graph.outgoing) if callees else ("caller", graph.incoming)
    neighbours = [
        calls.Neighbour(
            _definition(graph, edge[other]), tier_of(edge["confidence"]), edge["confidence"]
        )
        for sid in targets
        for edge in edges.get(sid, ())
        if edge[other] in graph.symbols
    ]
    return calls.CallAnswer(
        question, tuple(_definition(graph, sid) for sid in targets), tuple(neighbours)
    )


def _named(graph: GraphView, name: str) -> list[str]:
    """Symbol ids `name` names: the longest tail of `Outer.Owner.member` the graph knows
    (`Hashie.Mash.custom_writer` is `Mash.custom_writer`), code before tests; a bare member
    of a dotted name only when one definition has it."""
    parts = name.split(".")
    for start in range(len(parts)):
        found = graph.matches(".".join(parts[start:]))
        code = [sid for sid in found if not graph.is_test(sid)]
        found = code or found
        bare_of_dotted = len(parts) > 1 and start == len(parts) - 1
        most = 1 if bare_of_dotted else MAX_CALL_TARGETS
        if found:
            return found if len(found) <= most else []
    return []


def _definition(graph: GraphView, sid: str) -> calls.Definition:
    row = graph.symbols[sid]
    path, qualified = split_id(sid)
    return calls.Definition(path, qualified, row["start_line"], row["end_line"])


def open_repository(path: Path, settings: Settings) -> Service:
    """The repository at `path`; where no folder is there, the stored index under the index
    root that `path` names (its original path, its name or its index folder's name)."""
    from app.store.catalog import matching_indexes

    if Path(path).expanduser().exists():
        return Service(path, settings)
    root = settings.resolved_index_root()
    found = matching_indexes(root, str(path))
    if not found:
        raise RepositoryError(f"{path} does not exist, and no index under {root} is for it")
    if len(found) > 1:
        names = ", ".join(folder.name for folder in found)
        raise RepositoryError(
            f"{path} does not exist, and several indexes under {root} match it ({names}); "
            "give one of those folder names"
        )
    manifest = read_manifest(found[0])
    assert manifest is not None  # matching_indexes found its manifest
    return Service(Path(manifest.repo_root), settings, stored=found[0])


def stored_repositories(settings: Settings) -> list[Service]:
    """Every index under the index root, each answering from its stored tables."""
    from app.store.catalog import stored_indexes

    return [
        Service(Path(manifest.repo_root), settings, stored=folder)
        for folder, manifest in stored_indexes(settings.resolved_index_root())
    ]
