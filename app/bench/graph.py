"""`repolens-tui-bench graph-bench`: call-graph build time and memory beside the index time, and
warm callers/callees latency, per repository (a fresh temporary index each)."""

from __future__ import annotations

import json
import shutil
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from app.bench.report import latency_summary
from app.core.settings import Settings

QUERIES = 200  # symbols asked about, half callers, half callees


def _in_memory_build(store: Any) -> tuple[float, float]:
    """Seconds and peak MiB to resolve and rank the whole graph from the stored facts."""
    from app.graph.facts import FileFacts
    from app.graph.rank import rank_symbols
    from app.graph.resolve import Resolver
    from app.store.graph_tables import GRAPH_FILES

    tracemalloc.start()
    started = time.perf_counter()
    files = {r["path"]: FileFacts.from_row(r) for r in store.read_table(GRAPH_FILES).to_pylist()}
    resolver = Resolver(files)
    edges = []
    for facts in files.values():
        for call in facts.calls:
            edges.extend(resolver.resolve(facts, call)[0])
    rank_symbols(list(resolver.symbols), edges)
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak / 2**20


def measure_graph(root: Path, settings: Settings, name: str = "") -> dict[str, Any]:
    from app.service import Service
    from app.store.store import Store

    scratch = Path(tempfile.mkdtemp(prefix="repolens-graph-bench-"))
    try:
        service = Service(root, settings.model_copy(update={"index_dir": scratch}))
        report = service.index(with_vectors=False)
        graph_seconds = report.seconds.get("graph", 0.0)
        lexical = sum(v for k, v in report.seconds.items() if k in ("walk", "parse", "write"))
        rebuild_seconds, peak_mib = _in_memory_build(Store.open(service.index_dir))
        started = time.perf_counter()
        view = service.graph()
        load_ms = (time.perf_counter() - started) * 1000
        ids = sorted(view.symbols, key=lambda s: (-view.symbols[s]["fan_in"], s))[: QUERIES // 2]
        service.callers(ids[0]) if ids else None  # warm
        times = {"callers": [], "callees": []}  # type: dict[str, list[float]]
        for sid in ids:
            for direction in times:
                started = time.perf_counter()
                getattr(service, direction)(sid)
                times[direction].append((time.perf_counter() - started) * 1000)
        return {
            "repository": str(service.root),
            "name": name or service.root.name,
            "files": report.files_seen,
            "symbols": report.graph.get("symbols", 0),
            "calls": report.graph.get("calls", 0),
            "edges_by_tier": report.graph.get("edges_by_tier", {}),
            "unresolved": report.graph.get("unresolved", 0),
            "index_lexical_s": round(lexical, 2),
            "graph_s": round(graph_seconds, 2),
            "graph_in_memory_s": round(rebuild_seconds, 2),
            "graph_peak_mib": round(peak_mib, 1),
            "graph_load_ms": round(load_ms, 1),
            "callers_ms": latency_summary(times["callers"], digits=3),
            "callees_ms": latency_summary(times["callees"], digits=3),
            "queries": len(ids),
        }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def corpus_roots(corpora: Path, bench: Path) -> list[tuple[str, Path]]:
    listing = json.loads((bench / "dev" / "corpora.json").read_text(encoding="utf-8"))
    return [(entry["name"], corpora / entry["root"]) for entry in listing]


def format_row(r: dict[str, Any]) -> str:
    tiers = r["edges_by_tier"]
    return (
        f"{r['name']:<16} files {r['files']:>5}  symbols {r['symbols']:>6}  "
        f"calls {r['calls']:>6}  edges c/p/u {tiers.get('certain', 0)}/"
        f"{tiers.get('probable', 0)}/{tiers.get('uncertain', 0)}  unresolved {r['unresolved']}\n"
        f"{'':<16} index (walk+parse+write) {r['index_lexical_s']} s, graph {r['graph_s']} s "
        f"(again in memory under tracemalloc {r['graph_in_memory_s']} s, "
        f"peak {r['graph_peak_mib']} MiB), "
        f"load {r['graph_load_ms']} ms\n"
        f"{'':<16} warm callers p50 {r['callers_ms']['median']} ms p95 {r['callers_ms']['p95']} "
        f"ms, callees p50 {r['callees_ms']['median']} ms p95 {r['callees_ms']['p95']} ms "
        f"({r['queries']} symbols)"
    )
