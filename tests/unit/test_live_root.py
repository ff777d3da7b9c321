"""The live index outlives its repository folder being moved away and back, replaced by a copy,
or its watcher stopping: a real `watch`, real watchfiles (inotify), real moves on disk."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.settings import Settings
from app.indexer import worker as worker_module
from app.indexer.worker import IndexWorker, WorkerStatus
from app.service import Service
from app.store.store import Store
from tests.unit.test_live_index import found, wait_until

ROOT = Path(__file__).resolve().parents[2]
EDIT_SEEN_SECONDS = 5.0  # an edit after the folder came back is searchable within this


def _make_repo(repo: Path) -> None:
    repo.mkdir()
    (repo / "billing.py").write_text("def total_invoice(lines):\n    return sum(lines)\n")


def _edit(repo: Path, n: int) -> str:
    name = f"edit_{n}.py"
    (repo / name).write_text(f"def zebra_marker_{n}(value):\n    return value\n")
    return name


class _WatchProcess:
    """`python -m app.cli watch REPO` in a subprocess; its stderr log gathered line by line."""

    def __init__(self, repo: Path, index_root: Path, tmp_path: Path) -> None:
        env = {**os.environ, "REPOLENS_CONFIG": str(tmp_path / "no-config.toml")}
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "app.cli",
                "watch",
                str(repo),
                "--no-vectors",
                "--index-dir",
                str(index_root),
            ],  # fmt: skip
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))

    def logged(self, text: str, after: int = 0) -> int:
        """How many lines had been logged once one (from line `after` on) says `text`."""
        return next((n + 1 for n, line in enumerate(self.lines) if n >= after and text in line), 0)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture
def watch_process(tmp_path: Path) -> Iterator[_WatchProcess]:
    _make_repo(tmp_path / "repo")
    process = _WatchProcess(tmp_path / "repo", tmp_path / "indexes", tmp_path)
    yield process
    process.stop()


def test_watch_sees_edits_after_the_folder_is_moved_away_and_back(
    watch_process: _WatchProcess, tmp_path: Path
) -> None:
    repo, away = tmp_path / "repo", tmp_path / "repo.x"
    wait_until(lambda: watch_process.logged("rescan (start-up scan)"), 60)
    repo.rename(away)
    time.sleep(1.5)  # long enough for watchfiles to notice (it looks twice a second)
    away.rename(repo)
    service = Service(repo, Settings(index_dir=tmp_path / "indexes"))
    for n in range(2):  # the first edit, and one after it: the watch is live again
        name = _edit(repo, n)
        wait_until(lambda: name in Store.open(service.index_dir).files(), EDIT_SEEN_SECONDS)  # noqa: B023
    assert found(service, "zebra marker 1", "edit_1.py")
    gone = watch_process.logged("error: the repository folder")
    assert gone and "is gone (moved or deleted)" in watch_process.lines[gone - 1]
    assert watch_process.logged("rescan (the repository folder is back: watching it again)", gone)


def _live(repo: Path, settings: Settings) -> tuple[Service, IndexWorker, list[WorkerStatus]]:
    service = Service(repo, settings)
    seen: list[WorkerStatus] = []
    worker = service.live(seen.append, with_vectors=False)
    wait_until(lambda: seen and seen[-1].updates >= 1, 60)
    return service, worker, seen


def test_a_folder_replaced_by_a_copy_is_watched_again(tmp_path: Path, settings: Settings) -> None:
    repo = tmp_path / "repo"
    _make_repo(repo)
    service, worker, seen = _live(repo, settings)
    try:
        shutil.copytree(repo, tmp_path / "copy")
        shutil.rmtree(repo)
        (tmp_path / "copy").rename(repo)  # at once: the old watcher lives on, on the old folder
        for n in range(2):
            name = _edit(repo, n)
            wait_until(lambda: found(service, f"zebra marker {n}", name), EDIT_SEEN_SECONDS)  # noqa: B023
        assert any("was replaced: watching it again" in s.message for s in seen)
        assert worker.status.watching and not worker.status.error
    finally:
        worker.stop()


def test_a_watcher_that_stopped_is_started_again_after_a_wait(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(worker_module, "RETRY_SECONDS", 0.5)
    repo = tmp_path / "repo"
    _make_repo(repo)
    service, worker, seen = _live(repo, settings)
    try:
        first = worker.watcher
        assert first is not None
        first.stop()  # as when the OS ends it: the folder is still there, unchanged
        time.sleep(0.5)  # the edit comes after the watcher stopped
        name = _edit(repo, 0)
        wait_until(lambda: found(service, "zebra marker 0", name), EDIT_SEEN_SECONDS)
        assert worker.watcher is not first and worker.status.watching
        assert any("watching again in" in s.error and s.state == "failed" for s in seen)
    finally:
        worker.stop()
    assert worker.watcher is not None and not worker.watcher.alive
