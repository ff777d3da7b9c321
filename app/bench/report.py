"""Plain-text tables and JSON-ready dicts of benchmark runs, the engine beside the baselines."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from app.bench.devbench import OVERALL, Metrics

if TYPE_CHECKING:
    from app.bench.runner import DevReport, SembleReport, SweReport

_DEV_HEADER = (
    f"{'':14s} {'system':14s} {'n':>3s} {'top1':>6s} {'top5':>6s} {'mrr@10':>7s} "
    f"{'tok mean':>9s} {'tok med':>8s} {'missing':>7s}"
)


def latency_summary(values: Iterable[float], digits: int = 1) -> dict[str, float]:
    """Mean, median, nearest-rank p95 and max, in milliseconds rounded to `digits`."""
    ordered = sorted(values)
    if not ordered:
        return {"mean": 0.0, "median": 0.0, "p95": 0.0, "max": 0.0}
    p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
    return {
        "mean": round(statistics.mean(ordered), digits),
        "median": round(statistics.median(ordered), digits),
        "p95": round(p95, digits),
        "max": round(ordered[-1], digits),
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


def format_dev(report: DevReport, name: str = "dev") -> str:
    """Per corpus and overall, then per question kind; each group lists every system."""
    corpora = [*sorted(report.corpora), OVERALL]
    by_corpus = {s: report.scores[s].by_corpus for s in report.systems}
    by_kind = {s: report.scores[s].by_kind for s in report.systems}
    kinds = list(by_kind[report.systems[0]]) if report.systems else []
    lines = _dev_block(
        f"{name} benchmark: top {report.k}, tokens = characters returned / 3.6", corpora, by_corpus
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


# Peers from published.json shown beside each repo: (tool, label, matching rule).
SEMBLE_PEERS = (
    ("semble-hybrid", "semble", "chunk"),
    ("coderankembed-hybrid", "CRE-hyb", "chunk"),
    ("bm25", "BM25pub", "chunk"),
    ("ck", "ck", "file"),
    ("gitnexus", "GitNexus", "file"),
)


def _cell(value: float | None, width: int = 7) -> str:
    return f"{'-':>{width}s}" if value is None else f"{value:{width}.3f}"


def _published(report: SembleReport, tool: str, repo: str) -> float | None:
    entry = report.published.get(tool, {}).get("repos", {}).get(repo)
    return None if entry is None else float(entry["ndcg10"])


def format_semble(report: SembleReport) -> str:
    """Per repo: ours at chunk and file level, BM25 and grep from this run, then the
    published peers (chunk level for semble, CRE and BM25; file level for ck and GitNexus)."""
    engine, grep, bm25 = report.systems
    head = (
        f"{'repo':19s} {'lang':10s} {'n':>3s} {'ndcg10':>7s} {'file10':>7s} {'bm25':>7s} "
        f"{'grep f10':>8s} |" + "".join(f" {label:>8s}" for _, label, _ in SEMBLE_PEERS)
    )
    lines = [
        f"semble-dev: top {report.k}, NDCG@10 with semble's rule (file10 = file level); "
        "peers are published figures, * = their run used other queries",
        head,
    ]
    for repo in report.repos:
        s = report.scores
        row = (
            f"{repo.name:19s} {repo.language:10s} {len(report.tasks[repo.name]):3d} "
            f"{_cell(s[engine].repo_mean(repo.name))} "
            f"{_cell(s[engine].repo_mean(repo.name, 'file_ndcg10'))} "
            f"{_cell(s[bm25].repo_mean(repo.name))} "
            f"{_cell(s[grep].repo_mean(repo.name, 'file_ndcg10'), 8)} |"
        )
        mark = " " if repo.matches_published_run else "*"
        for tool, _, _ in SEMBLE_PEERS:
            row += f" {_cell(_published(report, tool, repo.name))}{mark}"
        lines.append(row)
    names = [r.name for r in report.repos]
    ours = report.scores[engine]
    lines += [
        "",
        f"overall (mean over {len(names)} repos): ndcg@10 {ours.overall():.3f}, "
        f"file-level {ours.overall('file_ndcg10'):.3f}; bm25 (this run) "
        f"{report.scores[bm25].overall():.3f}; grep file-level "
        f"{report.scores[grep].overall('file_ndcg10'):.3f}",
    ]
    lines.append(
        "by language: "
        + ", ".join(f"{lang} {value:.3f}" for lang, value in ours.by_language().items())
    )
    bm25_types = report.scores[bm25].by_category()
    lines.append(
        "by query type: "
        + ", ".join(
            f"{c} {value:.3f} (bm25 {bm25_types.get(c, 0.0):.3f})"
            for c, value in ours.by_category().items()
        )
    )
    lines += ["", "published peers on the same repos (their figure, then ours by their rule):"]
    for tool, label, rule in SEMBLE_PEERS:
        have = [n for n in names if _published(report, tool, n) is not None]
        if not have:
            continue
        theirs = statistics.mean(_published(report, tool, n) or 0.0 for n in have)
        mine = ours.overall("ndcg10" if rule == "chunk" else "file_ndcg10", have)
        lines.append(
            f"  {label:9s} {theirs:.3f}   ours {mine:.3f} ({rule} level) over {len(have)} repos"
        )
    lat = latency_summary(report.latency_ms[engine].values())
    lines.append(f"\nlatency per query (engine, ms): median {lat['median']}, p95 {lat['p95']}")
    return "\n".join(lines)


def semble_to_dict(report: SembleReport) -> dict[str, object]:
    engine = report.systems[0]
    return {
        "k": report.k,
        "systems": {
            system: {
                "ndcg10": round(report.scores[system].overall(), 4),
                "file_ndcg10": round(report.scores[system].overall("file_ndcg10"), 4),
                "by_language": report.scores[system].by_language(),
                "by_category": report.scores[system].by_category(),
                "repos": {
                    r.name: {
                        "ndcg10": round(report.scores[system].repo_mean(r.name), 4),
                        "file_ndcg10": round(
                            report.scores[system].repo_mean(r.name, "file_ndcg10"), 4
                        ),
                    }
                    for r in report.repos
                },
                "latency_ms": latency_summary(report.latency_ms[system].values()),
            }
            for system in report.systems
        },
        "published": {
            tool: {r.name: _published(report, tool, r.name) for r in report.repos}
            for tool, _, _ in SEMBLE_PEERS
        },
        "queries": [
            {
                "query_id": t.query_id,
                "category": t.category,
                "ndcg10": round(t.ndcg10, 4),
                "first_rank": t.first_rank,
            }
            for t in report.scores[engine].tasks
        ],
    }
