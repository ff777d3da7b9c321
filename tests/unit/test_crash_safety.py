"""kill -9 during an index run leaves an index that opens, is consistent, and resumes."""

from __future__ import annotations

import json
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
    full = Service(repo, Settings(index_dir=tmp_path / "whole")).index()  # the same, unkilled
    resumed = report.vectors_added + report.word_vectors_added
    assert 0 < resumed < full.vectors_added + full.word_vectors_added, "batches embedded again"
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


def _tables_folders(index_dir: Path) -> set[str]:
    return {p.name for p in index_dir.glob("tables*") if p.is_dir()}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("moment", "delay"), [("writing", 0.0), ("writing", 0.1), ("embedding", 0)]
)
def test_kill_during_rebuild_leaves_the_old_index_searchable(
    tmp_path: Path, moment: str, delay: float
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _make_repo(repo)
    index_root = tmp_path / "indexes"
    service = Service(repo, Settings(index_dir=index_root))
    service.index(with_vectors=False)
    published = _tables_folders(service.index_dir)
    vectors = index_root / "vectors"

    def reached() -> bool:
        """Writing: a second tables folder (or no manifest, as a rebuild that deletes the
        index first would leave); embedding: the new tables published, vectors committed."""
        if moment == "embedding":
            return bool(list(vectors.glob("vectors_*.lance/_versions/*.manifest")))
        manifest = service.index_dir / "manifest.json"
        return _tables_folders(service.index_dir) != published or not manifest.exists()

    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "app.cli", "index", str(repo), "--rebuild"),
            *("--index-dir", str(index_root), "-q"),
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 120
    while not reached():
        assert process.poll() is None, "the rebuild finished before it could be killed"
        assert time.time() < deadline
        time.sleep(0.01)
    time.sleep(delay)
    assert process.poll() is None, "the rebuild finished before it could be killed"
    process.send_signal(signal.SIGKILL)
    process.wait()

    _assert_consistent(service.index_dir)
    searched = subprocess.run(
        [
            *(sys.executable, "-m", "app.cli", "search", str(repo), "compute_3_4"),
            *("--index-dir", str(index_root), "--json", "-k", "3"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert searched.returncode == 0, searched.stderr
    assert "indexing it first" not in searched.stderr  # the index answered as it was
    assert json.loads(searched.stdout)["hits"][0]["symbol"] == "compute_3_4"
    Service(repo, Settings(index_dir=index_root)).index(with_vectors=False)
    _assert_consistent(service.index_dir)
    after = read_manifest(service.index_dir)
    assert after is not None  # a folder the killed run left unpublished is gone:
    assert _tables_folders(service.index_dir) <= {after.tables_dir, after.retired_tables_dir}
