"""Runs the engine and both baselines over a benchmark in one pass; knows nothing of the engine."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from app.bench import baselines, devbench, mined, semble, swebench
from app.bench.baselines import BM25Index, TextUnit, grep_and_read
from app.bench.devbench import DevScore, Question, ResultChunk
from app.bench.semble import Repo, SembleScore, Task
from app.bench.swebench import InstanceScore, SweMetrics
from app.core.paths import is_test_path
from app.indexer.walk import read_source, walk
from app.parse.languages import CODE_LANGUAGES, language_for_path

ENGINE = "engine"
GREP = "grep-and-read"
BM25 = "bm25"
# Textbook BM25 over whole non-test source files (code-aware words, path words included): the
# file-level reference of SWE-bench localisation tables. RESULTS.md 2026-12-01 swe-check says
# why documentation files and the plain tokeniser are out.
BM25_FILES = "bm25-files"
# The engine's files ranked by the evidence of all their chunks, beside the first-chunk rank
# (which measured better on swebench-dev: RESULTS.md, 2026-12-01 rank-files).
FILE_EVIDENCE = "file-evidence"


class Searcher(Protocol):
    def __call__(self, question: str, k: int) -> list[ResultChunk]: ...


# (name, root) -> (engine searcher, the engine's chunks as units, the indexed file paths).
MakeSearcher = Callable[[str, Path], tuple[Searcher, Sequence[TextUnit], Sequence[str]]]
Log = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class DevReport:
    k: int
    systems: tuple[str, ...]  # the engine first, then the baselines
    corpora: tuple[str, ...]
    scores: dict[str, DevScore]
    results: dict[str, dict[str, list[ResultChunk]]]  # system -> question id -> ranked chunks
    latency_ms: dict[str, dict[str, float]]  # system -> question id -> milliseconds
    units: dict[str, int]  # corpus -> how many units the engine indexed
    files: dict[str, int]  # corpus -> how many files the engine indexed


@dataclass(frozen=True, slots=True)
class SweReport:
    k: int
    systems: tuple[str, ...]
    instances: tuple[str, ...]
    scores: dict[str, tuple[InstanceScore, ...]]  # system -> per instance
    metrics: dict[str, SweMetrics]
    latency_ms: dict[str, dict[str, float]]
    tests_indexed: bool  # whether any indexed path looks like a test file


def _systems(
    engine: str, searcher: Searcher, index: BM25Index, root: Path, paths: Sequence[str], k: int
) -> dict[str, Callable[[str], list[ResultChunk]]]:
    return {
        engine: lambda q: list(searcher(q, k)),
        GREP: lambda q: grep_and_read(root, q, paths),
        BM25: lambda q: index.search(q, k),
    }


def _system_names(engine_name: str) -> tuple[str, str, str]:
    if engine_name in (GREP, BM25):
        raise ValueError(f"the engine cannot be called {engine_name!r}: a baseline has that name")
    return (engine_name, GREP, BM25)


def _timed(
    fn: Callable[[str], list[ResultChunk]], question: str
) -> tuple[list[ResultChunk], float]:
    start = time.perf_counter()
    ranked = fn(question)
    return ranked, (time.perf_counter() - start) * 1000.0


def whole_files(root: Path, paths: Sequence[str]) -> list[TextUnit]:
    """Each non-test source file under `root` as one unit: its path's words, then its text.
    Documentation and data files are out, as in the published file-level BM25 baselines."""
    units = []
    for path in paths:
        if is_test_path(path) or language_for_path(path) not in CODE_LANGUAGES:
            continue
        text = baselines.read_source(root / path)
        if text:
            lines = max(1, len(text.splitlines()))
            units.append(TextUnit(path, 1, lines, baselines.file_text(path, text)))
    return units


def whole_file_index(root: Path, paths: Sequence[str]) -> BM25Index:
    """The `bm25-files` reference over one checkout."""
    return baselines.OkapiBM25Index(whole_files(root, paths), tokenise=baselines.code_tokens)


def run_dev(
    bench_dir: Path,
    corpora_dir: Path,
    make_searcher: MakeSearcher,
    *,
    k: int = 10,
    corpora: Sequence[str] | None = None,
    results_path: Path | None = None,
    engine_name: str = ENGINE,
    log: Log | None = None,
) -> DevReport:
    """Ask every dev question of every chosen corpus to the engine, grep-and-read and BM25.

    `bench_dir` is the bench's `dev/` directory (or its parent); `corpora_dir` is where the
    corpora were fetched (each corpus lives at its `root` from corpora.json).
    """
    known = devbench.load_corpora(bench_dir)
    names = [c.name for c in known]
    if corpora is not None:
        unknown = sorted(set(corpora) - set(names))
        if unknown:
            raise ValueError(f"unknown corpora {unknown}; the bench has {names}")
    chosen = [c for c in known if corpora is None or c.name in corpora]
    questions = devbench.load_questions(bench_dir, [c.name for c in chosen])
    roots = {c.name: Path(corpora_dir) / c.root for c in chosen}
    systems = _system_names(engine_name)
    results: dict[str, dict[str, list[ResultChunk]]] = {s: {} for s in systems}
    latency: dict[str, dict[str, float]] = {s: {} for s in systems}
    units_count: dict[str, int] = {}
    files_count: dict[str, int] = {}
    for corpus in chosen:
        root = roots[corpus.name]
        if not root.is_dir():
            raise FileNotFoundError(f"corpus {corpus.name} not found at {root}")
        searcher, units, paths = make_searcher(corpus.name, root)
        units_count[corpus.name], files_count[corpus.name] = len(units), len(paths)
        runs = _systems(engine_name, searcher, BM25Index(units), root, paths, k)
        asked = [q for q in questions if q.corpus == corpus.name]
        for q in asked:
            for system, fn in runs.items():
                results[system][q.id], latency[system][q.id] = _timed(fn, q.question)
        if log:
            log(f"{corpus.name}: {len(asked)} questions, {len(units)} units, {len(paths)} files")
    scores = {s: devbench.score_dev(questions, results[s], roots) for s in systems}
    if results_path is not None:
        devbench.write_results(results_path, results[engine_name])
    return DevReport(
        k=k,
        systems=systems,
        corpora=tuple(c.name for c in chosen),
        scores=scores,
        results=results,
        latency_ms=latency,
        units=units_count,
        files=files_count,
    )


def run_swebench(
    instances_path: Path,
    checkouts_dir: Path,
    git_dir: Path | None,
    make_searcher: MakeSearcher,
    *,
    k: int = 50,
    instances: Sequence[str] | None = None,
    engine_name: str = ENGINE,
    log: Log | None = None,
) -> SweReport:
    """Ask each issue (verbatim) to all three systems over its checkout; score at file level.

    Checkouts live at `checkouts_dir/<instance_id>`. With `git_dir` (a bare clone of the
    repository) missing checkouts are materialised first; without it they must exist.
    """
    chosen = [
        inst
        for inst in swebench.load_instances(instances_path)
        if instances is None or inst.instance_id in instances
    ]
    by_evidence = f"{engine_name} {FILE_EVIDENCE}"
    engine, grep, bm25 = _system_names(engine_name)
    systems = (engine, by_evidence, grep, bm25, BM25_FILES)
    scores: dict[str, list[InstanceScore]] = {s: [] for s in systems}
    latency: dict[str, dict[str, float]] = {s: {} for s in systems}
    tests_indexed = False
    for inst in chosen:
        dest = Path(checkouts_dir) / inst.instance_id
        if git_dir is not None:
            swebench.materialise(git_dir, inst.base_commit, dest)
        elif not dest.is_dir():
            raise FileNotFoundError(f"no checkout for {inst.instance_id} at {dest}")
        searcher, units, paths = make_searcher(inst.instance_id, dest)
        tests_indexed = tests_indexed or any(is_test_path(p) for p in paths)
        runs = _systems(engine_name, searcher, BM25Index(units), dest, paths, k)
        whole = whole_file_index(dest, paths)
        runs[BM25_FILES] = partial(whole.search, k=k)
        files: dict[str, list[str]] = {}
        for system, fn in runs.items():
            ranked, latency[system][inst.instance_id] = _timed(fn, inst.problem_statement)
            files[system] = swebench.ranked_files(ranked)
            if system == engine:
                files[by_evidence] = swebench.evidence_files(ranked)
                latency[by_evidence][inst.instance_id] = latency[system][inst.instance_id]
        for system in systems:
            scores[system].append(
                swebench.score_files(inst.instance_id, inst.gold_files, files[system])
            )
        if log:
            log(f"{inst.instance_id}: {len(units)} units, {len(paths)} files")
    return SweReport(
        k=k,
        systems=systems,
        instances=tuple(i.instance_id for i in chosen),
        scores={s: tuple(v) for s, v in scores.items()},
        metrics={s: swebench.aggregate(v) for s, v in scores.items()},
        latency_ms=latency,
        tests_indexed=tests_indexed,
    )


@dataclass(frozen=True, slots=True)
class SembleReport:
    k: int
    systems: tuple[str, ...]
    repos: tuple[Repo, ...]
    tasks: dict[str, tuple[Task, ...]]  # repo -> its scored queries
    scores: dict[str, SembleScore]
    results: dict[str, dict[str, list[ResultChunk]]]  # system -> query id -> ranked chunks
    latency_ms: dict[str, dict[str, float]]
    published: dict[str, dict[str, Any]]  # semble's published peer figures (published.json)


def run_semble(
    bench_dir: Path,
    corpora_dir: Path,
    make_searcher: MakeSearcher,
    *,
    k: int = 10,
    repos: Sequence[str] | None = None,
    results_path: Path | None = None,
    engine_name: str = ENGINE,
    log: Log | None = None,
    whole_checkout: bool = False,
) -> SembleReport:
    """Ask every semble-dev query of the chosen repos (the core subset by default) to the
    engine, grep-and-read and BM25 over the repo's benchmark root; score with semble's rule.
    `whole_checkout`: index the whole checkout instead, as whoever opens the repository does
    (its docs, tests and examples beside the code; a result outside the root hits nothing)."""
    chosen = semble.choose_repos(bench_dir, repos)
    if whole_checkout:
        chosen = [replace(r, root="") for r in chosen]
    systems = _system_names(engine_name)
    tasks = {r.name: tuple(semble.load_tasks(bench_dir, r.name)) for r in chosen}
    results: dict[str, dict[str, list[ResultChunk]]] = {s: {} for s in systems}
    latency: dict[str, dict[str, float]] = {s: {} for s in systems}
    for repo in chosen:
        root = semble.repo_root(corpora_dir, repo)
        if not root.is_dir():
            raise FileNotFoundError(
                f"semble repo {repo.name} not found at {root} (run semble-dev/fetch_corpora.sh)"
            )
        searcher, units, paths = make_searcher(repo.name, root)
        runs = _systems(engine_name, searcher, BM25Index(units), root, paths, k)
        for task in tasks[repo.name]:
            for system, fn in runs.items():
                results[system][task.query_id], latency[system][task.query_id] = _timed(
                    fn, task.query
                )
        if log:
            log(f"{repo.name}: {len(tasks[repo.name])} queries, {len(units)} units")
    scores = {
        s: semble.score_semble(chosen, tasks, results[s], devbench.CHARS_PER_TOKEN) for s in systems
    }
    if results_path is not None:
        all_tasks = [t for r in chosen for t in tasks[r.name]]
        semble.write_results(results_path, all_tasks, results[engine_name])
    return SembleReport(
        k=k,
        systems=systems,
        repos=tuple(chosen),
        tasks=tasks,
        scores=scores,
        results=results,
        latency_ms=latency,
        published=semble.load_published(bench_dir),
    )


def mined_questions(name: str, root: Path, limit: int) -> tuple[list[Question], dict[str, str]]:
    """The sampled mined questions of one repository, and its files with the docs of the
    sampled definitions blanked (only those: the rest of the index stays as it was)."""
    files = _read_all(root)
    found = {path: mined.strip_docs(path, text) for path, text in files.items()}
    candidates = mined.doc_questions(name, found) + mined.commit_questions(name, root, files)
    asked = mined.sample(candidates, limit)
    asked += mined.sample(mined.error_questions(name, files), mined.ERROR_CAP)
    blank: dict[str, set[int]] = {}
    for q in asked:
        if q.kind in mined.DOC_KINDS:
            blank.setdefault(q.gold[0].path, set()).add(q.gold[0].start_line)
    texts = {
        path: mined.strip_docs(path, text, blank[path]).text if path in blank else text
        for path, text in files.items()
    }
    return asked, texts


def _read_all(root: Path) -> dict[str, str]:
    files: dict[str, str] = {}
    for walked in walk(root).files:
        text, _ = read_source(walked.abs_path)
        if text is not None:
            files[walked.path] = text
    return files


def run_mined(
    roots: Sequence[tuple[str, Path]],
    make_searcher: MakeSearcher,
    *,
    k: int = 10,
    limit: int = 100,
    engine_name: str = ENGINE,
    log: Log | None = None,
) -> DevReport:
    """Mined questions (doc sentences, commit subjects) of each repository, asked to the
    engine, grep-and-read and BM25 over its doc-stripped copy; scored as dev is."""
    systems = _system_names(engine_name)
    results: dict[str, dict[str, list[ResultChunk]]] = {s: {} for s in systems}
    latency: dict[str, dict[str, float]] = {s: {} for s in systems}
    questions: list[Question] = []
    copies: dict[str, Path] = {}
    units_count: dict[str, int] = {}
    files_count: dict[str, int] = {}
    for name, root in roots:
        asked, texts = mined_questions(name, root, limit)
        copies[name] = mined.scratch_dir(root)
        mined.write_copy(copies[name], texts)
        searcher, units, paths = make_searcher(name, copies[name])
        units_count[name], files_count[name] = len(units), len(paths)
        runs = _systems(engine_name, searcher, BM25Index(units), copies[name], paths, k)
        for q in asked:
            for system, fn in runs.items():
                results[system][q.id], latency[system][q.id] = _timed(fn, q.question)
        questions += asked
        if log:
            kinds = Counter(q.kind for q in asked)
            log(f"{name}: {len(asked)} mined questions {dict(kinds)}, {len(units)} units")
    scores = {s: devbench.score_dev(questions, results[s], copies) for s in systems}
    return DevReport(
        k=k,
        systems=systems,
        corpora=tuple(name for name, _ in roots),
        scores=scores,
        results=results,
        latency_ms=latency,
        units=units_count,
        files=files_count,
    )
