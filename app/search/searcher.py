"""Search over one opened index: BM25 and vector candidates, RRF, rerank, pack, explain."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from app.core.models import Explanation, Hit
from app.indexer.context import is_test_path
from app.search import rerank
from app.search.fuse import reciprocal_rank_fusion
from app.search.pack import Packable, pack
from app.search.tokenize import identifiers, token_text
from app.store.store import CHUNK_COLUMNS, Store

CANDIDATES = 100  # per retriever; fusion and rerank look no deeper
BM25_WEIGHT = 1.0
VECTOR_WEIGHT = 1.0
_PROSE = frozenset({"markdown", "text", "rst"})
MAX_BLOCKS = 32  # vector blocks added while embedding, merged into one past this many


@dataclass(slots=True)
class SearchResult:
    query: str
    hits: list[Hit]
    timings_ms: dict[str, float] = field(default_factory=dict)
    vectors_ready: float = 0.0  # share of chunks with a vector: below 1, dense search is partial


class Searcher:
    """Holds one index's chunks and vectors in memory; cheap to query many times.

    After the index changes, `updated` gives a new Searcher (searches in flight keep the old
    one); vectors that arrive while embedding are added in place with `add_vectors`."""

    def __init__(
        self,
        store: Store,
        embedder: Any | None,
        *,
        embed_tests: bool = False,
        rows: list[dict[str, Any]] | None = None,
        candidates: list[rerank.Candidate] | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.embed_tests = embed_tests
        self.rows: list[dict[str, Any]] = (
            rows if rows is not None else store.chunk_table(CHUNK_COLUMNS).to_pylist()
        )
        self.position = {row["id"]: index for index, row in enumerate(self.rows)}
        self.signatures = {
            (row["path"], row["qualified_name"]): row["signature"]
            for row in self.rows
            if row["qualified_name"] and row["part"] == 1
        }
        self.candidates = candidates or [_candidate(row) for row in self.rows]
        # (size, mtime) of each file as indexed: a hit whose file differs now is marked stale.
        self.stamps = {f.path: (f.size, f.mtime_ns) for f in store.files().values()}
        self.embeddable = [
            index for index, c in enumerate(self.candidates) if embed_tests or not c.is_test
        ]
        # Vector blocks (matrix, row numbers), replaced as a whole so a search sees one state.
        self._dense: tuple[tuple[np.ndarray, np.ndarray], ...] = ()
        self._missing: dict[str, list[int]] = {}  # embed key -> rows still without a vector
        self._lock = threading.Lock()
        if embedder is not None:
            self._load_vectors(embedder.model_id, self.embeddable)

    def _load_vectors(self, model_id: str, indexes: list[int]) -> None:
        vectors = self.store.vectors(model_id, (self.rows[i]["embed_key"] for i in indexes))
        have = []
        for index in indexes:
            key = self.rows[index]["embed_key"]
            if key in vectors:
                have.append(index)
            else:
                self._missing.setdefault(key, []).append(index)
        if have:
            matrix = np.stack([vectors[self.rows[index]["embed_key"]] for index in have])
            self._dense = (*self._dense, (matrix, np.asarray(have, dtype=np.int64)))

    def updated(self, store: Store, paths: set[str]) -> Searcher:
        """A Searcher over the newly published `store`, re-reading only the chunks of `paths`;
        the vectors of every other chunk carry over."""
        kept = [index for index, row in enumerate(self.rows) if row["path"] not in paths]
        fresh = store.chunks_for_paths(paths, CHUNK_COLUMNS).to_pylist()
        rows = [self.rows[index] for index in kept] + fresh
        candidates = [self.candidates[index] for index in kept] + [_candidate(r) for r in fresh]
        new = Searcher(store, None, embed_tests=self.embed_tests, rows=rows, candidates=candidates)
        new.embedder = self.embedder
        if self.embedder is None:
            return new
        old_to_new = np.full(len(self.rows) + 1, -1, dtype=np.int64)
        old_to_new[np.asarray(kept, dtype=np.int64)] = np.arange(len(kept), dtype=np.int64)
        blocks = []
        for matrix, row_numbers in self._dense:
            moved = old_to_new[row_numbers]
            mask = moved >= 0
            if mask.any():
                blocks.append((matrix[mask], moved[mask]))
        new._dense = tuple(blocks)
        for key, indexes in self._missing.items():
            moved_rows = [int(old_to_new[i]) for i in indexes if old_to_new[i] >= 0]
            if moved_rows:
                new._missing[key] = moved_rows
        first_fresh = len(kept)
        new._load_vectors(
            self.embedder.model_id,
            [i for i in new.embeddable if i >= first_fresh],
        )
        return new

    def add_vectors(self, keys: list[str], matrix: np.ndarray) -> None:
        """Vectors just embedded: chunks waiting for them join dense search now."""
        with self._lock:
            picked, rows = [], []
            for position, key in enumerate(keys):
                for index in self._missing.pop(key, ()):
                    picked.append(position)
                    rows.append(index)
            if not rows:
                return
            block = (matrix[picked].astype(np.float32), np.asarray(rows, dtype=np.int64))
            dense = (*self._dense, block)
            if len(dense) > MAX_BLOCKS:
                dense = (
                    (np.concatenate([m for m, _ in dense]), np.concatenate([r for _, r in dense])),
                )
            self._dense = dense

    @property
    def vector_count(self) -> int:
        return sum(len(rows) for _, rows in self._dense)

    @property
    def vectors_ready(self) -> float:
        return self.vector_count / len(self.embeddable) if self.embeddable else 1.0

    def search(self, query: str, k: int, budget_tokens: int) -> SearchResult:
        timings: dict[str, float] = {}
        started = time.perf_counter()
        lexical = [chunk_id for chunk_id, _ in self.store.bm25(token_text(query), CANDIDATES)]
        timings["bm25"] = _ms(started)

        dense: list[str] = []
        blocks = self._dense
        if self.embedder is not None and blocks:
            started = time.perf_counter()
            query_vector = self.embedder.embed_query(query)
            timings["embed_query"] = _ms(started)
            started = time.perf_counter()
            scores = np.concatenate([matrix @ query_vector for matrix, _ in blocks])
            row_numbers = np.concatenate([rows for _, rows in blocks])
            top = np.argpartition(-scores, min(CANDIDATES, len(scores) - 1))[:CANDIDATES]
            top = top[np.argsort(-scores[top])]
            dense = [self.rows[int(row_numbers[i])]["id"] for i in top]
            timings["vector"] = _ms(started)

        started = time.perf_counter()
        named = frozenset(word.lower() for word in identifiers(query))
        fused = reciprocal_rank_fusion([lexical, dense], weights=[BM25_WEIGHT, VECTOR_WEIGHT])
        lexical_rank = {chunk_id: rank for rank, chunk_id in enumerate(lexical, 1)}
        dense_rank = {chunk_id: rank for rank, chunk_id in enumerate(dense, 1)}
        explained: dict[str, Explanation] = {}
        final: dict[str, float] = {}
        for chunk_id, fused_score in fused.items():
            candidate = self.candidates[self.position[chunk_id]]
            signals = rerank.signals_for(candidate, named)
            score = rerank.apply(fused_score, signals)
            final[chunk_id] = score
            explained[chunk_id] = Explanation(
                lexical_rank.get(chunk_id),
                dense_rank.get(chunk_id),
                fused_score,
                tuple(signals),
                score,
            )
        ranked = sorted(final, key=lambda chunk_id: (-final[chunk_id], chunk_id))
        timings["rerank"] = _ms(started)

        started = time.perf_counter()
        packed = pack(
            [self._packable(chunk_id, ranked[:k]) for chunk_id in ranked[: k * 3]], budget_tokens, k
        )
        hits = [
            self._hit(item.chunk_id, item.text, item.form, explained[item.chunk_id])
            for item in packed
        ]
        stale = {path for path in {hit.path for hit in hits} if self.is_stale(path)}
        hits = [replace(hit, stale=True) if hit.path in stale else hit for hit in hits]
        timings["pack"] = _ms(started)
        return SearchResult(query, hits, timings, self.vectors_ready)

    def is_stale(self, path: str) -> bool:
        """Whether `path` changed on disk (or vanished) since it was indexed."""
        try:
            st = os.stat(self.store.repo_root / path)
        except OSError:
            return True
        return self.stamps.get(path) != (st.st_size, st.st_mtime_ns)

    def _packable(self, chunk_id: str, leading: list[str]) -> Packable:
        row = self.rows[self.position[chunk_id]]
        parent_signature = ""
        if row["parent"] and row["kind"] == "method":
            parent_id_in_results = any(
                self.rows[self.position[other]]["qualified_name"] == row["parent"]
                and self.rows[self.position[other]]["path"] == row["path"]
                for other in leading
            )
            if not parent_id_in_results:
                parent_signature = self.signatures.get((row["path"], row["parent"]), "")
        return Packable(chunk_id, row["text"], row["signature"], parent_signature)

    def _hit(self, chunk_id: str, text: str, form: str, explanation: Explanation) -> Hit:
        row = self.rows[self.position[chunk_id]]
        return Hit(
            chunk_id=chunk_id,
            path=row["path"],
            start_line=row["start_line"],
            end_line=row["end_line"],
            symbol=row["symbol"],
            qualified_name=row["qualified_name"],
            kind=row["kind"],
            language=row["language"],
            score=explanation.final_score,
            text=text,
            packed=form,
            explanation=explanation,
        )


def _candidate(row: dict[str, Any]) -> rerank.Candidate:
    return rerank.Candidate(
        chunk_id=row["id"],
        path=row["path"],
        kind=row["kind"],
        language=row["language"],
        line_count=row["end_line"] - row["start_line"] + 1,
        is_test=is_test_path(row["path"]),
        is_prose=row["language"] in _PROSE,
        delegates=bool(row["delegates"]),
        name=(row["symbol"] or "").lower(),
    )


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
