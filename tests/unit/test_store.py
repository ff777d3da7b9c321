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
    IndexChanged,
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


def _tables_folders(index_dir: Path) -> list[str]:
    return sorted(p.name for p in index_dir.iterdir() if p.is_dir() and p.name.startswith("tables"))


def test_a_fresh_build_stays_invisible_until_published_then_retires_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index_dir = tmp_path / "idx"
    store = Store.open_for_write(index_dir, tmp_path)
    _write(store, "a.py", "old_name")
    store.publish()
    old_reader = Store.open(index_dir)

    fresh = Store.open_for_write(index_dir, tmp_path, fresh=True)
    _write(fresh, "b.py", "new_name")
    assert list(Store.open(index_dir).files()) == ["a.py"]  # readers keep the old tables
    fresh.publish()
    assert list(Store.open(index_dir).files()) == ["b.py"]
    assert list(old_reader.files()) == ["a.py"]  # its folder stays a moment for it
    assert len(_tables_folders(index_dir)) == 2

    monkeypatch.setattr("app.store.upkeep.RETIRED_GRACE_SECONDS", 0.0)
    Store.open_for_write(index_dir, tmp_path)
    assert _tables_folders(index_dir) == [read_manifest(index_dir).tables_dir]  # type: ignore[union-attr]


def test_a_fresh_build_killed_before_publishing_leaves_the_old_index(tmp_path: Path) -> None:
    index_dir = tmp_path / "idx"
    store = Store.open_for_write(index_dir, tmp_path)
    _write(store, "a.py", "kept")
    store.publish()
    killed = Store.open_for_write(index_dir, tmp_path, fresh=True)
    _write(killed, "b.py", "lost")
    del killed  # never published
    assert list(Store.open(index_dir).files()) == ["a.py"]
    Store.open_for_write(index_dir, tmp_path)  # the next writer removes the orphan
    assert _tables_folders(index_dir) == ["tables"]


def test_old_versions_are_pruned_but_readers_of_the_last_two_manifests_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.store.upkeep.PRUNE_AFTER_VERSIONS", 1)  # every publish
    monkeypatch.setattr("app.store.upkeep.FRAGMENTS_BEFORE_COMPACTION", 1)  # always compact
    index_dir = tmp_path / "idx"
    store = Store.open_for_write(index_dir, tmp_path)
    _write(store, "a.py", "first")
    store.publish()
    first_versions = dict(store.manifest.table_versions)
    store = Store.open_for_write(index_dir, tmp_path)  # the next runs: old versions to prune
    from app.store.upkeep import CLOCK_MARGIN

    # Versions are pruned by age, with a margin for the clock: publish farther apart than it.
    gap = CLOCK_MARGIN.total_seconds() + 0.1
    time.sleep(gap)
    _write(store, "a.py", "second")
    store.publish()
    reader = Store.open(index_dir)  # holds this manifest while two more are published
    for name in ("b.py", "c.py"):
        time.sleep(gap)
        _write(store, name, name[0] + "_function")
        store.publish()
    assert list(reader.files()) == ["a.py"]
    assert reader.chunk_table(["symbol"]).column("symbol").to_pylist() == ["second"]
    chunks = store._table("chunks")
    kept = {int(v["version"]) for v in chunks.list_versions()}
    assert first_versions["chunks"] not in kept  # versions no reader needs are gone
    assert store.manifest.table_versions["chunks"] in kept
    assert sorted(Store.open(index_dir).files()) == ["a.py", "b.py", "c.py"]


def test_a_reader_left_behind_by_pruning_is_told_to_read_again_not_of_damage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.store.upkeep import CLOCK_MARGIN

    monkeypatch.setattr("app.store.upkeep.PRUNE_AFTER_VERSIONS", 1)
    index_dir = tmp_path / "idx"
    store = Store.open_for_write(index_dir, tmp_path)
    _write(store, "a.py", "first")
    store.publish()
    reader = Store.open(index_dir)  # three manifests behind by the time it reads
    store = Store.open_for_write(index_dir, tmp_path)
    for name in ("second", "third", "fourth"):
        time.sleep(CLOCK_MARGIN.total_seconds() + 0.1)
        _write(store, "a.py", name)
        store.publish()
    with pytest.raises(IndexChanged, match="run it again"):
        reader.chunk_table(["symbol"])
    assert not Store.damage_note(index_dir)


def test_a_truncated_data_file_is_one_line_naming_it(tmp_path: Path) -> None:
    index_dir = tmp_path / "idx"
    store = Store.open_for_write(index_dir, tmp_path)
    _write(store, "a.py", "readable")
    store.publish()
    (data_file,) = (index_dir / "tables" / "chunks.lance" / "data").glob("*.lance")
    os.truncate(data_file, data_file.stat().st_size // 2)
    with pytest.raises(IndexCorrupt) as caught:
        Store.open(index_dir).chunk_table(["id"])
    message = str(caught.value)
    assert str(data_file) in message and "\n" not in message
    assert "repolens-tui index" in message
    assert Store.damage_note(index_dir)  # the next index run knows to rebuild


def test_the_shared_vectors_are_compacted_and_a_reader_of_them_still_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.store.upkeep import CLOCK_MARGIN

    monkeypatch.setattr("app.store.upkeep.VECTOR_FRAGMENTS_BEFORE_COMPACTION", 8)
    store = Store.open_for_write(tmp_path / "idx", tmp_path)
    for n in range(10):  # a commit per batch, as embedding does
        if n == 9:  # older versions fall outside the margin pruning keeps for the clock
            time.sleep(CLOCK_MARGIN.total_seconds() + 0.1)
        store.add_vectors("model@1", [f"key{n}"], np.full((1, 3), n, dtype=np.float32))
    reader = Store.open_for_write(tmp_path / "idx", tmp_path).shared_vectors._table("model@1")
    assert reader is not None
    store.compact_vectors("model@1")
    table = store.shared_vectors._table("model@1")
    assert table is not None and table.stats()["fragment_stats"]["num_fragments"] == 1
    kept = [int(v["version"]) for v in table.list_versions()]
    assert min(kept) == reader.version  # older versions are gone, the one read is kept
    assert reader and reader.count_rows() == 10 and len(reader.to_arrow()) == 10
    vectors = store.vectors("model@1")
    assert sorted(vectors) == [f"key{n}" for n in range(10)]
    np.testing.assert_array_equal(vectors["key7"], np.full(3, 7, dtype=np.float32))
