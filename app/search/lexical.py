"""BM25 over the chunks in memory: blocks of rows grouped by token, one more per change.

The tokens are the index's own (`search_text`, made by app.search.tokenize), so a query's
tokens meet them exactly. Rows removed by a change stay in their block and are skipped
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
MAX_BLOCKS = 32  # small blocks (one per change) kept apart before they are merged into one
K1 = 1.2  # how quickly repeats of a token stop adding to the score
B = 0.75  # how much a long chunk is discounted for being long


@dataclass(frozen=True, slots=True)
class Counted:
    """Some rows' tokens counted, grouped by token: the token with `group[token] == g` is held
    by rows `rows[starts[g]:starts[g + 1]]` (numbered from 0 within these rows), as many times
    as `counts` says; and each row's length in tokens. `group` lists tokens in group order."""

    group: dict[str, int]
    starts: np.ndarray
    rows: np.ndarray
    counts: np.ndarray
    lengths: np.ndarray

    def holding(self, word: str) -> tuple[np.ndarray, np.ndarray] | None:
        """The rows holding `word` and how often (None: none of them)."""
        g = self.group.get(word)
        if g is None:
            return None
        start, end = self.starts[g], self.starts[g + 1]
        return self.rows[start:end], self.counts[start:end]


def count_tokens(texts: pa.Array | Sequence[str]) -> Counted:
    """Count the space-separated tokens of each text in Arrow and NumPy, with no Python object
    per token: the slow part of adding rows, done before the searcher is locked."""
    texts = texts if isinstance(texts, pa.Array) else pa.array(texts, pa.string())
    texts = pc.fill_null(texts, "")
    lists = pc.split_pattern(texts, " ")
    tokens, parents = pc.list_flatten(lists), pc.list_parent_indices(lists)
    present = pc.not_equal(tokens, "")
    tokens, parents = tokens.filter(present), parents.filter(present)
    lengths = np.bincount(parents.to_numpy(), minlength=len(texts)).astype(np.float32)
    if not len(tokens):
        return Counted({}, np.zeros(1, np.int64), np.zeros(0, np.int32), np.zeros(0), lengths)
    encoded = tokens.dictionary_encode()
    span = len(texts)
    pairs = encoded.indices.to_numpy().astype(np.int64) * span + parents.to_numpy()
    pairs, counts = np.unique(pairs, return_counts=True)  # sorted: by token, then row
    words, rows = pairs // span, (pairs % span).astype(np.int32)
    starts = np.flatnonzero(np.diff(words)) + 1
    firsts = np.concatenate(([0], starts))
    vocabulary = encoded.dictionary.to_pylist()
    return Counted(
        {vocabulary[w]: g for g, w in enumerate(words[firsts].tolist())},
        np.concatenate((firsts, [len(pairs)])),
        rows,
        counts.astype(np.float32),
        lengths,
    )


def count_in_slices(texts: pa.ChunkedArray) -> list[Counted]:
    """`count_tokens` over consecutive slices of SLICE_ROWS rows."""
    return [
        count_tokens(texts.slice(start, SLICE_ROWS).combine_chunks())
        for start in range(0, len(texts), SLICE_ROWS)
    ]


class Postings:
    """Blocks of counted rows (each with the number of its first row), and each row's
    length in tokens. A change adds a block; past MAX_BLOCKS the small ones are merged."""

    def __init__(self) -> None:
        self.blocks: list[tuple[int, Counted]] = []
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
        self.blocks.append((first_row, counted))
        small = [block for block in self.blocks if len(block[1].lengths) < SLICE_ROWS]
        if len(small) > MAX_BLOCKS:
            large = [block for block in self.blocks if len(block[1].lengths) >= SLICE_ROWS]
            self.blocks = [*large, _merge(small)]

    def holding(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        """Every row holding `word` (numbered in the corpus) and how often."""
        rows, counts = [], []
        for first_row, counted in self.blocks:
            found = counted.holding(word)
            if found is not None:
                rows.append(found[0] + first_row)
                counts.append(found[1])
        if not rows:
            return np.zeros(0, np.int32), np.zeros(0, np.float32)
        return np.concatenate(rows), np.concatenate(counts)

    def search(self, words: Iterable[str], alive: np.ndarray, limit: int) -> list[int]:
        """The `limit` live rows scoring best for `words` by BM25, best first (ties: row)."""
        live = int(alive.sum())
        if not live:
            return []
        lengths = np.array(self.lengths, dtype=np.float32)
        average = float(lengths[alive].mean()) or 1.0
        scores = np.zeros(len(lengths), dtype=np.float32)
        for word, asked in Counter(words).items():
            rows, counts = self.holding(word)
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


def _merge(blocks: list[tuple[int, Counted]]) -> tuple[int, Counted]:
    """Blocks as one, grouped by token again; rows keep their numbers."""
    first_row = blocks[0][0]
    group: dict[str, int] = {}
    words, rows, counts = [], [], []
    for block_first, counted in blocks:
        ids = np.array([group.setdefault(w, len(group)) for w in counted.group], np.int64)
        sizes = np.diff(counted.starts)
        words.append(np.repeat(ids, sizes))
        rows.append(counted.rows.astype(np.int64) + (block_first - first_row))
        counts.append(counted.counts)
    word, row = np.concatenate(words), np.concatenate(rows)
    order = np.lexsort((row, word))
    word, row = word[order], row[order]
    firsts = np.concatenate(([0], np.flatnonzero(np.diff(word)) + 1))
    lengths = np.concatenate([c.lengths for _, c in blocks])
    merged = Counted(
        {w: g for g, w in enumerate(_names(group)[word[firsts]])},
        np.concatenate((firsts, [len(word)])),
        row.astype(np.int32),
        np.concatenate(counts)[order],
        lengths,
    )
    return first_row, merged


def _names(group: dict[str, int]) -> np.ndarray:
    names = np.empty(len(group), dtype=object)
    for word, g in group.items():
        names[g] = word
    return names
