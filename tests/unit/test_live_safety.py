"""Safety of the live index: kill -9 at random moments of `watch`, a writer lock whose holder
died, and a full or read-only disk (real tmpfs mounts where this machine allows them)."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.settings import Settings
from app.service import Service
from app.store.check import check_index
from app.store.manifest import IndexLocked, IndexWriteError, WriteLock
from tests.unit.test_live_index import fresh_snapshot, snapshot, wait_until

ROOT = Path(__file__).resolve().parents[2]


def _make_repo(root: Path, files: int = 30) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for f in range(files):
        body = [f"def step_{f}_{n}(value):\n    return step_{f}_{max(n - 1, 0)}(value)\n"
                for n in range(12)]  # fmt: skip
        (root / f"module_{f}.py").write_text("\n\n".join(body))


def _watch(repo: Path, index_root: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app.cli",
            "watch",
            str(repo),
            "--index-dir",
            str(index_root),
            "--no-vectors",
            "-q",
        ],  # fmt: skip
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.slow
def test_kill_9_at_random_moments_of_watch_leaves_an_index_that_checks_and_resumes(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    _make_repo(repo)
    index_root = tmp_path / "indexes"
    service = Service(repo, Settings(index_dir=index_root))
    service.index(with_vectors=False)
    chance = random.Random(7)
    for round_number in range(6):
        process = _watch(repo, index_root)
        deadline = time.monotonic() + chance.uniform(1.5, 4.0)
        while time.monotonic() < deadline:  # edits keep coming while the watcher works
            target = repo / f"module_{chance.randrange(30)}.py"
            target.write_text(target.read_text() + f"\n\ndef extra_{round_number}_{time.time_ns()}"
                              "(value):\n    return value\n")  # fmt: skip
            time.sleep(chance.uniform(0.05, 0.4))
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert check_index(service.index_dir) == [], f"after kill {round_number}"

    Service(repo, Settings(index_dir=index_root)).index(with_vectors=False)
    assert check_index(service.index_dir) == []
    assert snapshot(service.index_dir) == fresh_snapshot(repo, tmp_path)


@pytest.mark.slow
def test_the_lock_names_its_holder_and_is_free_once_the_holder_dies(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _make_repo(repo, files=5)
    index_root = tmp_path / "indexes"
    service = Service(repo, Settings(index_dir=index_root))
    process = _watch(repo, index_root)
    lock_file = service.index_dir / "write.lock"
    try:

        def held() -> bool:
            try:
                with WriteLock(service.index_dir):
                    return False
            except IndexLocked:
                return True

        wait_until(held, 60)
        with pytest.raises(IndexLocked, match=f"pid {process.pid}"):
            service.index(with_vectors=False)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert lock_file.exists()  # the dead holder's lock file stays; its flock went with it
    report = service.index(with_vectors=False)
    assert report.files_seen == 5
    assert check_index(service.index_dir) == []


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 24 MiB tmpfs, mounted for the test (skipped where mounting is not allowed)."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(mount_point)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


def test_a_full_disk_gives_a_clear_error_and_loses_nothing(
    small_disk: Path, sample_repo: Path
) -> None:
    service = Service(sample_repo, Settings(index_dir=small_disk / "indexes"))
    service.index(with_vectors=False)
    before = [hit.chunk_id for hit in service.search("retry backoff").hits]
    filler = small_disk / "filler"
    with filler.open("wb") as handle, pytest.raises(OSError):
        while True:
            handle.write(b"\0" * 1_048_576)
            handle.flush()
    target = sample_repo / "src" / "retry.py"
    target.write_text(target.read_text() + "\n\ndef added_when_full(x):\n    return x\n" * 50)

    with pytest.raises(IndexWriteError, match="disk holding the index is full"):
        Service(sample_repo, service.settings).index(with_vectors=False)
    assert check_index(service.index_dir) == []
    reader = Service(sample_repo, service.settings)
    assert [hit.chunk_id for hit in reader.search("retry backoff").hits] == before

    filler.unlink()
    reader.index(with_vectors=False)
    assert check_index(service.index_dir) == []
    assert any(h.symbol == "added_when_full" for h in reader.search("added when full").hits)


def test_a_read_only_index_folder_gives_a_clear_error(small_disk: Path, sample_repo: Path) -> None:
    service = Service(sample_repo, Settings(index_dir=small_disk / "indexes"))
    service.index(with_vectors=False)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    (sample_repo / "src" / "new.py").write_text("def brand_new():\n    return 1\n")

    with pytest.raises(IndexWriteError, match="read-only"):
        service.index(with_vectors=False)
    assert service.search("retry backoff").hits, "searching a read-only index still works"
    assert shutil.disk_usage(small_disk).total > 0
