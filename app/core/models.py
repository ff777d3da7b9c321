"""Frozen dataclasses for the data that crosses layers (files, chunks, symbols, hits)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

# Chunk kinds. Definitions are the kinds a person can name; the rest hold what lies between.
DEFINITION_KINDS = frozenset(
    {
        "function",
        "method",
        "class",
        "interface",
        "struct",
        "enum",
        "trait",
        "impl",
        "module",
        "type",
        "constant",
        "variable",
        "script",  # a shell file's own top-level code (app/parse/scripts.py)
    }
)
OTHER_KINDS = frozenset({"glue", "section", "window"})


def content_hash(text: str) -> str:
    """Short stable hash of a chunk's text (sha1 is plenty for change detection)."""
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Chunk:
    """One searchable piece of a file: a definition, a Markdown section, glue or a line window.

    `start_line`/`end_line` are 1-based and inclusive. `text` is the exact source of those
    lines. `signature` is the definition's first line(s) up to the body; `doc` its docstring
    or leading comment. `part`/`parts` number the pieces of a definition too large for one
    chunk (1/1 when whole); every piece keeps the definition's `signature`.
    """

    path: str  # relative to the repository root, '/' separated
    language: str
    kind: str
    symbol: str  # the short name ("send", "Client"); "" for glue and windows
    qualified_name: str  # "Client.send", "res.send", "Router.ServeHTTP"; "" when none
    parent: str  # qualified name of the enclosing definition, "" at top level
    start_line: int
    end_line: int
    signature: str
    doc: str
    text: str
    part: int = 1
    parts: int = 1
    thin: str = ""  # "wrapper": one call; "accessor": only reads or sets fields; "empty": no body

    @property
    def hash(self) -> str:
        return content_hash(self.text)

    @property
    def is_definition(self) -> bool:
        return self.kind in DEFINITION_KINDS

    @property
    def line_count(self) -> int:
        return self.end_line - self.start_line + 1


@dataclass(frozen=True, slots=True)
class Symbol:
    """A named definition found in a file (the symbol table and, later, the call graph)."""

    name: str
    kind: str
    qualified_name: str
    path: str
    start_line: int
    end_line: int
    parent: str
    language: str


@dataclass(frozen=True, slots=True)
class Import:
    """One name an import binds in a file: `from m import name as alias`, `import m as alias`.

    `name` is "" when the whole module is bound (`import os.path`, `import * as m`)."""

    module: str  # as written: "os.path", "./client", "github.com/x/y", "crate::a::b"
    name: str
    alias: str  # the local name the file uses
    line: int


@dataclass(frozen=True, slots=True)
class CallSite:
    """One call expression: who makes it (qualified name, "" at module level), what it names."""

    caller: str
    callee: str  # the called name: "send" in `self.client.send(x)`
    receiver: str  # "self", "super", "" (a bare call), or the receiver's text ("client")
    line: int
    receiver_type: str = ""  # the receiver's class when the same function says (`c = Client()`)


@dataclass(frozen=True, slots=True)
class Inheritance:
    """A class naming a base (or an implemented interface / trait) as written."""

    child: str  # qualified name of the class
    base: str  # the base's text with generics removed: "Base", "mod.Base"
    line: int


@dataclass(frozen=True, slots=True)
class Attribute:
    """What a class says of one of its attributes: `self.client = Client()` in a method or
    `factory = Factory()` in its body (an instance), `client_class = Client` (the class)."""

    owner: str  # qualified name of the class
    name: str  # "client"
    type_text: str  # "Client"; calls.ALIAS + "Client" when it names the class itself


@dataclass(frozen=True, slots=True)
class Edge:
    """A resolved call, with its evidence: where the call is and which rule resolved it.

    Symbol ids are `path::qualified_name` (`path::` for a file's module-level code)."""

    caller: str
    callee: str
    path: str
    line: int
    confidence: float
    rule: str

    @property
    def tier(self) -> str:
        return tier_of(self.confidence)


@dataclass(frozen=True, slots=True)
class Unresolved:
    """A call no project definition answers (library, builtin, dynamic, too ambiguous)."""

    caller: str
    callee: str  # the called text
    path: str
    line: int
    reason: str


TIERS = ("certain", "probable", "uncertain")


@dataclass(frozen=True, slots=True)
class SymbolRef:
    """A definition as the symbol browser and graph navigator list it."""

    symbol: str  # qualified name; "<module>" for a file's module-level code
    kind: str
    path: str
    start_line: int
    end_line: int

    @property
    def graph_id(self) -> str:
        """The `path::qualified_name` id the call graph resolves without ambiguity."""
        return f"{self.path}::{'' if self.symbol == '<module>' else self.symbol}"


@dataclass(frozen=True, slots=True)
class CallLink:
    """One caller or callee of a symbol with its evidence (the call's path:line).

    `tier` is one of TIERS, or "unresolved" when no definition answers the call."""

    target: SymbolRef | None  # None when unresolved: nothing to walk to
    name: str
    tier: str
    call_path: str
    call_line: int
    # Why an unresolved call has no definition (the graph's own words); for a resolved one
    # reached by dispatch, how (`through IOrderService.CreateOrderAsync`, `implementation`).
    reason: str = ""
    test: bool = False  # the other end (the caller, or the callee) is test code


def tier_of(confidence: float) -> str:
    """certain >= 0.9, probable >= 0.7, uncertain below."""
    if confidence >= 0.9:
        return "certain"
    return "probable" if confidence >= 0.7 else "uncertain"


def calls_not_read_note(language: str) -> str:
    """What an empty caller or callee list means for a language whose calls are not read."""
    return f"Calls in {language} are not read."


def no_hotspots_note(calls_not_read: list[str]) -> str:
    """Why a hotspot list is empty: the languages whose calls are not read, or no edges."""
    if calls_not_read:
        return f"No hotspots: calls in {', '.join(calls_not_read)} are not read."
    return "No hotspots: no call between two definitions is resolved."


@dataclass(frozen=True, slots=True)
class ParsedFile:
    """What one parse of one file yields (imports, calls and bases feed the call graph)."""

    path: str
    language: str
    chunks: tuple[Chunk, ...]
    symbols: tuple[Symbol, ...]
    strategy: str  # "tree-sitter" (or chunk.CALLS_UNREAD), "sections", "lines": how it was chunked
    imports: tuple[Import, ...] = ()
    calls: tuple[CallSite, ...] = ()
    bases: tuple[Inheritance, ...] = ()
    attributes: tuple[Attribute, ...] = ()


@dataclass(frozen=True, slots=True)
class SkippedFile:
    """A file the walk left out, and why (shown by `stats`)."""

    path: str
    reason: str  # one of walk.SKIP_REASONS
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Signal:
    """One rerank adjustment: its name, the factor applied, and why."""

    name: str
    factor: float
    reason: str


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why a hit sits where it does."""

    bm25_rank: int | None
    vector_rank: int | None
    fused_score: float
    signals: tuple[Signal, ...] = ()
    final_score: float = 0.0
    bm25_fields: tuple[str, ...] = ()  # weighed fields beside the text a query word met
    vector_by_words: bool = False  # the vector rank is its word vector's (app.search.words)
    vector_by_owner: bool = False  # the vector rank is its owner's (its class head's) score

    @property
    def vector(self) -> str:
        """`vector #2`, or `vector #2 (words)` when its word vector placed it, `vector #2
        (owner)` when its owner's score did."""
        by = " (words)" if self.vector_by_words else " (owner)" if self.vector_by_owner else ""
        return f"vector #{self.vector_rank or '-'}{by}"

    @property
    def bm25(self) -> str:
        """`bm25 #3`, with the fields that lifted it: `bm25 #3 (name, path)`."""
        fields = f" ({', '.join(self.bm25_fields)})" if self.bm25_fields else ""
        return f"bm25 #{self.bm25_rank or '-'}{fields}"

    def summary(self) -> str:
        """One line: the two retrievers' ranks, then each signal's factor (3 figures) and name."""
        parts = [self.bm25, self.vector]
        parts += [f"x{signal.factor:.3g} {signal.name}" for signal in self.signals]
        return " · ".join(parts)


@dataclass(frozen=True, slots=True)
class Hit:
    """A ranked chunk as search returns it; `text` is what the packer kept."""

    chunk_id: str
    path: str
    start_line: int
    end_line: int
    symbol: str
    qualified_name: str
    kind: str
    language: str
    score: float
    text: str
    packed: str  # "body", "cut" (its first lines) or "signature" (app.search.pack)
    explanation: Explanation = field(default_factory=lambda: Explanation(None, None, 0.0))
    stale: bool = False  # the file changed on disk after it was indexed (re-index pending)
    doc: str = ""  # its definition's doc comment as the parser read it (markers out), or ""
    signature: str = ""  # its definition's first line(s) up to the body, or "" (a window)
