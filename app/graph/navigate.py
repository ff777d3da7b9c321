"""The call graph in memory for answering: callers, callees, hotspots, fuzzy symbol lookup."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from app.core.models import TIERS, tier_of
from app.core.paths import (
    EXAMPLE,
    PREVIEW_LANGUAGES,
    generated_file,
    is_test_code,
    is_test_path,
    path_role,
    ui_preview,
)
from app.graph.dispatch import Hierarchy, dispatched_callers, implementing
from app.graph.facts import split_id
from app.graph.rank import hotspot_score
from app.parse.calls import has_calls
from app.parse.languages import language_for_path
from app.store.graph_tables import GRAPH_EDGES, GRAPH_FILES, GRAPH_SYMBOLS

MODULE_SYMBOL = "<module>"
MAX_UNRESOLVED = 50
HOTSPOT_KINDS = frozenset({"function", "method", "class", "struct", "interface", "trait", "script"})


class GraphError(Exception):
    """A symbol the graph cannot answer for; the message is for people."""


@dataclass(frozen=True, slots=True)
class CallEntry:
    """One caller or callee, with the call line that is its evidence."""

    path: str
    start_line: int
    end_line: int
    symbol: str
    tier: str
    confidence: float
    line: int
    rule: str
    call_path: str  # the file the call is in (the caller's)
    test: bool = False  # the other end (the caller, or the callee) is test code

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "symbol": self.symbol,
            "tier": self.tier,
            "confidence": self.confidence,
            "line": self.line,
            "rule": self.rule,
            "test": self.test,
        }


@dataclass(frozen=True, slots=True)
class CallsAnswer:
    symbol: str  # the qualified name asked about
    path: str
    entries: tuple[CallEntry, ...]  # by tier; in a tier, code before tests, most confident first
    unresolved: tuple[dict[str, Any], ...]
    hidden_tests: int = 0  # entries left out because they are test code
    # The symbol's language when the index reads no calls in it (Elixir, Haskell, Zig, ...):
    # an empty answer then means "not read", not "none".
    calls_not_read: str = ""

    def by_tier(self) -> dict[str, list[CallEntry]]:
        groups: dict[str, list[CallEntry]] = {tier: [] for tier in TIERS}
        for entry in self.entries:
            groups[entry.tier].append(entry)
        return groups


def tier_floor(min_tier: str) -> float:
    return {"certain": 0.9, "probable": 0.7, "uncertain": 0.0}[min_tier]


class GraphView:
    """Symbols and edges of one published index, indexed both ways."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self._generated: dict[str, bool] = {}  # path -> its header says a tool wrote it
        self.pending_files = len(store.manifest.graph_pending)  # not caught up with yet
        self.repo_root = store.manifest.repo_root
        symbols = store.read_table(GRAPH_SYMBOLS).to_pylist()
        self.symbols: dict[str, dict[str, Any]] = {row["id"]: row for row in symbols}
        self.by_qualified: dict[str, list[str]] = defaultdict(list)
        self.by_name: dict[str, list[str]] = defaultdict(list)
        for sid, row in self.symbols.items():
            self.by_qualified[row["qualified_name"]].append(sid)
            self.by_name[row["name"]].append(sid)
        self.incoming: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.outgoing: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.unresolved_from: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.unresolved_named: dict[str, list[dict[str, Any]]] = defaultdict(list)
        columns = ["path", "caller", "callee", "callee_text", "line", "confidence", "rule"]
        for row in store.read_table(GRAPH_EDGES, columns).to_pylist():
            row["confidence"] = round(float(row["confidence"]), 3)
            if row["callee"]:
                self.incoming[row["callee"]].append(row)
                self.outgoing[row["caller"]].append(row)
            else:
                self.unresolved_from[row["caller"]].append(row)
                name = row["callee_text"].rsplit(".", 1)[-1]
                self.unresolved_named[name].append(row)

    def find(self, query: str) -> str:
        """The one symbol `query` names: an id (`path::Q`), a qualified name, `Class.method`
        or a bare name. Several matches are an error that lists them."""
        matches = self.matches(query)
        if not matches and self.pending_files:  # it may be in a file the graph has not read
            files = f"{self.pending_files} file{'s' if self.pending_files != 1 else ''}"
            raise GraphError(
                f"no definition named {query!r} yet: the call graph is still being built "
                f"({files} pending); try again in a moment or run "
                f"`repolens-tui index {self.repo_root or 'PATH'}`"
            )
        if not matches:
            raise GraphError(f"no definition named {query!r} in the index; try `symbols QUERY`")
        if len(matches) > 1:
            code = [m for m in matches if not self.is_test(m)]
            matches = code if len(code) == 1 else matches
        if len(matches) > 1:  # a type and its extensions (Swift) or impl blocks (Rust): the type
            types = [m for m in matches if self.symbols[m]["kind"] != "impl"]
            matches = types if len(types) == 1 else matches
        if len(matches) > 1:
            listed = ", ".join(sorted(matches)[:6]) + (" ..." if len(matches) > 6 else "")
            raise GraphError(
                f"{query!r} names {len(matches)} definitions ({listed}); "
                "give Class.method, the qualified name or path::qualified_name"
            )
        return matches[0]

    def matches(self, query: str) -> list[str]:
        """Every symbol id `query` names, as `find` reads it (none: an empty list)."""
        if query in self.symbols:
            return [query]
        return list(self.by_qualified.get(query) or [
            sid for sid in self.by_name.get(query.rsplit(".", 1)[-1], [])
            if self.symbols[sid]["qualified_name"].endswith("." + query)
        ] or self.by_name.get(query, []))  # fmt: skip

    def definitions(self, query: str) -> list[dict[str, Any]]:
        """The symbols `query` names (all of them when several), as `symbols --json` rows."""
        return [_symbol_json(self.symbols[sid]) for sid in sorted(self.matches(query))]

    def is_test(self, sid: str) -> bool:
        """Whether a symbol is test code: in a test file, or a test inside a library file (a
        Rust `mod tests`, a Zig `test "name"` block)."""
        path, qualified = split_id(sid)
        row = self.symbols.get(sid)
        if row is None:
            return is_test_path(path)
        return is_test_code(path, row["kind"], qualified, row["parent"])

    def _entry(self, sid: str, edge: dict[str, Any]) -> CallEntry:
        path, qualified = split_id(sid)
        row = self.symbols.get(sid)
        start, end = (row["start_line"], row["end_line"]) if row else (1, 1)
        return CallEntry(
            path, start, end, qualified or MODULE_SYMBOL, tier_of(edge["confidence"]),
            edge["confidence"], edge["line"], edge["rule"], edge["path"], self.is_test(sid),
        )  # fmt: skip

    def _answer(
        self, sid: str, edges: list[dict[str, Any]], other: str, unresolved: list[dict[str, Any]],
        min_tier: str, include_tests: bool,
    ) -> CallsAnswer:  # fmt: skip
        floor = tier_floor(min_tier)
        entries = sorted(
            (self._entry(e[other], e) for e in edges if e["confidence"] >= floor),
            key=lambda c: (TIERS.index(c.tier), c.test, -c.confidence, c.call_path, c.line),
        )
        hidden = 0 if include_tests else sum(e.test for e in entries)
        if not include_tests:
            entries = [e for e in entries if not e.test]
            unresolved = [u for u in unresolved if not self.is_test(u["caller"])]
        loose = [
            {"path": u["path"], "line": u["line"], "callee": u["callee_text"], "reason": u["rule"],
             "caller": split_id(u["caller"])[1] or MODULE_SYMBOL,
             "test": self.is_test(u["caller"])}
            for u in sorted(unresolved, key=lambda u: (u["path"], u["line"]))[:MAX_UNRESOLVED]
        ]  # fmt: skip
        path, qualified = split_id(sid)
        row = self.symbols.get(sid)
        language = row["language"] if row else language_for_path(path) or ""
        unread = "" if not language or has_calls(language) else language
        return CallsAnswer(qualified, path, tuple(entries), tuple(loose), hidden, unread)

    def callers(
        self, query: str, min_tier: str = "uncertain", *, include_tests: bool = True
    ) -> CallsAnswer:
        """Who calls it; `unresolved` lists calls of the same name nothing resolved. Test
        callers are kept unless `include_tests` is False (each entry says whether it is one)."""
        sid = self.find(query)
        name = self.symbols[sid]["name"]
        unresolved = self.unresolved_named.get(name, [])
        incoming = self.incoming.get(sid, [])
        through = dispatched_callers(self.hierarchy, sid, lambda m: self.incoming.get(m, []))
        return self._answer(sid, incoming + through, "caller", unresolved, min_tier, include_tests)

    @cached_property
    def hierarchy(self) -> Hierarchy:
        """The project's classes and their bases (`app.graph.dispatch`), read at first use."""
        table = self._store.read_table(GRAPH_FILES, ["path", "facts"])
        rows = zip(table.column("path").to_pylist(), table.column("facts").to_pylist(), strict=True)
        return Hierarchy(self.symbols, self.by_name, rows)

    def callees(
        self, query: str, min_tier: str = "uncertain", *, include_tests: bool = True
    ) -> CallsAnswer:
        """What it calls; `unresolved` lists its calls that resolve to nothing in the project."""
        sid = self.find(query)
        unresolved = self.unresolved_from.get(sid, [])
        outgoing = self.outgoing.get(sid, []) + implementing(self.hierarchy, sid)
        return self._answer(sid, outgoing, "callee", unresolved, min_tier, include_tests)

    def hotspots(
        self, n: int = 20, *, include_tests: bool = False, min_tier: str = "probable"
    ) -> list[dict[str, Any]]:
        """The definitions that carry the code: central (PageRank), long and calling much
        (`rank.hotspot_score`); example and benchmark code (`samples/`, `examples/`) after the
        library's, whose use it shows, and generated code (a Bison parser, protoc's output)
        after both: nobody reads it to learn the code. Stored ranks count certain and probable
        edges; another tier re-ranks over the edges that pass it."""
        table = self.symbols if min_tier == "probable" else self._rerank(tier_floor(min_tier))
        rows = [
            r for r in table.values()
            if r["kind"] in HOTSPOT_KINDS and (include_tests or not self.is_test(r["id"]))
            and (r["fan_in"] or r["fan_out"])  # no edge, no centrality to speak of
        ]  # fmt: skip
        rows.sort(
            key=lambda r: (
                path_role(r["path"]) == EXAMPLE,
                -_hotspot_score(r),
                -r["fan_in"],
                r["id"],
            )
        )
        window = rows[: n * 3]  # generated code and UI previews move down within the first
        made = self.generated_files(r["path"] for r in window)  # rows read
        shown = self.previews([r for r in window if r["language"] in PREVIEW_LANGUAGES])
        window.sort(key=lambda r: (r["path"] in made, r["id"] in shown))
        return [_symbol_json(r) for r in window[:n]]

    def previews(self, rows: list[dict[str, Any]]) -> set[str]:
        """The ids of the symbols of `rows` whose chunk is a UI preview (`paths.ui_preview`)."""
        if not rows:
            return set()
        starts = {(r["path"], r["start_line"]): r for r in rows}
        columns = ["path", "start_line", "language", "text"]
        chunks = self._store.chunks_for_paths(sorted({r["path"] for r in rows}), columns)
        return {
            starts[key]["id"]
            for chunk in chunks.to_pylist()
            if (key := (chunk["path"], chunk["start_line"])) in starts
            and ui_preview(chunk["language"], chunk["text"])
        }

    def generated_files(self, paths: Iterable[str]) -> set[str]:
        """Which of `paths` say in their first lines that a tool wrote them, read from the
        chunk at each file's top as search reads it (`paths.generated_file`)."""
        wanted = set(paths)
        unread = sorted(wanted - self._generated.keys())
        if unread:
            heads: dict[str, list[tuple[int, str]]] = {p: [] for p in unread}
            columns = ["path", "start_line", "text"]
            for row in self._store.chunks_for_paths(unread, columns).to_pylist():
                heads[row["path"]].append((row["start_line"], row["text"]))
            self._generated.update({p: generated_file(p, chunks) for p, chunks in heads.items()})
        return {p for p in wanted if self._generated[p]}

    @cached_property
    def calls_not_read(self) -> list[str]:
        """The languages of the index's definitions whose calls are not read (no edges, so
        they are never hotspots), sorted."""
        languages = {r["language"] for r in self.symbols.values() if r["kind"] in HOTSPOT_KINDS}
        return sorted(lang for lang in languages if not has_calls(lang))

    def _rerank(self, floor: float) -> dict[str, dict[str, Any]]:
        from app.core.models import Edge
        from app.graph.rank import rank_symbols

        edges = [
            Edge(e["caller"], e["callee"], e["path"], e["line"], e["confidence"], e["rule"])
            for rows in self.incoming.values() for e in rows if e["confidence"] >= floor
        ]  # fmt: skip
        ranks = rank_symbols(list(self.symbols), edges, min_confidence=floor)
        return {
            sid: row | dict(zip(("fan_in", "fan_out", "pagerank"), ranks[sid], strict=True))
            for sid, row in self.symbols.items()
        }

    def search_symbols(self, query: str, limit: int = 20) -> list[dict[str, Any]]:
        """Fuzzy match over qualified names (rapidfuzz), case and punctuation aside: first the
        names the query spells whole (`topo` is `Topo`, `closed` is `Scope.closed`), then those
        holding it as written (`conn.put_resp` in `Conn.put_resp_header`, not `Conn.resp`,
        whose words are a subset of it), then the rest by similarity; among equals the
        library's code before tests and example or benchmark code, then central symbols first.
        `kind:WORD` and `lang:WORD` in the query keep only symbols whose kind or language
        starts with WORD (`kind:func lang:py parse`)."""
        from rapidfuzz import fuzz, process, utils

        text, kinds, languages = _filters(query)
        choices = {
            sid: self._spelled[sid]
            for sid, row in self.symbols.items()
            if all(row["kind"].startswith(k) for k in kinds)
            and all(row["language"].startswith(lang) for lang in languages)
        }
        if not text:  # filters alone: the most central symbols that pass them
            central = sorted(choices, key=lambda sid: (-self.symbols[sid]["pagerank"], sid))
            return [_symbol_json(self.symbols[sid]) | {"score": 0.0} for sid in central[:limit]]
        wanted = utils.default_process(text)
        found = {
            sid: score
            for _, score, sid in process.extract(
                wanted, choices, scorer=fuzz.WRatio, processor=None, limit=limit * 3
            )
        }
        letters = wanted.replace(" ", "")
        for sid, spelled in choices.items():  # however many names score alike by similarity
            if sid not in found and _in_order(letters, self._letters[sid]):
                found[sid] = fuzz.WRatio(wanted, spelled, processor=None)
        ranked = sorted(found, key=lambda sid: self._match_order(wanted, found[sid], sid))
        return [
            _symbol_json(self.symbols[sid]) | {"score": round(found[sid], 1)}
            for sid in ranked[:limit]
        ]

    @cached_property
    def _spelled(self) -> dict[str, str]:
        """Each symbol's qualified name as the finder compares it: lower case, punctuation as
        spaces (rapidfuzz's default processing)."""
        from rapidfuzz import utils

        return {sid: utils.default_process(r["qualified_name"]) for sid, r in self.symbols.items()}

    @cached_property
    def _letters(self) -> dict[str, str]:
        """The same without spaces: what a query's letters are looked for in, in order."""
        return {sid: spelled.replace(" ", "") for sid, spelled in self._spelled.items()}

    def _match_order(self, wanted: str, score: float, sid: str) -> tuple[Any, ...]:
        from rapidfuzz import utils

        row = self.symbols[sid]
        spelled = self._spelled[sid]
        member = utils.default_process(row["qualified_name"].rsplit(".", 1)[-1])
        span = 0
        if wanted in (spelled, member):
            held = 0  # spelled whole
        elif wanted in spelled:
            held = 1  # held as written
        elif (span := _span(wanted.replace(" ", ""), self._letters[sid]) or 0) > 0:
            held = 2  # its letters in order, the closer together the better (`str_cat`: StrCat)
        else:
            held = 3  # only alike
        example = path_role(row["path"]) == EXAMPLE
        return (held, span, -round(score), self.is_test(sid), example, -row["pagerank"], sid)


def _in_order(letters: str, name: str) -> bool:
    """Whether every one of `letters` occurs in `name`, in this order (a fuzzy finder's
    match: `strcat` in `strcatimpl`, `sc` in `strcat`): one pass, the earliest of each."""
    at = 0
    for letter in letters:
        at = name.find(letter, at) + 1
        if not at:
            return False
    return True


def _span(letters: str, name: str) -> int | None:
    """The shortest stretch of `name` holding `letters` in order (None: it holds no such
    stretch): `strcat` spans 6 letters of `abslstrcat`, 24 of `strformatconversioncharset`."""
    if not letters:
        return 0
    best: int | None = None
    start = name.find(letters[0])
    while start >= 0:
        at = start + 1
        for letter in letters[1:]:
            at = name.find(letter, at) + 1
            if not at:
                return best  # no later start can hold them all either
        if best is None or at - start < best:
            best = at - start
        start = name.find(letters[0], start + 1)
    return best


def _filters(query: str) -> tuple[str, list[str], list[str]]:
    """Split `kind:` and `lang:` (or `language:`) terms off a symbol query."""
    words, kinds, languages = [], [], []
    for word in query.split():
        name, _, value = word.partition(":")
        if value and name.lower() == "kind":
            kinds.append(value.lower())
        elif value and name.lower() in ("lang", "language"):
            languages.append(value.lower())
        else:
            words.append(word)
    return " ".join(words), kinds, languages


def _hotspot_score(row: dict[str, Any]) -> float:
    lines = row["end_line"] - row["start_line"] + 1
    return hotspot_score(row["pagerank"], lines, row["fan_out"])


def _symbol_json(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "path": row["path"],
        "start_line": row["start_line"],
        "end_line": row["end_line"],
        "symbol": row["qualified_name"],
        "kind": row["kind"],
        "language": row["language"],
        "fan_in": row["fan_in"],
        "fan_out": row["fan_out"],
        "pagerank": round(row["pagerank"], 6),
    }
