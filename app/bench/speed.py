"""`repolens-tui-bench bench`: indexing throughput and warm search latency on one repository, each
beside a baseline measured in the same run (raw fastembed on the same texts; ripgrep on the
same terms)."""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.bench.report import latency_summary
from app.core.settings import Settings
from app.search.tokenize import tokens

EMBED_SAMPLE = 256  # texts timed for the embedding comparison


@dataclass(slots=True)
class SpeedReport:
    repository: str
    files: int = 0
    chunks: int = 0
    index_seconds: dict[str, float] = field(default_factory=dict)
    embed_pipeline_per_s: float = 0.0
    embed_raw_per_s: float = 0.0
    search_ms: dict[str, float] = field(default_factory=dict)
    ripgrep_ms: dict[str, float] = field(default_factory=dict)
    queries: int = 0
    peak_rss_mb: int = 0  # of this process, through the cold index run (vectors included)

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def load_queries(path: Path | None, fallback: Sequence[str]) -> list[str]:
    if path is None:
        return list(fallback)
    questions = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            questions.append(record.get("question") or record.get("problem_statement"))
    return [q for q in questions if q]


def _ripgrep(root: Path, query: str) -> float:
    """Time `rg` for the query's terms (an OR of its words), as a person would grep."""
    words = sorted({w for w in query.replace("(", " ").replace(")", " ").split() if len(w) > 3})
    pattern = "|".join(words[:12]) or query
    started = time.perf_counter()
    subprocess.run(
        ["rg", "-i", "-c", "-e", pattern, str(root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return (time.perf_counter() - started) * 1000


def measure(root: Path, settings: Settings, queries: Sequence[str], repeat: int = 3) -> SpeedReport:
    """Cold index into a fresh, temporary index root (no cached vectors), then warm searches."""
    scratch = Path(tempfile.mkdtemp(prefix="repolens-bench-"))
    try:
        return _measure(root, settings.model_copy(update={"index_dir": scratch}), queries, repeat)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _measure(root: Path, settings: Settings, queries: Sequence[str], repeat: int) -> SpeedReport:
    from app.indexer.context import embed_text
    from app.indexer.embed import Embedder
    from app.indexer.rows import chunk_from_row, embed_chars
    from app.service import Service

    service = Service(root, settings)
    report = SpeedReport(str(service.root))
    index = service.index()
    report.peak_rss_mb = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    report.files, report.chunks = index.files_seen, index.chunks_total
    report.index_seconds = {k: round(v, 2) for k, v in index.seconds.items()}
    if index.vectors_added and index.seconds.get("embed"):
        report.embed_pipeline_per_s = round(index.vectors_added / index.seconds["embed"], 1)

    # Raw fastembed on a sample of the same texts, same order (shortest first), same model.
    rows = list(service.searcher().corpus.live_rows())
    texts = sorted((embed_text(chunk_from_row(r), embed_chars(settings)) for r in rows), key=len)
    step = max(1, len(texts) // EMBED_SAMPLE)
    sample = texts[::step][:EMBED_SAMPLE]
    embedder = Embedder(
        settings.embedding_model,
        max_tokens=settings.embedding_max_tokens,
        threads=settings.embedding_threads,
    )
    started = time.perf_counter()
    embedder.embed(sample)
    raw_seconds = time.perf_counter() - started
    report.embed_raw_per_s = round(len(sample) / raw_seconds, 1) if sample else 0.0

    service.search("warm up")
    search_times, rg_times = [], []
    for _ in range(repeat):
        for query in queries:
            started = time.perf_counter()
            service.search(query)
            search_times.append((time.perf_counter() - started) * 1000)
            if shutil.which("rg"):
                rg_times.append(_ripgrep(service.root, " ".join(tokens(query)) or query))
    report.queries = len(queries)
    report.search_ms = latency_summary(search_times)
    report.ripgrep_ms = latency_summary(rg_times) if rg_times else {}
    return report


def format_report(report: SpeedReport) -> str:
    lines = [
        f"repository   {report.repository}",
        f"files        {report.files}",
        f"chunks       {report.chunks}",
    ]
    seconds = report.index_seconds
    walk_parse = seconds.get("walk", 0) + seconds.get("parse", 0) + seconds.get("write", 0)
    if walk_parse:
        lines.append(
            f"lexical      ready in {walk_parse:.1f} s: "
            f"{report.files / walk_parse:.0f} files/s, {report.chunks / walk_parse:.0f} chunks/s"
        )
    if seconds.get("embed"):
        full = sum(seconds.values())
        lines.append(
            f"all vectors  in {full:.0f} s; peak memory of the run {report.peak_rss_mb} MB"
        )
    if report.embed_pipeline_per_s:
        ratio = (
            report.embed_pipeline_per_s / report.embed_raw_per_s if report.embed_raw_per_s else 0
        )
        lines.append(
            f"embedding    pipeline {report.embed_pipeline_per_s} chunks/s, raw fastembed "
            f"{report.embed_raw_per_s} chunks/s on a sample of the same texts "
            f"(pipeline/raw {ratio:.2f})"
        )
    s, r = report.search_ms, report.ripgrep_ms
    lines.append(
        f"search       p50 {s['median']} ms, p95 {s['p95']} ms over "
        f"{report.queries} queries x repeats (warm)"
    )
    if r:
        lines.append(
            f"ripgrep      p50 {r['median']} ms, p95 {r['p95']} ms for the same terms "
            f"(search/rg p50 {s['median'] / max(r['median'], 0.01):.2f})"
        )
    return "\n".join(lines)
