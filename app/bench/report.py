"""Plain-text tables and JSON-ready dicts of benchmark runs, the engine beside the baselines."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from app.bench.devbench import OVERALL, Metrics

if TYPE_CHECKING:
    from app.bench.runner import DevReport, SweReport

_DEV_HEADER = (
    f"{'':14s} {'system':14s} {'n':>3s} {'top1':>6s} {'top5':>6s} {'mrr@10':>7s} "
    f"{'tok mean':>9s} {'tok med':>8s} {'missing':>7s}"
)


def latency_summary(values: Iterable[float]) -> dict[str, float]:
    """Mean, median, nearest-rank p95 and max, in milliseconds."""
    ordered = sorted(values)
    if not ordered:
        return {"mean": 0.0, "median": 0.0, "p95": 0.0, "max": 0.0}
    p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
    return {
        "mean": round(statistics.mean(ordered), 1),
        "median": round(statistics.median(ordered), 1),
        "p95": round(p95, 1),
        "max": round(ordered[-1], 1),
    }


def _dev_row(label: str, system: str, m: Metrics) -> str:
    return (
        f"{label:14s} {system:14s} {m.questions:3d} {m.top1:6.3f} {m.top5:6.3f} {m.mrr10:7.3f} "
        f"{m.tokens_mean:9.1f} {m.tokens_median:8.1f} {m.missing:7d}"
    )


def _dev_block(
    title: str, groups: list[str], per_system: Mapping[str, Mapping[str, Metrics]]
) -> list[str]:
    lines = [title, _DEV_HEADER]
    for group in groups:
        for i, (system, table) in enumerate(per_system.items()):
            if group in table:
                lines.append(_dev_row(group if i == 0 else "", system, table[group]))
    return lines


def format_dev(report: DevReport) -> str:
    """Per corpus and overall, then per question kind; each group lists every system."""
    corpora = [*sorted(report.corpora), OVERALL]
    by_corpus = {s: report.scores[s].by_corpus for s in report.systems}
    by_kind = {s: report.scores[s].by_kind for s in report.systems}
    kinds = list(by_kind[report.systems[0]]) if report.systems else []
    lines = _dev_block(
        f"dev benchmark: top {report.k}, tokens = characters returned / 3.6", corpora, by_corpus
    )
    lines += [""] + _dev_block("by question kind", kinds, by_kind)
    lines += ["", "latency per question (ms)"]
    for system in report.systems:
        lat = latency_summary(report.latency_ms[system].values())
        lines.append(
            f"  {system:14s} mean {lat['mean']:8.1f}  median {lat['median']:8.1f}  "
            f"p95 {lat['p95']:8.1f}  max {lat['max']:8.1f}"
        )
    indexed = ", ".join(
        f"{c} {report.units.get(c, 0)} units / {report.files.get(c, 0)} files"
        for c in sorted(report.corpora)
    )
    lines += ["", f"indexed: {indexed}"]
    return "\n".join(lines)


def dev_to_dict(report: DevReport) -> dict[str, object]:
    return {
        "k": report.k,
        "systems": {
            system: {
                "by_corpus": report.scores[system].table(),
                "by_kind": {k: m.as_dict() for k, m in report.scores[system].by_kind.items()},
                "latency_ms": latency_summary(report.latency_ms[system].values()),
                "questions": [
                    {
                        "id": q.id,
                        "kind": q.kind,
                        "first_hit": q.first_hit,
                        "tokens": round(q.tokens, 1),
                    }
                    for q in report.scores[system].questions
                ],
            }
            for system in report.systems
        },
        "indexed": {
            c: {"units": report.units.get(c, 0), "files": report.files.get(c, 0)}
            for c in report.corpora
        },
    }


def _rank(rank: int | None) -> str:
    return "-" if rank is None else str(rank)


def format_swe(report: SweReport) -> str:
    """One row per system, then each instance's gold-file rank under every system."""
    tests = "test files indexed" if report.tests_indexed else "test files not indexed"
    lines = [
        f"swebench-dev: file level, top {report.k} chunks, query = issue text verbatim; {tests}",
        f"{'system':14s} {'n':>3s} {'acc@1':>6s} {'acc@5':>6s} {'hit@1':>6s} {'hit@5':>6s} "
        f"{'mrr':>6s} {'ms mean':>8s}",
    ]
    for system in report.systems:
        m = report.metrics[system]
        lat = latency_summary(report.latency_ms[system].values())
        lines.append(
            f"{system:14s} {m.instances:3d} {m.acc1:6.3f} {m.acc5:6.3f} {m.hit1:6.3f} "
            f"{m.hit5:6.3f} {m.mrr:6.3f} {lat['mean']:8.1f}"
        )
    lines += ["", "gold file rank per instance (- = not returned)"]
    lines.append(f"{'instance':28s} " + " ".join(f"{s:>14s}" for s in report.systems))
    for i, instance in enumerate(report.instances):
        cells = []
        for system in report.systems:
            ranks = report.scores[system][i].gold_ranks.values()
            cells.append(f"{','.join(_rank(r) for r in ranks):>14s}")
        lines.append(f"{instance:28s} " + " ".join(cells))
    return "\n".join(lines)


def swe_to_dict(report: SweReport) -> dict[str, object]:
    return {
        "k": report.k,
        "tests_indexed": report.tests_indexed,
        "systems": {
            system: {
                **report.metrics[system].as_dict(),
                "latency_ms": latency_summary(report.latency_ms[system].values()),
                "instances": [
                    {
                        "instance_id": s.instance_id,
                        "gold_ranks": s.gold_ranks,
                        "top_files": list(s.top_files[:5]),
                        "acc@1": s.acc1,
                        "acc@5": s.acc5,
                        "rr": round(s.rr, 4),
                    }
                    for s in report.scores[system]
                ],
            }
            for system in report.systems
        },
    }
