"""The chunks and vectors one searcher keeps in memory, changed in place as the index changes.

Rows are held column by column (a list per column, as Arrow hands them over), so loading
46,000 chunks costs a few column copies rather than a Python dict per row. A change touches a
few files, so it costs in proportion to those files: their old rows are marked removed (and
skipped by every lookup), their new rows are appended. Once removed rows make up a quarter
of the whole, the corpus is compacted.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from app.core.paths import (
    EXAMPLE,
    GENERATED,
    HEAD_START_LINE,
    PREVIEW_LANGUAGES,
    TEST,
    generated_header,
    generated_name,
    in_test_module,
    path_role,
    ui_preview,
)
from app.parse.languages import PROSE_LANGUAGES, STYLE_LANGUAGES
from app.search import rerank, translations, versions
from app.search.lexical import (
    TEXT,
    FieldPostings,
    Fields,
    count_fields,
    load_counts,
    rows_digest,
    save_counts,
)
from app.search.tokenize import member_key
from app.search.traceback import MESSAGE_WORDS, names_by_file, repository_path
from app.search.words import text_key, word_text
from app.store.store import CHUNK_COLUMNS, Store

MAX_BLOCKS = 32  # vector blocks added while embedding, merged into one past this many
# Vectors scored this many at a time: OpenBLAS spreads a larger product over threads, whose
# wake-ups took 10-25 ms of a search on a busy 2-core machine, and cuts the rows where the
# number of cores says (a score's last bit then depends on the machine); below it, one thread.
SCORE_ROWS = 512
OWNER_KINDS = frozenset({"class", "struct", "interface", "module"})
# The chunks whose cosine their members may take (OWNER_DISCOUNT).
HEAD_OF_MEMBERS = OWNER_KINDS | rerank.HEAD_KINDS
COMPACT_SHARE = 0.25  # removed rows past this share of all rows trigger a compaction
# A definition's word vector (app.search.words) scores it as its cosine less this; the chunk
# keeps the better of that and its own vector's cosine.
WORD_DISCOUNT = 0.06
# A member (`Clash.method_missing`) also scores its owner's cosine (the `Clash` class head,
# whose doc comment often says what the members do together) less this, when that is better
# (app/bench/RESULTS.md, 2026-12-03).
OWNER_DISCOUNT = 0.05
LOADED_COLUMNS = (*CHUNK_COLUMNS, "search_text")
WORD_COLUMNS = (
    "kind",
    "symbol",
    "parent",
    "path",
    "doc",
    "part",
)  # what words.word_text reads  # the tokens go to the postings, not to rows
# The published chunks' tokens counted (lexical.save_counts), kept beside them
# (Store.derived_path): counting them again took most of a large index's load (Django: 3 of
# 4 s). The name says the format; a change of it counts every index again.
COUNTS_FILE = "bm25f-counts-1.npz"


_NO_VECTORS: tuple[list[str], np.ndarray] = ([], np.zeros((0, 0), dtype=np.float32))


@dataclass(frozen=True, slots=True)
class PathsChange:
    """What one publish changed for some paths: their chunk rows, file stamps and vectors."""

    paths: set[str]
    table: pa.Table
    stamps: dict[str, tuple[int, int]]
    vectors: tuple[list[str], np.ndarray]
    tokens: list[Fields]  # the rows' search tokens, counted per field


# A pasted message's words looked at, at most, for the stretch its raiser holds.
MESSAGE_WORDS_MOST = 24
_RUN_WORD = re.compile(r"\S+")


class Corpus:
    """Rows by number (columns, with an alive mask), file stamps and vectors.
    Not thread-safe by itself: the Searcher serialises access."""

    def __init__(self, store: Store, model_id: str | None, embed_tests: bool) -> None:
        self.model_id = model_id
        self.embed_tests = embed_tests
        self.columns: dict[str, list[Any]] = {name: [] for name in CHUNK_COLUMNS}
        self.position: dict[str, int] = {}
        self.by_path: dict[str, list[int]] = {}
        self.roles: dict[str, str] = {}  # by path: TEST, EXAMPLE, GENERATED or ""
        self.signatures: dict[tuple[str, str], str] = {}
        self.stamps: dict[str, tuple[int, int]] = {}  # (size, mtime) of each file as indexed
        self.name_counts: Counter[str] = Counter()  # live chunks per symbol `name_key`
        self.version_folders: Counter[str] = Counter()  # files per `vN/` folder version
        self.by_member: dict[str, list[int]] = {}  # rows per `member_key` (some removed)
        self.parents: dict[str, set[str]] = {}  # by path: qualified names enclosing a chunk
        self.heads: dict[tuple[str, str], int] = {}  # (path, qualified name) -> its head row
        self.owner_of = np.zeros(0, dtype=np.int64)  # per row: its owner's head row, or -1
        self._by_file_name: dict[str, list[str]] | None = None  # paths by file name, when asked
        self._by_stem: dict[str, list[str]] | None = None  # paths by file name before its dot
        self._newer: dict[str, str] | None = None  # older version's path -> the newest's
        self._translations: dict[str, str] | None = None  # translation's path -> its source
        self.alive = np.zeros(0, dtype=bool)
        self.removed = 0
        self.embeddable = 0  # live rows that get a vector
        # Vector blocks (matrix, row numbers); rows removed later are masked at search time.
        self.dense: list[tuple[np.ndarray, np.ndarray]] = []
        self.missing: dict[str, list[int]] = {}  # embed key -> live rows still without a vector
        # The same for the definitions' word vectors; `word_keys` per row ("" when none).
        self.word_dense: list[tuple[np.ndarray, np.ndarray]] = []
        self.word_missing: dict[str, list[int]] = {}
        self.word_keys: list[str] = []
        self.postings = FieldPostings()
        table = store.chunk_table(LOADED_COLUMNS)
        vectors = _NO_VECTORS
        if model_id is not None:
            vectors = store.vector_matrix(model_id, _vector_keys(table))
        self._append(table, vectors, counted_fields(store, table))
        self.stamps = {f.path: (f.size, f.mtime_ns) for f in store.files().values()}

    @property
    def size(self) -> int:
        return len(self.alive)

    # -- reading ---------------------------------------------------------------------------
    def row(self, chunk_id: str) -> dict[str, Any]:
        index = self.position[chunk_id]
        return {name: values[index] for name, values in self.columns.items()}

    def live_rows(self) -> Iterator[dict[str, Any]]:
        for index in np.flatnonzero(self.alive):
            yield {name: values[index] for name, values in self.columns.items()}

    def candidate_of(self, chunk_id: str) -> rerank.Candidate:
        index = self.position[chunk_id]
        c = self.columns
        language, kind = c["language"][index], c["kind"][index]
        qualified = c["qualified_name"][index] or ""
        return rerank.Candidate(
            chunk_id=chunk_id,
            path=c["path"][index],
            kind=kind,
            language=language,
            line_count=c["end_line"][index] - c["start_line"][index] + 1,
            is_test=self.roles[c["path"][index]] == TEST
            or in_test_module(language, kind, qualified, c["parent"][index] or ""),
            is_example=self.roles[c["path"][index]] == EXAMPLE,
            is_generated=self.roles[c["path"][index]] == GENERATED,
            is_preview=language in PREVIEW_LANGUAGES and ui_preview(language, c["text"][index]),
            is_prose=language in PROSE_LANGUAGES,
            is_style=language in STYLE_LANGUAGES,
            thin=c["thin"][index] or "",
            name=rerank.name_key(c["symbol"][index] or ""),
            symbol=(c["symbol"][index] or "").lstrip("_$"),
            split=bool(qualified) and qualified in self.parents.get(c["path"][index], ()),
            current=self._newer_version_of(c["path"][index]),
            translates=self._translated(c["path"][index]),
        )

    def _read_headers(self, first: int) -> None:
        """Library files whose first chunk (from row `first` on) starts at their top and says
        a tool wrote them are GENERATED; a rewritten file is read again."""
        c = self.columns
        heads: dict[str, int] = {}
        for index in range(first, len(c["path"])):
            path, best = c["path"][index], heads.get(c["path"][index])
            start = c["start_line"][index]
            if start <= HEAD_START_LINE and (best is None or start < c["start_line"][best]):
                heads[path] = index
        for path, index in heads.items():
            if self.roles[path] in ("", GENERATED):
                made = generated_name(path) or generated_header(c["text"][index])
                self.roles[path] = GENERATED if made else ""

    def _newer_version_of(self, path: str) -> str:
        """The newer file `path` is an older version of: beside it in a sibling version
        folder (app.search.versions), or the current file it is the legacy `v1/` copy of
        (skipped, on the search's hot path, in the many indexes with no `v1/` folder)."""
        if self._newer is None:
            self._newer = versions.newer_versions(self.by_path)
        if newer := self._newer.get(path):
            return newer
        if not self.version_folders[rerank.LEGACY_VERSION]:
            return ""
        return rerank.legacy_copy_of(path, self.by_path.__contains__)

    def _translated(self, path: str) -> str:
        """The file `path` translates into another language (app.search.translations)."""
        if self._translations is None:
            self._translations = translations.translations(self.by_path)
        return self._translations.get(path, "")

    def members_named(self, key: str) -> list[str]:
        """Chunk ids of the live definitions whose qualified name ends in `key`
        (`owner.member`); else of the chunks of `owner` whose own text defines `member`
        (a small class is one chunk). Case aside: `Strong.Render` meets `render`, and a
        Java, C# or C++ constructor is spelled as its class (`Parser(`)."""
        ids, alive = self.columns["id"], self.alive
        found = [ids[index] for index in self.by_member.get(key, ()) if alive[index]]
        if found or "." not in key:
            return found
        owner, member = key.rsplit(".", 1)
        spellings = [member, owner] if member == "constructor" else [member]
        defines = re.compile(rf"\b(?:{'|'.join(map(re.escape, spellings))})\s*[(=:]", re.I)
        texts = self.columns["text"]
        return [
            ids[index]
            for index in self.by_member.get(owner, ())
            if alive[index] and defines.search(texts[index])
        ]

    def holding(self, chunk_ids: list[str], texts: list[str]) -> dict[str, list[str]]:
        """For each of `texts`, those of `chunk_ids` whose code holds it verbatim: a phrase
        anywhere (a message, a docstring), a single word as a string literal (`'route'`)."""
        forms = {
            text: (text,) if " " in text else (f"'{text}'", f'"{text}"', f"`{text}`")
            for text in texts
        }
        found: dict[str, list[str]] = {text: [] for text in texts}
        code = self.columns["text"]
        for chunk_id in chunk_ids if texts else ():
            body = code[self.position[chunk_id]]
            for text, spelled in forms.items():
                if any(form in body for form in spelled):
                    found[text].append(chunk_id)
        return found

    def holding_most(
        self, chunk_ids: list[str], runs: list[str], most: int
    ) -> dict[str, list[str]]:
        """For each run of words, its longest stretch (of MESSAGE_WORDS words or more) that
        between 1 and `most` of `chunk_ids` hold as written, and those chunks: a pasted
        message's value written bare (`A source Serilog.Sinks must be provided.`) leaves the
        stretch the code holds (`must be provided`)."""
        found: dict[str, list[str]] = {}
        code = self.columns["text"]
        bodies = [(chunk_id, code[self.position[chunk_id]]) for chunk_id in chunk_ids]
        for run in runs:
            words = [m.span() for m in _RUN_WORD.finditer(run)][:MESSAGE_WORDS_MOST]
            for size in range(len(words), MESSAGE_WORDS - 1, -1):
                stretches = {
                    run[words[i][0] : words[i + size - 1][1]] for i in range(len(words) - size + 1)
                }
                held = {text: [cid for cid, body in bodies if text in body] for text in stretches}
                held = {text: ids for text, ids in held.items() if 0 < len(ids) <= most}
                if held:
                    found.update(held)
                    break
        return found

    def files_named(self, mentions: list[str]) -> set[str]:
        """The repository files that paths a query names (`src/_pytest/skipping.py`, or the
        reporter's `/site-packages/_pytest/skipping.py`) most likely are."""
        found = (repository_path(path, self._file_names()) for path in mentions)
        return {path for path in found if path}

    def files_of_types(self, words: Iterable[str]) -> dict[str, str]:
        """The files named after a type among `words` and defining it (`Channel` ->
        `channels/Channel.kt`, which holds `interface Channel`): path -> the type."""
        symbols, kinds, alive = self.columns["symbol"], self.columns["kind"], self.alive
        found: dict[str, str] = {}
        for word in words:
            for path in self._file_stems().get(word, ()):
                heads = (i for i in self.by_path.get(path, ()) if kinds[i] in rerank.HEAD_KINDS)
                if any(alive[i] and symbols[i] == word for i in heads):
                    found[path] = word
        return found

    def _file_stems(self) -> dict[str, list[str]]:
        """Paths by file name up to its first dot (`Builders.common.kt` -> `Builders`)."""
        if self._by_stem is None:
            self._by_stem = {}
            for name, paths in self._file_names().items():
                self._by_stem.setdefault(name.split(".", 1)[0], []).extend(paths)
        return self._by_stem

    def _file_names(self) -> dict[str, list[str]]:
        if self._by_file_name is None:
            self._by_file_name = names_by_file(self.by_path)
        return self._by_file_name

    def traced(self, frames: list[tuple[str, str]], depth: int) -> dict[str, str]:
        """The chunks of the functions that the `depth` innermost stack frames found in this
        repository ran (chunk id -> "function in path"); a method of a class kept in one
        chunk is found in that chunk's text."""
        if not frames:
            return {}
        ids, symbols, texts = self.columns["id"], self.columns["symbol"], self.columns["text"]
        found: dict[str, str] = {}
        matched = 0
        for path, name in frames:
            local = repository_path(path, self._file_names())
            rows = [i for i in self.by_path.get(local or "", ()) if self.alive[i]]
            ran = [i for i in rows if symbols[i] == name]
            if not ran:
                defines = re.compile(rf"\b(?:def|function|func)\s+{re.escape(name)}\s*\(")
                ran = [i for i in rows if defines.search(texts[i])]
            for index in ran:
                found.setdefault(ids[index], f"{name} in {local}")
            matched += bool(ran)
            if matched == depth:
                break
        return found

    def chunk_of(self, path: str, qualified_name: str, start_line: int) -> str | None:
        """The chunk holding the definition that starts at `start_line` of `path`: the one
        of its name (its first part, when cut), else the smallest chunk around that line."""
        c, alive = self.columns, self.alive
        around = [
            i
            for i in self.by_path.get(path, ())
            if alive[i] and c["start_line"][i] <= start_line <= c["end_line"][i]
        ]
        named = [i for i in around if c["qualified_name"][i] == qualified_name]
        if not named:
            named = [
                i
                for i in self.by_path.get(path, ())
                if alive[i] and c["qualified_name"][i] == qualified_name
            ]
        rows = named or around
        if not rows:
            return None
        best = min(rows, key=lambda i: (abs(c["start_line"][i] - start_line), c["end_line"][i]))
        return str(c["id"][best])

    def has_version(self, version: str) -> bool:
        """Whether some indexed file sits under a `v{version}/` folder."""
        return self.version_folders[version] > 0

    def has_vector(self, chunk_id: str) -> bool:
        index = self.position.get(chunk_id)
        if index is None or self.model_id is None or not self._wants_vector(index):
            return False
        return index not in self.missing.get(self.columns["embed_key"][index], ())

    @property
    def vector_count(self) -> int:
        return sum(int(self.alive[rows].sum()) for _, rows in self.dense)

    @property
    def vectors_ready(self) -> float:
        return self.vector_count / self.embeddable if self.embeddable else 1.0

    def holds(self, word: str) -> bool:
        """Some live chunk holds this search token (anywhere in its whole text)."""
        rows, _ = self.postings.fields[TEXT].holding(word)
        return bool(self.alive[rows].any()) if len(rows) else False

    def bm25(self, words: list[str], limit: int) -> list[str]:
        """Chunk ids of the `limit` live rows that best match the query's tokens, best first."""
        ids = self.columns["id"]
        return [ids[row] for row in self.postings.search(words, self.alive, limit)]

    def fields_holding(self, chunk_id: str, words: list[str]) -> tuple[str, ...]:
        """The weighed fields beside the whole text (name, path, doc) where the chunk holds
        a word of the query's `words`."""
        return tuple(self.postings.fields_holding(self.position[chunk_id], words))

    def nearest(self, query_vector: np.ndarray, limit: int) -> tuple[list[str], set[str], set[str]]:
        """Chunk ids of the `limit` live rows closest to `query_vector`, best first, each by
        the best of its own vector, its word vector less WORD_DISCOUNT and (a member) its
        owner's score less OWNER_DISCOUNT; and the ids placed by their word vector, and by
        their owner."""
        if not self.dense and not self.word_dense:
            return [], set(), set()
        scores = self._scores(self.dense, query_vector)
        by_words = self._scores(self.word_dense, query_vector) - WORD_DISCOUNT
        worded = by_words > scores
        scores = np.where(worded, by_words, scores)
        owned = self.owner_of >= 0
        by_owner = np.full(self.size, -np.inf, dtype=scores.dtype)
        by_owner[owned] = scores[self.owner_of[owned]] - OWNER_DISCOUNT
        from_owner = by_owner > scores
        scores = np.where(from_owner, by_owner, scores)
        scores[~self.alive] = -np.inf
        top = np.argpartition(-scores, min(limit, len(scores) - 1))[:limit]
        top = top[np.argsort(-scores[top], kind="stable")]
        ids = self.columns["id"]
        found = [int(i) for i in top if np.isfinite(scores[i])]
        return (
            [ids[i] for i in found],
            {ids[i] for i in found if worded[i] and not from_owner[i]},
            {ids[i] for i in found if from_owner[i]},
        )

    def _owners(self, first: int) -> np.ndarray:
        """The owner's head row of each row from `first` on (-1: none): the class, struct,
        module or impl chunk of the same file named as the member's qualified name before its
        last dot. A file's rows arrive together, so its heads are known by then."""
        c = self.columns
        rows = range(first, len(c["id"]))
        for index in rows:
            name = c["qualified_name"][index]
            if name and c["part"][index] == 1 and c["kind"][index] in HEAD_OF_MEMBERS:
                self.heads.setdefault((c["path"][index], name), index)
        owners = np.full(len(rows), -1, dtype=np.int64)
        for offset, index in enumerate(rows):
            name = c["qualified_name"][index]
            if name and "." in name and c["kind"][index] not in HEAD_OF_MEMBERS:
                owners[offset] = self.heads.get((c["path"][index], name.rsplit(".", 1)[0]), -1)
        return owners

    def _scores(self, blocks: list[tuple[np.ndarray, np.ndarray]], vector: np.ndarray) -> Any:
        """Cosine per row of the corpus (-inf for a row without a vector in `blocks`)."""
        scores = np.full(self.size, -np.inf, dtype=np.float32)
        for matrix, rows in blocks:
            scores[rows] = vector_scores(matrix, vector)
        return scores

    # -- changing --------------------------------------------------------------------------
    def read_paths(self, store: Store, paths: set[str]) -> PathsChange:
        """Everything a publish that rewrote `paths` changed, read from the store; touches
        nothing in memory, so searches go on meanwhile."""
        table = store.chunks_for_paths(paths, LOADED_COLUMNS)
        vectors = _NO_VECTORS
        if self.model_id is not None and table.num_rows:
            vectors = store.vector_matrix(self.model_id, _vector_keys(table))
        stamps = {f.path: (f.size, f.mtime_ns) for f in store.files_for_paths(paths)}
        tokens = count_fields(table)
        return PathsChange(paths, table, stamps, vectors, tokens)

    def replace_paths(self, change: PathsChange) -> None:
        """Follow a publish that rewrote the chunks of `change.paths` (read by read_paths)."""
        for path in change.paths:
            removed = self.by_path.pop(path, None)
            self.parents.pop(path, None)
            if removed is not None:
                self.version_folders[rerank.version_folder(path)] -= 1
            for index in removed or ():
                self._remove(index)
            self.stamps.pop(path, None)
        self._append(change.table, change.vectors, change.tokens)
        self.stamps.update(change.stamps)

    def add_vectors(self, keys: Iterable[str], matrix: np.ndarray) -> None:
        """Vectors (rows of `matrix`, in the order of `keys`) for rows still missing them,
        their own or their word vector."""
        keys = list(keys)
        self.dense = _added(self.dense, self.missing, keys, matrix)
        self.word_dense = _added(self.word_dense, self.word_missing, keys, matrix)

    @property
    def needs_compaction(self) -> bool:
        return self.removed > COMPACT_SHARE * max(self.size, 1)

    def _wants_vector(self, index: int) -> bool:
        return self.embed_tests or self.roles[self.columns["path"][index]] != TEST

    def _remove(self, index: int) -> None:
        if not self.alive[index]:
            return
        c = self.columns
        if self._wants_vector(index):
            self.embeddable -= 1
            key = c["embed_key"][index]
            _forget(self.missing, key, index)
            _forget(self.word_missing, self.word_keys[index], index)
        self.position.pop(c["id"][index], None)
        if c["qualified_name"][index] and c["part"][index] == 1:
            self.signatures.pop((c["path"][index], c["qualified_name"][index]), None)
            head = (c["path"][index], c["qualified_name"][index])
            if self.heads.get(head) == index:
                del self.heads[head]
        if c["symbol"][index]:
            self.name_counts[rerank.name_key(c["symbol"][index])] -= 1
        self.alive[index] = False
        self.removed += 1

    def _append(
        self,
        table: pa.Table,
        vectors: tuple[list[str], np.ndarray],
        tokens: list[Fields],
    ) -> None:
        """Add the rows of `table`; `vectors` holds (at least) the stored vectors they have,
        `tokens` their search tokens counted."""
        first = self.size
        for name, values in self.columns.items():
            values.extend(table.column(name).to_pylist())
        c = self.columns
        self._by_file_name = self._by_stem = self._newer = self._translations = None
        self.position.update(zip(c["id"][first:], range(first, len(c["id"])), strict=True))
        self.postings.add_slices(first, tokens)
        for index, path in enumerate(c["path"][first:], first):
            rows = self.by_path.get(path)
            if rows is None:
                rows = self.by_path[path] = []
                self.version_folders[rerank.version_folder(path)] += 1
            rows.append(index)
            if c["parent"][index]:
                self.parents.setdefault(path, set()).add(c["parent"][index])
        for path in self.by_path.keys() - self.roles.keys():
            self.roles[path] = path_role(path)
        self._read_headers(first)
        self.name_counts.update(rerank.name_key(s) for s in c["symbol"][first:] if s)
        for index, name in enumerate(c["qualified_name"][first:], first):
            key = member_key(name or "")
            if key:
                self.by_member.setdefault(key, []).append(index)
            elif name and c["kind"][index] in OWNER_KINDS:  # `Owner` holding its members
                self.by_member.setdefault(name.lower(), []).append(index)
        for path, name, part, signature in zip(
            c["path"][first:],
            c["qualified_name"][first:],
            c["part"][first:],
            c["signature"][first:],
            strict=True,
        ):
            if name and part == 1:
                self.signatures[(path, name)] = signature
        self.alive = np.concatenate([self.alive, np.ones(len(c["id"]) - first, dtype=bool)])
        self.owner_of = np.concatenate([self.owner_of, self._owners(first)])
        self.word_keys.extend(_word_keys(table))
        wanted = [i for i in range(first, len(c["id"])) if self._wants_vector(i)]
        self.embeddable += len(wanted)
        if self.model_id is None or not wanted:
            return
        embed_key = self.columns["embed_key"]
        for index in wanted:
            self.missing.setdefault(embed_key[index], []).append(index)
            if self.word_keys[index]:
                self.word_missing.setdefault(self.word_keys[index], []).append(index)
        self.add_vectors(*vectors)


def _added(
    blocks: list[tuple[np.ndarray, np.ndarray]],
    missing: dict[str, list[int]],
    keys: list[str],
    matrix: np.ndarray,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """`blocks` with a block for the rows `missing` waits on among `keys` (rows of `matrix`)."""
    picked, rows = [], []
    for position, key in enumerate(keys):
        for index in missing.pop(key, ()):
            picked.append(position)
            rows.append(index)
    if not rows:
        return blocks
    blocks = [*blocks, (matrix[picked].astype(np.float32, copy=False), np.asarray(rows, np.int64))]
    if len(blocks) > MAX_BLOCKS:
        blocks = [(np.concatenate([m for m, _ in blocks]), np.concatenate([r for _, r in blocks]))]
    return blocks


def _forget(missing: dict[str, list[int]], key: str, index: int) -> None:
    waiting = missing.get(key)
    if waiting and index in waiting:
        waiting.remove(index)
        if not waiting:
            del missing[key]


def _word_keys(table: pa.Table) -> list[str]:
    """Each row's word vector key ("" for a row that has none)."""
    kinds, symbols, parents, paths, docs, parts = (
        table.column(name).to_pylist() for name in WORD_COLUMNS
    )
    texts = (
        word_text(kind, symbol or "", parent or "", path, doc or "", part)
        for kind, symbol, parent, path, doc, part in zip(
            kinds, symbols, parents, paths, docs, parts, strict=True
        )
    )
    return [text_key(text) if text else "" for text in texts]


def _vector_keys(table: pa.Table) -> set[str]:
    """The keys of every vector `table`'s rows may have: their own and their word vectors'."""
    return set(table.column("embed_key").to_pylist()) | set(_word_keys(table)) - {""}


def vector_scores(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """`matrix @ vector`, SCORE_ROWS rows at a time: the same floats whatever the cores."""
    return np.concatenate(
        [matrix[start : start + SCORE_ROWS] @ vector for start in range(0, len(matrix), SCORE_ROWS)]
        or [np.zeros(0, np.float32)]
    )


def counted_fields(store: Store, table: pa.Table) -> list[Fields]:
    """The published chunk `table`'s tokens counted: as the first load of this version saved
    them, else counted and saved for the next load (a read-only index is counted each time)."""
    path = store.derived_path(COUNTS_FILE)
    digest = rows_digest([*table.column("id").to_pylist(), *table.column("embed_key").to_pylist()])
    saved = load_counts(path, digest, table.num_rows) if path is not None else None
    if saved is not None:
        return saved
    counted = count_fields(table)
    if path is not None:
        with contextlib.suppress(OSError):
            save_counts(path, counted, digest)
    return counted
