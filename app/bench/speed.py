"""`repolens-tui-bench bench`: indexing throughput, index load and warm search latency (by stage)
on one repository, each beside a baseline measured in the same run (raw fastembed on the same
texts; ripgrep on the same terms)."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.bench.report import latency_summary
from app.core.literal import literal
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
    load_ms: float = 0.0  # a fresh process's searcher ready: chunks, vectors, query model
    search_ms: dict[str, float] = field(default_factory=dict)
    stage_ms: dict[str, float] = field(default_factory=dict)  # median of each search stage
    cpu_ms: float = 0.0  # median CPU time of this process per search: less swayed by load
    vectors_ready: float = 0.0  # share of chunks dense search could find
    load_average: list[float] = field(default_factory=list)  # 1-minute, at start and end
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


def measure(
    root: Path, settings: Settings, queries: Sequence[str], repeat: int = 3, *, warm: bool = False
) -> SpeedReport:
    """Cold index into a fresh, temporary index root (no cached vectors), then warm searches;
    `warm`: search the index already in `settings.index_dir` as it is, vectors or not (its
    lexical part built first if missing)."""
    if warm:
        return _measure(root, settings, queries, repeat, cold=False)
    scratch = Path(tempfile.mkdtemp(prefix="repolens-bench-"))
    try:
        scratch_settings = settings.model_copy(update={"index_dir": scratch})
        return _measure(root, scratch_settings, queries, repeat, cold=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _measure(
    root: Path, settings: Settings, queries: Sequence[str], repeat: int, *, cold: bool
) -> SpeedReport:
    from app.service import Service

    report = SpeedReport(str(Service(root, settings).root), load_average=[os.getloadavg()[0]])
    if cold:
        _measure_indexing(Service(root, settings), settings, report)
    else:
        Service(root, settings).index_if_needed(_quiet, _say, with_vectors=False)
    service = Service(root, settings)  # as a new process finds it: nothing loaded
    started = time.perf_counter()
    service.searcher()
    report.load_ms = round((time.perf_counter() - started) * 1000, 1)
    if not cold:
        report.files, report.chunks = service.counts()["files"], service.searcher().corpus.size
    service.search("warm up")
    search_times, cpu_times, rg_times = [], [], []
    stages: dict[str, list[float]] = {}
    for _ in range(repeat):
        for query in queries:
            started, cpu = time.perf_counter(), time.process_time()
            result = service.search(query)
            search_times.append((time.perf_counter() - started) * 1000)
            cpu_times.append((time.process_time() - cpu) * 1000)
            for stage, ms in result.timings_ms.items():
                stages.setdefault(stage, []).append(ms)
            if shutil.which("rg"):
                rg_times.append(_ripgrep(service.root, " ".join(tokens(query)) or query))
    report.queries = len(queries)
    report.vectors_ready = round(service.searcher().vectors_ready, 3)
    report.search_ms = latency_summary(search_times)
    report.cpu_ms = latency_summary(cpu_times)["median"]
    report.stage_ms = {stage: latency_summary(ms)["median"] for stage, ms in stages.items()}
    report.ripgrep_ms = latency_summary(rg_times) if rg_times else {}
    report.load_average.append(os.getloadavg()[0])
    return report


def _quiet(*_: Any) -> None:
    """Progress nobody reads: the warm bench indexes only when the index is missing."""


def _say(text: str) -> None:
    print(literal(text), file=sys.stderr)


def _measure_indexing(service: Any, settings: Settings, report: SpeedReport) -> None:
    """The cold index run's figures, and raw fastembed on a sample of the same texts."""
    from app.indexer.context import embed_text
    from app.indexer.embed import Embedder
    from app.indexer.rows import chunk_from_row, embed_chars

    index = service.index()
    report.files, report.chunks = index.files_seen, index.chunks_total
    report.peak_rss_mb = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    report.index_seconds = {k: round(v, 2) for k, v in index.seconds.items()}
    if index.vectors_added and index.seconds.get("embed"):
        report.embed_pipeline_per_s = round(index.vectors_added / index.seconds["embed"], 1)

    # Same order (shortest first), same model.
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
    rg_p50 = max(r.get("median", 0.0), 0.01)
    lines.append(
        f"load         {report.load_ms:.0f} ms to the first search (chunks, vectors, query "
        f"model){f' (load/rg p50 {report.load_ms / rg_p50:.1f})' if r else ''}"
    )
    lines.append(
        f"search       p50 {s['median']} ms, p95 {s['p95']} ms over "
        f"{report.queries} queries x repeats (warm); CPU p50 {report.cpu_ms} ms; "
        f"vectors for {report.vectors_ready:.0%} of the chunks"
    )
    stages = ", ".join(f"{stage} {ms}" for stage, ms in report.stage_ms.items())
    lines.append(f"stages       p50 ms: {stages}")
    if r:
        lines.append(
            f"ripgrep      p50 {r['median']} ms, p95 {r['p95']} ms for the same terms "
            f"(search/rg p50 {s['median'] / rg_p50:.2f})"
        )
    loads = " -> ".join(f"{load:.2f}" for load in report.load_average)
    lines.append(f"machine      load average {loads} (1 minute, start -> end)")
    return "\n".join(lines)
