"""The vectors table of each embedding model, shared by every repository under one index
root: content-addressed (keyed by the embedded text's hash), so it is a cache."""

from __future__ import annotations

import contextlib
import fcntl
import re
import secrets
import shutil
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from app.store import damage, lance, upkeep
from app.store.manifest import IndexDamaged


def vector_schema(dimensions: int) -> pa.Schema:
    return pa.schema([("key", pa.string()), ("vector", pa.list_(pa.float32(), dimensions))])


def vector_table_name(model_id: str) -> str:
    return "vectors_" + re.sub(r"[^A-Za-z0-9]+", "_", model_id).strip("_").lower()


def vectors_folder(index_dir: Path, model_id: str) -> Path:
    """The shared vectors table of `model_id`, beside every repository's index folder."""
    return index_dir.parent / "vectors" / f"{vector_table_name(model_id)}.lance"


def vectors_note(index_dir: Path, model_id: str) -> str:
    """The damage a reader noted in the shared vectors table ("" when none)."""
    return damage.read_note(vectors_folder(index_dir, model_id))


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _key_filter(keys: Sequence[str]) -> str:
    return "key IN (" + ", ".join(_quote(k) for k in keys) + ")"


class SharedVectors:
    """The vectors tables in `folder`; `repo` names the repository in messages."""

    def __init__(self, folder: Path, repo: str) -> None:
        self.folder = folder
        self._repo = repo
        self._db = lance.lancedb().connect(str(folder))
        self._held = threading.local()  # this thread's lock depth: `drop` inside `add`

    @contextlib.contextmanager
    def _writing(self, model_id: str) -> Iterator[None]:
        """One writer at a time across processes: repositories indexed at once under one
        index root (two TUIs, the MCP server) share this table, and LanceDB's concurrent
        create, append and compact damaged it. A blocking `flock` (the kernel frees it when
        the holder dies); a batch's write takes milliseconds, so waiting is short."""
        depth = getattr(self._held, "depth", 0)
        if depth:
            self._held.depth = depth + 1
            try:
                yield
            finally:
                self._held.depth = depth
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        lock = self._table_folder(model_id).with_suffix(".lock")
        with lock.open("a", encoding="utf-8") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            self._held.depth = 1
            try:
                yield
            finally:
                self._held.depth = 0
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def _table_folder(self, model_id: str) -> Path:
        return self.folder / f"{vector_table_name(model_id)}.lance"

    @contextlib.contextmanager
    def _reading(self, model_id: str) -> Iterator[None]:
        folder = self._table_folder(model_id)
        with damage.reading(folder.stem, folder, folder, self._repo, shared=True):
            yield

    def _table(self, model_id: str) -> Any | None:
        """The model's vectors table, or None. A table a killed run left half-created holds
        no committed version; it is dropped so the next batch can create it afresh."""
        name = vector_table_name(model_id)
        with self._reading(model_id):
            if name not in set(self._db.list_tables().tables):
                return None
            if not any((self._table_folder(model_id) / "_versions").glob("*.manifest")):
                self.drop(model_id)
                return None
            return self._db.open_table(name)

    def damage(self, model_id: str) -> IndexDamaged | None:
        """Read the whole table: the damage found, or None (and no note) when it reads."""
        try:
            with self._reading(model_id):
                table = self._table(model_id)
                if table is not None:
                    table.to_arrow()
        except IndexDamaged as error:
            return error
        damage.clear_note(self._table_folder(model_id))
        return None

    def drop(self, model_id: str) -> None:
        """Delete the model's table (every repository re-embeds what it needs) and start a
        new epoch, so manifests that counted on the old table embed again."""
        folder = self._table_folder(model_id)
        with self._writing(model_id):
            shutil.rmtree(folder, ignore_errors=True)
            damage.clear_note(folder)
            self.folder.mkdir(parents=True, exist_ok=True)
            _epoch_path(folder).write_text(secrets.token_hex(8), encoding="utf-8")

    def epoch(self, model_id: str) -> str:
        """Names this life of the table: it changes when the table is dropped or created."""
        try:
            return _epoch_path(self._table_folder(model_id)).read_text(encoding="utf-8")
        except OSError:
            return ""

    def compact(self, model_id: str) -> None:
        """Merge the small files batch commits leave, now and then (see app.store.upkeep)."""
        with self._writing(model_id), self._reading(model_id):
            table = self._table(model_id)
            if table is not None:
                upkeep.compact_vectors(table)

    def keys(self, model_id: str) -> set[str]:
        with self._reading(model_id):
            table = self._table(model_id)
            if table is None:
                return set()
            keys = table.search().select(["key"]).limit(None).to_arrow().column("key")
        return set(keys.to_pylist())

    def present_keys(self, model_id: str, keys: Iterable[str]) -> set[str]:
        wanted = sorted(set(keys))
        found: set[str] = set()
        with self._reading(model_id):
            table = self._table(model_id)
            if table is None or not wanted:
                return set()
            for start in range(0, len(wanted), 500):
                rows = table.search().where(_key_filter(wanted[start : start + 500]))
                found.update(rows.select(["key"]).limit(None).to_arrow().column("key").to_pylist())
        return found

    def matrix(
        self, model_id: str, keys: Iterable[str] | None = None
    ) -> tuple[list[str], np.ndarray]:
        wanted = sorted(set(keys)) if keys is not None else None
        with self._reading(model_id):
            data = self._rows(model_id, wanted)
        if data is None:
            return [], np.zeros((0, 0), dtype=np.float32)
        if wanted is not None:
            value_set = pa.array(wanted, pa.string())
            data = data.filter(pc.is_in(data.column("key"), value_set=value_set))
        names = data.column("key").to_pylist()
        if not names:
            return [], np.zeros((0, 0), dtype=np.float32)
        flat = data.column("vector").combine_chunks()
        matrix = flat.values.to_numpy(zero_copy_only=False).reshape(len(names), -1)
        return names, matrix

    def _rows(self, model_id: str, wanted: list[str] | None) -> pa.Table | None:
        table = self._table(model_id)
        if table is None:
            return None
        if wanted is None or len(wanted) > 2_000:  # more than a few files' worth: scan
            return table.to_arrow()
        parts = [
            table.search()
            .where(_key_filter(wanted[i : i + 500]))
            .select(["key", "vector"])
            .limit(None)
            .to_arrow()
            for i in range(0, len(wanted), 500)
        ]
        return pa.concat_tables(parts) if parts else None

    def add(self, model_id: str, keys: Sequence[str], matrix: np.ndarray) -> None:
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
        with self._writing(model_id), self._reading(model_id):
            table = self._table(model_id)
            if table is None:
                self.drop(model_id)  # a new table, so a new epoch
                self._db.create_table(vector_table_name(model_id), data=data, schema=schema)
            else:
                table.add(data)


def _epoch_path(table_folder: Path) -> Path:
    return table_folder.with_suffix(".epoch")
