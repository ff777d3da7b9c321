"""What a hostile repository holds, through the whole index (real files, real LanceDB, real
watchfiles): names that are not UTF-8, FIFOs in place of files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.core.settings import Settings
from app.indexer import pipeline
from app.indexer.walk import WalkResult, walk
from app.indexer.watch import ChangeQueue, Watcher
from app.indexer.worker import IndexWorker, WorkerStatus
from app.service import Service
from app.store.store import Store
from tests.unit.test_live_index import wait_until
from tests.unit.test_walk import within

ROOT = Path(__file__).resolve().parents[2]


def _write_bytes_name(folder: Path, name: bytes, text: str = "def odd():\n    return 1\n") -> None:
    path = os.path.join(os.fsencode(folder), name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)


def _odd_names_repo(sample_repo: Path) -> Path:
    """The sample repository plus a file and a folder whose names are not UTF-8."""
    _write_bytes_name(sample_repo, b"src/a\xff.py")
    _write_bytes_name(sample_repo, b"d\xfe/inner.py")
    return sample_repo


# --- names that are not UTF-8 -----------------------------------------------------------------


def test_index_and_stats_skip_names_that_are_not_utf8(
    sample_repo: Path, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _odd_names_repo(sample_repo)
    service = Service(repo, settings)
    first = service.index(with_vectors=False)
    again = service.index(with_vectors=False)
    assert first.skipped_by_reason["undecodable-name"] == 2
    assert again.files_seen == first.files_seen and again.files_parsed == 0
    skipped = {s["path"]: s for s in service.skipped()}
    assert skipped["src/a\\xff.py"]["reason"] == "undecodable-name"
    assert "not valid UTF-8" in skipped["d\\xfe"]["detail"]
    assert service.stats()["pending"] == {"changed": [], "added": [], "removed": []}

    code = main(["stats", str(repo), "--json", "--index-dir", str(settings.index_dir)])
    listing = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {"src/a\\xff.py", "d\\xfe"} <= {s["path"] for s in listing["skipped"]}


def test_a_changed_name_that_is_not_utf8_asks_for_a_rescan(
    sample_repo: Path, settings: Settings
) -> None:
    service = Service(sample_repo, settings)
    service.index(with_vectors=False)
    repo = _odd_names_repo(sample_repo)
    report = service.index(
        changed=[os.fsdecode(b"src/a\xff.py"), os.fsdecode(b"d\xfe/inner.py")], with_vectors=False
    )
    assert report.mode == "full" and "not valid UTF-8" in report.rescan_reason
    assert report.skipped_by_reason["undecodable-name"] == 2
    assert {"src/a\\xff.py", "d\\xfe"} <= {s["path"] for s in Service(repo, settings).skipped()}


def test_the_watcher_keeps_watching_past_names_that_are_not_utf8(tmp_path: Path) -> None:
    _write_bytes_name(tmp_path, b"d\xfe/inner.py")  # watchfiles' native watcher stops at it
    queue = ChangeQueue()
    watcher = Watcher(tmp_path, queue)
    watcher.start()
    try:
        wait_until(lambda: watcher.started.is_set(), 10)
        assert watcher.alive and watcher.polling
        (tmp_path / "fresh.py").write_text("x = 1\n")
        wait_until(lambda: "fresh.py" in queue.take()[0], 10)

        _write_bytes_name(tmp_path, b"d\xfe/later.py")  # a batch it cannot name: a rescan
        rescan = wait_until(lambda: queue.take()[1], 10)
        assert "not valid UTF-8" in rescan
        (tmp_path / "after.py").write_text("x = 1\n")
        wait_until(lambda: "after.py" in queue.take()[0], 10)
        assert watcher.alive and watcher.error == ""
    finally:
        watcher.stop()


def test_the_live_index_indexes_a_repository_with_such_names(
    sample_repo: Path, settings: Settings
) -> None:
    service = Service(_odd_names_repo(sample_repo), settings)
    seen: list[WorkerStatus] = []
    worker = IndexWorker(service, seen.append, with_vectors=False)
    worker.start()
    try:
        # The native watcher stops at the name; the polling one that follows asks for a
        # rescan. (Without vectors the worker never reports idle, so watch its state.)
        wait_until(lambda: worker.status.state == "watching" and not worker.queue.has_work, 60)
        assert worker.status.error == "" and worker.watcher and worker.watcher.polling
        (sample_repo / "src" / "weather.py").write_text("def forecast_rain():\n    return 1\n")
        wait_until(lambda: "src/weather.py" in Store.open(service.index_dir).files(), 20)
        assert worker.status.error == ""
    finally:
        worker.stop()


def test_a_repository_whose_own_name_is_not_utf8_is_indexed(tmp_path: Path) -> None:
    repo = os.path.join(os.fsencode(tmp_path), b"repo\xff")
    _write_bytes_name(Path(os.fsdecode(repo)), b"main.py")
    command = [sys.executable.encode(), b"-m", b"app.main", b"index", repo]  # the name in argv
    done = subprocess.run(
        [*command, b"--index-dir", os.fsencode(tmp_path / "indexes"), b"--no-vectors", b"-q"],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        env={**os.environ, "REPOLENS_CONFIG": str(tmp_path / "no-config.toml")},
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    service = Service(Path(os.fsdecode(repo)), Settings(index_dir=tmp_path / "indexes"))
    assert list(Store.open(service.index_dir).files()) == ["main.py"]


# --- FIFOs, devices and sockets in place of files ----------------------------------------------


def test_index_in_a_subprocess_skips_fifos_and_never_blocks(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "main.py").write_text("def main():\n    return 0\n")
    os.mkfifo(repo / "pipe.py")
    os.mkfifo(repo / ".gitignore")  # read by the walk itself
    index_root = tmp_path / "indexes"
    command = [sys.executable, "-m", "app.main", "index", str(repo)]
    done = subprocess.run(
        [*command, "--index-dir", str(index_root), "--no-vectors", "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,  # a read waiting on a FIFO fails the test here instead of hanging it
        env={**os.environ, "REPOLENS_CONFIG": str(tmp_path / "no-config.toml")},
    )
    assert done.returncode == 0, done.stderr
    skipped = Service(repo, Settings(index_dir=index_root)).skipped()
    assert {(s["path"], s["reason"]) for s in skipped} == {
        (".gitignore", "not-regular"),
        ("pipe.py", "not-regular"),
    }


def test_a_file_swapped_for_a_fifo_after_the_walk_is_skipped(
    sample_repo: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = sample_repo / "src" / "retry.py"

    def walk_then_swap(root: Path, **options: object) -> WalkResult:
        walked = walk(root, **options)  # type: ignore[arg-type]
        target.unlink()
        os.mkfifo(target)
        return walked

    monkeypatch.setattr(pipeline, "walk", walk_then_swap)
    service = Service(sample_repo, settings)
    report = within(30, lambda: service.index(with_vectors=False), [target])
    assert report.skipped_by_reason == {"not-regular": 1}
    assert {s["path"]: s["detail"] for s in service.skipped()} == {"src/retry.py": "a fifo"}
    assert "src/retry.py" not in Store.open(service.index_dir).files()

    monkeypatch.setattr(pipeline, "walk", walk)  # the write lock was released
    assert within(30, lambda: service.index(with_vectors=False), [target]).files_seen > 0


def test_previews_and_coverage_skip_a_file_turned_fifo(
    sample_repo: Path, settings: Settings
) -> None:
    service = Service(sample_repo, settings)
    service.index(with_vectors=False)
    target = sample_repo / "src" / "retry.py"
    target.unlink()
    os.mkfifo(target)
    shown = within(10, lambda: service.source("src/retry.py"), [target])
    assert shown == "src/retry.py cannot be shown: not-regular"
    coverage = within(10, lambda: service.stats(coverage=True)["coverage"], [target])
    assert "src/retry.py" not in {f["path"] for f in coverage["worst_files"]}
