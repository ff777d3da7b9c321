"""What a hostile repository holds, through the whole index (real files, real LanceDB):
FIFOs, devices and sockets in place of files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.settings import Settings
from app.indexer import pipeline
from app.indexer.walk import WalkResult, walk
from app.service import Service
from app.store.store import Store
from tests.unit.test_walk import within

ROOT = Path(__file__).resolve().parents[2]


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
