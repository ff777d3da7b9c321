"""The live index: one long-lived thread that brings the index up to date, then keeps it so
as files change, reporting every step as a `WorkerStatus` that any front end can show.

Order of work: changed files first (their chunks are published at once, their vectors right
after); the call graph once edits pause; a full rescan at start, when the watcher cannot
say exactly what changed, and every `RESCAN_SECONDS` as a guard against missed events. A
watcher that stopped, or that watches a folder no longer at the root path, is started again.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from app.core.events import IndexProgress, ProgressCallback, RunControl, WorkerStatus
from app.core.paths import index_folders
from app.indexer.walk import WalkError
from app.indexer.watch import ChangeQueue, Watcher, folder_identity
from app.store.manifest import IndexLocked, IndexStoreError

if TYPE_CHECKING:
    from app.indexer.pipeline import IndexReport

SETTLE_SECONDS = 0.05  # a batch is taken once no change came for this long...
BIG_BATCH = 200  # ... or, past this many paths (a branch switch), for BIG_SETTLE_SECONDS
BIG_SETTLE_SECONDS = 0.5
GRAPH_QUIET_SECONDS = 3.0  # the call graph is resolved once edits pause this long (it costs
# seconds of CPU on a large repository, and any edit interrupts it)
RESCAN_SECONDS = 600.0  # a full (stat-only) rescan this often, in case events were missed
RETRY_SECONDS = 5.0  # after a failure (the index locked by another process, disk full)
ROOT_GONE_CHECK_SECONDS = 0.25  # how often a missing repository folder is looked for
# The worker's thread runs at this nice value: on two cores, a search typed while files are
# re-indexed gets the CPU first (tui-bench on zod: keystroke p95 128-163 -> 81-105 ms).
WORKER_NICENESS = 10


StatusCallback = Callable[[WorkerStatus], None]


class LiveIndexTarget(Protocol):
    """What the worker needs of the repository it keeps fresh (`app.service.Service` is one):
    the engine declares it here so that it never reaches up into the facade."""

    root: Path
    index_dir: Path

    def index(
        self,
        progress: ProgressCallback,
        *,
        with_vectors: bool = ...,
        control: RunControl | None = ...,
        changed: Collection[str] | None = ...,
        with_graph: bool = ...,
        on_publish: Callable[[set[str] | None], None] | None = ...,
    ) -> IndexReport: ...

    def embedder(self) -> Any: ...

    def embed(
        self, progress: ProgressCallback, control: RunControl | None = ...
    ) -> IndexReport: ...

    def catch_up_graph(self, control: RunControl | None = ...) -> dict[str, Any] | None: ...

    def counts(self) -> dict[str, Any]: ...


class IndexWorker:
    """Start it, observe it through `on_status`, pause, resume or stop it from any thread."""

    def __init__(
        self,
        service: LiveIndexTarget,
        on_status: StatusCallback = lambda _: None,
        *,
        watch: bool = True,
        with_vectors: bool = True,
    ) -> None:
        self.service = service
        self.on_status = on_status
        self.watch = watch
        self.with_vectors = with_vectors
        self.queue = ChangeQueue()
        self._stop = threading.Event()
        self._graph_interrupt = threading.Event()
        self.queue.on_event.append(self._graph_interrupt)
        self.queue.listeners.append(self._emit)  # the pending count shows at once
        self._control = _YieldingControl(self.queue)
        self._vectors_pending = False
        self._paused = False
        self._status = WorkerStatus()
        self._status_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="repolens-index", daemon=True)
        self.watcher: Watcher | None = None
        self._root_gone = False
        self._watch_retry_seconds = RETRY_SECONDS  # doubles while the OS keeps refusing
        self._watch_retry_at = 0.0  # when a watcher the OS stopped is tried again (0: not due)
        self._watcher_started = 0.0
        self.idle = threading.Event()  # set while nothing is queued or running

    # -- control ---------------------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the worker to end (it ends on `stop`, or after one pass when not
        watching); True when it has."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop at the next checkpoint; what was published stays, nothing half-written shows."""
        self._stop.set()
        self._control.cancel()
        self._graph_interrupt.set()
        self.queue.wake()
        if self.watcher is not None:
            self.watcher.stop()
        self._thread.join(timeout)
        if self.watcher is not None and self.watcher.alive:  # restarted meanwhile
            self.watcher.stop()
        self._emit(state="stopped", message="stopped")

    def pause(self) -> None:
        self._paused = True
        self._control.pause()
        self._emit(state="paused", message="paused: changes are queued until resumed")

    def resume(self) -> None:
        self._paused = False
        self._control.resume()
        self._emit(state="watching" if self.watch else "indexing", message="resumed")

    @property
    def status(self) -> WorkerStatus:
        with self._status_lock:
            return self._status

    # -- the loop --------------------------------------------------------------------------
    def _counted(self, **changes: Any) -> None:
        """Emit with fresh counts of what the index holds (after a run published)."""
        with contextlib.suppress(IndexStoreError, OSError):  # nothing published yet
            changes.update(self.service.counts())
        self._emit(**changes)

    def _emit(self, **changes: Any) -> None:
        with self._status_lock:
            self._status = replace(
                self._status,
                pending=len(self.queue),
                watching=self.watcher is not None and self.watcher.alive,
                **changes,
            )
            status = self._status
        try:
            self.on_status(status)
        except Exception:  # a front end that is closing must not stop the indexer
            return

    def _progress(self, event: IndexProgress) -> None:
        self._emit(
            phase=event.phase,
            done=event.done,
            total=event.total,
            message=event.message,
            eta_seconds=event.eta_seconds,
        )

    def _run(self) -> None:
        _lower_priority(WORKER_NICENESS)
        self.idle.clear()
        if self.watch:  # watch first, so nothing changed during the first run is missed
            self._start_watcher()
        self._index(None, "start-up scan")
        last_rescan = time.monotonic()
        while not self._stop.is_set():
            if not self._check_watcher():  # the repository folder is gone: nothing to index
                self._stop.wait(ROOT_GONE_CHECK_SECONDS)
                continue
            if self._paused:
                self._stop.wait(0.2)
                continue
            if self.queue.wait(0.25) and not self._paused:
                self.idle.clear()
                self._settle()
                if not self._check_watcher():  # it went while the batch settled
                    continue
                paths, reason = self.queue.take()
                if self._stop.is_set():
                    break
                if reason:
                    self._index(None, reason)
                    last_rescan = time.monotonic()
                elif paths:
                    self._index(paths, "")
                continue
            if self._status.graph_pending and self.queue.quiet_for() >= GRAPH_QUIET_SECONDS:
                self._catch_up_graph()
                continue
            if self._vectors_pending and self.with_vectors:
                self._embed()
                continue
            if time.monotonic() - last_rescan > RESCAN_SECONDS:
                self._index(None, "periodic rescan")
                last_rescan = time.monotonic()
                continue
            if not self._status.graph_pending and not self._vectors_pending:
                if not self.watch:
                    break
                self.idle.set()
        self.idle.set()

    @property
    def root(self) -> Path:
        return self.service.root

    def _start_watcher(self) -> None:
        own_folders = index_folders(self.service.index_dir, self.root)
        self.watcher = Watcher(self.root, self.queue, skip_dirs=own_folders)
        self._watcher_started = time.monotonic()
        self.watcher.start()
        self.watcher.started.wait(5)

    def _check_watcher(self) -> bool:
        """Keep a live watcher on the folder at the root path; False while there is none.

        inotify watches follow a folder, not its path: a folder moved away stops the
        watcher, one replaced (deleted and made anew, swapped for a copy) leaves it watching
        the old one. One stat a loop tells; the new watcher starts with a rescan, since
        every change meanwhile went unseen."""
        watcher = self.watcher
        if not self.watch or watcher is None or self._stop.is_set():
            return True
        identity = folder_identity(self.root)
        if identity is None:
            self._root_gone = True
            self._report_watch_problem(
                f"the repository folder {self.root} is gone (moved or deleted): "
                "watching for it to come back"
            )
            return False
        if identity != watcher.identity:
            self._restart_watcher("the repository folder was replaced: watching it again")
        elif self._root_gone or watcher.lost_root:
            self._restart_watcher("the repository folder is back: watching it again")
        elif not watcher.alive:
            self._retry_watcher(watcher.error or "the file watcher stopped")
        return True

    def _retry_watcher(self, error: str) -> None:
        """Start a watcher the OS stopped (a watch limit, say) again after a wait that
        doubles while it keeps stopping, so a refusal cannot cost a rescan every moment."""
        now = time.monotonic()
        if now - self._watcher_started > RESCAN_SECONDS:  # it had run well: no backoff
            self._watch_retry_seconds = RETRY_SECONDS
        if not self._watch_retry_at:
            self._watch_retry_at = now + self._watch_retry_seconds
        if now < self._watch_retry_at:
            wait = self._watch_retry_seconds
            self._report_watch_problem(f"{error}; watching again in {wait:.0f} s")
            return
        self._watch_retry_seconds = min(2 * self._watch_retry_seconds, RESCAN_SECONDS)
        self._restart_watcher(f"{error}: watching again")

    def _report_watch_problem(self, error: str) -> None:
        if self._status.error != error:  # once, and again after a run's status replaced it
            self._emit(state="paused" if self._paused else "failed", error=error, message=error)

    def _restart_watcher(self, reason: str) -> None:
        if self.watcher is not None:
            self.watcher.stop()
        self._root_gone = False
        self._watch_retry_at = 0.0
        self.queue.take()  # a rescan covers every path queued so far; it gives the reason
        self.queue.request_rescan(reason)
        self._start_watcher()
        self._emit(state="paused" if self._paused else "watching", error="", message=reason)

    def _settle(self) -> None:
        """Let a burst finish (a checkout writes thousands of files) so it is one batch."""
        while not self._stop.is_set():
            wait = BIG_SETTLE_SECONDS if len(self.queue) > BIG_BATCH else SETTLE_SECONDS
            quiet = self.queue.quiet_for()
            if quiet >= wait:
                return
            time.sleep(wait - quiet)

    def _index(self, paths: set[str] | None, reason: str) -> None:
        """One index run: everything (paths None) or the given paths; retried on failure."""
        # The first run reports what the index already holds, so that a front end can say
        # at once that a warm index answers searches while it is checked.
        report_start = self._emit if self._status.files else self._counted
        report_start(
            state="paused" if self._paused else "indexing",
            phase="",
            error="",
            message=reason or f"{len(paths or ())} changed",
        )
        started = time.perf_counter()
        try:
            # A rescan leaves vectors to the background step, which yields to edits; an
            # update embeds its few new chunks at once.
            report = self.service.index(
                self._progress,
                with_vectors=self.with_vectors and paths is not None,
                control=self._control,
                changed=paths,
                with_graph=paths is None,  # a rescan resolves calls from what it just parsed
                on_publish=self._published,
            )
        except IndexLocked as error:
            self._retry(paths, reason, str(error), "waiting")
            return
        except (IndexStoreError, OSError, WalkError) as error:
            self._retry(paths, reason, str(error), "failed")
            return
        except Exception as error:  # unforeseen: say it, keep the changes, try again later
            self._retry(paths, reason, f"indexing failed unexpectedly: {error!r}", "failed")
            return
        seconds = time.perf_counter() - started
        if self.with_vectors and (paths is None or report.vectors_deferred):
            self._vectors_pending = True  # (without vectors nothing waits: idle can be set)
        mode = "rescan" if report.mode == "full" else "update"
        why = f" ({report.rescan_reason or reason})" if report.mode == "full" else ""
        line = (
            f"{mode}{why}: {_count(report.files_parsed, 'file')} re-read, "
            f"{report.files_removed} removed, "
            f"{report.chunks_added} chunks, {report.vectors_added} vectors in {seconds:.2f} s"
        )
        self._counted(
            state="paused" if self._paused else ("watching" if self.watch else "indexing"),
            updates=self._status.updates + 1,
            last_update=line,
            message=line,
            graph_pending=report.graph_pending > 0,
        )

    def _published(self, paths: set[str] | None) -> None:
        """A run published, before it ends: new chunks (searchable now; the call graph and
        the vectors follow), or the call graph (an empty set)."""
        if paths == set():
            self._emit(graph_pending=False, graph_updates=self._status.graph_updates + 1)
        else:
            self._counted(published=self._status.published + 1, graph_pending=True)

    def _retry(self, paths: set[str] | None, reason: str, error: str, state: str) -> None:
        """Keep the work queued and try again later, saying why."""
        if paths:
            self.queue.add(paths)
        else:
            self.queue.request_rescan(reason or "retry")
        self._emit(state=state, error=error, message=error)
        if self.watch and folder_identity(self.root) is None:
            return  # the folder went: the loop looks for it far more often than this
        self._stop.wait(RETRY_SECONDS)

    def _embed(self) -> None:
        """Embed what is still missing, stopping early whenever files change."""
        self._emit(state="indexing", phase="embed", message="embedding chunks")
        try:
            self.service.embedder()  # one model, shared with search
            report = self.service.embed(self._progress, self._control)
        except IndexLocked as error:
            self._emit(state="waiting", error=str(error), message=str(error))
            self._stop.wait(RETRY_SECONDS)
            return
        except Exception as error:  # the model, the disk, the index: say it, retry later
            self._emit(state="failed", error=f"embedding failed: {error}", message=str(error))
            self._stop.wait(RETRY_SECONDS)
            return
        self._vectors_pending = report.vectors_deferred
        if not report.vectors_deferred and not report.cancelled:
            self._counted(
                state="paused" if self._paused else ("watching" if self.watch else "indexing"),
                phase="done",
                message=f"vectors ready ({report.vectors_total} chunks)",
                published=self._status.published + (report.vectors_added > 0),
            )

    def _catch_up_graph(self) -> None:
        self._graph_interrupt.clear()
        control = _InterruptibleControl(self._graph_interrupt, self._stop)
        self._emit(state="indexing", phase="graph", message="resolving calls")
        try:
            report = self.service.catch_up_graph(control)
        except Exception as error:  # retried at the next quiet moment
            self._emit(state="failed", error=str(error), message=str(error))
            self._stop.wait(RETRY_SECONDS)
            return
        if report is None:  # edits arrived: index them first, the graph waits
            return
        self._emit(
            state="paused" if self._paused else ("watching" if self.watch else "indexing"),
            phase="done",
            graph_pending=False,
            graph_updates=self._status.graph_updates + bool(report),
            message="call graph up to date",
        )


class _YieldingControl(RunControl):
    """The worker's run control: embedding yields as soon as changes are queued."""

    def __init__(self, queue: ChangeQueue) -> None:
        super().__init__()
        self._queue = queue

    def should_yield(self) -> bool:
        return self._queue.has_work


class _InterruptibleControl(RunControl):
    """Cancelled as soon as a new change arrives or the worker stops."""

    def __init__(self, *events: threading.Event) -> None:
        super().__init__()
        self._events = events

    @property
    def cancelled(self) -> bool:
        return any(event.is_set() for event in self._events)


def _lower_priority(niceness: int) -> None:
    """Lower the calling thread's CPU priority (Linux schedules threads one by one; where
    that is not so, or not allowed, the thread keeps its priority)."""
    with contextlib.suppress(OSError, AttributeError):
        thread = threading.get_native_id()
        os.setpriority(
            os.PRIO_PROCESS, thread, max(os.getpriority(os.PRIO_PROCESS, thread), niceness)
        )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
