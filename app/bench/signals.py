"""`repolens-tui-bench signals`: per question and candidate, what the ranker read (ranks, fused
score, every rerank signal, kind, length, path) and which gold it hits, as JSONL for `fit`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.bench import devbench, semble
from app.bench.devbench import GoldRange, Question

POOL = 300  # candidates asked for: every one fusion and rerank saw (2 x 100, plus joins)
NO_BUDGET = 10**9  # ranks, not what fits a prompt

# (path, start line, end line) -> the indices of the targets that chunk hits
HitsOf = Callable[[str, int, int], list[int]]


@dataclass(frozen=True, slots=True)
class Labelled:
    """One question of any set, with how to tell which of its targets a chunk hits."""

    set_name: str
    repo: str
    qid: str
    question: str
    kind: str
    n_targets: int
    hits: HitsOf


def _dev_hits(gold: Sequence[GoldRange]) -> HitsOf:
    def hits(path: str, start: int, end: int) -> list[int]:
        return [0] if devbench.is_hit(devbench.ResultChunk(path, start, end), gold) else []

    return hits


def from_questions(set_name: str, questions: Sequence[Question]) -> list[Labelled]:
    """dev, dev2 and mined questions: a hit on any gold range is the one target."""
    return [
        Labelled(set_name, q.corpus, q.id, q.question, q.kind, 1, _dev_hits(q.gold))
        for q in questions
    ]


def _semble_hits(repo: semble.Repo, task: semble.Task) -> HitsOf:
    def hits(path: str, start: int, end: int) -> list[int]:
        where = semble.checkout_path(repo, path)
        return [i for i, t in enumerate(task.targets) if semble.hits_target(where, start, end, t)]

    return hits


def from_semble(repo: semble.Repo, tasks: Sequence[semble.Task]) -> list[Labelled]:
    return [
        Labelled(
            "semble",
            repo.name,
            t.query_id,
            t.query,
            t.category,
            len(t.targets),
            _semble_hits(repo, t),
        )
        for t in tasks
    ]


def candidate_rows(hits: Sequence[Any], labelled: Labelled) -> list[dict[str, Any]]:
    """The engine's hits (best first, each with its Explanation) as feature rows."""
    rows = []
    for hit in hits:
        e = hit.explanation
        rows.append(
            {
                "path": hit.path,
                "start": hit.start_line,
                "end": hit.end_line,
                "kind": hit.kind,
                "bm25": e.bm25_rank,
                "vector": e.vector_rank,
                "fused": e.fused_score,
                "final": e.final_score,
                "signals": [[s.name, s.factor] for s in e.signals],
                "hits": labelled.hits(hit.path, hit.start_line, hit.end_line),
            }
        )
    return rows


def dump(
    search: Callable[[str], Sequence[Any]], questions: Sequence[Labelled]
) -> Iterator[dict[str, Any]]:
    """One record per question: its set, repo, kind, target count and candidates."""
    for q in questions:
        yield {
            "set": q.set_name,
            "repo": q.repo,
            "id": q.qid,
            "question": q.question,
            "kind": q.kind,
            "n_targets": q.n_targets,
            "candidates": candidate_rows(search(q.question), q),
        }


def write(path: Path, records: Iterator[dict[str, Any]]) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
    return count


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
