"""The search path made cheaper without changing what it finds: the query's own one-thread
session, and a ranking identical to the one the slower path gave on a real index."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from app.bench.speed import format_report, measure
from app.core.settings import Settings
from app.indexer.embed import QUERY_THREADS, Embedder
from app.search.corpus import vector_scores
from app.service import Service

QUESTIONS = [
    "how are failed requests retried with backoff",
    "where is a cookie parsed from the header",
    "which function escapes html entities",
    "RetryPolicy delay",
    "what does the README say about installing",
    # Longer and odder texts, as bench questions are (the repository ships no bench corpora).
    "Where does the client decide to follow a redirect, and which method does a 303 become?",
    "Two loaded modules both declare a definition for the same type and qualifier: which wins?",
    "Wie wird der Zeitüberschreitungswert für eine Verbindung gesetzt? (`timeout=5.0`)",
    "`Client.send` → `_send_handling_auth` → `_send_handling_redirects`",
]


class BatchQueries(Embedder):
    """The query embedded as the code was found: through the batch session."""

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


def _session_threads(model: object) -> int:
    # fastembed keeps the ONNX Runtime session at `.model.model`; its options say the threads.
    session = model.model.model  # type: ignore[attr-defined]
    return int(session.get_session_options().intra_op_num_threads)


def test_a_query_runs_in_a_one_thread_session_and_gets_the_batch_sessions_vector() -> None:
    embedder = Embedder(max_tokens=384)
    # A process that only searches never loads the batch session.
    assert embedder._batch_model is None
    assert _session_threads(embedder._query_model) == QUERY_THREADS == 1
    texts = [*QUESTIONS, "def retry(fn):\n    return fn()"]
    for text in texts:
        assert np.array_equal(embedder.embed_query(text), embedder.embed([text])[0]), text
    assert embedder._batch_model is not None


def test_the_ranking_is_the_one_the_batch_session_gave(
    sample_repo: Path, settings: Settings
) -> None:
    service = Service(sample_repo, settings)
    service.index()
    searcher = service.searcher()
    found = {q: service.search(q).hits for q in QUESTIONS}
    searcher.embedder = BatchQueries(max_tokens=settings.embedding_max_tokens)
    for question, hits in found.items():
        assert service.search(question).hits == hits, question
    assert any(hit.explanation.vector_rank for hits in found.values() for hit in hits)


def test_the_warm_bench_reports_the_load_and_each_stage_beside_ripgrep(
    sample_repo: Path, settings: Settings
) -> None:
    Service(sample_repo, settings).index()
    report = measure(sample_repo, settings, QUESTIONS, repeat=1, warm=True)
    assert report.chunks > 0 and report.queries == len(QUESTIONS) and report.load_ms > 0
    assert {"bm25", "embed_query", "vector", "rerank", "pack", "total"} <= report.stage_ms.keys()
    assert 0 < report.stage_ms["bm25"] <= report.stage_ms["total"] <= report.search_ms["max"]
    assert report.index_seconds == {} and report.vectors_ready == 1.0  # nothing indexed again
    shown = format_report(report)
    assert "ms to the first search" in shown and "stages       p50 ms: bm25" in shown
    assert "load average" in shown
    if shutil.which("rg"):  # the baseline needs ripgrep (TECH_NOTES: apt-get install ripgrep)
        assert report.ripgrep_ms["median"] > 0 and "search/rg p50" in shown


def test_vectors_are_scored_by_one_thread_with_the_same_floats_whatever_the_cores() -> None:
    rng = np.random.default_rng(7)
    matrix = rng.standard_normal((2477, 384)).astype(np.float32)  # zod's vectors: split oddly
    vector = rng.standard_normal(384).astype(np.float32)
    # Sixteen rows at a time is far below BLAS's threading threshold: one thread's floats,
    # which `matrix @ vector` does not give on a machine of two cores or more (the rows are
    # cut between threads where the kernel's unrolled loop rounds differently).
    single = np.concatenate([matrix[i : i + 16] @ vector for i in range(0, len(matrix), 16)])
    assert np.array_equal(vector_scores(matrix, vector), single)
    assert vector_scores(matrix[:0], vector).shape == (0,)
