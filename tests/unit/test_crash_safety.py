"""kill -9 during an index run leaves an index that opens, is consistent, and resumes."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.core.settings import Settings
from app.service import Service
from app.store.check import check_index
from app.store.manifest import read_manifest
from app.store.store import Store

ROOT = Path(__file__).resolve().parents[2]


def _make_repo(root: Path, files: int = 40, functions: int = 15) -> None:
    for f in range(files):
        lines = [f'"""Module {f} of a generated repository."""', ""]
        for n in range(functions):
            lines += [f"def compute_{f}_{n}(value):", f"    return value * {n} + {f}", "", ""]
        (root / f"module_{f}.py").write_text("\n".join(lines))


def _assert_consistent(index_dir: Path) -> None:
    assert check_index(index_dir) == []


def _start_index(repo: Path, index_root: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "index", str(repo), "--index-dir", str(index_root), "-q"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.slow
def test_kill_during_embedding_resumes_without_re_embedding(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _make_repo(repo)
    index_root = tmp_path / "indexes"
    settings = Settings(index_dir=index_root)
    service = Service(repo, settings)

    process = _start_index(repo, index_root)
    deadline = time.time() + 120
    # Wait until at least one batch of vectors is committed, then kill without warning.
    while not list(index_root.glob("vectors/vectors_*.lance/_versions/*.manifest")):
        assert process.poll() is None, "index finished before it could be killed"
        assert time.time() < deadline
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()

    manifest = read_manifest(service.index_dir)
    assert manifest is not None
    _assert_consistent(service.index_dir)
    report = service.index()
    assert 0 < report.vectors_added < report.chunks_total, "finished batches were embedded again"
    assert report.vectors_total == report.chunks_total
    _assert_consistent(service.index_dir)


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.6, 1.2, 1.8])
def test_kill_at_any_moment_leaves_a_consistent_index(tmp_path: Path, delay: float) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _make_repo(repo, files=30)
    index_root = tmp_path / "indexes"
    service = Service(repo, Settings(index_dir=index_root))
    service.index(with_vectors=False)
    for path in list(repo.glob("module_1*.py")):  # a second run with real changes to write
        path.write_text(path.read_text() + "\n\ndef added(x):\n    return x\n")
    (repo / "module_2.py").unlink()

    process = _start_index(repo, index_root)
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    process.wait()

    _assert_consistent(service.index_dir)
    Service(repo, Settings(index_dir=index_root)).index(with_vectors=False)
    _assert_consistent(service.index_dir)
    store = Store.open(service.index_dir)
    assert "module_2.py" not in store.files()
    assert len(store.files()) == 29
