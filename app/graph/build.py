"""Build or update the call graph inside an index run: keep every file's facts, re-resolve the
calls a change can affect, rank, and write the graph tables (published with the run)."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.core.models import Edge, tier_of
from app.graph.facts import FileFacts, call_text, symbol_id
from app.graph.js_modules import imports_moved
from app.graph.rank import rank_symbols
from app.graph.resolve import ClassKey, Resolver
from app.store.graph_tables import (
    GRAPH_EDGE_SCHEMA,
    GRAPH_EDGES,
    GRAPH_FILE_SCHEMA,
    GRAPH_FILES,
    GRAPH_SYMBOL_SCHEMA,
    GRAPH_SYMBOLS,
)

_STEP = re.compile(r"\.|->|::|\?\.")  # between a receiver's steps
_WORD = re.compile(r"\w+")
# Past this share of changed files, re-resolving everything is as cheap and simpler.
FULL_REBUILD_SHARE = 0.25


@dataclass(slots=True)
class GraphReport:
    files: int = 0
    symbols: int = 0
    calls: int = 0
    resolved_calls: int = 0  # calls re-resolved by this run (all of them on a full build)
    edges_by_tier: dict[str, int] = field(default_factory=dict)
    unresolved: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def _stem_names(path: str) -> set[str]:
    """Names an import may use for a file: its stem and, for package files, its folder."""
    base = posixpath.basename(path)
    stem = base.split(".", 1)[0]
    folder = posixpath.basename(posixpath.dirname(path))
    return {stem, folder}


def _affected(
    files: dict[str, FileFacts], resolver: Resolver, changed: set[str], names: set[str]
) -> set[tuple[str, int]]:
    """Calls in unchanged files whose answer a change can alter (by a name they depend on,
    an import of a changed module, or a class hierarchy through a changed file)."""
    changed_scopes = changed | {posixpath.dirname(p) for p in changed}
    hierarchy_hit: dict[ClassKey, bool] = {}

    def through_change(key: ClassKey) -> bool:
        if key not in hierarchy_hit:
            keys, _ = resolver.hierarchy(key)
            hit = any(k[0] in changed_scopes for k in keys)
            for k in keys:
                hit = hit or any(t.rsplit(".", 1)[-1] in names for _, t in resolver.bases[k])
            hierarchy_hit[key] = hit
        return hierarchy_hit[key]

    out: set[tuple[str, int]] = set()
    for path, facts in files.items():
        if path in changed:
            continue
        heads = {m for i in facts.imports for m in (i.name, i.alias)}
        heads |= {
            i.module.replace("::", "/").replace(".", "/").rsplit("/", 1)[-1] for i in facts.imports
        }
        file_hit = bool(heads & names) or any(
            b.base.rsplit(".", 1)[-1] in names for b in facts.bases
        )
        for i, call in enumerate(facts.calls):
            # `core.$ZodType.init()` depends on `$ZodType`'s declared type too, and a call on
            # `r.HandleFunc()` (or on `r := NewRouter()`) on what those functions return.
            hit = (
                file_hit
                or call.callee in names
                or any(part.removesuffix("()") in names for part in _STEP.split(call.receiver))
                or any(word in names for word in _WORD.findall(call.receiver_type))
            )
            # `self.x.m()` reads x's type through the class hierarchy too.
            through_self = "self." in (call.receiver[:5], call.receiver_type[:5])
            if not hit and (call.receiver in ("self", "super", "") or through_self):
                key = resolver.class_of(facts, call.caller)
                hit = key is not None and through_change(key)
            if hit:
                out.add((path, i))
    return out


def _edge_row(path: str, index: int, e: Any, text: str) -> dict[str, Any]:
    return {
        "path": path,
        "call": index,
        "caller": e.caller,
        "callee": e.callee if isinstance(e, Edge) else "",
        "callee_text": text,
        "line": e.line,
        "confidence": e.confidence if isinstance(e, Edge) else 0.0,
        "rule": e.rule if isinstance(e, Edge) else e.reason,
    }


class GraphStopped(Exception):
    """The graph step was asked to stop (newer changes are waiting); nothing was written."""


def update_graph(
    store: Any,
    parsed: dict[str, FileFacts],
    replaced: set[str],
    *,
    full: bool = False,
    should_stop: Callable[[], bool] = lambda: False,
) -> GraphReport:
    """`parsed`: facts of the files parsed this run; `replaced`: every path whose old facts are
    gone (re-parsed or removed). Writes the graph tables; the caller publishes. `should_stop`
    is checked often before anything is written (raising GraphStopped)."""

    def check() -> None:
        if should_stop():
            raise GraphStopped

    old = {row["path"]: row for row in store.read_table(GRAPH_FILES).to_pylist()}
    check()
    previous_edges = store.read_table(GRAPH_EDGES).to_pylist() if old else []
    changed = (set(replaced) & set(old)) | set(parsed)
    files: dict[str, FileFacts] = {}
    for number, (path, row) in enumerate(old.items()):
        if number % 200 == 0:
            check()
        if path not in replaced:
            files[path] = FileFacts.from_row(row)
    files.update(parsed)
    check()
    resolver = Resolver(files)
    report = GraphReport(files=len(files), symbols=len(resolver.symbols))
    full = full or not old or len(changed) > FULL_REBUILD_SHARE * max(len(files), 1)
    full = full or resolver.js.touches(changed) or imports_moved(old, parsed, changed)
    if full:
        todo = {(p, i) for p, f in files.items() for i in range(len(f.calls))}
        kept: list[dict[str, Any]] = []
    else:
        names: set[str] = set()
        for path in changed:
            names |= _stem_names(path)
            if path in old:
                names |= FileFacts.from_row(old[path]).names()
            if path in parsed:
                names |= parsed[path].names()
        names.discard("")
        check()
        todo = _affected(files, resolver, changed, names)
        todo |= {(p, i) for p in changed if p in files for i in range(len(files[p].calls))}
        kept = [  # a changed file's rows all go: it may now hold fewer calls than before
            r
            for r in previous_edges
            if r["path"] in files
            and r["path"] not in changed
            and (r["path"], r["call"]) not in todo
        ]
    rows = kept
    for number, (path, index) in enumerate(sorted(todo)):
        if number % 2_000 == 0:
            check()
        facts = files[path]
        call = facts.calls[index]
        text = call_text(call)
        edges, unresolved = resolver.resolve(facts, call)
        rows.extend(_edge_row(path, index, e, text) for e in edges)
        if unresolved is not None:
            rows.append(_edge_row(path, index, unresolved, unresolved.callee))
    report.calls = sum(len(f.calls) for f in files.values())
    report.resolved_calls = len(todo)
    edges = [
        Edge(r["caller"], r["callee"], r["path"], r["line"], round(r["confidence"], 3), r["rule"])
        for r in rows
        if r["callee"]
    ]
    tiers = Counter(tier_of(e.confidence) for e in edges)
    report.edges_by_tier = {t: tiers.get(t, 0) for t in ("certain", "probable", "uncertain")}
    report.unresolved = sum(1 for r in rows if not r["callee"])
    check()
    ranks = rank_symbols(list(resolver.symbols), edges)
    symbol_rows = []
    for sid, s in resolver.symbols.items():
        fan_in, fan_out, score = ranks[sid]
        symbol_rows.append(
            {
                "id": sid,
                "path": s.path,
                "name": s.name,
                "qualified_name": s.qualified_name,
                "kind": s.kind,
                "parent": s.parent,
                "language": s.language,
                "start_line": s.start_line,
                "end_line": s.end_line,
                "fan_in": fan_in,
                "fan_out": fan_out,
                "pagerank": score,
            }  # fmt: skip
        )
    check()
    store.replace_rows(
        GRAPH_FILES,
        GRAPH_FILE_SCHEMA,
        [f.to_row() for f in parsed.values()],
        replaced | set(parsed),
    )
    check()  # written but unpublished tables are rolled back by the next writer
    store.replace_rows(GRAPH_EDGES, GRAPH_EDGE_SCHEMA, rows, None)
    check()
    store.replace_rows(GRAPH_SYMBOLS, GRAPH_SYMBOL_SCHEMA, symbol_rows, None)
    return report


def module_caller(path: str) -> str:
    """The id standing for a file's module-level code."""
    return symbol_id(path, "")
