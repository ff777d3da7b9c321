"""`repolens-tui-bench COMMAND` (or `python -m app.bench`): every benchmark and eval command,
each printing its baseline from the same run. The product's console script never imports it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from app.cli import run
from app.cli.common import EXIT_ERROR, EXIT_OK, add_common_options

# What the benches type when no question file is given: questions any repository can take.
GENERIC_QUESTIONS = (
    "where is the configuration loaded",
    "error handling when the request fails",
    "parse the input",
    "how are tests set up",
)


def cmd_eval(args: argparse.Namespace) -> int:
    from app.bench.evaluate import run_eval_command

    return run_eval_command(args)


def cmd_signals(args: argparse.Namespace) -> int:
    from app.bench.evaluate import run_signals

    return run_signals(args)


def cmd_fit(args: argparse.Namespace) -> int:
    from app.bench.fit import run_fit

    return run_fit(args)


def cmd_fit_fields(args: argparse.Namespace) -> int:
    from app.bench.fields import run_field_fit

    return run_field_fit(args)


def cmd_fit_diversity(args: argparse.Namespace) -> int:
    from app.bench.fit_diversity import run_fit_diversity

    return run_fit_diversity(args)


def cmd_misses(args: argparse.Namespace) -> int:
    from app.bench.misses import run

    return run(args)


def cmd_bench(args: argparse.Namespace) -> int:
    from app.bench.speed import format_report, load_queries, measure
    from app.core.settings import load_settings

    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    queries = load_queries(args.queries, GENERIC_QUESTIONS)
    report = measure(Path(args.path), settings, queries, args.repeat, warm=args.warm)
    print(json.dumps(report.as_dict(), indent=2) if args.json else format_report(report))
    return EXIT_OK


def cmd_live_bench(args: argparse.Namespace) -> int:
    from app.bench.live import format_report, measure
    from app.core.settings import load_settings

    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    report = measure(Path(args.path), settings, args.edits, args.branch_files)
    print(json.dumps(report.as_dict(), indent=2) if args.json else format_report(report))
    return EXIT_OK


def cmd_graph_bench(args: argparse.Namespace) -> int:
    from app.bench.graph import corpus_roots, format_row, measure_graph
    from app.core.settings import load_settings

    settings = load_settings(embedding_model=args.model)
    roots = [("", Path(p)) for p in args.paths]
    if args.corpora:
        roots += corpus_roots(args.corpora, args.bench)
    if not roots:
        print("repolens-tui: error: give PATHs or --corpora DIR", file=sys.stderr)
        return EXIT_ERROR
    rows = [measure_graph(root, settings, name) for name, root in roots]
    print(json.dumps(rows, indent=2) if args.json else "\n".join(map(format_row, rows)))
    return EXIT_OK


def cmd_hotspots(args: argparse.Namespace) -> int:
    from app.bench.hotspots import load, report
    from app.core.settings import load_settings

    given = (("dev", args.corpora), ("dev2", args.corpora2))
    corpora = {name: path for name, path in given if path}
    if not corpora:
        print("repolens-tui: error: give --corpora DIR and/or --corpora2 DIR", file=sys.stderr)
        return EXIT_ERROR
    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    print(report(load(args.bench, corpora, settings)))
    return EXIT_OK


def cmd_tui_bench(args: argparse.Namespace) -> int:
    from app.bench.speed import load_queries
    from app.bench.tui import format_report, measure
    from app.core.settings import load_settings

    questions = load_queries(args.questions, GENERIC_QUESTIONS)[: args.limit]
    if args.cold:
        from app.bench.tui_cold import format_cold, measure_cold

        cold = measure_cold(Path(args.path), questions[0], args.cold, args.against)
        print(json.dumps(cold.as_dict(), indent=2) if args.json else format_cold(cold))
        return EXIT_OK
    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    report = measure(
        Path(args.path),
        settings,
        questions,
        not args.no_answer,
        args.edit_every,
        args.first_answers,
        args.pause_before_enter,
        args.word_pause,
    )
    print(json.dumps(report.as_dict(), indent=2) if args.json else format_report(report))
    return EXIT_OK


def cmd_excerpts(args: argparse.Namespace) -> int:
    from app.bench.excerpts import run_excerpts

    return run_excerpts(args)


def cmd_fault_bench(args: argparse.Namespace) -> int:
    from app.bench.faults import format_report, measure

    report = measure(Path(args.path), args.tiny_files)
    print(json.dumps(report.as_dict(), indent=2) if args.json else format_report(report))
    return EXIT_OK


def cmd_mcp_bench(args: argparse.Namespace) -> int:
    from app.bench.devbench import corpus_roots, load_questions
    from app.bench.mcp_speed import format_report, measure
    from app.core.settings import load_settings

    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    roots = corpus_roots(args.bench, args.corpora)
    questions = [(q.corpus, q.question) for q in load_questions(args.bench) if q.corpus in roots]
    report = measure(roots, questions, settings, args.passes)
    print(json.dumps(report.as_dict(), indent=2) if args.json else format_report(report))
    return EXIT_OK


def cmd_graph_oracle(args: argparse.Namespace) -> int:
    from app.bench.oracle import OracleUnavailable, format_report, run_oracle
    from app.core.literal import literal
    from app.core.settings import load_settings

    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    try:
        report = run_oracle(
            Path(args.path),
            settings,
            args.language,
            args.sample,
            args.seed,
            args.node_dir,
            args.examples,
        )
    except OracleUnavailable as error:
        print(f"repolens-tui: error: {literal(str(error))}", file=sys.stderr)
        return EXIT_ERROR
    print(json.dumps(report.as_dict(), indent=2) if args.json else format_report(report))
    return EXIT_OK


def cmd_graph_replay(args: argparse.Namespace) -> int:
    from app.bench.replay import ReplayError, format_report, replay
    from app.core.settings import load_settings

    settings = load_settings(embedding_model=args.model)
    say = (
        (lambda _: None) if args.quiet or args.json else (lambda line: print(line, file=sys.stderr))
    )
    try:
        report = replay(Path(args.gitdir), args.commits, settings, args.start, say)
    except ReplayError as error:
        print(f"repolens-tui: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    print(json.dumps(report.as_dict(), indent=2) if args.json else format_report(report))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="repolens-tui-bench",
        description="Benchmarks and evals of repolens-tui, each beside a baseline from the same "
        "run. Figures go in app/bench/RESULTS.md with the command and the commit.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    common = add_common_options

    p = sub.add_parser("eval", help="retrieval quality on the bench sets, beside baselines")
    from app.bench.evaluate import add_eval_arguments

    add_eval_arguments(p)
    common(p)
    p.set_defaults(run=cmd_eval)

    p = sub.add_parser(
        "signals", help="every candidate's rerank signals per bench question, as JSONL for fit"
    )
    p.add_argument("--out", type=Path, required=True, help="the JSONL file to write")
    p.add_argument("--bench", type=Path, default=Path("../shared/bench"), help="bench folder")
    for name in ("dev", "dev2", "semble"):
        p.add_argument(f"--{name}-corpora", type=Path, help=f"the {name} corpora (else skipped)")
    p.add_argument("--repo", action="append", help="semble: only this repo (default: core)")
    p.add_argument(
        "--mined", type=int, default=0, help="also N mined questions per repository (default 0)"
    )
    common(p)
    p.set_defaults(run=cmd_signals)

    p = sub.add_parser(
        "fit", help="rerank weights fitted on a signals dump, leave-one-repository-out"
    )
    p.add_argument("dump", type=Path, help="the JSONL file `signals` wrote")
    p.add_argument(
        "--l2", type=float, action="append", help="pull toward the hand-set factors (repeatable)"
    )
    p.add_argument("--no-mined", action="store_true", help="leave mined questions out of training")
    p.add_argument("--weights", type=Path, help="write the weights fitted on every repo here")
    p.add_argument(
        "--crossed", action="store_true", help="also fit features crossed with the question's kind"
    )
    p.add_argument(
        "--breakdown", action="store_true", help="also print every variant by language and kind"
    )
    p.add_argument("--bench", type=Path, default=Path("../shared/bench"), help="bench folder")
    p.add_argument(
        "--pool", type=int, default=0, help="re-rank only the engine's first N candidates"
    )
    p.add_argument(
        "--factors-only", action="store_true", help="refit only the hand-set factors' weights"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_fit)

    p = sub.add_parser(
        "fit-fields", help="BM25F field weights over a grid on every set, leave-one-repository-out"
    )
    p.add_argument("--bench", type=Path, default=Path("../shared/bench"), help="bench folder")
    for name in ("dev", "dev2", "semble"):
        p.add_argument(f"--{name}-corpora", type=Path, help=f"the {name} corpora (else skipped)")
    p.add_argument("--repo", action="append", help="semble: only this repo (default: core)")
    p.add_argument(
        "--apart",
        action="append",
        choices=["name", "path", "doc"],
        help="this field saturates on its own, a BM25 column (repeatable)",
    )
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_fit_fields)

    p = sub.add_parser(
        "fit-diversity", help="the per-file decay fitted on a signals dump, every set together"
    )
    p.add_argument("dump", type=Path, help="the JSONL file `signals` wrote")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_fit_diversity)

    p = sub.add_parser(
        "misses", help="why each question of a signals dump misses rank 1: recall, fusion, rerank"
    )
    p.add_argument("dump", type=Path, help="the JSONL file `signals` wrote")
    p.add_argument("--mined", action="store_true", help="count mined questions too")
    p.add_argument("--json", action="store_true", help="one row per question")
    p.set_defaults(run=cmd_misses)

    p = sub.add_parser("bench", help="index throughput and search latency, beside baselines")
    p.add_argument("path")
    p.add_argument("--queries", type=Path, help="a JSONL file of questions (bench format)")
    p.add_argument("--repeat", type=int, default=3, help="times each query is run (warm)")
    p.add_argument(
        "--warm",
        action="store_true",
        help="search the index in --index-dir as it is, vectors or not (no cold index run)",
    )
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_bench)

    p = sub.add_parser(
        "live-bench", help="the live index on a scratch copy: save-to-search, restart, checkout"
    )
    p.add_argument("path")
    p.add_argument("--edits", type=int, default=50, help="edits timed for save-to-search")
    p.add_argument("--branch-files", type=int, default=2000, help="files the checkout changes")
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_live_bench)

    p = sub.add_parser("graph-bench", help="call-graph build time, memory and query latency")
    p.add_argument("paths", nargs="*", help="repositories (each indexed afresh, no vectors)")
    p.add_argument("--corpora", type=Path, help="the dev corpora folder (as for eval dev)")
    p.add_argument("--bench", type=Path, default=Path("../shared/bench"), help="bench folder")
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_graph_bench)

    p = sub.add_parser(
        "hotspot-bench",
        help="the hotspot list against the definitions the dev and dev2 questions ask about",
    )
    p.add_argument("--corpora", type=Path, help="the dev corpora folder (as for eval dev)")
    p.add_argument("--corpora2", type=Path, help="the dev2 corpora folder (as for eval dev2)")
    p.add_argument("--bench", type=Path, default=Path("../shared/bench"), help="bench folder")
    common(p)
    p.set_defaults(run=cmd_hotspots)

    p = sub.add_parser(
        "graph-oracle",
        help="our call edges per tier against a type-aware resolver (jedi, TypeScript, javac, "
        "go/types, GCC, rustc, kotlinc, the Zig compiler) or, for Ruby and PHP, the "
        "repository's tests under a tracer",
    )
    p.add_argument("path")
    p.add_argument(
        "--language",
        choices=(
            "python",
            "typescript",
            "javascript",
            "java",
            "go",
            "c",
            "cpp",
            "rust",
            "kotlin",
            "ruby",
            "php",
            "zig",
        ),
        default="python",
    )
    p.add_argument("--sample", type=int, default=300, help="call sites sampled")
    p.add_argument("--seed", type=int, default=1, help="the sample's random seed")
    p.add_argument(
        "--examples",
        type=int,
        default=8,
        help="disagreements listed per kind (wrong edges, false reasons, misses)",
    )
    p.add_argument(
        "--node-dir",
        type=Path,
        help="where the `typescript` npm package is installed (default: the user cache)",
    )
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_graph_oracle)

    p = sub.add_parser(
        "graph-replay",
        help="real commits through the live index: its call graph against a rebuild per step",
    )
    p.add_argument("gitdir", help="a git directory (a bare mirror, or a clone's .git)")
    p.add_argument("--commits", type=int, default=25, help="commits replayed after the start")
    p.add_argument(
        "--start", help="the commit to start from (default: HEAD~COMMITS, first parents)"
    )
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_graph_replay)

    from app.bench.tui import EDIT_EVERY_S, FIRST_ANSWERS

    p = sub.add_parser(
        "tui-bench", help="the TUI on a scratch copy: key to results, event-loop lag, start-up"
    )
    p.add_argument("path")
    p.add_argument("--questions", type=Path, help="JSONL with a question per line (bench format)")
    p.add_argument("--limit", type=int, default=60, help="type at most this many questions")
    p.add_argument(
        "--no-answer", action="store_true", help="skip the lag while answering and first answers"
    )
    p.add_argument(
        "--first-answers",
        type=int,
        default=FIRST_ANSWERS,
        help="new processes timing Enter to the first answer token, per variant (preload on, "
        "off); 0 skips them",
    )
    p.add_argument(
        "--pause-before-enter",
        type=float,
        default=0.0,
        help="first answers: seconds between the question's last key and Enter",
    )
    p.add_argument(
        "--edit-every", type=float, default=EDIT_EVERY_S, help="seconds between edits while typing"
    )
    p.add_argument(
        "--word-pause",
        type=float,
        default=0.0,
        help="seconds typing waits before each space (read-aheads start in longer pauses)",
    )
    p.add_argument(
        "--cold",
        type=int,
        default=0,
        help="only this many new processes on a never-indexed copy: launch to the first "
        "results while the first index is built",
    )
    p.add_argument(
        "--against",
        type=Path,
        help="with --cold: alternate each run with one on this checkout's code (the baseline)",
    )
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_tui_bench)

    p = sub.add_parser(
        "excerpts",
        help="what the answer model would read per dev/dev2 question, by excerpt count and "
        "budget, without running it: the gold among the excerpts, first, whole; prompt tokens",
    )
    from app.bench.excerpts import add_excerpt_arguments

    add_excerpt_arguments(p)
    common(p)
    p.set_defaults(run=cmd_excerpts)

    p = sub.add_parser(
        "fault-bench", help="resume after kill -9 and many tiny files, beside fresh runs"
    )
    p.add_argument("path")
    p.add_argument("--tiny-files", type=int, default=50_000, help="generated files (0: skip)")
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_fault_bench)

    p = sub.add_parser(
        "mcp-bench", help="MCP search_code round trip over stdio, beside in-process search"
    )
    p.add_argument("--corpora", type=Path, required=True, help="where fetch_corpora.sh put them")
    p.add_argument("--bench", type=Path, default=Path("../shared/bench"), help="bench folder")
    p.add_argument("--passes", type=int, default=3, help="warm passes over the questions")
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=cmd_mcp_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    return run(build_parser(), sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
