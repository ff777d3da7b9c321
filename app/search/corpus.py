"""The chunks and vectors one searcher keeps in memory, changed in place as the index changes.

A change touches a few files, so it costs in proportion to those files: their old rows are
marked removed (and skipped by every lookup), their new rows are appended. Once removed rows
make up a quarter of the whole, the corpus is compacted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import numpy as np

from app.indexer.context import is_test_path
from app.search import rerank
from app.store.store import CHUNK_COLUMNS, Store

PROSE_LANGUAGES = frozenset({"markdown", "text", "rst"})
MAX_BLOCKS = 32  # vector blocks added while embedding, merged into one past this many
COMPACT_SHARE = 0.25  # removed rows past this share of all rows trigger a compaction


def candidate(row: dict[str, Any], is_test: bool) -> rerank.Candidate:
    return rerank.Candidate(
        chunk_id=row["id"],
        path=row["path"],
        kind=row["kind"],
        language=row["language"],
        line_count=row["end_line"] - row["start_line"] + 1,
        is_test=is_test,
        is_prose=row["language"] in PROSE_LANGUAGES,
        delegates=bool(row["delegates"]),
        name=(row["symbol"] or "").lower(),
    )


class Corpus:
    """Rows by number (None once removed), their rerank facts, file stamps and vectors.
    Not thread-safe by itself: the Searcher serialises access."""

    def __init__(self, store: Store, model_id: str | None, embed_tests: bool) -> None:
        self.model_id = model_id
        self.embed_tests = embed_tests
        self.rows: list[dict[str, Any] | None] = []
        self.candidates: list[rerank.Candidate | None] = []
        self.position: dict[str, int] = {}
        self.by_path: dict[str, list[int]] = {}
        self.signatures: dict[tuple[str, str], str] = {}
        self.stamps: dict[str, tuple[int, int]] = {}  # (size, mtime) of each file as indexed
        self.name_counts: Counter[str] = Counter()  # live chunks per symbol name (lower case)
        self.alive = np.zeros(0, dtype=bool)
        self.removed = 0
        self.embeddable = 0  # live rows that get a vector
        # Vector blocks (matrix, row numbers); rows removed later are masked at search time.
        self.dense: list[tuple[np.ndarray, np.ndarray]] = []
        self.missing: dict[str, list[int]] = {}  # embed key -> live rows still without a vector
        self._append(store, store.chunk_table(CHUNK_COLUMNS).to_pylist())
        self.stamps = {f.path: (f.size, f.mtime_ns) for f in store.files().values()}

    # -- reading ---------------------------------------------------------------------------
    def row(self, chunk_id: str) -> dict[str, Any]:
        row = self.rows[self.position[chunk_id]]
        assert row is not None
        return row

    def candidate_of(self, chunk_id: str) -> rerank.Candidate:
        found = self.candidates[self.position[chunk_id]]
        assert found is not None
        return found

    def has_vector(self, chunk_id: str) -> bool:
        index = self.position.get(chunk_id)
        if index is None or self.model_id is None or not self._wants_vector(index):
            return False
        row = self.rows[index]
        return row is not None and index not in self.missing.get(row["embed_key"], ())

    @property
    def vector_count(self) -> int:
        return sum(int(self.alive[rows].sum()) for _, rows in self.dense)

    @property
    def vectors_ready(self) -> float:
        return self.vector_count / self.embeddable if self.embeddable else 1.0

    def nearest(self, query_vector: np.ndarray, limit: int) -> list[str]:
        """Chunk ids of the `limit` live rows closest to `query_vector`, best first."""
        if not self.dense:
            return []
        scores = np.concatenate([matrix @ query_vector for matrix, _ in self.dense])
        row_numbers = np.concatenate([rows for _, rows in self.dense])
        scores[~self.alive[row_numbers]] = -np.inf
        top = np.argpartition(-scores, min(limit, len(scores) - 1))[:limit]
        top = top[np.argsort(-scores[top])]
        out = []
        for i in top:
            row = self.rows[int(row_numbers[i])]
            if row is not None and np.isfinite(scores[i]):
                out.append(row["id"])
        return out

    # -- changing --------------------------------------------------------------------------
    def replace_paths(self, store: Store, paths: set[str]) -> None:
        """Follow a publish that rewrote the chunks of `paths`."""
        for path in paths:
            for index in self.by_path.pop(path, ()):
                self._remove(index)
            self.stamps.pop(path, None)
        self._append(store, store.chunks_for_paths(paths, CHUNK_COLUMNS).to_pylist())
        for record in store.files_for_paths(paths):
            self.stamps[record.path] = (record.size, record.mtime_ns)

    def add_vectors(self, keys: list[str], matrix: np.ndarray) -> None:
        picked, rows = [], []
        for position, key in enumerate(keys):
            for index in self.missing.pop(key, ()):
                picked.append(position)
                rows.append(index)
        if rows:
            block = (matrix[picked].astype(np.float32), np.asarray(rows, dtype=np.int64))
            self.dense.append(block)
            if len(self.dense) > MAX_BLOCKS:
                self.dense = [
                    (
                        np.concatenate([m for m, _ in self.dense]),
                        np.concatenate([r for _, r in self.dense]),
                    )
                ]

    @property
    def needs_compaction(self) -> bool:
        return self.removed > COMPACT_SHARE * max(len(self.rows), 1)

    def _wants_vector(self, index: int) -> bool:
        found = self.candidates[index]
        return found is not None and (self.embed_tests or not found.is_test)

    def _remove(self, index: int) -> None:
        row = self.rows[index]
        if row is None:
            return
        if self._wants_vector(index):
            self.embeddable -= 1
            waiting = self.missing.get(row["embed_key"])
            if waiting and index in waiting:
                waiting.remove(index)
                if not waiting:
                    del self.missing[row["embed_key"]]
        self.position.pop(row["id"], None)
        if row["qualified_name"] and row["part"] == 1:
            self.signatures.pop((row["path"], row["qualified_name"]), None)
        found = self.candidates[index]
        if found is not None and found.name:
            self.name_counts[found.name] -= 1
        self.rows[index] = None
        self.candidates[index] = None
        self.alive[index] = False
        self.removed += 1

    def _append(self, store: Store, rows: Iterable[dict[str, Any]]) -> None:
        first = len(self.rows)
        test_paths: dict[str, bool] = {}
        for row in rows:
            index = len(self.rows)
            self.rows.append(row)
            path = row["path"]
            if path not in test_paths:
                test_paths[path] = is_test_path(path)
            self.candidates.append(candidate(row, test_paths[path]))
            if row["symbol"]:
                self.name_counts[row["symbol"].lower()] += 1
            self.position[row["id"]] = index
            self.by_path.setdefault(row["path"], []).append(index)
            if row["qualified_name"] and row["part"] == 1:
                self.signatures[(row["path"], row["qualified_name"])] = row["signature"]
        self.alive = np.concatenate([self.alive, np.ones(len(self.rows) - first, dtype=bool)])
        wanted = [i for i in range(first, len(self.rows)) if self._wants_vector(i)]
        self.embeddable += len(wanted)
        if self.model_id is not None and wanted:
            self._load_vectors(store, wanted)

    def _load_vectors(self, store: Store, indexes: list[int]) -> None:
        assert self.model_id is not None
        keys = [self.rows[i]["embed_key"] for i in indexes]  # type: ignore[index]
        vectors = store.vectors(self.model_id, keys)
        have = []
        for index, key in zip(indexes, keys, strict=True):
            if key in vectors:
                have.append(index)
            else:
                self.missing.setdefault(key, []).append(index)
        if have:
            matrix = np.stack([vectors[self.rows[i]["embed_key"]] for i in have])  # type: ignore[index]
            self.dense.append((matrix, np.asarray(have, dtype=np.int64)))
