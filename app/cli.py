"""Headless front end: index, search, stats and eval from the command line."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.core.events import IndexProgress

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


class ProgressPrinter:
    """One status line on stderr: redrawn in a terminal, one line per phase otherwise."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.phase = ""
        self.started = time.perf_counter()

    def __call__(self, event: IndexProgress) -> None:
        if self.quiet:
            return
        if event.total:
            share = event.done / event.total
            bar = "#" * int(share * 24)
            line = f"{event.phase:<6} [{bar:<24}] {event.done}/{event.total} {event.message}"
        else:
            line = f"{event.phase:<6} {event.message}"
        if self.tty:
            sys.stderr.write("\r\033[K" + line[:120])
            if event.phase == "done":
                sys.stderr.write("\n")
        elif event.phase != self.phase or event.done == event.total:
            sys.stderr.write(line + "\n")
        self.phase = event.phase
        sys.stderr.flush()


def _service(args: argparse.Namespace) -> Any:
    from app.core.settings import load_settings
    from app.service import Service

    settings = load_settings(
        index_dir=getattr(args, "index_dir", None),
        embedding_model=getattr(args, "model", None),
    )
    return Service(Path(args.path), settings)


def index_if_needed(service: Any, quiet: bool, *, with_vectors: bool = True) -> None:
    """Index the repository first when there is no index it can read (none, or an old one)."""
    reason = service.needs_indexing()
    if reason:
        print(f"{service.root} {reason}; indexing it first", file=sys.stderr)
        service.index(ProgressPrinter(quiet), with_vectors=with_vectors)


def cmd_index(args: argparse.Namespace) -> int:
    service = _service(args)
    report = service.index(
        ProgressPrinter(args.quiet), with_vectors=not args.no_vectors, rebuild=args.rebuild
    )
    total = sum(report.seconds.values())
    skipped = ", ".join(f"{n} {r}" for r, n in sorted(report.skipped_by_reason.items())) or "none"
    print(
        f"indexed {service.root}\n"
        f"  files   {report.files_seen} seen, {report.files_parsed} parsed, "
        f"{report.files_unchanged} unchanged, {report.files_removed} removed\n"
        f"  chunks  {report.chunks_total} ({report.chunks_added} new)\n"
        f"  vectors {report.vectors_total} of {report.vectors_wanted} ({report.vectors_added} new;"
        " test files are left to BM25 unless embed_tests is set)\n"
        f"  skipped {skipped}\n"
        + _graph_line(report.graph)
        + f"  time    {total:.1f} s ("
        + ", ".join(f"{k} {v:.1f} s" for k, v in report.seconds.items())
        + ")\n"
        f"  index   {service.index_dir}"
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


def _hit_json(hit: Any, explain: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "path": hit.path,
        "start_line": hit.start_line,
        "end_line": hit.end_line,
        "symbol": hit.qualified_name or hit.symbol,
        "kind": hit.kind,
        "language": hit.language,
        "score": round(hit.score, 6),
        "packed": hit.packed,
        "stale": hit.stale,
        "text": hit.text,
    }
    if explain:
        data["explain"] = _explain_json(hit)
    return data


def _explain_json(hit: Any) -> dict[str, Any]:
    e = hit.explanation
    return {
        "bm25_rank": e.bm25_rank,
        "vector_rank": e.vector_rank,
        "fused_score": round(e.fused_score, 6),
        "signals": [{"name": s.name, "factor": s.factor, "reason": s.reason} for s in e.signals],
        "final_score": round(e.final_score, 6),
    }


def _explain_line(hit: Any) -> str:
    """The ranks and scores on one line, then each rerank signal, its factor and its reason."""
    e = hit.explanation
    ranks = f"bm25 #{e.bm25_rank or '-'}, vector #{e.vector_rank or '-'}"
    lines = [f"      why: {ranks}, rrf {e.fused_score:.4f} -> {e.final_score:.4f}"]
    lines += [f"        x{s.factor:g} {s.name}: {s.reason}" for s in e.signals]
    return "\n".join(lines)


def cmd_search(args: argparse.Namespace) -> int:
    service = _service(args)
    index_if_needed(service, args.quiet)
    result = service.search(args.query, k=args.k, budget_tokens=args.budget)
    if args.json:
        payload = {
            "query": result.query,
            "hits": [_hit_json(hit, args.explain) for hit in result.hits],
            "timings_ms": result.timings_ms,
            "vectors_ready": round(result.vectors_ready, 4),
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
        return EXIT_OK
    if not result.hits:
        print("no results")
    for rank, hit in enumerate(result.hits, 1):
        name = hit.qualified_name or hit.symbol or hit.kind
        print(
            f"{rank:>2}. {hit.path}:{hit.start_line}-{hit.end_line}  {name}  [{hit.kind}]"
            f"  {hit.score:.4f}"
            + ("  (signature only)" if hit.packed == "signature" else "")
            + ("  (file changed since indexed)" if hit.stale else "")
        )
        if args.explain:
            print(_explain_line(hit))
        if args.show_text:
            for line in hit.text.split("\n"):
                print("      " + line)
    timings = ", ".join(f"{k} {v:.1f}" for k, v in result.timings_ms.items())
    note = "" if result.vectors_ready >= 1 else f", vectors {result.vectors_ready:.0%} ready"
    print(f"({timings} ms{note})", file=sys.stderr)
    return EXIT_OK


def cmd_stats(args: argparse.Namespace) -> int:
    service = _service(args)
    stats = service.stats(coverage=args.coverage)
    if args.json:
        print(json.dumps(stats, indent=2, default=str))
        return EXIT_OK
    print(f"repository  {stats['repository']}\nindex       {stats['index_dir']}")
    print(f"files       {stats['files']}\nchunks      {stats['chunks']}")
    model = stats["embedding_model"] or "none"
    left = stats["chunks"] - stats["vectors_wanted"]
    print(
        f"vectors     {stats['vectors']} of {stats['vectors_wanted']} ({model})"
        + (f"; {left} test-file chunks are left to BM25" if left else "")
    )
    print("languages   " + ", ".join(f"{k} {v}" for k, v in stats["languages"].items()))
    print("kinds       " + ", ".join(f"{k} {v}" for k, v in stats["chunk_kinds"].items()))
    from app.indexer.walk import SKIP_REASONS

    print(
        "skipped     "
        + (", ".join(f"{k} {v}" for k, v in stats["skipped_by_reason"].items()) or "none")
    )
    for entry in stats["skipped"][: args.skipped]:
        reason = entry["reason"]
        detail = entry["detail"] or SKIP_REASONS.get(reason, "")
        print(f"  {reason:<16} {entry['path']}  {detail}")
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
            print(f"  {kind:<8} {path}")
    if args.check:
        from app.store.check import check_index

        problems = check_index(service.index_dir)
        print("check       " + ("consistent" if not problems else f"{len(problems)} problems"))
        for problem in problems:
            print(f"  {problem}")
        if problems:
            print("  rebuild with `repolens-tui index PATH --rebuild`")
            return EXIT_ERROR
    if args.coverage:
        cov = stats["coverage"]
        print(
            f"coverage    {cov['share']:.1%} of {cov['lines']} non-blank code lines "
            "sit inside a definition chunk; worst files:"
        )
        for item in cov["worst_files"]:
            print(
                f"  {item['share']:>6.1%}  {item['covered']:>5}/{item['lines']:<5} {item['path']}"
            )
    return EXIT_OK


def cmd_eval(args: argparse.Namespace) -> int:
    from app.evaluation.command import run_eval_command

    return run_eval_command(args)


# What the benches type when no question file is given: questions any repository can take.
GENERIC_QUESTIONS = (
    "where is the configuration loaded",
    "error handling when the request fails",
    "parse the input",
    "how are tests set up",
)


def cmd_bench(args: argparse.Namespace) -> int:
    from app.core.settings import load_settings
    from app.evaluation.speed import format_report, load_queries, measure

    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    queries = load_queries(args.queries, GENERIC_QUESTIONS)
    report = measure(Path(args.path), settings, queries, args.repeat)
    print(json.dumps(report.as_dict(), indent=2) if args.json else format_report(report))
    return EXIT_OK


def cmd_live_bench(args: argparse.Namespace) -> int:
    from app.core.settings import load_settings
    from app.evaluation.live import format_report, measure

    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    report = measure(Path(args.path), settings, args.edits, args.branch_files)
    print(json.dumps(report.as_dict(), indent=2) if args.json else format_report(report))
    return EXIT_OK


# A front end adds its own commands (the TUI adds `tui-bench`), so this module never imports
# UI code: extend(subparsers, common) where common(p) adds the options every command takes.
ParserExtension = Callable[[Any, Callable[[argparse.ArgumentParser], None]], None]


def build_parser(extend: ParserExtension | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="repolens-tui",
        description="Local, offline repository intelligence. `repolens-tui [PATH]` opens the "
        "terminal UI on PATH (default: the current directory); the commands below work headless.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--index-dir", type=Path, help="where indexes live (REPOLENS_INDEX_DIR)")
        p.add_argument("--model", help="embedding model (REPOLENS_EMBEDDING_MODEL)")
        p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")

    p = sub.add_parser("index", help="index a repository (incremental; resumes a killed run)")
    p.add_argument("path")
    p.add_argument("--rebuild", action="store_true", help="drop the index and build it anew")
    p.add_argument("--no-vectors", action="store_true", help="lexical index only, embed later")
    common(p)
    p.set_defaults(run=cmd_index)

    p = sub.add_parser("search", help="ranked code chunks for a question")
    p.add_argument("path")
    p.add_argument("query")
    p.add_argument("-k", type=int, default=None, help="at most this many hits (default 10)")
    p.add_argument("--budget", type=int, default=None, help="token budget (default 1000)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--explain", action="store_true", help="show why each hit ranks where it does")
    p.add_argument("--show-text", action="store_true", help="print each hit's packed text")
    common(p)
    p.set_defaults(run=cmd_search)

    p = sub.add_parser("stats", help="what the index holds, what was skipped and why")
    p.add_argument("path")
    p.add_argument("--coverage", action="store_true", help="share of code inside definitions")
    p.add_argument("--skipped", type=int, default=20, help="list this many skipped paths")
    p.add_argument(
        "--check", action="store_true", help="check the index is consistent (exit 1 if not)"
    )
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_stats)

    p = sub.add_parser("bench", help="index throughput and search latency, beside baselines")
    p.add_argument("path")
    p.add_argument("--queries", type=Path, help="a JSONL file of questions (bench format)")
    p.add_argument("--repeat", type=int, default=3, help="times each query is run (warm)")
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_bench)

    p = sub.add_parser("eval", help="retrieval quality on the bench sets, beside baselines")
    from app.evaluation.command import add_eval_arguments

    add_eval_arguments(p)
    common(p)
    p.set_defaults(run=cmd_eval)

    from app.answer.commands import add_ask_parser

    add_ask_parser(sub, common)

    from app.graph.commands import add_graph_parsers

    add_graph_parsers(sub, common)

    from app.watch_command import add_watch_parser

    add_watch_parser(sub, common)

    p = sub.add_parser(
        "live-bench", help="the live index on a scratch copy: save-to-search, restart, checkout"
    )
    p.add_argument("path")
    p.add_argument("--edits", type=int, default=50, help="edits timed for save-to-search")
    p.add_argument("--branch-files", type=int, default=2000, help="files the checkout changes")
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_live_bench)
    if extend is not None:
        extend(sub, common)
    return parser


def command_names(parser: argparse.ArgumentParser) -> set[str]:
    """The subcommands, so a launcher can tell `repolens-tui PATH` from a command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def main(argv: list[str] | None = None, extend: ParserExtension | None = None) -> int:
    """The headless commands; `app.tui.main` is the console script and opens the UI."""
    parser = build_parser(extend)
    words = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(words)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    from app.answer.model import AnswerModelUnavailable
    from app.indexer.embed import ModelUnavailable
    from app.indexer.walk import WalkError
    from app.service import RepositoryError
    from app.store.manifest import IndexStoreError

    try:
        return int(args.run(args))
    except (
        RepositoryError,
        WalkError,
        IndexStoreError,
        ModelUnavailable,
        AnswerModelUnavailable,
    ) as error:
        print(f"repolens-tui: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(
            "repolens-tui: interrupted; the index keeps its last published state", file=sys.stderr
        )
        return 130


if __name__ == "__main__":
    sys.exit(main())
