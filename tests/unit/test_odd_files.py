"""What a hostile repository holds, through the whole index (real files, real LanceDB, real
watchfiles): names that are not UTF-8, FIFOs in place of files, the index inside the tree."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.cli import main
from app.core.paths import index_folders, write_cache_tag
from app.core.settings import Settings
from app.indexer import pipeline
from app.indexer.targets import classify_paths
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


# --- the index inside the repository ----------------------------------------------------------


def _files_and_hits(service: Service) -> tuple[int, set[str], set[str]]:
    report = service.index(with_vectors=False)
    files = set(Store.open(service.index_dir).files())
    hits = {hit.path for hit in service.search("manifest schema version tables lock").hits}
    return report.files_seen, files, hits


@pytest.mark.parametrize("index_root", [".idx", "src/cache", "."])
def test_an_index_root_inside_the_repository_is_never_indexed(
    sample_repo: Path, index_root: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("REPOLENS_CONFIG", str(tmp_path / "no-config.toml"))
    service = Service(sample_repo, Settings(index_dir=sample_repo / index_root))
    seen_first, files_first, hits_first = _files_and_hits(service)
    seen_again, files_again, hits_again = _files_and_hits(service)
    assert seen_first == seen_again and files_first == files_again
    assert "src/html_parser.py" in files_first  # the repository itself is still indexed
    own = [Path(os.path.relpath(p, sample_repo)).as_posix() for p in index_folders(
        service.index_dir, sample_repo)]  # fmt: skip
    for path in files_first | hits_first | hits_again:
        assert not any(path == folder or path.startswith(folder + "/") for folder in own), path
    assert service.stats()["pending"] == {"changed": [], "added": [], "removed": []}


def test_an_old_index_left_inside_the_repository_is_not_indexed(
    sample_repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("REPOLENS_CONFIG", str(tmp_path / "no-config.toml"))
    Service(sample_repo, Settings(index_dir=sample_repo / "old-index")).index(with_vectors=False)
    service = Service(sample_repo, Settings(index_dir=tmp_path / "indexes"))
    service.index(with_vectors=False)
    files = Store.open(service.index_dir).files()
    assert "src/html_parser.py" in files
    assert not [path for path in files if path.startswith("old-index/")]
    skipped = {s["path"]: s["reason"] for s in service.skipped()}
    assert {path for path, reason in skipped.items() if reason == "denied"} >= {
        f"old-index/{service.index_dir.name}",
        "old-index/vectors",
    }


def test_a_batch_drops_paths_in_the_index_and_in_tagged_folders(sample_repo: Path) -> None:
    (sample_repo / ".idx" / "r-1").mkdir(parents=True)
    (sample_repo / ".idx" / "r-1" / "manifest.json").write_text("{}")
    (sample_repo / "old" / "r-2").mkdir(parents=True)
    write_cache_tag(sample_repo / "old" / "r-2")
    (sample_repo / "old" / "r-2" / "notes.py").write_text("x = 1\n")
    changed = [".idx/r-1/manifest.json", "old/r-2/notes.py", "src/html_parser.py"]
    targets = classify_paths(sample_repo, changed, exclude_dirs=[sample_repo / ".idx"])
    assert targets.rescan == "" and [f.path for f in targets.files] == ["src/html_parser.py"]
    assert targets.outside == {".idx/r-1/manifest.json", "old/r-2/notes.py"}
    assert "ignore rules" in classify_paths(sample_repo, ["src/CACHEDIR.TAG"]).rescan


def test_the_watcher_drops_events_in_the_index_only(sample_repo: Path) -> None:
    repo = sample_repo.resolve()
    inside = Watcher(repo, ChangeQueue(), skip_dirs=index_folders(repo / ".idx" / "r-1", repo))
    assert inside.relative(str(repo / ".idx" / "r-1" / "manifest.json")) is None
    assert inside.relative(str(repo / ".idx" / "vectors" / "v.lance")) is None
    assert inside.relative(str(repo / "src" / "new.py")) == "src/new.py"
    at_root = Watcher(repo, ChangeQueue(), skip_dirs=index_folders(repo / "r-1", repo))
    assert at_root.relative(str(repo / "r-1" / "manifest.json")) is None
    assert at_root.relative(str(repo / "vectors" / "v.lance")) is None
    assert at_root.relative(str(repo / "src" / "new.py")) == "src/new.py"


@pytest.mark.parametrize("index_root", [".idx", "."])
def test_the_live_index_ignores_its_own_writes_inside_the_repository(
    sample_repo: Path, index_root: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("REPOLENS_CONFIG", str(tmp_path / "no-config.toml"))
    service = Service(sample_repo, Settings(index_dir=sample_repo / index_root))
    seen: list[WorkerStatus] = []
    worker = IndexWorker(service, seen.append, with_vectors=False)
    worker.start()
    try:
        wait_until(lambda: seen and seen[-1].updates >= 1, 60)  # (never idle without vectors)
        before = seen[-1].updates
        (service.index_dir / "junk.py").write_text("def junk():\n    pass\n")
        time.sleep(1.0)
        assert seen[-1].updates == before, "a write in the index cost an update"
        (sample_repo / "src" / "weather.py").write_text("def forecast_rain():\n    return 1\n")
        wait_until(lambda: "src/weather.py" in Store.open(service.index_dir).files(), 20)
        assert not [p for p in Store.open(service.index_dir).files() if "junk" in p]
    finally:
        worker.stop()
