"""Reference systems measured beside the engine: grep-and-read and plain BM25 (stdlib only)."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from app.bench.devbench import ResultChunk

READ_FILES = 5
MIN_TERM_CHARS = 3

# Function words an agent would not grep for. Verbs such as get/use stay: they are API names.
_STOPWORD_TEXT = """
    about above after again against all also among and any are aren around because been before
    being below between both but can cannot could did didn does doesn doing done down during
    each either else even ever every few for from further had has hasn have having her here hers
    herself him himself his how however into isn its itself just many may might more most much
    must nor not now off once only other others our ours out over own same shall she should
    shouldn since some such than that the their theirs them themselves then there these they
    this those through too under until upon very via was wasn were weren what whatever when
    whenever where whereas wherever whether which while who whom whose why will with within
    without would wouldn yet you your yours yourself
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_ACRONYM_WORD = re.compile(r"([A-Z]+)([A-Z][a-z])")
_BM25_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True, slots=True)
class TextUnit:
    """One indexed piece of a file, as the engine chunked it (lines are 1-based, inclusive)."""

    path: str
    start_line: int
    end_line: int
    text: str


def split_identifier(word: str) -> list[str]:
    """`raise_for_status` -> raise, for, status; `ServeHTTP` -> Serve, HTTP; `HTTPError` too."""
    spaced = _ACRONYM_WORD.sub(r"\1 \2", _CAMEL.sub(r"\1 \2", word))
    return [part for part in re.split(r"[\s_]+", spaced) if part]


def question_terms(question: str) -> list[str]:
    """Lower-cased grep terms: identifiers whole and split, 3+ chars, stopwords dropped."""
    terms: dict[str, None] = {}
    for word in _IDENTIFIER.findall(question):
        for candidate in (word.strip("_"), *split_identifier(word)):
            term = candidate.lower()
            if len(term) >= MIN_TERM_CHARS and term not in STOPWORDS:
                terms.setdefault(term)
    return list(terms)


def read_source(file: Path) -> str | None:
    """The file's text with newlines translated (as score.py reads it); None for binary files."""
    try:
        data = file.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:8192]:  # grep skips binary files too
        return None
    text = data.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def grep_and_read(root: Path, question: str, paths: Sequence[str]) -> list[ResultChunk]:
    """What an agent does today: grep the question's terms, then read the best files whole.

    Files are ranked by how many distinct terms they contain (case-insensitive), ties by the
    total number of matches, then by path. Up to five matching files come back whole.
    """
    terms = question_terms(question)
    if not terms:
        return []
    ranked: list[tuple[int, int, str, str]] = []
    for path in paths:
        text = read_source(Path(root) / path)
        if not text:
            continue
        lowered = text.lower()
        counts = [lowered.count(term) for term in terms]
        distinct = sum(1 for c in counts if c)
        if distinct:
            ranked.append((-distinct, -sum(counts), path, text))
    ranked.sort(key=lambda row: row[:3])
    return [
        ResultChunk(path, 1, max(1, len(text.splitlines())), text)
        for _, _, path, text in ranked[:READ_FILES]
    ]


def bm25_tokens(text: str) -> list[str]:
    """Lower-case words with camelCase split, 2+ chars (`toks` in dev/tools/bm25_baseline.py)."""
    spaced = _CAMEL.sub(r"\1 \2", text)
    return [w for w in _BM25_WORD.findall(spaced.lower()) if len(w) > 1]


def code_tokens(text: str) -> list[str]:
    """Code-aware words: each identifier lower-cased whole and split (`raise_for_status` gives
    raise_for_status, raise, for, status; `HTTPError` gives httperror, http, error), 2+ chars,
    so a query naming an identifier matches it exactly and by its words."""
    tokens: list[str] = []
    for word in _IDENTIFIER.findall(text):
        parts = [p.lower() for p in split_identifier(word) if len(p) > 1]
        whole = word.strip("_").lower()
        if len(parts) > 1 and len(whole) > 1:
            tokens.append(whole)
        tokens.extend(parts)
    return tokens


def file_text(path: str, text: str) -> str:
    """A whole file as a BM25 document: its path's words first (`src/_pytest/capture.py`
    gives src, pytest, capture, py), since an issue often names the module it is about."""
    return f"{re.sub(r'[^A-Za-z0-9_]+', ' ', path)}\n{text}"


Tokeniser = Callable[[str], list[str]]


class BM25Index:
    """Okapi BM25 over a fixed list of units; build once per corpus, query many times."""

    def __init__(
        self,
        units: Sequence[TextUnit],
        k1: float = 1.2,
        b: float = 0.75,
        tokenise: Tokeniser = bm25_tokens,
    ) -> None:
        self.units = tuple(units)
        self.k1, self.b = k1, b
        self._tokenise = tokenise
        self._lengths: list[int] = []
        # Postings (unit index, term frequency) per term, so a query touches only its terms.
        self._postings: dict[str, list[tuple[int, int]]] = {}
        for i, unit in enumerate(self.units):
            tf = Counter(tokenise(unit.text))
            self._lengths.append(sum(tf.values()))
            for term, count in tf.items():
                self._postings.setdefault(term, []).append((i, count))
        self._avgdl = (sum(self._lengths) / len(self._lengths)) if self._lengths else 0.0

    def idf(self, term: str) -> float:
        n, df = len(self.units), len(self._postings.get(term, ()))
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def query_weights(self, question: str) -> dict[str, int]:
        """Each distinct query term once."""
        return dict.fromkeys(self._tokenise(question), 1)

    def scores(self, question: str) -> dict[int, float]:
        scores: dict[int, float] = {}
        avgdl = self._avgdl or 1.0
        for term, weight in self.query_weights(question).items():
            postings = self._postings.get(term)
            if not postings:
                continue
            idf = weight * self.idf(term)
            for i, tf in postings:
                norm = self.k1 * (1 - self.b + self.b * self._lengths[i] / avgdl)
                scores[i] = scores.get(i, 0.0) + idf * tf * (self.k1 + 1) / (tf + norm)
        return scores

    def search(self, question: str, k: int = 10) -> list[ResultChunk]:
        """The k best units (ties in unit order); units sharing no term are never returned."""
        best = sorted(self.scores(question).items(), key=lambda item: (-item[1], item[0]))[:k]
        return [
            ResultChunk(u.path, u.start_line, u.end_line, u.text)
            for u in (self.units[i] for i, _ in best)
        ]


class OkapiBM25Index(BM25Index):
    """Robertson's Okapi BM25 as `rank_bm25` and the SWE-bench tables use it: a term counts as
    often as the query repeats it, and a term in more than half the units weighs nothing."""

    def idf(self, term: str) -> float:
        n, df = len(self.units), len(self._postings.get(term, ()))
        return max(0.0, math.log((n - df + 0.5) / (df + 0.5)))

    def query_weights(self, question: str) -> dict[str, int]:
        return dict(Counter(self._tokenise(question)))


def plain_bm25(units: Sequence[TextUnit], question: str, k: int = 10) -> list[ResultChunk]:
    """One-off BM25 query; build a BM25Index instead when asking many questions."""
    return BM25Index(units).search(question, k)
