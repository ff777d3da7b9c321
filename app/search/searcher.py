"""Search over one opened index: BM25 and vector candidates, RRF, rerank, pack, explain."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from app.core.models import Explanation, Hit
from app.indexer.context import is_test_path
from app.search import rerank
from app.search.fuse import reciprocal_rank_fusion
from app.search.pack import Packable, pack
from app.search.tokenize import token_text
from app.store.store import CHUNK_COLUMNS, Store

CANDIDATES = 100  # per retriever; fusion and rerank look no deeper
BM25_WEIGHT = 1.0
VECTOR_WEIGHT = 1.0
_PROSE = frozenset({"markdown", "text", "rst"})


@dataclass(slots=True)
class SearchResult:
    query: str
    hits: list[Hit]
    timings_ms: dict[str, float] = field(default_factory=dict)
    vectors_ready: float = 0.0  # share of chunks with a vector: below 1, dense search is partial


class Searcher:
    """Holds one index's chunks and vectors in memory; cheap to query many times."""

    def __init__(self, store: Store, embedder: Any | None, *, embed_tests: bool = False) -> None:
        self.store = store
        self.embedder = embedder
        table = store.chunk_table(CHUNK_COLUMNS)
        self.rows: list[dict[str, Any]] = table.to_pylist()
        self.position = {row["id"]: index for index, row in enumerate(self.rows)}
        self.signatures = {
            (row["path"], row["qualified_name"]): row["signature"]
            for row in self.rows
            if row["qualified_name"] and row["part"] == 1
        }
        self.candidates = [
            rerank.Candidate(
                chunk_id=row["id"],
                path=row["path"],
                kind=row["kind"],
                language=row["language"],
                line_count=row["end_line"] - row["start_line"] + 1,
                is_test=is_test_path(row["path"]),
                is_prose=row["language"] in _PROSE,
                delegates=bool(row["delegates"]),
            )
            for row in self.rows
        ]
        self.embeddable = [
            index for index, c in enumerate(self.candidates) if embed_tests or not c.is_test
        ]
        self.matrix = np.zeros((0, 0), dtype=np.float32)
        self.vector_rows = np.zeros(0, dtype=np.int64)
        if embedder is not None:
            self._load_vectors(embedder.model_id)

    def _load_vectors(self, model_id: str) -> None:
        keys = (self.rows[index]["embed_key"] for index in self.embeddable)
        vectors = self.store.vectors(model_id, keys)
        have = [index for index in self.embeddable if self.rows[index]["embed_key"] in vectors]
        if have:
            self.matrix = np.stack([vectors[self.rows[index]["embed_key"]] for index in have])
            self.vector_rows = np.asarray(have, dtype=np.int64)

    @property
    def vectors_ready(self) -> float:
        return len(self.vector_rows) / len(self.embeddable) if self.embeddable else 1.0

    def search(self, query: str, k: int, budget_tokens: int) -> SearchResult:
        timings: dict[str, float] = {}
        started = time.perf_counter()
        lexical = [chunk_id for chunk_id, _ in self.store.bm25(token_text(query), CANDIDATES)]
        timings["bm25"] = _ms(started)

        dense: list[str] = []
        if self.embedder is not None and len(self.vector_rows):
            started = time.perf_counter()
            query_vector = self.embedder.embed_query(query)
            timings["embed_query"] = _ms(started)
            started = time.perf_counter()
            scores = self.matrix @ query_vector
            top = np.argpartition(-scores, min(CANDIDATES, len(scores) - 1))[:CANDIDATES]
            top = top[np.argsort(-scores[top])]
            dense = [self.rows[int(self.vector_rows[i])]["id"] for i in top]
            timings["vector"] = _ms(started)

        started = time.perf_counter()
        fused = reciprocal_rank_fusion([lexical, dense], weights=[BM25_WEIGHT, VECTOR_WEIGHT])
        lexical_rank = {chunk_id: rank for rank, chunk_id in enumerate(lexical, 1)}
        dense_rank = {chunk_id: rank for rank, chunk_id in enumerate(dense, 1)}
        explained: dict[str, Explanation] = {}
        final: dict[str, float] = {}
        for chunk_id, fused_score in fused.items():
            candidate = self.candidates[self.position[chunk_id]]
            signals = rerank.signals_for(candidate)
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
        timings["pack"] = _ms(started)
        return SearchResult(query, hits, timings, self.vectors_ready)

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


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
