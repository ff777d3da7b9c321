"""LanceDB tables of one repository's index: chunks (with a BM25 index), files, skipped
files, and content-addressed vectors. Writes become visible only through the manifest."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from app.core.paths import VECTORS_FOLDER, write_cache_tag
from app.store import lance
from app.store.graph_tables import GRAPH_SCHEMAS, GRAPH_TABLES
from app.store.manifest import (
    SCHEMA_VERSION,
    STRATEGY_VERSION,
    IndexCorrupt,
    IndexIncompatible,
    Manifest,
    read_manifest,
    write_manifest,
)

CHUNKS = "chunks"
FILES = "files"
SKIPPED = "skipped"
VERSIONED_TABLES = (CHUNKS, FILES, SKIPPED, *GRAPH_TABLES)
# Small writes (the watcher's) leave many small files; after this many the tables are compacted.
WRITES_BEFORE_OPTIMIZE = 20

CHUNK_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("path", pa.string()),
        ("language", pa.string()),
        ("kind", pa.string()),
        ("symbol", pa.string()),
        ("qualified_name", pa.string()),
        ("parent", pa.string()),
        ("start_line", pa.int32()),
        ("end_line", pa.int32()),
        ("signature", pa.string()),
        ("doc", pa.string()),
        ("text", pa.string()),
        ("part", pa.int32()),
        ("parts", pa.int32()),
        ("content_hash", pa.string()),
        ("embed_key", pa.string()),
        ("search_text", pa.string()),
        ("thin", pa.string()),
    ]
)
FILE_SCHEMA = pa.schema(
    [
        ("path", pa.string()),
        ("sha256", pa.string()),
        ("size", pa.int64()),
        ("mtime_ns", pa.int64()),
        ("language", pa.string()),
        ("strategy", pa.string()),
        ("strategy_version", pa.string()),
        ("chunk_count", pa.int32()),
    ]
)
# Every chunk column but the token text, which only the full-text index reads.
CHUNK_COLUMNS = tuple(name for name in CHUNK_SCHEMA.names if name != "search_text")
SKIPPED_SCHEMA = pa.schema(
    [("path", pa.string()), ("reason", pa.string()), ("detail", pa.string())]
)


def vector_schema(dimensions: int) -> pa.Schema:
    return pa.schema([("key", pa.string()), ("vector", pa.list_(pa.float32(), dimensions))])


def vector_table_name(model_id: str) -> str:
    return "vectors_" + re.sub(r"[^A-Za-z0-9]+", "_", model_id).strip("_").lower()


@dataclass(frozen=True, slots=True)
class FileRecord:
    path: str
    sha256: str
    size: int
    mtime_ns: int
    language: str
    strategy: str
    strategy_version: str
    chunk_count: int


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _path_filter(paths: Sequence[str]) -> str:
    return "path IN (" + ", ".join(_quote(p) for p in paths) + ")"


class Store:
    """One index directory. Readers see the table versions the manifest names; a writer
    first rolls back anything a killed run left past them."""

    def __init__(self, index_dir: Path, manifest: Manifest | None) -> None:
        lancedb = lance.lancedb()
        self.index_dir = index_dir
        self.manifest = manifest or Manifest()
        self._db = lancedb.connect(str(index_dir / "tables"))
        # Vectors are keyed by the embedded text, so every repository under one index root
        # shares them: a second checkout or another branch re-embeds only what differs.
        self.vectors_dir = index_dir.parent / VECTORS_FOLDER
        self._vectors_db = lancedb.connect(str(self.vectors_dir))
        self._tables: dict[str, Any] = {}

    @property
    def repo_root(self) -> Path:
        return Path(self.manifest.repo_root)

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, index_dir: Path) -> Store:
        """Open for reading (the manifest must exist)."""
        manifest = read_manifest(index_dir)
        if manifest is None:
            raise IndexCorrupt(f"no index at {index_dir}")
        if manifest.schema_version < SCHEMA_VERSION:
            raise IndexIncompatible(
                f"the index at {index_dir} was written by an older repolens-tui (schema "
                f"{manifest.schema_version}, this one reads {SCHEMA_VERSION}); run "
                f"`repolens-tui index {manifest.repo_root}` to rebuild it"
            )
        store = cls(index_dir, manifest)
        store._checkout()
        return store

    @classmethod
    def open_for_write(cls, index_dir: Path, repo_root: Path) -> Store:
        """Open (or create) for writing; the caller holds the write lock."""
        index_dir.mkdir(parents=True, exist_ok=True)
        manifest = read_manifest(index_dir)
        outdated = manifest is not None and (
            manifest.schema_version != SCHEMA_VERSION or not manifest.table_versions
        )
        if manifest is None or outdated:
            shutil.rmtree(index_dir / "tables", ignore_errors=True)
            manifest = Manifest(repo_root=str(repo_root))
        store = cls(index_dir, manifest)
        # Tagged, a walk skips the index even where it lies inside a repository.
        write_cache_tag(index_dir)
        write_cache_tag(store.vectors_dir)
        store._ensure_tables()
        store._roll_back_unpublished()
        return store

    def _ensure_tables(self) -> None:
        existing = self._table_names()
        for name, schema in (
            (CHUNKS, CHUNK_SCHEMA),
            (FILES, FILE_SCHEMA),
            (SKIPPED, SKIPPED_SCHEMA),
            *GRAPH_SCHEMAS,
        ):
            if name in existing:
                self._tables[name] = self._db.open_table(name)
            else:
                self._tables[name] = self._db.create_table(name, schema=schema)

    def _table_names(self) -> set[str]:
        return set(self._db.list_tables().tables)

    def _table(self, name: str) -> Any:
        if name not in self._tables:
            self._tables[name] = self._db.open_table(name)
        return self._tables[name]

    def _checkout(self) -> None:
        try:
            for name in VERSIONED_TABLES:
                version = self.manifest.table_versions.get(name)
                if version is None and name in GRAPH_TABLES:
                    continue  # an index from before the call graph: search still works
                table = self._table(name)
                if version is not None and table.version != version:
                    table.checkout(version)
        except Exception as error:  # lance raises ValueError, OSError, RuntimeError...
            raise IndexCorrupt(
                f"the index at {self.index_dir} cannot be opened ({error}); "
                "rebuild it with `repolens-tui index PATH --rebuild`"
            ) from error

    def _roll_back_unpublished(self) -> None:
        """A run killed before it published its manifest leaves newer table versions: undo."""
        for name in VERSIONED_TABLES:
            version = self.manifest.table_versions.get(name)
            table = self._table(name)
            if version is not None and table.version != version:
                table.restore(version)

    # -- reading ---------------------------------------------------------------------------
    def files(self) -> dict[str, FileRecord]:
        rows = self._table(FILES).to_arrow().to_pylist()
        return {row["path"]: FileRecord(**row) for row in rows}

    def files_for_paths(self, paths: Iterable[str]) -> list[FileRecord]:
        ordered = sorted(set(paths))
        out: list[FileRecord] = []
        for start in range(0, len(ordered), 500):
            query = self._table(FILES).search().where(_path_filter(ordered[start : start + 500]))
            out.extend(FileRecord(**row) for row in query.limit(None).to_arrow().to_pylist())
        return out

    def skipped(self) -> list[dict[str, str]]:
        return list(self._table(SKIPPED).to_arrow().to_pylist())

    def chunk_table(self, columns: Sequence[str] | None = None) -> pa.Table:
        table = self._table(CHUNKS)
        if columns is None:
            return table.to_arrow()
        return table.search().select(list(columns)).limit(None).to_arrow()

    def read_table(self, name: str, columns: Sequence[str] | None = None) -> pa.Table:
        """A whole table at its published version (the graph tables are read this way)."""
        table = self._table(name)
        if columns is None:
            return table.to_arrow()
        return table.search().select(list(columns)).limit(None).to_arrow()

    def chunks_for_paths(self, paths: Iterable[str], columns: Sequence[str]) -> pa.Table:
        """The chunk rows of `paths` (a few files: the watcher's changes)."""
        ordered = sorted(set(paths))
        parts = [
            self._table(CHUNKS)
            .search()
            .where(_path_filter(ordered[start : start + 500]))
            .select(list(columns))
            .limit(None)
            .to_arrow()
            for start in range(0, len(ordered), 500)
        ]
        if not parts:
            return CHUNK_SCHEMA.empty_table().select(list(columns))
        return pa.concat_tables(parts)

    def count_rows(self, table: str = CHUNKS) -> int:
        return int(self._table(table).count_rows())

    # -- writing ---------------------------------------------------------------------------
    def replace_files(
        self,
        removed_paths: Iterable[str],
        chunk_rows: list[dict[str, Any]],
        file_rows: list[dict[str, Any]],
    ) -> None:
        """Drop every chunk and file row of `removed_paths`, then add the new rows."""
        paths = sorted(set(removed_paths))
        for table_name in (CHUNKS, FILES):
            table = self._table(table_name)
            for start in range(0, len(paths), 500):
                batch = paths[start : start + 500]
                table.delete(_path_filter(batch))
        if chunk_rows:
            self._table(CHUNKS).add(pa.Table.from_pylist(chunk_rows, schema=CHUNK_SCHEMA))
        if file_rows:
            self._table(FILES).add(pa.Table.from_pylist(file_rows, schema=FILE_SCHEMA))

    def replace_rows(
        self, name: str, schema: pa.Schema, rows: list[dict[str, Any]], paths: Iterable[str] | None
    ) -> None:
        """Drop the rows of `paths` (every row when None), then add `rows`."""
        table = self._table(name)
        if paths is None:
            table.delete("true")
        else:
            ordered = sorted(set(paths))
            for start in range(0, len(ordered), 500):
                batch = ordered[start : start + 500]
                table.delete(_path_filter(batch))
        for start in range(0, len(rows), 100_000):
            table.add(pa.Table.from_pylist(rows[start : start + 100_000], schema=schema))

    def touch_files(self, file_rows: list[dict[str, Any]]) -> None:
        """Update size/mtime of files whose content did not change (their chunks stay)."""
        self.replace_rows(FILES, FILE_SCHEMA, file_rows, (row["path"] for row in file_rows))

    def replace_skipped(self, rows: list[dict[str, str]], paths: Iterable[str] | None) -> None:
        """Record why files were skipped: for `paths` only, or for the whole repository."""
        self.replace_rows(SKIPPED, SKIPPED_SCHEMA, rows, paths)

    def compact_now_and_then(self) -> None:
        """Count a write; every WRITES_BEFORE_OPTIMIZE writes, merge the small files they left."""
        self.manifest.writes_since_optimize += 1
        if self.manifest.writes_since_optimize >= WRITES_BEFORE_OPTIMIZE:
            for name in VERSIONED_TABLES:
                self._table(name).optimize()
            self.manifest.writes_since_optimize = 0

    def publish(self, **run: Any) -> None:
        """Make everything written so far visible to readers, atomically."""
        self.manifest.table_versions = {n: int(self._table(n).version) for n in VERSIONED_TABLES}
        self.manifest.schema_version = SCHEMA_VERSION
        self.manifest.strategy_version = STRATEGY_VERSION
        self.manifest.last_run = run
        write_manifest(self.index_dir, self.manifest)

    def save_manifest(self) -> None:
        write_manifest(self.index_dir, self.manifest)

    # -- vectors ---------------------------------------------------------------------------
    def _vector_table(self, model_id: str) -> Any | None:
        """The model's vectors table, or None. A table a killed run left half-created holds
        no committed rows; it is dropped so the next batch can create it afresh."""
        name = vector_table_name(model_id)
        if name not in set(self._vectors_db.list_tables().tables):
            return None
        try:
            return self._vectors_db.open_table(name)
        except (ValueError, OSError, RuntimeError):
            shutil.rmtree(self.vectors_dir / f"{name}.lance", ignore_errors=True)
            return None

    def vector_keys(self, model_id: str) -> set[str]:
        table = self._vector_table(model_id)
        if table is None:
            return set()
        keys = table.search().select(["key"]).limit(None).to_arrow().column("key")
        return set(keys.to_pylist())

    def present_keys(self, model_id: str, keys: Iterable[str]) -> set[str]:
        """Which of `keys` already have a vector (a lookup, not a scan of the whole table)."""
        table = self._vector_table(model_id)
        wanted = sorted(set(keys))
        if table is None or not wanted:
            return set()
        found: set[str] = set()
        for start in range(0, len(wanted), 500):
            batch = ", ".join(_quote(k) for k in wanted[start : start + 500])
            rows = table.search().where(f"key IN ({batch})").select(["key"]).limit(None)
            found.update(rows.to_arrow().column("key").to_pylist())
        return found

    def vectors(self, model_id: str, keys: Iterable[str] | None = None) -> dict[str, np.ndarray]:
        """Vectors by key, limited to `keys` when given (the table is shared by repositories)."""
        names, matrix = self.vector_matrix(model_id, keys)
        return dict(zip(names, matrix, strict=True))

    def vector_matrix(
        self, model_id: str, keys: Iterable[str] | None = None
    ) -> tuple[list[str], np.ndarray]:
        """The stored keys (of `keys`, when given) and their vectors as one matrix's rows."""
        table = self._vector_table(model_id)
        if table is None:
            return [], np.zeros((0, 0), dtype=np.float32)
        wanted = sorted(set(keys)) if keys is not None else None
        if wanted is not None and len(wanted) <= 2_000:  # a few files' worth: look them up
            parts = [
                table.search()
                .where("key IN (" + ", ".join(_quote(k) for k in wanted[i : i + 500]) + ")")
                .select(["key", "vector"])
                .limit(None)
                .to_arrow()
                for i in range(0, len(wanted), 500)
            ]
            if not parts:
                return [], np.zeros((0, 0), dtype=np.float32)
            data = pa.concat_tables(parts)
        else:
            data = table.to_arrow()
        if wanted is not None:
            value_set = pa.array(wanted, pa.string())
            data = data.filter(pc.is_in(data.column("key"), value_set=value_set))
        names = data.column("key").to_pylist()
        if not names:
            return [], np.zeros((0, 0), dtype=np.float32)
        flat = data.column("vector").combine_chunks()
        matrix = flat.values.to_numpy(zero_copy_only=False).reshape(len(names), -1)
        return names, matrix

    def add_vectors(self, model_id: str, keys: Sequence[str], matrix: np.ndarray) -> None:
        """Append one batch; each append is atomic, so a killed run keeps finished batches."""
        schema = vector_schema(int(matrix.shape[1]))
        data = pa.Table.from_arrays(
            [
                pa.array(list(keys), pa.string()),
                pa.FixedSizeListArray.from_arrays(
                    pa.array(matrix.astype(np.float32).ravel()), int(matrix.shape[1])
                ),
            ],
            schema=schema,
        )
        table = self._vector_table(model_id)
        if table is None:
            self._vectors_db.create_table(vector_table_name(model_id), data=data, schema=schema)
        else:
            table.add(data)
