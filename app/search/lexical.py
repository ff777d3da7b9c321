"""BM25F over the chunks in memory: per field, blocks of rows grouped by token, one more per
change.

The fields are a chunk's whole token text (`search_text`, made by app.search.tokenize, so a
query's tokens meet them exactly) and, again, the parts that say what the chunk is: its
definition's name, its file's path and its doc comment. Rows removed by a change stay in
their blocks and are skipped through the corpus's alive mask, until the corpus is compacted
and built afresh.
"""

from __future__ import annotations

import hashlib
import math
import os
import tempfile
import zipfile
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from app.search.tokenize import token_text

SLICE_ROWS = 10_000  # rows counted at a time: bounds the memory counting takes
MAX_BLOCKS = 32  # small blocks (one per change) kept apart before they are merged into one
K1 = 1.2  # how quickly repeats of a token stop adding to the score
B = 0.75  # how much a long chunk (or name, path, doc) is discounted for being long
TEXT = "text"  # every token of the chunk: header, name, doc and body
FIELDS = (TEXT, "name", "path", "doc")
# How much a token counts in each field, against 1 in the whole text (where it is counted
# too): fitted on dev, dev2 and semble-dev together (app/bench/RESULTS.md, 2026-12-01).
WEIGHTS: Mapping[str, float] = {TEXT: 1.0, "name": 1.0, "path": 1.0, "doc": 0.0}
# Fields whose weighed BM25 is added on its own (a column of its own, saturating apart);
# the others' counts join the whole text's before saturation, as BM25F has them.
APART: frozenset[str] = frozenset()


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


Fields = dict[str, Counted]  # one set of rows counted in each field of FIELDS


def field_texts(table: pa.Table) -> dict[str, pa.Array]:
    """Each field's token text per chunk row (columns search_text, qualified_name, symbol,
    path and doc): the name with its owner (`Client.send` -> client send)."""
    names = [
        token_text(qualified or symbol or "")
        for qualified, symbol in zip(
            table.column("qualified_name").to_pylist(),
            table.column("symbol").to_pylist(),
            strict=True,
        )
    ]
    by_path: dict[str, str] = {}
    paths = [
        by_path.get(path) or by_path.setdefault(path, token_text(path))
        for path in table.column("path").to_pylist()
    ]
    docs = [token_text(doc) if doc else "" for doc in table.column("doc").to_pylist()]
    return {
        TEXT: table.column("search_text").combine_chunks(),
        "name": pa.array(names, pa.string()),
        "path": pa.array(paths, pa.string()),
        "doc": pa.array(docs, pa.string()),
    }


def count_fields(table: pa.Table) -> list[Fields]:
    """Every field's tokens counted (`count_tokens`), over consecutive slices of SLICE_ROWS
    rows."""
    texts = field_texts(table)
    return [
        {field: count_tokens(texts[field].slice(start, SLICE_ROWS)) for field in FIELDS}
        for start in range(0, table.num_rows, SLICE_ROWS)
    ]


_PARTS = ("starts", "rows", "counts", "lengths")


def rows_digest(ids: Sequence[str]) -> str:
    """What saved counts are checked against: the rows they were counted for (their ids and
    text keys), in order."""
    return hashlib.blake2b("\n".join(ids).encode(), digest_size=16).hexdigest()


def save_counts(path: Path, slices: list[Fields], digest: str) -> None:
    """Write counted slices (`count_fields`) beside the index, whole or not at all: to a
    temporary file first, then renamed over `path`."""
    arrays: dict[str, np.ndarray] = {"digest": np.frombuffer(digest.encode(), np.uint8)}
    for number, fields in enumerate(slices):
        for name, counted in fields.items():
            key = f"{number}.{name}"
            arrays[f"{key}.words"] = np.frombuffer(" ".join(counted.group).encode(), np.uint8)
            arrays.update({f"{key}.{part}": getattr(counted, part) for part in _PARTS})
    with tempfile.NamedTemporaryFile(
        dir=path.parent, prefix=f".{path.name}.", delete=False
    ) as handle:
        staging = Path(handle.name)
        try:
            # numpy's stubs type the named arrays as its allow_pickle flag.
            np.savez(handle, **arrays)  # type: ignore[arg-type]
        except BaseException:
            staging.unlink(missing_ok=True)
            raise
    try:
        staging.chmod(0o644)  # as the tables beside it (a temporary file is the owner's only)
        os.replace(staging, path)
    finally:
        staging.unlink(missing_ok=True)


def load_counts(path: Path, digest: str, rows: int) -> list[Fields] | None:
    """The slices `save_counts` wrote for these `rows` rows of this `digest` (None: none, for
    other rows, or unreadable or inconsistent: then they are counted again)."""
    try:
        with np.load(path, allow_pickle=False) as saved:
            if bytes(saved["digest"]).decode() != digest:
                return None
            slices: list[Fields] = []
            while f"{len(slices)}.{TEXT}.starts" in saved.files:
                slices.append({field: _saved(saved, f"{len(slices)}.{field}") for field in FIELDS})
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        return None
    sizes = [{len(counted.lengths) for counted in fields.values()} for fields in slices]
    if any(len(size) != 1 for size in sizes) or sum(size.pop() for size in sizes) != rows:
        return None
    return slices


def _saved(saved: Mapping[str, np.ndarray], key: str) -> Counted:
    words = bytes(saved[f"{key}.words"]).decode()
    group = {word: g for g, word in enumerate(words.split(" "))} if words else {}
    starts, rows, counts, lengths = (saved[f"{key}.{part}"] for part in _PARTS)
    if len(starts) != len(group) + 1 or not starts[-1] == len(rows) == len(counts):
        raise ValueError(f"{key}: {len(group)} words, {len(starts)} starts, {len(rows)} rows")
    if len(rows) and not 0 <= rows.min() <= rows.max() < len(lengths):
        raise ValueError(f"{key}: a row past the {len(lengths)} counted")
    return Counted(group, starts, rows, counts, lengths)


class Postings:
    """One field's blocks of counted rows (each with the number of its first row), and each
    row's length in tokens. A change adds a block; past MAX_BLOCKS the small ones are merged."""

    def __init__(self) -> None:
        self.blocks: list[tuple[int, Counted]] = []
        self.lengths: array[float] = array("f")

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
        """The `limit` live rows scoring best for `words` by plain BM25 (this one field)."""
        return bm25f([(self, 1.0, False)], words, alive, limit)

    def length_norms(self, alive: np.ndarray) -> np.ndarray:
        """Each row's length against the field's average over the live rows that have it:
        what BM25 divides a token's count by."""
        lengths = np.array(self.lengths, dtype=np.float64)
        held = lengths[alive & (lengths > 0)]
        average = float(held.mean()) if len(held) else 1.0
        return 1 - B + B * lengths / average


class FieldPostings:
    """One Postings per field of FIELDS, rows numbered alike; searched by BM25F with
    `weights` (a field missing from them or weighed 0 is not read); the fields in `apart`
    add a weighed BM25 of their own instead."""

    def __init__(
        self, weights: Mapping[str, float] = WEIGHTS, apart: frozenset[str] = APART
    ) -> None:
        self.fields = {field: Postings() for field in FIELDS}
        self.weights = dict(weights)
        self.apart = apart

    def add_slices(self, first_row: int, slices: list[Fields]) -> None:
        """Consecutive slices of rows, the first numbered `first_row`."""
        for counted in slices:
            for field, postings in self.fields.items():
                postings.add(first_row, counted[field])
            first_row += len(counted[TEXT].lengths)

    def search(self, words: Iterable[str], alive: np.ndarray, limit: int) -> list[int]:
        """The `limit` live rows scoring best for `words` by BM25F, best first (ties: row)."""
        weighed = [(self.fields[f], w, f in self.apart) for f, w in self.weights.items() if w > 0]
        return bm25f(weighed, words, alive, limit)

    def fields_holding(self, row: int, words: Iterable[str]) -> list[str]:
        """The weighed fields other than the whole text in which `row` holds a word of
        `words`: what made a definition's name, path or doc count."""
        wanted = set(words)
        return [
            field
            for field, postings in self.fields.items()
            if field != TEXT
            and self.weights.get(field, 0) > 0
            and any(row in postings.holding(word)[0] for word in wanted)
        ]


def bm25f(
    fields: Sequence[tuple[Postings, float, bool]],
    words: Iterable[str],
    alive: np.ndarray,
    limit: int,
) -> list[int]:
    """The `limit` live rows scoring best for `words` by BM25F over `fields` (postings,
    weight, whether it saturates apart), best first (ties: row). Per word, its counts in
    each field, divided by that field's length norm and weighed, are summed before BM25's
    saturation; a field apart adds its own saturated count, weighed. One IDF per word, from
    the live rows holding it in any field."""
    live = int(alive.sum())
    if not live or not fields:
        return []
    norms = [(postings, w, apart, postings.length_norms(alive)) for postings, w, apart in fields]
    scores = np.zeros(len(alive), dtype=np.float64)
    weighed = np.zeros(len(alive), dtype=np.float64)  # the word's weighed count, per row
    added = np.zeros(len(alive), dtype=np.float64)  # its fields apart, saturated and weighed
    for word, asked in Counter(words).items():
        held = []
        for postings, weight, apart, norm in norms:
            rows, counts = postings.holding(word)
            rows, counts = rows[alive[rows]], counts[alive[rows]]
            if len(rows):
                tf = counts / norm[rows]
                if apart:
                    added[rows] += weight * _saturated(tf)
                else:
                    weighed[rows] += weight * tf
                held.append(rows)
        if not held:
            continue
        rows = held[0] if len(held) == 1 else np.unique(np.concatenate(held))
        idf = math.log(1 + (live - len(rows) + 0.5) / (len(rows) + 0.5))
        scores[rows] += asked * idf * (_saturated(weighed[rows]) + added[rows])
        weighed[rows] = 0
        added[rows] = 0
    found = np.flatnonzero(scores)
    if len(found) > limit:
        found = found[np.argpartition(-scores[found], limit)[:limit]]
    return found[np.lexsort((found, -scores[found]))].tolist()


def _saturated(tf: np.ndarray) -> np.ndarray:
    """BM25's term frequency part: 0 at 0, rising towards K1 + 1 as repeats add less."""
    return tf * (K1 + 1) / (K1 + tf)


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
