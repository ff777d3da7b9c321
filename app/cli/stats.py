"""`repolens-tui stats PATH`: what the index holds, what it skipped and why, what is pending."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from app.cli.common import EXIT_ERROR, EXIT_OK, count_or_zero, service_from_args
from app.contracts import json_text
from app.core.literal import literal
from app.store.manifest import IndexCorrupt

if TYPE_CHECKING:
    from app.service import Service


def cmd_stats(args: argparse.Namespace) -> int:
    service = service_from_args(args)
    try:
        stats = service.stats(coverage=args.coverage)
    except IndexCorrupt:
        if not args.check or not service.index_dir.exists():
            raise
        return _check(service)  # the check says what is damaged
    if args.json:
        print(json_text(stats, default=str))
        return EXIT_OK
    print(f"repository  {literal(str(stats['repository']))}")
    print(f"index       {literal(str(stats['index_dir']))}")
    print(f"commit      {literal(stats['commit'] or 'none (not a git checkout)')}")
    if not stats["source_tree"]:
        print(f"source      {literal(service.stored_note())}")
    print(f"files       {stats['files']}\nchunks      {stats['chunks']}")
    model = literal(stats["embedding_model"] or "none")
    left = stats["chunks"] - stats["vectors_wanted"]
    print(
        f"vectors     {stats['vectors']} of {stats['vectors_wanted']} ({model})"
        + (f"; {left} test-file chunks are left to BM25" if left else "")
    )
    print("languages   " + ", ".join(f"{literal(k)} {v}" for k, v in stats["languages"].items()))
    print("kinds       " + ", ".join(f"{literal(k)} {v}" for k, v in stats["chunk_kinds"].items()))
    from app.indexer.walk import SKIP_REASONS

    print(
        "skipped     "
        + (", ".join(f"{literal(k)} {v}" for k, v in stats["skipped_by_reason"].items()) or "none")
    )
    for entry in stats["skipped"][: args.skipped]:
        reason = entry["reason"]
        detail = literal(entry["detail"] or SKIP_REASONS.get(reason, ""))
        print(f"  {literal(reason):<16} {literal(entry['path'])}  {detail}")
    if len(stats["skipped"]) > args.skipped:
        print(f"  ... {len(stats['skipped']) - args.skipped} more (--skipped N shows more)")
    pending = stats["pending"]
    counts = {kind: len(paths) for kind, paths in pending.items() if paths}
    print(
        "pending     "
        + (
            ", ".join(f"{n} {kind}" for kind, n in counts.items())
            + " since the last index run (`repolens-tui index` or `watch` picks them up)"
            if counts
            else "none: the index matches the files on disk"
        )
    )
    for kind, paths in pending.items():
        for path in paths[:5]:
            print(f"  {kind:<8} {literal(path)}")
    if unread := stats["calls_unread"]:
        print(
            f"calls       unread in {len(unread)} file{'s' if len(unread) != 1 else ''}: "
            "reading their call facts failed (a defect; they keep their chunks, "
            "the call graph lacks their calls)"
        )
        for path in unread[:5]:
            print(f"  {literal(path)}")
    if args.check and _check(service) != EXIT_OK:
        return EXIT_ERROR
    if args.coverage:
        cov = stats["coverage"]
        print(
            f"coverage    {cov['share']:.1%} of {cov['lines']} non-blank code lines "
            "sit inside a definition chunk; worst files:"
        )
        for item in cov["worst_files"]:
            print(
                f"  {item['share']:>6.1%}  {item['covered']:>5}/{item['lines']:<5} "
                + literal(item["path"])
            )
    return EXIT_OK


def _check(service: Service) -> int:
    from app.store.check import check_index

    problems = check_index(service.index_dir)
    print("check       " + ("consistent" if not problems else f"{len(problems)} problems"))
    for problem in problems:
        print(f"  {literal(problem)}")
    if problems:
        print("  rebuild with `repolens-tui index PATH --rebuild`")
        return EXIT_ERROR
    return EXIT_OK


def add_parsers(sub: Any, common: Any) -> None:
    p = sub.add_parser("stats", help="what the index holds, what was skipped and why")
    p.add_argument("path")
    p.add_argument("--coverage", action="store_true", help="share of code inside definitions")
    p.add_argument("--skipped", type=count_or_zero, default=20, help="list this many skipped paths")
    p.add_argument(
        "--check", action="store_true", help="check the index is consistent (exit 1 if not)"
    )
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_stats)
