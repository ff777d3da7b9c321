"""Kotlin, C# and Swift properties that carry logic are members named `Owner.prop`; plain
fields and auto-properties stay in their class. Each case is a real tree-sitter parse."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.indexer.chunk import parse_file
from app.parse.definitions import Definition, find_definitions, line_starts, parser_for
from app.parse.languages import language_for_path
from app.parse.thin import thinness
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

KOTLIN = """package org.koin.core.scope

class Scope(val id: String) {
    private var _closed = false
    val plain: Int = 3
    val closed: Boolean
        get() = _closed && parentScope != null

    val logger by lazy { KoinPlatform.logger() }

    var level: Level = Level.INFO
        set(value) {
            field = value
            notifyListeners(value)
        }

    var raw: Int
        get() = _raw
        set(value) { _raw = value }
}

val Module.isLoaded: Boolean
    get() = definitions.isNotEmpty() && !frozen
"""
CSHARP = """namespace Stateless
{
    public class StateMachine<TState>
    {
        public int Auto { get; set; }
        public int Plain = 3;
        public TState State
        {
            get { return _stateAccessor() ?? _initial; }
            private set { _stateMutator(value); Notify(value); }
        }
        public bool IsActive => _active && !_disposed;
        public string Name { get => _name; set => _name = value; }
    }
}
"""
SWIFT = """struct Chunked<Base: Collection> {
    var stored: Int = 0
    var count: Int {
        let n = base.count
        return n / size
    }
    var isEmpty: Bool {
        get { return base.isEmpty }
        set { _empty = newValue }
    }
    var observed: Int = 0 {
        didSet { update(observed) }
    }
}
extension Chunked {
    var startIndex: Index { base.startIndex }
}
"""


@pytest.mark.parametrize(
    ("path", "text", "expected", "plain"),
    [
        (
            "Scope.kt",
            KOTLIN,
            {"Scope.closed": (6, 7, ""), "Scope.logger": (9, 9, ""),
             "Scope.level": (11, 15, ""), "Scope.raw": (17, 19, "accessor"),
             "Module.isLoaded": (22, 23, "")},
            {"Scope.plain", "Scope._closed"},
        ),
        (
            "StateMachine.cs",
            CSHARP,
            {"StateMachine.State": (7, 11, ""), "StateMachine.IsActive": (12, 12, ""),
             "StateMachine.Name": (13, 13, "accessor")},
            {"StateMachine.Auto", "StateMachine.Plain"},
        ),
        (
            "Chunked.swift",
            SWIFT,
            {"Chunked.count": (3, 6, ""), "Chunked.isEmpty": (7, 10, "accessor"),
             "Chunked.observed": (11, 13, ""), "Chunked.startIndex": (16, 16, "accessor")},
            {"Chunked.stored"},
        ),
    ],
)  # fmt: skip
def test_properties_with_logic_are_members(
    path: str, text: str, expected: dict[str, tuple[int, int, str]], plain: set[str]
) -> None:
    found = {d.qualified: d for d in _definitions(path, text)}
    spans = {n: (d.start_line, d.end_line, thinness(d)) for n, d in found.items() if n in expected}
    assert spans == expected
    kinds = {s.qualified_name: s.kind for s in parse_file(path, text).symbols}
    assert {kinds[name] for name in expected} <= {"method", "function"}
    assert not plain & set(kinds)


def _definitions(path: str, text: str) -> list[Definition]:
    language = language_for_path(path) or ""
    src = text.encode()
    tree = parser_for(language).parse(src)
    return find_definitions(language, tree.root_node, src, line_starts(src)).definitions


def _big_class(members: str, count: int) -> str:
    """A class long enough to be cut into its members, `members` at its top."""
    filler = "".join(
        f"    fun step{i}(x: Int): Int {{\n        val y = x * {i}\n        return y + {i}\n"
        "    }\n"
        for i in range(count)
    )
    return f"class Scope(val id: String) {{\n{members}{filler}}}\n"


def test_a_property_gets_its_own_chunk_and_thinness_in_a_long_class() -> None:
    members = (
        "    val closed: Boolean\n        get() = _closed && parentScope != null\n"
        "    var raw: Int\n        get() = _raw\n        set(value) { _raw = value }\n"
    )
    chunks = {c.qualified_name: c for c in parse_file("Scope.kt", _big_class(members, 12)).chunks}
    closed, raw = chunks["Scope.closed"], chunks["Scope.raw"]
    assert (closed.kind, closed.start_line, closed.end_line, closed.thin) == ("method", 2, 3, "")
    assert (raw.start_line, raw.end_line, raw.thin) == (4, 6, "accessor")
    assert closed.signature == "val closed: Boolean"


@pytest.mark.parametrize(
    ("path", "text", "name", "thin"),
    [
        ("A.cs", "class A {\n  int X { get { return _x; } set { _x = value; } }\n}\n", "A.X",
         "accessor"),
        ("A.cs", "class A {\n  int X { get { return _x; } set { _x = value; Changed(); } }\n}\n",
         "A.X", ""),
        ("A.cs", "class A {\n  int Z => _x;\n}\n", "A.Z", "accessor"),
        ("A.cs", "class A {\n  int W => Compute(_x);\n}\n", "A.W", "wrapper"),
        ("A.swift", "struct A {\n  var w: Int { compute(x) }\n}\n", "A.w", "wrapper"),
        ("A.kt", "class A {\n  val w: Int\n    get() = compute(x)\n}\n", "A.w", "wrapper"),
    ],
)  # fmt: skip
def test_a_property_is_thin_only_when_every_accessor_is(
    path: str, text: str, name: str, thin: str
) -> None:
    by_name = {d.qualified: d for d in _definitions(path, text)}
    assert thinness(by_name[name]) == thin


def test_a_property_is_found_by_its_owner_dot_name(indexed: Indexed) -> None:
    members = "    val closed: Boolean\n        get() = _closed && parentScope != null\n"
    service = indexed({"src/Scope.kt": _big_class(members, 12)})
    hits = service.search("what does Scope.closed check?").hits
    assert hits[0].qualified_name == "Scope.closed"
    assert any(s.name == "exact-name" for s in hits[0].explanation.signals)
    assert [row["symbol"] for row in service.symbol("closed")][:1] == ["Scope.closed"]
