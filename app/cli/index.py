"""`repolens-tui index PATH`: index or update a repository, then say what the run did."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.common import EXIT_OK, ProgressPrinter, service_from_args
from app.core.literal import literal


def cmd_index(args: argparse.Namespace) -> int:
    service = service_from_args(args)
    report = service.index(
        ProgressPrinter(args.quiet),
        with_vectors=not args.no_vectors,
        rebuild=args.rebuild,
        verify=True,
    )
    total = sum(report.seconds.values())
    by_reason = sorted(report.skipped_by_reason.items())
    skipped = ", ".join(f"{n} {literal(r)}" for r, n in by_reason) or "none"
    print(
        f"indexed {literal(str(service.root))}\n"
        f"  files   {report.files_seen} seen, {report.files_parsed} parsed, "
        f"{report.files_unchanged} unchanged, {report.files_removed} removed\n"
        f"  chunks  {report.chunks_total} ({report.chunks_added} new)\n"
        f"  vectors {report.vectors_total} of {report.vectors_wanted} ({report.vectors_added} new,"
        f" {report.word_vectors_added} of definitions' words;"
        " test files are left to BM25 unless embed_tests is set)\n"
        f"  skipped {skipped}\n"
        + _graph_line(report.graph)
        + "".join(f"  repair  {literal(line)}\n" for line in report.repairs)
        + f"  time    {total:.1f} s ("
        + ", ".join(f"{k} {v:.1f} s" for k, v in report.seconds.items())
        + ")\n"
        f"  index   {literal(str(service.index_dir))}"
    )
    return EXIT_OK


def _graph_line(graph: dict[str, Any]) -> str:
    if not graph:
        return "  graph   unchanged\n"
    tiers = graph["edges_by_tier"]
    return (
        f"  graph   {graph['symbols']} symbols, {graph['calls']} calls ({graph['resolved_calls']}"
        f" resolved this run): {tiers['certain']} certain, {tiers['probable']} probable, "
        f"{tiers['uncertain']} uncertain edges, {graph['unresolved']} unresolved\n"
    )


def add_parsers(sub: Any, common: Any) -> None:
    p = sub.add_parser("index", help="index a repository (incremental; resumes a killed run)")
    p.add_argument("path")
    p.add_argument(
        "--rebuild",
        action="store_true",
        help="build the index anew (the old one serves searches until it is done)",
    )
    p.add_argument("--no-vectors", action="store_true", help="lexical index only, embed later")
    common(p)
    p.set_defaults(run=cmd_index)
