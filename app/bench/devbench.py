"""The dev benchmark: questions, corpora, results files, and scoring identical to `dev/score.py`."""

from __future__ import annotations

import json
import posixpath
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

CHARS_PER_TOKEN = 3.6
KINDS = ("no-identifier", "api-name", "conceptual")
OVERALL = "ALL"


@dataclass(frozen=True, slots=True)
class ResultChunk:
    """One ranked answer: a line range of a file (relative to the corpus root), and its text.

    `text` is what the system actually returned; when None, token counts use the file's lines.
    `score` is the system's own score of it, where it has one (file-level evidence reads it).
    """

    path: str
    start_line: int
    end_line: int
    text: str | None = None
    score: float | None = None


@dataclass(frozen=True, slots=True)
class GoldRange:
    path: str
    symbol: str
    start_line: int
    end_line: int


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    corpus: str
    question: str
    kind: str
    gold: tuple[GoldRange, ...]


@dataclass(frozen=True, slots=True)
class Corpus:
    name: str
    language: str
    version: str
    root: str  # relative to the directory the corpora were fetched into


@dataclass(frozen=True, slots=True)
class QuestionScore:
    id: str
    corpus: str
    kind: str
    first_hit: int | None  # 1-based rank of the first hit anywhere in the list
    tokens: float
    missing: bool


@dataclass(frozen=True, slots=True)
class Metrics:
    questions: int
    missing: int
    top1: float
    top5: float
    mrr10: float
    tokens_mean: float
    tokens_median: float

    def as_dict(self) -> dict[str, int | float]:
        """The keys and rounding `score.py --json` prints."""
        return {
            "questions": self.questions,
            "missing": self.missing,
            "top1": round(self.top1, 4),
            "top5": round(self.top5, 4),
            "mrr@10": round(self.mrr10, 4),
            "tokens_mean": round(self.tokens_mean, 1),
            "tokens_median": round(self.tokens_median, 1),
        }


@dataclass(frozen=True, slots=True)
class DevScore:
    questions: tuple[QuestionScore, ...]
    by_corpus: dict[str, Metrics]  # sorted corpus names, then OVERALL
    by_kind: dict[str, Metrics]

    def table(self) -> dict[str, dict[str, int | float]]:
        """Exactly what `score.py --json` prints for the same results."""
        return {name: m.as_dict() for name, m in self.by_corpus.items()}


def dev_dir(bench_dir: Path) -> Path:
    """The directory holding `corpora.json`; accepts the bench root or its `dev/` directory."""
    bench_dir = Path(bench_dir)
    if (bench_dir / "corpora.json").is_file():
        return bench_dir
    if (bench_dir / "dev" / "corpora.json").is_file():
        return bench_dir / "dev"
    raise FileNotFoundError(f"no corpora.json in {bench_dir} or {bench_dir / 'dev'}")


def load_corpora(bench_dir: Path) -> list[Corpus]:
    raw = json.loads((dev_dir(bench_dir) / "corpora.json").read_text(encoding="utf-8"))
    return [Corpus(c["name"], c.get("language", ""), c.get("version", ""), c["root"]) for c in raw]


def load_questions(bench_dir: Path, corpora: Sequence[str] | None = None) -> list[Question]:
    """All questions of `queries/*.jsonl`, sorted by id (the order score.py scores them in)."""
    found: dict[str, Question] = {}
    for qfile in sorted((dev_dir(bench_dir) / "queries").glob("*.jsonl")):
        for raw in qfile.read_text(encoding="utf-8").splitlines():
            if not raw.strip():
                continue
            q = json.loads(raw)
            gold = tuple(
                GoldRange(g["path"], g.get("symbol", ""), g["start_line"], g["end_line"])
                for g in q["gold"]
            )
            found[q["id"]] = Question(q["id"], q["corpus"], q["question"], q.get("kind", ""), gold)
    wanted = None if corpora is None else set(corpora)
    return [q for _, q in sorted(found.items()) if wanted is None or q.corpus in wanted]


def norm_path(path: str) -> str:
    path = posixpath.normpath(path.replace("\\", "/"))
    return path[2:] if path.startswith("./") else path


def is_hit(chunk: ResultChunk, gold: Iterable[GoldRange]) -> bool:
    """Same file and overlapping lines with any gold range."""
    path, start, end = norm_path(chunk.path), int(chunk.start_line), int(chunk.end_line)
    return any(
        path == norm_path(g.path) and start <= g.end_line and g.start_line <= end for g in gold
    )


def first_hit_rank(ranked: Sequence[ResultChunk], gold: Sequence[GoldRange]) -> int | None:
    for rank, chunk in enumerate(ranked, 1):
        if is_hit(chunk, gold):
            return rank
    return None


class LineCache:
    """Corpus files as lines (newlines kept), read once, for counting returned characters."""

    def __init__(self) -> None:
        self._lines: dict[Path, list[str]] = {}

    def chars(self, root: Path, chunk: ResultChunk) -> int:
        if chunk.text is not None:
            return len(chunk.text)
        file = root / norm_path(chunk.path)
        if file not in self._lines:
            # read_text translates newlines, as score.py does, so counts agree on CRLF files.
            self._lines[file] = (
                file.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
                if file.is_file()
                else []
            )
        start, end = max(1, int(chunk.start_line)), int(chunk.end_line)
        return sum(len(line) for line in self._lines[file][start - 1 : end])


def score_question(
    question: Question, ranked: Sequence[ResultChunk] | None, root: Path, cache: LineCache
) -> QuestionScore:
    if ranked is None:
        return QuestionScore(question.id, question.corpus, question.kind, None, 0.0, True)
    tokens = sum(cache.chars(root, chunk) for chunk in ranked) / CHARS_PER_TOKEN
    rank = first_hit_rank(ranked, question.gold)
    return QuestionScore(question.id, question.corpus, question.kind, rank, tokens, False)


def aggregate(scores: Sequence[QuestionScore]) -> Metrics:
    n = len(scores) or 1
    tokens = [s.tokens for s in scores]
    return Metrics(
        questions=len(scores),
        missing=sum(s.missing for s in scores),
        top1=sum(s.first_hit == 1 for s in scores) / n,
        top5=sum(s.first_hit is not None and s.first_hit <= 5 for s in scores) / n,
        mrr10=sum(1.0 / s.first_hit for s in scores if s.first_hit and s.first_hit <= 10) / n,
        tokens_mean=statistics.mean(tokens) if tokens else 0.0,
        tokens_median=statistics.median(tokens) if tokens else 0.0,
    )


def score_dev(
    questions: Sequence[Question],
    results: Mapping[str, Sequence[ResultChunk]],
    roots: Mapping[str, Path],
) -> DevScore:
    """Score ranked results (question id -> chunks) per corpus, overall and per kind."""
    cache = LineCache()
    scores = tuple(
        score_question(q, results.get(q.id), Path(roots[q.corpus]), cache)
        for q in sorted(questions, key=lambda q: q.id)
    )
    by_corpus = {
        name: aggregate([s for s in scores if s.corpus == name])
        for name in sorted({s.corpus for s in scores})
    }
    by_corpus[OVERALL] = aggregate(scores)
    kinds = [k for k in KINDS if any(s.kind == k for s in scores)]
    kinds += sorted({s.kind for s in scores} - set(KINDS))
    by_kind = {kind: aggregate([s for s in scores if s.kind == kind]) for kind in kinds}
    return DevScore(scores, by_corpus, by_kind)


def chunk_to_json(chunk: ResultChunk) -> dict[str, object]:
    row: dict[str, object] = {
        "path": chunk.path,
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
    }
    if chunk.text is not None:
        row["text"] = chunk.text
    return row


def write_results(path: Path, results: Mapping[str, Sequence[ResultChunk]]) -> None:
    """One line per question, best first, in the format score.py reads."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for qid, ranked in results.items():
            row = {"id": qid, "results": [chunk_to_json(c) for c in ranked]}
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def read_results(path: Path) -> dict[str, list[ResultChunk]]:
    results: dict[str, list[ResultChunk]] = {}
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            continue
        row = json.loads(raw)
        results[row["id"]] = [
            ResultChunk(r["path"], int(r["start_line"]), int(r["end_line"]), r.get("text"))
            for r in row.get("results") or []
        ]
    return results


def corpus_roots(bench_dir: Path, corpora_dir: Path) -> dict[str, Path]:
    return {c.name: Path(corpora_dir) / c.root for c in load_corpora(bench_dir)}


def score_results_file(bench_dir: Path, corpora_dir: Path, results_path: Path) -> DevScore:
    """What `score.py CORPORA_DIR RESULTS.jsonl` computes, over every question of the bench."""
    return score_dev(
        load_questions(bench_dir), read_results(results_path), corpus_roots(bench_dir, corpora_dir)
    )
