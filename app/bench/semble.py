"""The semble-dev benchmark: repos, queries and NDCG@10 exactly as its `score.py` computes them."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.bench.devbench import ResultChunk

K = 10
CATEGORIES = ("architecture", "semantic", "symbol")
WHOLE_FILE_END = 10**9  # score.py's end line for a result that names no lines


@dataclass(frozen=True, slots=True)
class Target:
    path: str
    start_line: int | None = None
    end_line: int | None = None


@dataclass(frozen=True, slots=True)
class Task:
    repo: str
    query_id: str  # "<repo>:<n>", n the 1-based position in the annotation file
    query: str
    category: str
    targets: tuple[Target, ...]  # relevant + secondary


@dataclass(frozen=True, slots=True)
class Repo:
    name: str
    language: str
    root: str  # the benchmark root inside the checkout ("" = the whole checkout)
    core: bool
    matches_published_run: bool


@dataclass(frozen=True, slots=True)
class TaskScore:
    query_id: str
    repo: str
    category: str
    ndcg10: float
    file_ndcg10: float
    first_rank: int | None  # rank of the first result hitting any target
    tokens: float
    missing: bool

    @property
    def top1(self) -> float:
        """Whether the first result hits a target."""
        return float(self.first_rank == 1)

    @property
    def top5(self) -> float:
        return float(self.first_rank is not None and self.first_rank <= 5)


def semble_dir(bench_dir: Path) -> Path:
    """The directory holding `repos.json`; accepts the bench root or its `semble-dev/`."""
    for candidate in (Path(bench_dir), Path(bench_dir) / "semble-dev"):
        if (candidate / "repos.json").is_file():
            return candidate
    raise FileNotFoundError(f"no repos.json in {bench_dir} or {Path(bench_dir) / 'semble-dev'}")


def _specs(bench_dir: Path) -> dict[str, dict[str, Any]]:
    raw = json.loads((semble_dir(bench_dir) / "repos.json").read_text(encoding="utf-8"))
    return {spec["name"]: spec for spec in raw}


def load_repos(bench_dir: Path) -> list[Repo]:
    """Every annotated repo, in repos.json order."""
    return [
        Repo(
            spec["name"],
            spec.get("language", ""),
            (spec.get("benchmark_root") or "").strip("/"),
            bool(spec.get("core")),
            bool(spec.get("matches_published_run", True)),
        )
        for spec in _specs(bench_dir).values()
        if spec.get("annotations")
    ]


def choose_repos(bench_dir: Path, names: Sequence[str] | None) -> list[Repo]:
    """The named repos, or the core subset when none are named."""
    repos = load_repos(bench_dir)
    if not names:
        return [r for r in repos if r.core]
    known = {r.name: r for r in repos}
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise ValueError(
            f"unknown or unannotated semble repos {unknown}; the bench has {sorted(known)}"
        )
    return [known[n] for n in names]


def repo_root(corpora_dir: Path, repo: Repo) -> Path:
    """Where fetch_corpora.sh put the benchmark root of `repo` (the folder to index)."""
    checkout = Path(corpora_dir) / repo.name
    return checkout / repo.root if repo.root else checkout


def infer_category(query: str) -> str:
    """semble's rule for an annotation without a category."""
    if " " not in query.strip():
        return "symbol"
    low = query.lower()
    return "architecture" if low.startswith(("how ", "how does", "how are")) else "semantic"


def _target(raw: str | dict[str, Any]) -> Target:
    if isinstance(raw, str):
        return Target(raw)
    start, end = raw.get("start_line"), raw.get("end_line")
    return Target(
        str(raw["path"]),
        int(start) if start is not None else None,
        int(end) if end is not None else None,
    )


def load_tasks(bench_dir: Path, repo: str) -> list[Task]:
    """The repo's scored queries: repos.json's `drop_queries` left out, `category_map` applied."""
    spec = _specs(bench_dir)[repo]
    raw = json.loads((semble_dir(bench_dir) / spec["annotations"]).read_text(encoding="utf-8"))
    drop = set(spec.get("drop_queries", []))
    cmap = spec.get("category_map", {})
    tasks = []
    for i, item in enumerate(raw, 1):
        if item["query"] in drop:
            continue
        category = item.get("category")
        category = category if isinstance(category, str) else infer_category(item["query"])
        targets = tuple(_target(t) for t in item.get("relevant", []) + item.get("secondary", []))
        tasks.append(
            Task(repo, f"{repo}:{i}", item["query"], cmap.get(category, category), targets)
        )
    return tasks


def path_matches(file_path: str, target_path: str) -> bool:
    """semble's loose rule: equal, or either a suffix of the other at a `/` boundary."""
    f, t = file_path.replace("\\", "/"), target_path.replace("\\", "/")
    return f == t or f.endswith(f"/{t}") or t.endswith(f"/{f}")


def checkout_path(repo: Repo, path: str) -> str:
    """A root-relative result path as semble compares it: `/<name>/<root>/<path>`."""
    path = path.replace("\\", "/")
    if path.startswith("/"):
        return path
    path = path[2:] if path.startswith("./") else path
    return f"/{repo.name}/{repo.root}/{path}" if repo.root else f"/{repo.name}/{path}"


def hits_target(path: str, start: int, end: int, target: Target) -> bool:
    if not path_matches(path, target.path):
        return False
    if target.start_line is None or target.end_line is None:
        return True
    return not (end < target.start_line or start > target.end_line)


def dcg(relevances: Sequence[int]) -> float:
    return sum(rel / math.log2(i + 2) for i, rel in enumerate(relevances))


def ndcg_at_k(ranks: Sequence[int], n_relevant: int, k: int = K) -> float:
    """Binary gains at `ranks` (one rank counts once), ideal = min(k, n) hits at the top."""
    if n_relevant == 0:
        return 0.0
    relevances = [0] * k
    for rank in ranks:
        if 1 <= rank <= k:
            relevances[rank - 1] = 1
    ideal = dcg([1] * min(k, n_relevant))
    return dcg(relevances) / ideal if ideal > 0 else 0.0


def _spans(repo: Repo, ranked: Sequence[ResultChunk]) -> list[tuple[str, int, int]]:
    return [(checkout_path(repo, c.path), c.start_line, c.end_line) for c in ranked[:K]]


def target_ranks(repo: Repo, task: Task, ranked: Sequence[ResultChunk]) -> list[int]:
    """The 1-based rank of the first result hitting each target (targets never hit left out)."""
    spans = _spans(repo, ranked)
    ranks = []
    for target in task.targets:
        rank = next(
            (i for i, (p, s, e) in enumerate(spans, 1) if hits_target(p, s, e, target)), None
        )
        if rank is not None:
            ranks.append(rank)
    return ranks


def file_ranks(repo: Repo, task: Task, ranked: Sequence[ResultChunk]) -> list[int]:
    """The same on the top 10 reduced to distinct files in rank order, spans ignored."""
    files = list(dict.fromkeys(p for p, _, _ in _spans(repo, ranked)))
    ranks = []
    for target in task.targets:
        rank = next((i for i, f in enumerate(files, 1) if path_matches(f, target.path)), None)
        if rank is not None:
            ranks.append(rank)
    return ranks


def score_task(
    repo: Repo, task: Task, ranked: Sequence[ResultChunk] | None, chars_per_token: float
) -> TaskScore:
    if ranked is None:
        return TaskScore(task.query_id, repo.name, task.category, 0.0, 0.0, None, 0.0, True)
    ranks = target_ranks(repo, task, ranked)
    n = len(task.targets)
    tokens = sum(len(c.text or "") for c in ranked) / chars_per_token
    return TaskScore(
        task.query_id,
        repo.name,
        task.category,
        ndcg_at_k(ranks, n),
        ndcg_at_k(file_ranks(repo, task, ranked), n),
        min(ranks) if ranks else None,
        tokens,
        False,
    )


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


@dataclass(frozen=True, slots=True)
class SembleScore:
    """Per-query scores and semble's aggregates: per repo, mean over repos, per type."""

    tasks: tuple[TaskScore, ...]
    repos: tuple[Repo, ...]

    def of(self, repo: str) -> list[TaskScore]:
        return [t for t in self.tasks if t.repo == repo]

    def repo_mean(self, repo: str, key: str = "ndcg10") -> float:
        return mean([getattr(t, key) for t in self.of(repo)])

    def overall(self, key: str = "ndcg10", repos: Sequence[str] | None = None) -> float:
        """The mean over repos of the per-repo means (semble's `summary.ndcg10`)."""
        names = [r.name for r in self.repos] if repos is None else list(repos)
        return mean([self.repo_mean(n, key) for n in names if self.of(n)])

    def by_category(self, key: str = "ndcg10") -> dict[str, float]:
        """Per query type: the mean over repos of their per-type means."""
        found = {t.category for t in self.tasks}
        ordered = sorted(found, key=lambda c: (CATEGORIES.index(c) if c in CATEGORIES else 9, c))
        out = {}
        for category in ordered:
            per_repo = [
                mean([getattr(t, key) for t in self.of(r.name) if t.category == category])
                for r in self.repos
                if any(t.category == category for t in self.of(r.name))
            ]
            out[category] = mean(per_repo)
        return out

    def by_language(self, key: str = "ndcg10") -> dict[str, float]:
        """Per language: the mean over that language's repos."""
        langs = sorted({r.language for r in self.repos})
        return {
            lang: self.overall(key, [r.name for r in self.repos if r.language == lang])
            for lang in langs
        }


def score_semble(
    repos: Sequence[Repo],
    tasks: Mapping[str, Sequence[Task]],
    results: Mapping[str, Sequence[ResultChunk]],
    chars_per_token: float,
) -> SembleScore:
    """Score ranked results (query id -> chunks, root-relative paths) over the given repos."""
    scores = tuple(
        score_task(repo, task, results.get(task.query_id), chars_per_token)
        for repo in repos
        for task in tasks[repo.name]
    )
    return SembleScore(scores, tuple(repos))


def load_published(bench_dir: Path) -> dict[str, dict[str, Any]]:
    """Published per-repo NDCG@10 of each peer: tool -> {matching, repos: {name: figures}}."""
    raw = json.loads((semble_dir(bench_dir) / "published.json").read_text(encoding="utf-8"))
    tools: dict[str, dict[str, Any]] = raw["tools"]
    return tools


def write_results(
    path: Path, tasks: Sequence[Task], results: Mapping[str, Sequence[ResultChunk]]
) -> None:
    """One line per query in score.py's results format (paths relative to the root)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for task in tasks:
            ranked = results.get(task.query_id)
            if ranked is None:
                continue
            rows = [
                {"path": c.path, "start_line": c.start_line, "end_line": c.end_line}
                for c in ranked[:K]
            ]
            line = {"repo": task.repo, "query_id": task.query_id, "results": rows}
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
