"""The answer checks against hand labels (app/bench/data/answer_labels.jsonl): how often each
check agrees that a sentence is unsupported, and the words-found threshold fitted out of sample."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.answer.checks import MIN_UNSAID, WORDS_FOUND, check_sentences, words_found
from app.answer.prompt import Excerpt
from app.core.models import Hit
from app.search.tokenize import tokens

LABELS = Path(__file__).with_name("data") / "answer_labels.jsonl"


@dataclass(frozen=True, slots=True)
class Labelled:
    """One claim sentence of an answer, the excerpts it cites, and the hand label."""

    id: str
    corpus: str
    sentence: str
    supported: bool
    terms_supported: bool  # the key-terms check alone
    share: float  # of its words found in the excerpts it cites (1.0 when it has none)
    unsaid: int  # its words not found there


@dataclass(frozen=True, slots=True)
class Agreement:
    """Confusion counts for "unsupported": flagged by the check and so labelled, or not."""

    flagged_unsupported: int = 0
    flagged_supported: int = 0
    missed: int = 0
    passed_supported: int = 0

    def add(self, flagged: bool, supported: bool) -> Agreement:
        return Agreement(
            self.flagged_unsupported + (flagged and not supported),
            self.flagged_supported + (flagged and supported),
            self.missed + (not flagged and not supported),
            self.passed_supported + (not flagged and supported),
        )

    @property
    def precision(self) -> float:
        flagged = self.flagged_unsupported + self.flagged_supported
        return self.flagged_unsupported / flagged if flagged else float("nan")

    @property
    def recall(self) -> float:
        unsupported = self.flagged_unsupported + self.missed
        return self.flagged_unsupported / unsupported if unsupported else float("nan")

    @property
    def agree(self) -> int:
        return self.flagged_unsupported + self.passed_supported

    @property
    def supported_precision(self) -> float:
        """Of the sentences the check passes, the share labelled supported."""
        passed = self.passed_supported + self.missed
        return self.passed_supported / passed if passed else float("nan")

    @property
    def supported_recall(self) -> float:
        """Of the sentences labelled supported, the share the check passes."""
        supported = self.passed_supported + self.flagged_supported
        return self.passed_supported / supported if supported else float("nan")


def load(path: Path = LABELS) -> list[Labelled]:
    """The labelled claim sentences (answers with none, such as abstentions, are skipped)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        raw = json.loads(line)
        if raw.get("sentence"):
            rows.append(_labelled(raw))
    return rows


def labels_by_sentence(path: Path = LABELS) -> dict[tuple[str, str], bool]:
    """The hand label of each labelled sentence, by question id and sentence."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        raw = json.loads(line)
        if raw.get("sentence"):
            out[(raw["id"], raw["sentence"])] = bool(raw["supported"])
    return out


def _labelled(raw: dict[str, Any]) -> Labelled:
    excerpts = [Excerpt(int(n), _hit(e)) for n, e in raw["excerpts"].items()]
    check = check_sentences(raw["sentence"], excerpts)[0]
    found = set().union(*(tokens(f"{e.hit.path} {e.hit.symbol}\n{e.hit.text}") for e in excerpts))
    said, unsaid = words_found(raw["sentence"], found)
    total = len(said) + len(unsaid)
    return Labelled(
        raw["id"],
        raw["corpus"],
        raw["sentence"],
        bool(raw["supported"]),
        check.terms_supported,
        len(said) / total if total else 1.0,
        len(unsaid),
    )


def agreement(rows: list[Labelled], threshold: float | None) -> Agreement:
    """The key-terms check (threshold None) or the words check with `threshold` as well."""
    out = Agreement()
    for row in rows:
        out = out.add(_flagged(row, threshold), row.supported)
    return out


def _flagged(row: Labelled, threshold: float | None) -> bool:
    if not row.terms_supported:
        return True
    return threshold is not None and row.unsaid >= MIN_UNSAID and row.share < threshold


def fit(rows: list[Labelled]) -> float:
    """The threshold that agrees with the most labels: a midpoint between two shares seen,
    the lowest of equals (fewer answers left out)."""
    shares = sorted({row.share for row in rows} | {0.0, 1.01})
    candidates = [(a + b) / 2 for a, b in zip(shares, shares[1:], strict=False)]
    return max(candidates, key=lambda t: (agreement(rows, t).agree, -t))


def leave_one_corpus_out(rows: list[Labelled]) -> tuple[Agreement, dict[str, float]]:
    """Each corpus judged with the threshold fitted on the others: the agreement out of
    sample, and the threshold each corpus was judged with."""
    by_corpus, thresholds = held_out_by_corpus(rows)
    total = Agreement()
    for result in by_corpus.values():
        total = Agreement(*(a + b for a, b in zip(_counts(total), _counts(result), strict=True)))
    return total, thresholds


def held_out_by_corpus(rows: list[Labelled]) -> tuple[dict[str, Agreement], dict[str, float]]:
    """Each corpus's agreement, judged with the threshold fitted on the other corpora."""
    results: dict[str, Agreement] = {}
    thresholds: dict[str, float] = {}
    for corpus in sorted({row.corpus for row in rows}):
        thresholds[corpus] = fit([row for row in rows if row.corpus != corpus])
        results[corpus] = Agreement()
        for row in rows:
            if row.corpus == corpus:
                flagged = _flagged(row, thresholds[corpus])
                results[corpus] = results[corpus].add(flagged, row.supported)
    return results, thresholds


def _counts(a: Agreement) -> tuple[int, int, int, int]:
    return a.flagged_unsupported, a.flagged_supported, a.missed, a.passed_supported


def report(path: Path = LABELS) -> str:
    rows = load(path)
    labelled_supported = sum(row.supported for row in rows)
    by_corpus, thresholds = held_out_by_corpus(rows)
    held_out, _ = leave_one_corpus_out(rows)
    lines = [
        f"hand labels: {len(rows)} claim sentences, {labelled_supported} supported "
        f"({labelled_supported / len(rows):.3f})",
        f"{'check':<34}{'agree':>7}{'unsupported P / R':>19}{'supported P / R':>17}"
        f"{'false alarms':>14}{'false passes':>14}",
    ]
    for name, result in (
        ("key terms (before)", agreement(rows, None)),
        (f"key terms + words >= {WORDS_FOUND}", agreement(rows, WORDS_FOUND)),
        ("words, fitted per held-out corpus", held_out),
    ):
        lines.append(_line(name, result, len(rows)))
    lines.append(
        f"fitted on all: {fit(rows):.3f}; held out: "
        + ", ".join(f"{corpus} {t:.3f}" for corpus, t in thresholds.items())
    )
    lines.append("each corpus held out:")
    for corpus, result in by_corpus.items():
        lines.append(_line(f"  {corpus}", result, sum(row.corpus == corpus for row in rows)))
    return "\n".join(lines)


def _line(name: str, result: Agreement, count: int) -> str:
    return (
        f"{name:<34}{result.agree:>4}/{count:<3}{result.precision:>11.3f} / {result.recall:.3f}"
        f"{result.supported_precision:>9.3f} / {result.supported_recall:.3f}"
        f"{result.flagged_supported:>14}{result.missed:>14}"
    )


def _hit(raw: dict[str, Any]) -> Hit:
    symbol = str(raw.get("symbol", ""))
    return Hit(
        f"{raw['path']}:{raw['start_line']}", raw["path"], raw["start_line"], raw["end_line"],
        symbol, symbol, "", "", 0.0, raw["text"], "body",
    )  # fmt: skip
