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
    total = Agreement()
    thresholds: dict[str, float] = {}
    for corpus in sorted({row.corpus for row in rows}):
        held = [row for row in rows if row.corpus == corpus]
        thresholds[corpus] = fit([row for row in rows if row.corpus != corpus])
        for row in held:
            total = total.add(_flagged(row, thresholds[corpus]), row.supported)
    return total, thresholds


def report(path: Path = LABELS) -> str:
    rows = load(path)
    labelled_supported = sum(row.supported for row in rows)
    held_out, thresholds = leave_one_corpus_out(rows)
    lines = [
        f"hand labels: {len(rows)} claim sentences, {labelled_supported} supported "
        f"({labelled_supported / len(rows):.3f})",
        f"{'check':<34}{'agree':>7}{'precision':>11}{'recall':>8}   (for unsupported)",
    ]
    for name, result in (
        ("key terms (before)", agreement(rows, None)),
        (f"key terms + words >= {WORDS_FOUND}", agreement(rows, WORDS_FOUND)),
        ("words, fitted per held-out corpus", held_out),
    ):
        lines.append(
            f"{name:<34}{result.agree:>4}/{len(rows):<3}{result.precision:>10.3f}"
            f"{result.recall:>8.3f}"
        )
    lines.append(
        f"fitted on all: {fit(rows):.3f}; held out: "
        + ", ".join(f"{corpus} {t:.3f}" for corpus, t in thresholds.items())
    )
    return "\n".join(lines)


def _hit(raw: dict[str, Any]) -> Hit:
    symbol = str(raw.get("symbol", ""))
    return Hit(
        f"{raw['path']}:{raw['start_line']}", raw["path"], raw["start_line"], raw["end_line"],
        symbol, symbol, "", "", 0.0, raw["text"], "body",
    )  # fmt: skip
