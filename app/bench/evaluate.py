"""`repolens-tui-bench eval`: the engine on the bench sets, beside baselines from the same run."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.bench.baselines import TextUnit
from app.bench.devbench import ResultChunk

UNLIMITED_BUDGET = 10**9  # file-level scoring looks at ranks, not at what fits a prompt


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "set",
        choices=["dev", "dev2", "semble", "all", "mined", "swebench", "answers"],
        help="which bench set to run (all: dev, dev2, semble and, given checkouts, swebench)",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        help="mined: the repositories to mine questions from (PATH or NAME=PATH)",
    )
    parser.add_argument(
        "--bench",
        type=Path,
        default=Path("../shared/bench"),
        help="the bench directory (default ../shared/bench)",
    )
    parser.add_argument(
        "--corpora", type=Path, help="dev, dev2, semble: where fetch_corpora.sh put the corpora"
    )
    parser.add_argument(
        "--corpus", action="append", help="dev, dev2: only this corpus (repeatable)"
    )
    parser.add_argument("--repo", action="append", help="semble: only this repo (default: core)")
    parser.add_argument(
        "--whole-checkout",
        action="store_true",
        help="semble: index each repository's whole checkout, as a user opening it would, not "
        "the benchmark's root (a result outside the root hits nothing)",
    )
    for name in ("dev", "dev2", "semble"):
        parser.add_argument(
            f"--{name}-corpora",
            type=Path,
            help=f"all: the {name} corpora (the set is skipped without)",
        )
    parser.add_argument(
        "--checkouts", type=Path, help="swebench: one materialised checkout per instance"
    )
    parser.add_argument(
        "--git-dir",
        type=Path,
        help="swebench: a pytest git directory to materialise missing checkouts",
    )
    parser.add_argument("--instance", action="append", help="swebench: only this instance")
    parser.add_argument("-k", type=int, default=None, help="hits per question")
    parser.add_argument("--budget", type=int, default=None, help="dev: token budget per answer")
    parser.add_argument(
        "--results",
        type=Path,
        help="dev, dev2, semble: write the engine's results here (the set's score.py format); "
        "all: a folder, one SET.jsonl per set",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    from app.bench.answers import add_answer_eval_arguments

    add_answer_eval_arguments(parser)


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _make_searcher(args: argparse.Namespace, budget: int | None) -> Any:
    from app.cli.common import ProgressPrinter
    from app.core.settings import load_settings
    from app.service import Service

    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)

    def make(name: str, root: Path) -> tuple[Any, Sequence[TextUnit], Sequence[str]]:
        service = Service(root, settings)
        _log(f"[{name}] indexing {root}")
        service.index(ProgressPrinter(quiet=args.quiet))
        searcher = service.searcher()

        def search(question: str, k: int) -> list[ResultChunk]:
            result = service.search(question, k=k, budget_tokens=budget)
            return [
                ResultChunk(h.path, h.start_line, h.end_line, h.text, h.score) for h in result.hits
            ]

        units = [
            TextUnit(row["path"], row["start_line"], row["end_line"], row["text"])
            for row in searcher.corpus.live_rows()
        ]
        paths = sorted(searcher.store.files())
        return search, units, paths

    return make


def run_eval_command(args: argparse.Namespace) -> int:
    from app.bench import report, runner

    if args.set == "answers":
        from app.bench.answers import run_answer_eval

        return run_answer_eval(args)
    if args.set == "all":
        return run_all(args)
    if args.set == "mined":
        return run_mined(args)
    if args.set in ("dev2", "semble") and args.corpora is None:
        _log(
            f"repolens-tui: error: eval {args.set} needs --corpora DIR "
            f"(fetch them with ../shared/bench/{SET_DIRS[args.set]}/fetch_corpora.sh DIR)"
        )
        return 2
    if args.set == "dev2":
        dev2 = _run_dev_set(args, "dev2", args.corpora)
        text = report.format_dev(dev2, "dev2")
        print(json.dumps(report.dev_to_dict(dev2), indent=2) if args.json else text)
        return 0
    if args.set == "semble":
        sem = _run_semble(args, args.corpora)
        text = report.format_semble(sem)
        print(json.dumps(report.semble_to_dict(sem), indent=2) if args.json else text)
        return 0
    if args.set == "dev":
        if args.corpora is None:
            _log(
                "repolens-tui: error: eval dev needs --corpora DIR "
                "(fetch them with ../shared/bench/dev/fetch_corpora.sh DIR)"
            )
            return 2
        dev = runner.run_dev(
            args.bench,
            args.corpora,
            _make_searcher(args, args.budget),
            k=args.k or 10,
            corpora=args.corpus,
            results_path=args.results,
            log=_log,
        )
        print(
            json.dumps(report.dev_to_dict(dev), indent=2) if args.json else report.format_dev(dev)
        )
        return 0
    if args.checkouts is None:
        _log("repolens-tui: error: eval swebench needs --checkouts DIR")
        return 2
    swe = _run_swe(args)
    print(json.dumps(report.swe_to_dict(swe), indent=2) if args.json else report.format_swe(swe))
    return 0


SET_DIRS = {"dev": "dev", "dev2": "dev2", "semble": "semble-dev"}


def _run_dev_set(args: argparse.Namespace, name: str, corpora: Path) -> Any:
    from app.bench import runner

    return runner.run_dev(
        args.bench / SET_DIRS[name],
        corpora,
        _make_searcher(args, args.budget),
        k=args.k or 10,
        corpora=args.corpus if args.set != "all" else None,
        results_path=_results_path(args, name),
        log=_log,
    )


def _results_path(args: argparse.Namespace, name: str) -> Path | None:
    """--results is the file of the one set run, or for `all` a folder of SET.jsonl files."""
    if args.results is None or args.set != "all":
        return args.results
    return Path(args.results) / f"{name}.jsonl"


def _run_semble(args: argparse.Namespace, corpora: Path) -> Any:
    from app.bench import runner

    return runner.run_semble(
        args.bench / SET_DIRS["semble"],
        corpora,
        _make_searcher(args, args.budget),
        k=args.k or 10,
        repos=args.repo,
        results_path=_results_path(args, "semble"),
        log=_log,
        whole_checkout=args.whole_checkout,
    )


def _run_swe(args: argparse.Namespace) -> Any:
    from app.bench import runner

    return runner.run_swebench(
        args.bench / "swebench-dev" / "instances.jsonl",
        args.checkouts,
        args.git_dir,
        _make_searcher(args, UNLIMITED_BUDGET),
        k=50 if args.set == "all" else (args.k or 50),
        instances=args.instance,
        log=_log,
    )


def _languages(bench_dir: Path) -> dict[str, str]:
    from app.bench import devbench

    return {c.name: c.language for c in devbench.load_corpora(bench_dir)}


def run_all(args: argparse.Namespace) -> int:
    """dev, dev2 and semble (those whose corpora are given), swebench given checkouts."""
    from app.bench import sets

    corpora = {name: getattr(args, f"{name}_corpora") for name in SET_DIRS}
    if not any(corpora.values()):
        _log(
            "repolens-tui: error: eval all needs --dev-corpora, --dev2-corpora and/or "
            "--semble-corpora DIR (each set's fetch_corpora.sh DIR)"
        )
        return 2
    summaries = []
    for name in ("dev", "dev2"):
        if corpora[name] is None:
            _log(f"eval all: {name} skipped (no --{name}-corpora)")
            continue
        dev = _run_dev_set(args, name, corpora[name])
        summaries.append(sets.from_dev(name, dev, _languages(args.bench / SET_DIRS[name])))
    if corpora["semble"] is not None:
        summaries.append(sets.from_semble("semble", _run_semble(args, corpora["semble"])))
    else:
        _log("eval all: semble skipped (no --semble-corpora)")
    if args.checkouts is not None:
        summaries.append(sets.from_swe("swebench", _run_swe(args)))
    out = sets.all_to_dict(summaries)
    print(json.dumps(out, indent=2) if args.json else sets.format_all(summaries))
    return 0


def run_mined(args: argparse.Namespace) -> int:
    """Questions mined from each PATH (doc sentences, commit subjects), engine beside BM25."""
    from app.bench import report, runner

    if not args.paths:
        _log("repolens-tui: error: eval mined needs a PATH (a repository to mine questions from)")
        return 2
    roots = _mined_roots([str(p) for p in args.paths])
    missing = [root for _, root in roots if not root.is_dir()]
    if missing:
        _log(
            f"repolens-tui: error: eval mined: not a folder: {missing[0]} (give PATH or NAME=PATH)"
        )
        return 2
    mined = runner.run_mined(
        roots,
        _make_searcher(args, args.budget),
        k=args.k or 10,
        limit=args.limit or MINED_LIMIT,
        log=_log,
    )
    text = report.format_dev(mined, "mined")
    print(json.dumps(report.dev_to_dict(mined), indent=2) if args.json else text)
    return 0


MINED_LIMIT = 100  # questions per repository


def _mined_roots(given: Sequence[str]) -> list[tuple[str, Path]]:
    """(name, root) per `PATH` or `NAME=PATH`; a bare PATH is named by its folder, with its
    parent's name where two share one."""
    named = [g.split("=", 1) if "=" in g else ["", g] for g in given]
    folders = [Path(path).resolve().name for _, path in named]
    roots = []
    for (name, path), folder in zip(named, folders, strict=True):
        if not name:
            parent = Path(path).resolve().parent.name
            name = folder if folders.count(folder) == 1 else f"{parent}-{folder}"
        roots.append((name, Path(path)))
    return roots


def _service_search(args: argparse.Namespace, name: str, root: Path) -> Any:
    from app.bench.signals import NO_BUDGET, POOL
    from app.cli.common import ProgressPrinter
    from app.core.settings import load_settings
    from app.service import Service

    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    service = Service(root, settings)
    _log(f"[{name}] indexing {root}")
    service.index(ProgressPrinter(quiet=args.quiet))
    return lambda question: service.search(question, k=POOL, budget_tokens=NO_BUDGET).hits


def _labelled_roots(args: argparse.Namespace) -> list[tuple[str, Path, list[Any]]]:
    """(repo, root, its labelled questions) for every set whose corpora are given."""
    from app.bench import devbench, semble
    from app.bench import signals as sig

    found: list[tuple[str, Path, list[Any]]] = []
    for name in ("dev", "dev2"):
        corpora = getattr(args, f"{name}_corpora")
        if corpora is None:
            continue
        bench = args.bench / SET_DIRS[name]
        questions = devbench.load_questions(bench)
        for corpus, root in devbench.corpus_roots(bench, corpora).items():
            asked = [q for q in questions if q.corpus == corpus]
            found.append((corpus, root, sig.from_questions(name, asked)))
    if args.semble_corpora is not None:
        bench = args.bench / SET_DIRS["semble"]
        for repo in semble.choose_repos(bench, args.repo):
            tasks = semble.load_tasks(bench, repo.name)
            found.append(
                (
                    repo.name,
                    semble.repo_root(args.semble_corpora, repo),
                    sig.from_semble(repo, tasks),
                )
            )
    return found


def run_signals(args: argparse.Namespace) -> int:
    """Dump every candidate's signals for each question of the given sets (and, with
    --mined N, N mined questions per repository searched in its doc-stripped copy)."""
    from app.bench import mined, runner
    from app.bench import signals as sig

    roots = _labelled_roots(args)
    if not roots:
        _log("repolens-tui: error: signals needs --dev-corpora, --dev2-corpora or --semble-corpora")
        return 2

    def records() -> Any:
        for repo, root, labelled in roots:
            yield from sig.dump(_service_search(args, repo, root), labelled)
            if args.mined:
                asked, texts = runner.mined_questions(repo, root, args.mined)
                copy = mined.scratch_dir(root)
                mined.write_copy(copy, texts)
                yield from sig.dump(
                    _service_search(args, f"{repo} mined", copy), sig.from_questions("mined", asked)
                )

    count = sig.write(args.out, records())
    _log(f"signals: {count} questions written to {args.out}")
    return 0
