"""BM25 over the chunks in memory: a postings list per token, appended to as rows arrive.

The tokens are the index's own (`search_text`, made by app.search.tokenize), so a query's
tokens meet them exactly. Rows removed by a change stay in the postings and are skipped
through the corpus's alive mask, until the corpus is compacted and built afresh.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

SLICE_ROWS = 10_000  # rows counted at a time: bounds the memory counting takes
K1 = 1.2  # how quickly repeats of a token stop adding to the score
B = 0.75  # how much a long chunk is discounted for being long


@dataclass(frozen=True, slots=True)
class Counted:
    """Some rows' tokens counted: for each distinct token, the rows holding it (numbered
    from 0 within these rows) and how often; and each row's length in tokens."""

    words: list[str]
    rows: list[np.ndarray]
    counts: list[np.ndarray]
    lengths: np.ndarray


def count_tokens(texts: pa.Array | Sequence[str]) -> Counted:
    """Count the space-separated tokens of each text, in Arrow and NumPy (no object per
    token or per row): the slow part of adding rows, done before the searcher is locked."""
    texts = texts if isinstance(texts, pa.Array) else pa.array(texts, pa.string())
    texts = pc.fill_null(texts, "")
    lists = pc.split_pattern(texts, " ")
    tokens, parents = pc.list_flatten(lists), pc.list_parent_indices(lists)
    present = pc.not_equal(tokens, "")
    tokens, parents = tokens.filter(present), parents.filter(present)
    lengths = np.bincount(parents.to_numpy(), minlength=len(texts)).astype(np.float32)
    if not len(tokens):
        return Counted([], [], [], lengths)
    encoded = tokens.dictionary_encode()
    span = len(texts)
    pairs = encoded.indices.to_numpy().astype(np.int64) * span + parents.to_numpy()
    pairs, counts = np.unique(pairs, return_counts=True)  # sorted: by token, then row
    words, rows = pairs // span, (pairs % span).astype(np.int32)
    starts = np.flatnonzero(np.diff(words)) + 1
    vocabulary = encoded.dictionary.to_pylist()
    return Counted(
        [vocabulary[w] for w in words[np.concatenate(([0], starts))]],
        np.split(rows, starts),
        np.split(counts.astype(np.float32), starts),
        lengths,
    )


def count_in_slices(texts: pa.ChunkedArray) -> list[Counted]:
    """`count_tokens` over consecutive slices of SLICE_ROWS rows."""
    return [
        count_tokens(texts.slice(start, SLICE_ROWS).combine_chunks())
        for start in range(0, len(texts), SLICE_ROWS)
    ]


class Postings:
    """Row numbers and counts per token, and each row's length in tokens."""

    def __init__(self) -> None:
        self.rows: dict[str, array[int]] = {}
        self.counts: dict[str, array[float]] = {}
        self.lengths: array[float] = array("f")

    def add_slices(self, first_row: int, slices: list[Counted]) -> None:
        """Consecutive slices of rows, the first numbered `first_row`."""
        for counted in slices:
            self.add(first_row, counted)
            first_row += len(counted.lengths)

    def add(self, first_row: int, counted: Counted) -> None:
        """Rows `first_row`, `first_row + 1`, ... with their tokens counted (`count_tokens`)."""
        assert first_row == len(self.lengths), "rows are added in order, once"
        self.lengths.frombytes(counted.lengths.tobytes())
        for word, rows, counts in zip(counted.words, counted.rows, counted.counts, strict=True):
            if word not in self.rows:
                self.rows[word] = array("i")
                self.counts[word] = array("f")
            self.rows[word].frombytes((rows + first_row).astype(np.int32).tobytes())
            self.counts[word].frombytes(counts.tobytes())

    def search(self, words: Iterable[str], alive: np.ndarray, limit: int) -> list[int]:
        """The `limit` live rows scoring best for `words` by BM25, best first (ties: row)."""
        live = int(alive.sum())
        if not live:
            return []
        lengths = np.array(self.lengths, dtype=np.float32)
        average = float(lengths[alive].mean()) or 1.0
        scores = np.zeros(len(lengths), dtype=np.float32)
        for word, asked in Counter(words).items():
            if word not in self.rows:
                continue
            rows = np.array(self.rows[word], dtype=np.int32)
            counts = np.array(self.counts[word], dtype=np.float32)
            keep = alive[rows]
            rows, counts = rows[keep], counts[keep]
            if not len(rows):
                continue
            idf = math.log(1 + (live - len(rows) + 0.5) / (len(rows) + 0.5))
            norm = K1 * (1 - B + B * lengths[rows] / average)
            scores[rows] += asked * idf * counts * (K1 + 1) / (counts + norm)
        found = np.flatnonzero(scores)
        if len(found) > limit:
            found = found[np.argpartition(-scores[found], limit)[:limit]]
        return found[np.lexsort((found, -scores[found]))].tolist()
