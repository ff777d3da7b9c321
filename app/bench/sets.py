"""Every eval set reduced to one shape (per set, language and question kind), side by side."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.bench import devbench
from app.bench.devbench import QuestionScore
from app.bench.semble import SembleScore, mean

if TYPE_CHECKING:
    from app.bench.runner import DevReport, SembleReport, SweReport

OVERALL = "overall"
BY_LANGUAGE = "language"
BY_KIND = "kind"
SHOWN = ("engine", "bm25")  # what the side-by-side table puts next to each other


@dataclass(frozen=True, slots=True)
class Row:
    """One group of questions under one system; `score` is the set's main metric."""

    n: int
    top1: float
    top5: float
    score: float
    tokens: float

    def as_dict(self) -> dict[str, float]:
        return {
            "n": self.n,
            "top1": round(self.top1, 4),
            "top5": round(self.top5, 4),
            "score": round(self.score, 4),
            "tokens": round(self.tokens, 1),
        }


Groups = dict[str, dict[str, dict[str, Row]]]  # group type -> group -> system -> Row


@dataclass(frozen=True, slots=True)
class SetSummary:
    name: str
    metric: str  # what `score` is: mrr@10, ndcg@10 or (swebench, file level) mrr
    groups: Groups

    def overall(self, system: str) -> Row:
        return self.groups[OVERALL][OVERALL][system]

    def as_dict(self) -> dict[str, object]:
        return {
            "metric": self.metric,
            "groups": {
                kind: {
                    group: {system: row.as_dict() for system, row in rows.items()}
                    for group, rows in groups.items()
                }
                for kind, groups in self.groups.items()
            },
        }


def _dev_row(scores: Sequence[QuestionScore]) -> Row:
    m = devbench.aggregate(scores)
    return Row(m.questions, m.top1, m.top5, m.mrr10, m.tokens_mean)


def _grouped(
    scores: Sequence[QuestionScore], key: Callable[[QuestionScore], str]
) -> dict[str, list[QuestionScore]]:
    found: dict[str, list[QuestionScore]] = {}
    for score in scores:
        found.setdefault(key(score), []).append(score)
    return dict(sorted(found.items()))


def from_dev(name: str, report: DevReport, languages: Mapping[str, str]) -> SetSummary:
    """A dev-format set (dev, dev2): corpus `languages` by corpus name."""
    groups: Groups = {OVERALL: {OVERALL: {}}, BY_LANGUAGE: {}, BY_KIND: {}}
    for system in report.systems:
        questions = report.scores[system].questions
        groups[OVERALL][OVERALL][system] = _dev_row(questions)
        for lang, part in _grouped(questions, lambda q: languages.get(q.corpus, "")).items():
            groups[BY_LANGUAGE].setdefault(lang, {})[system] = _dev_row(part)
        for kind, part in _grouped(questions, lambda q: q.kind).items():
            groups[BY_KIND].setdefault(kind, {})[system] = _dev_row(part)
    return SetSummary(name, "mrr@10", groups)


def _semble_row(score: SembleScore, repos: Sequence[str], category: str | None = None) -> Row:
    """semble's aggregation: per repo the mean over its queries, then the mean over repos."""
    per_repo = []
    for repo in repos:
        tasks = [t for t in score.of(repo) if category is None or t.category == category]
        if tasks:
            per_repo.append(tasks)

    def over(key: str) -> float:
        return mean([mean([getattr(t, key) for t in tasks]) for tasks in per_repo])

    n = sum(len(tasks) for tasks in per_repo)
    tokens = mean([t.tokens for tasks in per_repo for t in tasks])
    return Row(n, over("top1"), over("top5"), over("ndcg10"), tokens)


def from_semble(name: str, report: SembleReport) -> SetSummary:
    groups: Groups = {OVERALL: {OVERALL: {}}, BY_LANGUAGE: {}, BY_KIND: {}}
    names = [r.name for r in report.repos]
    for system in report.systems:
        score = report.scores[system]
        groups[OVERALL][OVERALL][system] = _semble_row(score, names)
        for lang in sorted({r.language for r in report.repos}):
            of_lang = [r.name for r in report.repos if r.language == lang]
            groups[BY_LANGUAGE].setdefault(lang, {})[system] = _semble_row(score, of_lang)
        for category in score.by_category():
            row = _semble_row(score, names, category)
            groups[BY_KIND].setdefault(category, {})[system] = row
    return SetSummary(name, "ndcg@10", groups)


def from_swe(name: str, report: SweReport) -> SetSummary:
    """File level: top-1 / top-5 are Acc@1 / Acc@5; no tokens (ranks only, no budget)."""
    rows = {
        system: Row(m.instances, m.acc1, m.acc5, m.mrr, 0.0) for system, m in report.metrics.items()
    }
    return SetSummary(name, "mrr", {OVERALL: {OVERALL: rows}, BY_LANGUAGE: {"python": rows}})


def mean_over_sets(summaries: Sequence[SetSummary], system: str) -> Row:
    """Each set's overall figures averaged with equal weight per set."""
    rows = [s.overall(system) for s in summaries if system in s.groups[OVERALL][OVERALL]]
    return Row(
        sum(r.n for r in rows),
        mean([r.top1 for r in rows]),
        mean([r.top5 for r in rows]),
        mean([r.score for r in rows]),
        mean([r.tokens for r in rows]),
    )


_HEAD = (
    f"{'set':10s} {'group':22s} {'n':>4s} | {'top1':>6s} {'top5':>6s} {'score':>6s} {'tok':>6s}"
    f" | {'bm25 t1':>7s} {'t5':>6s} {'score':>6s} {'tok':>6s}"
)


def _line(set_name: str, group: str, rows: Mapping[str, Row]) -> str:
    engine, bm25 = rows.get(SHOWN[0]), rows.get(SHOWN[1])
    n = engine.n if engine else (bm25.n if bm25 else 0)

    def cells(row: Row | None, first: int) -> str:
        if row is None:
            return f"{'-':>{first}s} {'-':>6s} {'-':>6s} {'-':>6s}"
        tok = f"{row.tokens:6.0f}" if row.tokens else f"{'-':>6s}"
        return f"{row.top1:{first}.3f} {row.top5:6.3f} {row.score:6.3f} {tok}"

    return f"{set_name:10s} {group:22s} {n:4d} | {cells(engine, 6)} | {cells(bm25, 7)}"


def format_all(summaries: Sequence[SetSummary]) -> str:
    """One table: each set overall, by language and by kind, engine beside BM25; then means."""
    lines = [
        "every eval set side by side: score = MRR@10 (dev, dev2), NDCG@10 (semble), "
        "MRR at file level (swebench); tok = tokens per answer",
        _HEAD,
    ]
    for summary in summaries:
        label = f"{summary.name}"
        lines.append(_line(label, f"ALL ({summary.metric})", summary.groups[OVERALL][OVERALL]))
        for kind in (BY_LANGUAGE, BY_KIND):
            for group, rows in summary.groups.get(kind, {}).items():
                lines.append(_line("", f"{kind[:4]} {group}"[:22], rows))
    means = {system: mean_over_sets(summaries, system) for system in SHOWN}
    lines += ["", _line("MEAN", f"over {len(summaries)} sets", means)]
    return "\n".join(lines)


def all_to_dict(summaries: Sequence[SetSummary]) -> dict[str, object]:
    return {
        "sets": {s.name: s.as_dict() for s in summaries},
        "mean_over_sets": {system: mean_over_sets(summaries, system).as_dict() for system in SHOWN},
    }
