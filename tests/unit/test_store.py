"""The store on real LanceDB in tmp_path: publish, roll back, lock, schema checks."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from app.core.models import Chunk
from app.indexer.context import search_text
from app.indexer.rows import chunk_row
from app.store.manifest import (
    SCHEMA_VERSION,
    IndexCorrupt,
    IndexIncompatible,
    IndexLocked,
    WriteLock,
    read_manifest,
)
from app.store.store import Store


def _chunk(path: str, name: str, line: int) -> Chunk:
    text = f"def {name}():\n    return '{name}'"
    return Chunk(
        path, "python", "function", name, name, "", line, line + 1, f"def {name}():", "", text
    )


def _file_row(path: str) -> dict[str, object]:
    return {
        "path": path,
        "sha256": "0" * 64,
        "size": 1,
        "mtime_ns": 1,
        "language": "python",
        "strategy": "tree-sitter",
        "strategy_version": "x",
        "chunk_count": 1,
    }


def _write(store: Store, path: str, name: str) -> None:
    store.replace_files([path], [chunk_row(_chunk(path, name, 1), 1000)], [_file_row(path)])


def test_published_writes_are_visible(tmp_path: Path) -> None:
    store = Store.open_for_write(tmp_path / "idx", tmp_path)
    _write(store, "a.py", "fetch_user_record")
    store.publish()
    reader = Store.open(tmp_path / "idx")
    assert list(reader.files()) == ["a.py"]
    assert reader.chunk_table(["search_text"]).column("search_text").to_pylist() == [
        search_text(_chunk("a.py", "fetch_user_record", 1))
    ]


def test_unpublished_writes_are_invisible_then_rolled_back(tmp_path: Path) -> None:
    index_dir = tmp_path / "idx"
    store = Store.open_for_write(index_dir, tmp_path)
    _write(store, "a.py", "first")
    store.publish()
    # A run that writes but dies before publishing:
    _write(store, "b.py", "second")
    store.replace_files(["a.py"], [], [])
    assert sorted(Store.open(index_dir).files()) == ["a.py"]
    writer = Store.open_for_write(index_dir, tmp_path)
    assert sorted(writer.files()) == ["a.py"]
    assert writer.chunk_table(["id"]).column("id").to_pylist() == ["a.py:1-2"]


def test_replacing_a_file_never_duplicates_its_chunks(tmp_path: Path) -> None:
    store = Store.open_for_write(tmp_path / "idx", tmp_path)
    for _ in range(3):
        _write(store, "a.py", "same")
    store.publish()
    assert Store.open(tmp_path / "idx").chunk_table(["id"]).num_rows == 1


def test_paths_with_quotes_are_deleted_safely(tmp_path: Path) -> None:
    store = Store.open_for_write(tmp_path / "idx", tmp_path)
    _write(store, "it's.py", "quoted")
    store.replace_files(["it's.py"], [], [])
    assert store.chunk_table(["id"]).num_rows == 0


def test_newer_schema_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text(json.dumps({"schema_version": SCHEMA_VERSION + 1}))
    with pytest.raises(IndexIncompatible, match="newer repolens-tui"):
        read_manifest(tmp_path)


def test_corrupt_manifest_says_how_to_rebuild(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(IndexCorrupt, match="--rebuild"):
        read_manifest(tmp_path)


def test_second_writer_is_refused_naming_the_holder(tmp_path: Path) -> None:
    with WriteLock(tmp_path), pytest.raises(IndexLocked, match=f"pid {os.getpid()}"):
        WriteLock(tmp_path).acquire()
    with WriteLock(tmp_path):  # released: free again
        pass


def test_lock_of_a_killed_process_is_recovered(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time; from pathlib import Path; from app.store.manifest import WriteLock;"
            f"lock = WriteLock(Path({str(tmp_path)!r})); lock.acquire();"
            "print('held', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    with pytest.raises(IndexLocked):
        WriteLock(tmp_path).acquire()
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    deadline = time.time() + 5
    while True:
        try:
            WriteLock(tmp_path).acquire()
            break
        except IndexLocked:
            assert time.time() < deadline
            time.sleep(0.05)


def test_vectors_round_trip_and_append(tmp_path: Path) -> None:
    store = Store.open_for_write(tmp_path / "idx", tmp_path)
    first = np.eye(3, dtype=np.float32)
    store.add_vectors("model@1", ["a", "b", "c"], first)
    store.add_vectors("model@1", ["d"], np.ones((1, 3), dtype=np.float32))
    vectors = store.vectors("model@1")
    assert sorted(vectors) == ["a", "b", "c", "d"]
    np.testing.assert_array_equal(vectors["b"], first[1])
    assert store.vectors("other@1") == {}
