"""LanceDB tables of one repository's index: chunks (with a BM25 index), files, skipped
files, and content-addressed vectors. Writes become visible only through the manifest."""

from __future__ import annotations

import contextlib
import copy
import re
import secrets
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from app.core.paths import VECTORS_FOLDER, write_cache_tag
from app.store import damage, lance, upkeep
from app.store.graph_tables import GRAPH_SCHEMAS, GRAPH_TABLES
from app.store.manifest import (
    SCHEMA_VERSION,
    STRATEGY_VERSION,
    IndexCorrupt,
    IndexDamaged,
    IndexIncompatible,
    IndexStoreError,
    Manifest,
    read_manifest,
    write_manifest,
)
from app.store.shared_vectors import SharedVectors, vectors_note

CHUNKS = "chunks"
FILES = "files"
SKIPPED = "skipped"
VERSIONED_TABLES = (CHUNKS, FILES, SKIPPED, *GRAPH_TABLES)

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

    def __init__(
        self, index_dir: Path, manifest: Manifest | None, published: Manifest | None = None
    ) -> None:
        lancedb = lance.lancedb()
        self.index_dir = index_dir
        self.manifest = manifest or Manifest()
        # The manifest readers see now (None before the first publish): what a writer keeps.
        self._published = copy.deepcopy(published)
        # A run building a new folder leaves its layout as written (nothing old to prune).
        self._building = self.fresh
        self.tables_dir = index_dir / self.manifest.tables_dir
        self._db = lancedb.connect(str(self.tables_dir))
        # Vectors are keyed by the embedded text, so every repository under one index root
        # shares them: a second checkout or another branch re-embeds only what differs.
        self.shared_vectors = SharedVectors(index_dir.parent / VECTORS_FOLDER, self._repo_words)
        self._tables: dict[str, Any] = {}

    @property
    def repo_root(self) -> Path:
        return Path(self.manifest.repo_root)

    @property
    def fresh(self) -> bool:
        """Built in a tables folder of its own, which readers see once it is published."""
        published = self._published
        return published is None or published.tables_dir != self.manifest.tables_dir

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
    def open_for_write(cls, index_dir: Path, repo_root: Path, *, fresh: bool = False) -> Store:
        """Open (or create) for writing; the caller holds the write lock. `fresh` (or an index
        this version cannot update) builds new tables in a folder beside the published ones:
        readers keep those until `publish` names the new folder."""
        index_dir.mkdir(parents=True, exist_ok=True)
        try:
            published = read_manifest(index_dir)
        except IndexStoreError:
            if not fresh:
                raise
            published = None  # unreadable: nobody can be reading it
        outdated = published is not None and (
            published.schema_version != SCHEMA_VERSION or not published.table_versions
        )
        if published is None and not fresh:
            upkeep.remove_unused_folders(index_dir, None)  # a first run killed early
            store = cls(index_dir, Manifest(repo_root=str(repo_root)))
        elif fresh or outdated:
            name = f"{upkeep.TABLES_PREFIX}-{secrets.token_hex(4)}"
            upkeep.remove_unused_folders(index_dir, published)
            manifest = Manifest(repo_root=str(repo_root), tables_dir=name)
            store = cls(index_dir, manifest, published)
        else:
            assert published is not None
            upkeep.remove_unused_folders(index_dir, published)
            store = cls(index_dir, copy.deepcopy(published), published)
        # Tagged, a walk skips the index even where it lies inside a repository.
        write_cache_tag(index_dir)
        write_cache_tag(store.shared_vectors.folder)
        store._ensure_tables()
        store._roll_back_unpublished()
        return store

    @staticmethod
    def damage_note(index_dir: Path) -> str:
        """The damage a reader noted in the published tables ("" when none, or no index)."""
        try:
            manifest = read_manifest(index_dir)
        except IndexStoreError:
            return ""
        return damage.read_note(index_dir / manifest.tables_dir) if manifest else ""

    @contextlib.contextmanager
    def _reading(self, name: str) -> Iterator[None]:
        """Report a table whose files cannot be read as IndexDamaged (see app.store.damage);
        the note goes beside the tables folder, which a rebuild replaces whole."""
        folder = self.tables_dir / f"{name}.lance"
        with damage.reading(
            name, folder, self.tables_dir, self._repo_words, shared=False, superseded=self._stale
        ):
            yield

    def _stale(self) -> bool:
        """Whether a newer manifest than this reader's was published (a writer's is its own)."""
        if self._published is not None:
            return False
        try:
            current = read_manifest(self.index_dir)
        except IndexStoreError:
            return False
        return current is not None and (
            (current.tables_dir, current.table_versions)
            != (self.manifest.tables_dir, self.manifest.table_versions)
        )

    @property
    def _repo_words(self) -> str:
        return self.manifest.repo_root or "PATH"

    def _ensure_tables(self) -> None:
        existing = self._table_names()
        for name, schema in (
            (CHUNKS, CHUNK_SCHEMA),
            (FILES, FILE_SCHEMA),
            (SKIPPED, SKIPPED_SCHEMA),
            *GRAPH_SCHEMAS,
        ):
            with self._reading(name):
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
        for name in VERSIONED_TABLES:
            version = self.manifest.table_versions.get(name)
            if version is None and name in GRAPH_TABLES:
                continue  # an index from before the call graph: search still works
            with self._reading(name):
                table = self._table(name)
                if version is not None and table.version != version:
                    table.checkout(version)

    def _roll_back_unpublished(self) -> None:
        """A run killed before it published its manifest leaves newer table versions: undo."""
        for name in VERSIONED_TABLES:
            version = self.manifest.table_versions.get(name)
            with self._reading(name):
                table = self._table(name)
                if version is not None and table.version != version:
                    table.restore(version)

    # -- reading ---------------------------------------------------------------------------
    def files(self) -> dict[str, FileRecord]:
        with self._reading(FILES):
            rows = self._table(FILES).to_arrow().to_pylist()
        return {row["path"]: FileRecord(**row) for row in rows}

    def files_for_paths(self, paths: Iterable[str]) -> list[FileRecord]:
        ordered = sorted(set(paths))
        out: list[FileRecord] = []
        with self._reading(FILES):
            for start in range(0, len(ordered), 500):
                batch = _path_filter(ordered[start : start + 500])
                query = self._table(FILES).search().where(batch).limit(None)
                out.extend(FileRecord(**row) for row in query.to_arrow().to_pylist())
        return out

    def skipped(self) -> list[dict[str, str]]:
        with self._reading(SKIPPED):
            return list(self._table(SKIPPED).to_arrow().to_pylist())

    def derived_path(self, what: str) -> Path | None:
        """Where a reader keeps `what` it derived from the published chunks (the name says
        its format), deleted by the next publish; None before the first publish."""
        version = self.manifest.table_versions.get(CHUNKS)
        if version is None:
            return None
        strategy = re.sub(r"[^\w.]", "_", self.manifest.strategy_version)
        return self.tables_dir / f"{upkeep.DERIVED_PREFIX}{version}-{strategy}-{what}"

    def chunk_table(self, columns: Sequence[str] | None = None) -> pa.Table:
        return self.read_table(CHUNKS, columns)

    def read_table(self, name: str, columns: Sequence[str] | None = None) -> pa.Table:
        """A whole table at its published version (the graph tables are read this way)."""
        with self._reading(name):
            table = self._table(name)
            if columns is None:
                return table.to_arrow()
            return table.search().select(list(columns)).limit(None).to_arrow()

    def chunks_for_paths(self, paths: Iterable[str], columns: Sequence[str]) -> pa.Table:
        """The chunk rows of `paths` (a few files: the watcher's changes)."""
        ordered = sorted(set(paths))
        with self._reading(CHUNKS):
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
        with self._reading(table):
            return int(self._table(table).count_rows())

    def verify(self, model_id: str = "") -> list[str]:
        """Read every published table whole, and the vectors of `model_id`: one line per
        damaged table (what `stats --check` reports)."""
        problems = []
        for name in VERSIONED_TABLES:
            if name in self.manifest.table_versions:
                try:
                    self.read_table(name)
                except IndexDamaged as error:
                    problems.append(str(error))
        if model_id:
            damaged = self.vectors_damage(model_id)
            if damaged is not None:
                problems.append(str(damaged))
        return problems

    def raise_damage(self) -> None:
        """Read every published table whole; raise IndexDamaged for the first that fails."""
        for name in VERSIONED_TABLES:
            if name in self.manifest.table_versions:
                self.read_table(name)

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
            with self._reading(table_name):
                table = self._table(table_name)
                for start in range(0, len(paths), 500):
                    batch = paths[start : start + 500]
                    table.delete(_path_filter(batch))
        with self._reading(CHUNKS):
            if chunk_rows:
                self._table(CHUNKS).add(pa.Table.from_pylist(chunk_rows, schema=CHUNK_SCHEMA))
        with self._reading(FILES):
            if file_rows:
                self._table(FILES).add(pa.Table.from_pylist(file_rows, schema=FILE_SCHEMA))

    def replace_rows(
        self, name: str, schema: pa.Schema, rows: list[dict[str, Any]], paths: Iterable[str] | None
    ) -> None:
        """Drop the rows of `paths` (every row when None), then add `rows`."""
        with self._reading(name):
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

    def publish(self, **run: Any) -> None:
        """Make everything written so far visible to readers, atomically; then delete what
        no reader needs any more (old versions now and then, a folder a rebuild replaced)."""
        self._maintain()
        versions = {n: int(self._table(n).version) for n in VERSIONED_TABLES}
        published = self._published
        if self.fresh:
            self.manifest.previous_versions = {}
            if published is not None:
                self.manifest.retired_tables_dir = published.tables_dir
                self.manifest.retired_at = time.time()
        else:
            assert published is not None
            for name, version in published.table_versions.items():
                if versions.get(name) != version:
                    self.manifest.previous_versions[name] = version
        self.manifest.table_versions = versions
        self.manifest.schema_version = SCHEMA_VERSION
        self.manifest.strategy_version = STRATEGY_VERSION
        self.manifest.last_run = run
        write_manifest(self.index_dir, self.manifest)
        self._published = copy.deepcopy(self.manifest)
        upkeep.remove_unused_folders(self.index_dir, self.manifest)
        with contextlib.suppress(OSError):  # derived files are never needed: counted again
            upkeep.remove_derived(self.tables_dir, versions.get(CHUNKS))

    def _maintain(self) -> None:
        """Compact and prune each table that gained PRUNE_AFTER_VERSIONS versions since it
        was last pruned, when compacting it costs nothing or is due, keeping the published
        version and the one before it (a reader may have opened the previous manifest a
        moment ago). A run building a new folder has nothing old to delete."""
        published = self._published
        if published is None or self._building:
            return
        done = self.manifest.maintained_versions
        for name in VERSIONED_TABLES:
            with self._reading(name):
                table = self._table(name)
                if int(table.version) - done.get(name, 0) < upkeep.PRUNE_AFTER_VERSIONS:
                    continue
                if not upkeep.worth_compacting(table):
                    continue
                keep = (published.table_versions.get(name), published.previous_versions.get(name))
                upkeep.compact_and_prune(table, keep, delete_unverified=True)
                done[name] = int(table.version)

    def save_manifest(self) -> None:
        write_manifest(self.index_dir, self.manifest)
        self._published = copy.deepcopy(self.manifest)

    # -- vectors (shared by every repository under the index root) ------------------------
    def vector_keys(self, model_id: str) -> set[str]:
        return self.shared_vectors.keys(model_id)

    def present_keys(self, model_id: str, keys: Iterable[str]) -> set[str]:
        """Which of `keys` already have a vector (a lookup, not a scan of the whole table)."""
        return self.shared_vectors.present_keys(model_id, keys)

    def vectors(self, model_id: str, keys: Iterable[str] | None = None) -> dict[str, np.ndarray]:
        """Vectors by key, limited to `keys` when given (the table is shared by repositories)."""
        names, matrix = self.vector_matrix(model_id, keys)
        return dict(zip(names, matrix, strict=True))

    def vector_matrix(
        self, model_id: str, keys: Iterable[str] | None = None
    ) -> tuple[list[str], np.ndarray]:
        """The stored keys (of `keys`, when given) and their vectors as one matrix's rows."""
        return self.shared_vectors.matrix(model_id, keys)

    def add_vectors(self, model_id: str, keys: Sequence[str], matrix: np.ndarray) -> None:
        """Append one batch; each append is atomic, so a killed run keeps finished batches."""
        self.shared_vectors.add(model_id, keys, matrix)

    def vectors_note(self, model_id: str) -> str:
        return vectors_note(self.index_dir, model_id)

    def vectors_damage(self, model_id: str) -> IndexDamaged | None:
        return self.shared_vectors.damage(model_id)

    def drop_vectors(self, model_id: str) -> None:
        self.shared_vectors.drop(model_id)

    def vectors_epoch(self, model_id: str) -> str:
        return self.shared_vectors.epoch(model_id)

    def compact_vectors(self, model_id: str) -> None:
        self.shared_vectors.compact(model_id)
