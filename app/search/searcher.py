"""Search over one opened index: BM25 and vector candidates, RRF, rerank, pack, explain."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from app.core.models import Explanation, Hit, Signal
from app.search import calls, copies, diversity, overloads, rerank
from app.search.corpus import Corpus
from app.search.fuse import RRF_K, reciprocal_rank_fusion
from app.search.pack import Packable, pack
from app.search.tokenize import (
    identifiers,
    member_names,
    quoted_texts,
    tokens,
    without_listings,
)
from app.search.traceback import frames, named_paths, pasted_errors, type_names
from app.store.store import Store

CANDIDATES = 100  # per retriever; fusion and rerank look no deeper
BM25_WEIGHT = 1.0
VECTOR_WEIGHT = 1.0
# A definition the query names as `Owner.member` joins the candidates even when neither
# retriever ranked it, scored as if ranked just below the last candidate.
NAMED_JOIN_SCORE = BM25_WEIGHT / (RRF_K + CANDIDATES + 1)
# What --explain says of a chunk both retrievers rank first that the rerank factors would
# have pushed off the list: it keeps the last place.
DOUBLE_FIRST = Signal("double-first", 1.0, "both retrievers rank it first: kept in the list")
_QUERY_EMBEDDER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="repolens-query")


class SearchSuperseded(Exception):
    """A newer query replaced this one before it finished."""


@dataclass(slots=True)
class SearchResult:
    query: str
    hits: list[Hit]
    timings_ms: dict[str, float] = field(default_factory=dict)
    vectors_ready: float = 0.0  # share of chunks with a vector: below 1, dense search is partial


class Searcher:
    """Holds one index's chunks and vectors in memory; cheap to query many times.

    `apply` follows a publish in place, in proportion to the files that changed; vectors
    that arrive while embedding join with `add_vectors`. Searches and changes take turns."""

    def __init__(
        self,
        store: Store,
        embedder: Any | None,
        *,
        embed_tests: bool = False,
        model_id: str | None = None,
        check_stale: bool = True,
    ) -> None:
        """`model_id` loads the vectors before `embedder` is set (it loads meanwhile);
        `check_stale` False: the files are not here (a copied index), so none is stale."""
        self.store = store
        self.check_stale = check_stale
        self.embedder = embedder
        self.embed_tests = embed_tests
        self.model_id = model_id or (None if embedder is None else str(embedder.model_id))
        # Answers "what does X call" / "who calls X" from the call graph (set by the facade,
        # which owns the graph); None: such questions rank as any other.
        self.call_graph: calls.CallGraph | None = None
        self._lock = threading.RLock()
        self.corpus = Corpus(store, self.model_id, embed_tests)

    def apply(self, store: Store, paths: set[str] | None) -> None:
        """The index was published again: `paths` had their chunks rewritten (None: any)."""
        if paths is None or (self.corpus.needs_compaction and paths):
            fresh = Corpus(store, self.model_id, self.embed_tests)
            with self._lock:
                self.store, self.corpus = store, fresh
            return
        change = self.corpus.read_paths(store, paths)  # searches go on while it reads
        with self._lock:
            self.store = store
            self.corpus.replace_paths(change)

    def add_vectors(self, keys: list[str], matrix: np.ndarray) -> None:
        """Vectors just embedded: chunks waiting for them join dense search now."""
        with self._lock:
            self.corpus.add_vectors(keys, matrix)

    def has_vector(self, chunk_id: str) -> bool:
        """Whether dense search can find this chunk (its vector is loaded)."""
        with self._lock:
            return self.corpus.has_vector(chunk_id)

    @property
    def vectors_ready(self) -> float:
        with self._lock:
            return self.corpus.vectors_ready

    def holds(self, word: str) -> bool:
        """Some chunk of the index holds this search token (a word the repository uses)."""
        with self._lock:
            return self.corpus.holds(word)

    def search(
        self,
        query: str,
        k: int,
        budget_tokens: int,
        superseded: threading.Event | None = None,
        cut_tokens: int = 0,
    ) -> SearchResult:
        """Raises SearchSuperseded, between stages, once `superseded` is set (a newer query
        was typed): the rest of the work would be thrown away. `cut_tokens`: a hit whose body
        does not fit the budget gets up to this many tokens of its first lines beyond its
        signature, where room is left (app.search.pack; 0: the signature alone)."""
        asked_calls = calls.question_of(query) if self.call_graph is not None else None
        started = time.perf_counter()
        # The graph is read before the lock: loading it once must not hold up other searches.
        answer = self.call_graph(asked_calls) if self.call_graph and asked_calls else None
        graph_ms = _ms(started)
        with self._lock:
            result = self._search(
                query, k, budget_tokens, superseded or threading.Event(), answer, cut_tokens
            )
        if asked_calls is not None:
            result.timings_ms["graph"] = graph_ms
        return result

    def _search(
        self,
        query: str,
        k: int,
        budget_tokens: int,
        superseded: threading.Event,
        answer: calls.CallAnswer | None = None,
        cut_tokens: int = 0,
    ) -> SearchResult:
        timings: dict[str, float] = {}
        begun = time.perf_counter()
        asked, query = query, without_listings(query)
        # The query is embedded (in ONNX Runtime, outside Python) while BM25 runs, so on two
        # cores the search costs about the longer of the two, not their sum.
        embedding = None
        if self.embedder is not None and self.corpus.dense:
            embedding = _QUERY_EMBEDDER.submit(_timed, self.embedder.embed_query, query)
        started = time.perf_counter()
        words = tokens(query)
        lexical = self.corpus.bm25(words, CANDIDATES)
        timings["bm25"] = _ms(started)

        dense: list[str] = []
        worded: set[str] = set()
        owned: set[str] = set()
        if embedding is not None:
            query_vector, timings["embed_query"] = embedding.result()
            if superseded.is_set():
                raise SearchSuperseded(asked)
            started = time.perf_counter()
            dense, worded, owned = self.corpus.nearest(query_vector, CANDIDATES)
            timings["vector"] = _ms(started)

        started = time.perf_counter()
        fused = reciprocal_rank_fusion([lexical, dense], weights=[BM25_WEIGHT, VECTOR_WEIGHT])
        facts = self._facts(query, list(fused))
        lifted, targets = self._graph_chunks(answer)
        for chunk_id in (*facts.members, *facts.traced, *lifted, *targets):  # even if unretrieved
            fused.setdefault(chunk_id, NAMED_JOIN_SCORE)
        lexical_rank = {chunk_id: rank for rank, chunk_id in enumerate(lexical, 1)}
        dense_rank = {chunk_id: rank for rank, chunk_id in enumerate(dense, 1)}
        explained: dict[str, Explanation] = {}
        final: dict[str, float] = {}
        for chunk_id, fused_score in fused.items():
            signals = rerank.signals_for(self.corpus.candidate_of(chunk_id), facts)
            score = rerank.apply(fused_score, signals)
            final[chunk_id] = score
            explained[chunk_id] = Explanation(
                lexical_rank.get(chunk_id),
                dense_rank.get(chunk_id),
                fused_score,
                tuple(signals),
                score,
                vector_by_words=chunk_id in worded,
                vector_by_owner=chunk_id in owned,
            )
        if answer is not None and lifted:
            self._lift(answer, lifted, fused, final, explained)
        ranked = sorted(final, key=lambda chunk_id: (-final[chunk_id], chunk_id))
        ranked, folded = overloads.fold(ranked, self._overload_key)
        ranked, copied = copies.fold(ranked, self._copy_group, self._path_of, self._text_of)
        double = lexical[0] if lexical and dense and lexical[0] == dense[0] else None
        ranked = self._spread(
            self._by_file_evidence(ranked, final, explained), final, explained, double
        )
        if double is not None and double in ranked[k:]:
            # Both retrievers rank it first: no penalty may push it off the list.
            ranked = diversity.keep_in_list(ranked, double, k)
            said = (*explained[double].signals, DOUBLE_FIRST)
            explained[double] = replace(explained[double], signals=said)
        for target in targets:  # the definition asked about stays beside its neighbours
            ranked = diversity.keep_in_list(ranked, target, k)
        for chunk_id, others in folded.items():
            lines = [self.corpus.row(other)["start_line"] for other in others]
            name = self.corpus.row(chunk_id)["qualified_name"]
            said = (*explained[chunk_id].signals, overloads.signal(name, lines))
            explained[chunk_id] = replace(explained[chunk_id], signals=said)
        for chunk_id, others in copied.items():
            said = (*explained[chunk_id].signals, copies.signal([self._path_of(o) for o in others]))
            explained[chunk_id] = replace(explained[chunk_id], signals=said)
        timings["rerank"] = _ms(started)

        started = time.perf_counter()
        packed = pack(
            [self._packable(chunk_id, ranked[:k]) for chunk_id in ranked[: k * 3]],
            budget_tokens,
            k,
            cut_tokens=cut_tokens,
        )
        for item in packed:  # what lifted each hit BM25 ranked, said for the few shown
            if explained[item.chunk_id].bm25_rank is not None:
                fields = self.corpus.fields_holding(item.chunk_id, words)
                explained[item.chunk_id] = replace(explained[item.chunk_id], bm25_fields=fields)
        hits = [
            self._hit(item.chunk_id, item.text, item.form, explained[item.chunk_id])
            for item in packed
        ]
        stale = {
            path for path in {hit.path for hit in hits} if self.check_stale and self.is_stale(path)
        }
        hits = [replace(hit, stale=True) if hit.path in stale else hit for hit in hits]
        timings["pack"] = _ms(started)
        timings["total"] = _ms(begun)
        return SearchResult(asked, hits, timings, self.corpus.vectors_ready)

    def _graph_chunks(
        self, answer: calls.CallAnswer | None
    ) -> tuple[dict[str, calls.Neighbour], list[str]]:
        """The chunks of the graph's lifted neighbours (chunk id -> the neighbour, most
        confident kept) and of the definitions the question names."""
        if answer is None:
            return {}, []
        lifted: dict[str, calls.Neighbour] = {}
        for neighbour in answer.neighbours:
            if neighbour.confidence < calls.LIFT_CONFIDENCE:
                continue
            chunk_id = self._chunk_of(neighbour.definition)
            held = lifted.get(chunk_id or "")
            if chunk_id and (held is None or held.confidence < neighbour.confidence):
                lifted[chunk_id] = neighbour
        targets = [self._chunk_of(target) for target in answer.targets]
        return lifted, list(dict.fromkeys(t for t in targets if t))

    def _chunk_of(self, definition: calls.Definition) -> str | None:
        return self.corpus.chunk_of(
            definition.path, definition.qualified_name, definition.start_line
        )

    def _lift(
        self,
        answer: calls.CallAnswer,
        lifted: dict[str, calls.Neighbour],
        fused: dict[str, float],
        final: dict[str, float],
        explained: dict[str, Explanation],
    ) -> None:
        """Raise the graph's neighbours above the best hit (`calls.lifted_score`); their
        other signals (test code, thin) still apply on top."""
        top = max(final.values())
        for chunk_id, neighbour in lifted.items():
            base = calls.lifted_score(top, neighbour.confidence, fused[chunk_id])
            lift = calls.signal(answer, neighbour, base / fused[chunk_id])
            signals = (lift, *explained[chunk_id].signals)
            final[chunk_id] = rerank.apply(fused[chunk_id], list(signals))
            explained[chunk_id] = replace(
                explained[chunk_id], signals=signals, final_score=final[chunk_id]
            )

    def _by_file_evidence(
        self, ranked: list[str], final: dict[str, float], explained: dict[str, Explanation]
    ) -> list[str]:
        """`ranked` once each chunk is raised by its file's other matching chunks
        (`diversity.evidence_factors`); `final` and `explained` say so."""
        raised = diversity.evidence_factors(ranked, final, self._path_of)
        for chunk_id, factor in raised.items():
            final[chunk_id] *= factor
            said = (*explained[chunk_id].signals, diversity.evidence_signal(factor))
            explained[chunk_id] = replace(
                explained[chunk_id], signals=said, final_score=final[chunk_id]
            )
        place = {chunk_id: i for i, chunk_id in enumerate(ranked)}
        return sorted(ranked, key=lambda chunk_id: (-final[chunk_id], place[chunk_id]))

    def _spread(
        self,
        ranked: list[str],
        final: dict[str, float],
        explained: dict[str, Explanation],
        double: str | None,
    ) -> list[str]:
        """`ranked` spread over files (`diversity.spread`), each chunk lowered saying why."""
        ranked, earlier = diversity.spread(ranked, final, self._path_of, keep=double)
        for chunk_id, count in earlier.items():
            lowered = diversity.signal(count)
            said = (*explained[chunk_id].signals, lowered)
            score = final[chunk_id] * lowered.factor
            explained[chunk_id] = replace(explained[chunk_id], signals=said, final_score=score)
        return ranked

    def _facts(self, query: str, candidates: list[str]) -> rerank.QueryFacts:
        """What the query says about itself, checked against this index: the names it spells
        (`Expression.compile`, `QuerySet`), the version it asks about, the texts it quotes
        that few `candidates` hold, the files it names, the functions its pasted stack trace
        ran."""
        lookup = rerank.looked_up(query)
        errors = pasted_errors(query)
        # A pasted error's type (`InvalidURL: ...`) says what was raised, not what to read:
        # the code raising it is, found by its message.
        raised = {rerank.name_key(name) for kind, _ in errors for name in type_names(kind)}
        words = [w for w in identifiers(query) if rerank.name_key(w) not in raised] or (
            [lookup] if lookup else []
        )
        keys = {rerank.name_key(word) for word in words}
        # A name looked up alone with a capital (`Flow`) is spelled as it is defined.
        loose = {
            rerank.name_key(word)
            for word in words
            if not rerank.spelled_exactly(word) and not (word == lookup and not word.islower())
        }
        spellings: dict[str, set[str]] = {}  # mixed-case spellings, for names never spelled loosely
        for word in words:
            if rerank.name_key(word) not in loose:
                spellings.setdefault(rerank.name_key(word), set()).add(word.lstrip("_$"))
        versions = [v for v in rerank.versions_asked(query) if self.corpus.has_version(v)]
        held = self.corpus.holding(candidates, quoted_texts(query))
        runs = [run for _, runs in errors for run in runs]
        messages = self.corpus.holding_most(candidates, runs, rerank.QUOTED_MOST)
        files = self.corpus.files_named(named_paths(query))
        typed = self.corpus.files_of_types(
            [w for w in rerank.capitalised(query) if rerank.name_key(w) not in raised]
        )
        return rerank.QueryFacts(
            named={key: self.corpus.name_counts[key] for key in keys},
            spellings={key: frozenset(spelled) for key, spelled in spellings.items()},
            version=versions[0] if len(set(versions)) == 1 else "",
            members={
                chunk_id: pair
                for pair in member_names(query)
                if rerank.name_key(pair.rsplit(".", 1)[-1]) not in raised
                for chunk_id in self.corpus.members_named(pair)
            },
            quoting={
                chunk_id: text
                for text, holders in held.items()
                if len(holders) <= rerank.QUOTED_MOST
                for chunk_id in holders
            },
            pasted={chunk_id: text for text, holders in messages.items() for chunk_id in holders},
            traced=self.corpus.traced(frames(query), rerank.TRACEBACK_DEPTH),
            files=frozenset(files) if len(files) <= rerank.NAMED_FILES_MOST else frozenset(),
            lookup=rerank.name_key(lookup) if lookup else "",
            type_files=typed if len(typed) <= rerank.NAMED_FILES_MOST else {},
        )

    def is_stale(self, path: str) -> bool:
        """Whether `path` changed on disk (or vanished) since it was indexed."""
        try:
            st = os.stat(self.store.repo_root / path)
        except OSError:
            return True
        return self.corpus.stamps.get(path) != (st.st_size, st.st_mtime_ns)

    def _path_of(self, chunk_id: str) -> str:
        return str(self.corpus.columns["path"][self.corpus.position[chunk_id]])

    def _overload_key(self, chunk_id: str) -> tuple[str, str] | None:
        """(path, qualified name) of a whole function or method: what its overloads share
        (in Swift with the argument labels, which name a function there)."""
        index, c = self.corpus.position[chunk_id], self.corpus.columns
        name = c["qualified_name"][index]
        whole = c["parts"][index] == 1 and c["kind"][index] in overloads.FUNCTION_KINDS
        if not (whole and name):
            return None
        if c["language"][index] == "swift":
            name += f"({overloads.swift_labels(c['signature'][index], c['symbol'][index])})"
        return c["path"][index], name

    def _copy_group(self, chunk_id: str) -> str:
        """What a chunk's copies share besides their code: its qualified name, and its
        version folder (one definition in `v1/` and `v2/` is two versions, each read with
        the `other-version` signal, not a copy); "" for a nameless chunk."""
        index = self.corpus.position[chunk_id]
        name = str(self.corpus.columns["qualified_name"][index] or "")
        version = rerank.version_folder(str(self.corpus.columns["path"][index]))
        return f"{name} v{version}" if name else ""

    def _text_of(self, chunk_id: str) -> str:
        return str(self.corpus.columns["text"][self.corpus.position[chunk_id]])

    def _packable(self, chunk_id: str, leading: list[str]) -> Packable:
        row = self.corpus.row(chunk_id)
        parent_signature = ""
        if row["parent"] and row["kind"] == "method":
            parent_id_in_results = any(
                self.corpus.row(other)["qualified_name"] == row["parent"]
                and self.corpus.row(other)["path"] == row["path"]
                for other in leading
            )
            if not parent_id_in_results:
                parent_signature = self.corpus.signatures.get((row["path"], row["parent"]), "")
        return Packable(chunk_id, row["text"], row["signature"], parent_signature)

    def _hit(self, chunk_id: str, text: str, form: str, explanation: Explanation) -> Hit:
        row = self.corpus.row(chunk_id)
        return Hit(
            chunk_id=chunk_id,
            path=row["path"],
            start_line=row["start_line"],
            end_line=row["end_line"],
            symbol=row["symbol"],
            qualified_name=row["qualified_name"],
            kind=row["kind"],
            language=row["language"],
            score=explanation.final_score,
            text=text,
            packed=form,
            explanation=explanation,
            doc=row["doc"],
            signature=row["signature"],
        )


def _timed(function: Any, *args: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    return function(*args), _ms(started)


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
