"""`repolens-tui-bench fit-fields`: BM25F field weights chosen on dev, dev2 and semble-dev
together over a grid, with leave-one-repository-out figures beside the in-sample ones."""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.bench import devbench, semble
from app.bench.devbench import ResultChunk
from app.bench.evaluate import SET_DIRS
from app.search.lexical import APART, TEXT, WEIGHTS

GRID = {"name": (0.0, 0.5, 1.0, 2.0), "path": (0.0, 0.5, 1.0), "doc": (0.0, 0.5, 1.0)}
MOST_LOST = 0.01  # what a set may lose against plain BM25 for the weights to be chosen
SEMBLE = "semble"  # the set scored per repo first, then over repos (semble's rule)

Weights = tuple[float, ...]  # one per field of GRID, in its order
Scores = dict[str, dict[str, list[float]]]  # set -> repo -> each question's score


@dataclass(frozen=True, slots=True)
class Repository:
    set_name: str
    name: str
    root: Path
    score: Callable[[Callable[[str], list[ResultChunk]]], list[float]]  # its questions' scores


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def set_score(scores: Mapping[str, list[float]], set_name: str) -> float:
    """MRR@10 over all of a dev set's questions; NDCG@10 averaged per repo for semble."""
    lists = [values for values in scores.values() if values]
    if not lists:
        return 0.0
    if set_name == SEMBLE:
        return sum(sum(v) / len(v) for v in lists) / len(lists)
    return sum(sum(v) for v in lists) / sum(len(v) for v in lists)


def set_scores(scores: Scores, leave_out: str = "") -> dict[str, float]:
    return {
        s: set_score({r: v for r, v in repos.items() if r != leave_out}, s)
        for s, repos in scores.items()
    }


def mean_over_sets(scores: Scores, leave_out: str = "") -> float:
    figures = set_scores(scores, leave_out)
    return sum(figures.values()) / len(figures)


def best_weights(
    by_weights: Mapping[Weights, Scores], plain: Weights, leave_out: str = ""
) -> Weights:
    """The weights with the best mean over sets among those that keep every set within
    MOST_LOST of plain BM25 (the rule a ranking change is kept by), on all repositories
    but `leave_out`; ties: the smaller weights."""
    floor = {s: v - MOST_LOST for s, v in set_scores(by_weights[plain], leave_out).items()}
    eligible = [
        w
        for w, scores in by_weights.items()
        if all(v >= floor[s] for s, v in set_scores(scores, leave_out).items())
    ]
    return max(eligible, key=lambda w: (mean_over_sets(by_weights[w], leave_out), -sum(w)))


def leave_one_out(
    by_weights: Mapping[Weights, Scores], plain: Weights
) -> tuple[Scores, dict[str, Weights]]:
    """Each repository scored with the weights `best_weights` chose on all the others."""
    first = next(iter(by_weights.values()))
    held: Scores = {s: {} for s in first}
    chosen: dict[str, Weights] = {}
    for set_name, repos in first.items():
        for repo in repos:
            chosen[repo] = best_weights(by_weights, plain, repo)
            held[set_name][repo] = by_weights[chosen[repo]][set_name][repo]
    return held, chosen


def _dev_repositories(set_name: str, bench: Path, corpora: Path) -> list[Repository]:
    questions = devbench.load_questions(bench)
    found = []
    for corpus, root in devbench.corpus_roots(bench, corpora).items():
        asked = [q for q in questions if q.corpus == corpus]

        def score(search: Any, asked: Any = asked, root: Path = root) -> list[float]:
            cache = devbench.LineCache()
            ranks = [
                devbench.score_question(q, search(q.question), root, cache).first_hit for q in asked
            ]
            return [1.0 / r if r and r <= 10 else 0.0 for r in ranks]

        found.append(Repository(set_name, corpus, root, score))
    return found


def _semble_repositories(bench: Path, corpora: Path, names: Sequence[str] | None) -> list[Any]:
    found = []
    for repo in semble.choose_repos(bench, names):
        tasks = semble.load_tasks(bench, repo.name)

        def score(search: Any, repo: Any = repo, tasks: Any = tasks) -> list[float]:
            results = {t.query_id: search(t.query) for t in tasks}
            scored = semble.score_semble(
                [repo], {repo.name: tasks}, results, devbench.CHARS_PER_TOKEN
            )
            return [t.ndcg10 for t in scored.of(repo.name)]

        found.append(Repository(SEMBLE, repo.name, semble.repo_root(corpora, repo), score))
    return found


def _search_of(args: argparse.Namespace, repo: Repository) -> tuple[Any, Any]:
    """The repository's searcher (indexed now if needed) and its search at k=10 with the
    default budget; query vectors are kept, as every grid point asks the same questions."""
    from app.cli.common import ProgressPrinter
    from app.core.settings import load_settings
    from app.service import Service

    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    service = Service(repo.root, settings)
    _log(f"[{repo.name}] indexing {repo.root}")
    service.index(ProgressPrinter(quiet=True))
    searcher = service.searcher()
    if searcher.embedder is not None:
        searcher.embedder = _KeptQueries(searcher.embedder)

    def search(question: str) -> list[ResultChunk]:
        result = service.search(question, k=10)
        return [ResultChunk(h.path, h.start_line, h.end_line, h.text) for h in result.hits]

    return searcher, search


class _KeptQueries:
    """An embedder whose query vectors are computed once per question."""

    def __init__(self, embedder: Any) -> None:
        self._embedder = embedder
        self.embed_query = lru_cache(maxsize=None)(embedder.embed_query)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._embedder, name)


def run_field_fit(args: argparse.Namespace) -> int:
    repositories: list[Repository] = []
    for set_name in ("dev", "dev2"):
        corpora = getattr(args, f"{set_name}_corpora")
        if corpora is not None:
            bench = args.bench / SET_DIRS[set_name]
            repositories += _dev_repositories(set_name, bench, corpora)
    if args.semble_corpora is not None:
        bench = args.bench / SET_DIRS[SEMBLE]
        repositories += _semble_repositories(bench, args.semble_corpora, args.repo)
    if not repositories:
        _log(
            "repolens-tui: error: fit-fields needs --dev-corpora, --dev2-corpora or "
            "--semble-corpora DIR"
        )
        return 2
    grid = list(itertools.product(*GRID.values()))
    by_weights: dict[Weights, Scores] = {w: {} for w in grid}
    for repo in repositories:
        searcher, search = _search_of(args, repo)
        for weights in grid:
            searcher.corpus.postings.weights = {TEXT: 1.0, **dict(zip(GRID, weights, strict=True))}
            searcher.corpus.postings.apart = frozenset(args.apart or ())
            by_weights[weights].setdefault(repo.set_name, {})[repo.name] = repo.score(search)
    if args.json:
        print(json.dumps(report(by_weights, frozenset(args.apart or ())), indent=2))
    else:
        print(format_report(by_weights, frozenset(args.apart or ())))
    return 0


def report(by_weights: Mapping[Weights, Scores], apart: frozenset[str]) -> dict[str, Any]:
    """The grid's figures, the best weights in sample, and the leave-one-out figures beside
    plain BM25 (every field but the whole text at 0) and the shipped defaults (when the
    grid's `apart` is theirs)."""
    plain = tuple(0.0 for _ in GRID)
    shipped = tuple(WEIGHTS.get(f, 0.0) for f in GRID) if apart == APART else ()
    best = best_weights(by_weights, plain)
    held, chosen = leave_one_out(by_weights, plain)

    def figures(scores: Scores) -> dict[str, float]:
        out = {s: round(set_score(repos, s), 4) for s, repos in scores.items()}
        out["mean"] = round(mean_over_sets(scores), 4)
        return out

    return {
        "apart": sorted(apart),
        "fields": list(GRID),
        "grid": {",".join(map(str, w)): figures(s) for w, s in by_weights.items()},
        "plain": figures(by_weights[plain]),
        "shipped": {"weights": list(shipped), **figures(by_weights[shipped])}
        if shipped in by_weights
        else {"weights": list(shipped)},
        "best_in_sample": {"weights": list(best), **figures(by_weights[best])},
        "leave_one_repository_out": figures(held),
        "chosen_per_held_out_repo": {repo: list(w) for repo, w in chosen.items()},
        "scores": {",".join(map(str, w)): s for w, s in by_weights.items()},
    }


def format_report(by_weights: Mapping[Weights, Scores], apart: frozenset[str]) -> str:
    out = report(by_weights, apart)
    sets = [s for s in out["plain"] if s != "mean"]
    head = f"{'weights (' + ', '.join(out['fields']) + ')':28s} " + " ".join(
        f"{s:>7s}" for s in [*sets, "mean"]
    )

    def line(label: str, figures: Mapping[str, float]) -> str:
        return f"{label:28s} " + " ".join(f"{figures.get(s, 0.0):7.3f}" for s in [*sets, "mean"])

    ordered = sorted(out["grid"].items(), key=lambda item: -item[1]["mean"])
    mode = f"BM25F, saturating apart: {', '.join(sorted(apart)) or 'none'}"
    lines = [f"{mode}: field weights over the grid, best first", head]
    lines += [line(label, figures) for label, figures in ordered]
    lines += [
        "",
        line("plain BM25 (fields at 0)", out["plain"]),
        line(f"best in sample {out['best_in_sample']['weights']}", out["best_in_sample"]),
        line("leave-one-repository-out", out["leave_one_repository_out"]),
        "chosen per held-out repository: "
        + ", ".join(f"{r} {w}" for r, w in out["chosen_per_held_out_repo"].items()),
    ]
    return "\n".join(lines)
