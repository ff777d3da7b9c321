"""Watch a repository with watchfiles and gather what changed into a queue of paths.

The watcher only collects: it never indexes. Paths inside `.git`, dependency and build
folders (the walk's deny list) and the index itself are dropped on arrival, so churn there
costs nothing; ignore rules are applied later, per batch, by the index run. A name that is not
valid UTF-8 stops watchfiles' native watcher (it cannot name the path), so the watcher then
polls instead, and each batch lost that way is made good by a rescan.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from app.indexer.walk import _is_denied_dir

STEP_MS = 50  # watchfiles yields once no new event came for this long
MAX_BATCH_MS = 1_600  # ... or after this long in a steady stream of events
POLL_MS = 1_000  # how often the polling watcher looks (a stat of every file each time)
RESTART_SECONDS = 1.0  # pause before watching again after a batch was lost

FolderIdentity = tuple[int, int]  # (device, inode)


def folder_identity(path: Path) -> FolderIdentity | None:
    """The device and inode of the folder at `path` now (None when there is none): inotify
    watches follow this folder, not its path, so a change of it means a dead watch."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None


class ChangeQueue:
    """Paths changed since the last batch was taken; safe to use from several threads."""

    def __init__(self) -> None:
        self._paths: set[str] = set()
        self._rescan = ""  # why the next batch must walk everything ("" when it need not)
        self._last_event = 0.0
        self._changed = threading.Condition()
        self.on_event: list[threading.Event] = []  # set on every arrival (stops graph work)
        self.listeners: list[Callable[[], None]] = []  # called after every arrival

    def add(self, paths: Iterable[str]) -> None:
        arrived = set(paths)
        if not arrived:
            return  # the watcher's idle ticks
        with self._changed:
            self._paths.update(arrived)
            self._last_event = time.monotonic()  # a path written again still delays the batch
            for flag in self.on_event:
                flag.set()
            self._changed.notify_all()
        for listener in self.listeners:
            listener()

    def request_rescan(self, reason: str) -> None:
        with self._changed:
            self._rescan = self._rescan or reason
            self._last_event = time.monotonic()
            for flag in self.on_event:
                flag.set()
            self._changed.notify_all()

    def wake(self) -> None:
        """Wake a thread waiting in `wait` (to stop it)."""
        with self._changed:
            self._changed.notify_all()

    def __len__(self) -> int:
        with self._changed:
            return len(self._paths)

    @property
    def has_work(self) -> bool:
        with self._changed:
            return bool(self._paths or self._rescan)

    def quiet_for(self) -> float:
        """Seconds since the last change arrived."""
        with self._changed:
            return time.monotonic() - self._last_event

    def wait(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for work; True when there is some."""
        with self._changed:
            if not (self._paths or self._rescan):
                self._changed.wait(timeout)
            return bool(self._paths or self._rescan)

    def take(self) -> tuple[set[str], str]:
        """Everything gathered so far, and the rescan reason; the queue starts empty again."""
        with self._changed:
            paths, reason = self._paths, self._rescan
            self._paths, self._rescan = set(), ""
            return paths, reason


class Watcher:
    """A thread running watchfiles over `root`, feeding `queue` with relative paths."""

    def __init__(self, root: Path, queue: ChangeQueue, *, skip_dirs: Iterable[Path] = ()) -> None:
        self.root = Path(os.path.realpath(root))
        self.queue = queue
        self.skip_dirs = [os.path.realpath(p) for p in skip_dirs]
        self.error = ""  # why the watcher stopped, when it stopped on its own
        self.lost_root = False  # it stopped because the root was no folder (moved, deleted)
        self.identity = folder_identity(self.root)  # the folder it watches
        self.polling = False  # True once a name that is not UTF-8 stopped the native watcher
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="repolens-watch", daemon=True)
        self.started = threading.Event()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop watching; safe before `start` too (the indexer made the watcher as the app
        quit): a watcher started after it stops at once."""
        self._stop.set()
        if self._thread.ident is not None:  # started: wait for it; else there is none to wait for
            self._thread.join(timeout=5)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def relative(self, path: str) -> str | None:
        """The repository-relative path of an event, or None when it is to be dropped."""
        real = os.path.abspath(path)
        if any(real == d or real.startswith(d + os.sep) for d in self.skip_dirs):
            return None
        try:
            rel = os.path.relpath(real, self.root)
        except ValueError:
            return None
        if rel.startswith(".."):
            return None
        rel = rel.replace(os.sep, "/")
        parts = rel.split("/")
        if any(part == ".git" or _is_denied_dir(part) for part in parts[:-1]):
            return None
        if parts[-1] == ".git" or (_is_denied_dir(parts[-1]) and os.path.isdir(real)):
            return None
        return rel

    def _run(self) -> None:
        lost = ""  # why events were lost: a rescan is due as soon as the watch is back
        try:
            while not self._stop.is_set():
                try:
                    self._watch(lost)
                    return
                except RuntimeError as error:  # watchfiles' WatchfilesRustInternalError
                    if "decode path" not in str(error):
                        raise
                    self.polling = True  # the native watcher stops at every such name
                    lost = (
                        f"a name that is not valid UTF-8 changed ({error}); the file watcher "
                        "polls from now on"
                    )
                    self._stop.wait(RESTART_SECONDS)
        except Exception as error:  # the OS refused (watch limit, root removed...): say so
            self.error = f"the file watcher stopped: {error}"
            self.lost_root = folder_identity(self.root) is None
            self.queue.request_rescan(self.error)
        finally:
            self.started.set()

    def _polling_options(self) -> dict[str, Any]:
        if self.polling:
            return {"force_polling": True, "poll_delay_ms": POLL_MS}
        return {}  # watchfiles decides (WATCHFILES_FORCE_POLLING)

    def _watch(self, lost: str) -> None:
        """Watch until stopped; `lost` (when set) asks for a rescan once the watch is set up."""
        import watchfiles

        if not self.root.is_dir():
            raise FileNotFoundError(f"{self.root} is not a folder any more")
        changes_seen = watchfiles.watch(
            self.root,
            watch_filter=lambda _change, path: self.relative(path) is not None,
            debounce=MAX_BATCH_MS,
            step=STEP_MS,
            stop_event=self._stop,
            rust_timeout=500,
            yield_on_timeout=True,
            raise_interrupt=False,
            ignore_permission_denied=True,
            **self._polling_options(),
        )
        for number, changes in enumerate(changes_seen):
            if number == 0:
                self.started.set()
                if lost:
                    self.queue.request_rescan(lost)
            if self._stop.is_set():
                break
            if not changes and not self.root.is_dir():  # unreadable parts are skipped
                raise FileNotFoundError(f"{self.root} is not a folder any more")
            relative = (self.relative(path) for _, path in changes)
            self.queue.add(rel for rel in relative if rel is not None)
