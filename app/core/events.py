"""Progress events and run control shared by the engine and any front end (no UI here)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class IndexProgress:
    """Where an index run is. `phase` is walk, parse, write, graph, embed or done; `done` and
    `total` count files while parsing and vectors while embedding."""

    phase: str
    done: int
    total: int
    message: str = ""
    eta_seconds: float | None = None  # while embedding, from the rate so far


ProgressCallback = Callable[[IndexProgress], None]


def ignore_progress(_: IndexProgress) -> None:
    return None


class RunControl:
    """Pause, resume or cancel an index run from another thread. The run checks in between
    files and between embedding batches; nothing half-written is ever published."""

    def __init__(self) -> None:
        self._cancelled = threading.Event()
        self._running = threading.Event()
        self._running.set()

    def cancel(self) -> None:
        self._cancelled.set()
        self._running.set()  # a paused run wakes up to stop

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def should_yield(self) -> bool:
        """True when long background work (embedding) should stop early for newer work; the
        live index's worker says so when files changed. The work resumes later."""
        return False

    def checkpoint(self) -> bool:
        """Wait while paused; True when the run should stop now."""
        self._running.wait()
        return self._cancelled.is_set()


@dataclass(frozen=True, slots=True)
class WorkerStatus:
    """Everything a status line needs, as plain data."""

    state: str = "starting"  # starting, indexing, watching, paused, stopped, failed
    phase: str = ""  # of the current run: walk, parse, write, graph, embed, done
    done: int = 0
    total: int = 0
    message: str = ""
    eta_seconds: float | None = None
    watching: bool = False  # the file watcher is running
    pending: int = 0  # changed paths waiting for the next batch
    graph_pending: bool = False  # the call graph trails the chunks
    updates: int = 0  # batches indexed since start
    # Searches see new data this many times since start, each before its run ends: chunks
    # published, or every vector in after embedding (a result shown may have changed).
    published: int = 0
    graph_updates: int = 0  # call graphs published since start (the first: it exists now)
    last_update: str = ""  # one line about the last batch
    error: str = ""
    files: int = 0  # what the published index holds
    chunks: int = 0
    vectors_share: float | None = None  # of the chunks that get one; None before search loads
