"""The call graph in the claimed languages beyond the first few: Swift (calls, overloads,
properties, local aliases, builtin receivers) and C++ overloads, with real tree-sitter."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings
from tests.unit.test_graph_resolution import at, edges_at, graph

SWIFT = {
    "Sources/App/Shapes.swift": """\
class Shape {
    func area() -> Int { return 0 }
    func scale(_ by: Int) {}
    func scale(_ by: Double) {}
}

class Circle: Shape {
    override func area() -> Int { return 1 }
    func draw() {
        scale(1)
        self.scale(2)
        super.area()
    }
}
""",
    "Sources/App/Helper.swift": """\
class Helper {
    func help(_ x: Int) {}
    func append(_ x: Int) {}
    func split(_ x: Int) {}
}

class Other {
    func help(_ x: Int) {}
    func append(_ x: Int) {}
    func split(_ x: Int) {}
}

func makeRunner() -> Runner { return Runner() }
""",
    "Sources/App/Main.swift": """\
import Foundation

class Runner {
    var helper: Helper

    init() {
        self.helper = Helper()
    }

    func run(names: [String], done: () -> Void) {
        let c = Circle()
        c.scale(2.0)
        helper.help(1)
        let f = helper.help
        f(2)
        names.append("x")
        let d = ["a": 1]
        d.removeAll()
        "a,b".split(separator: ",")
        makeRunner()
        done()
    }
}
""",
}

MAIN = "Sources/App/Main.swift"
SHAPES = "Sources/App/Shapes.swift"


def test_swift_calls_resolve_through_self_types_and_properties(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, SWIFT)
    for path, line, target in (
        (SHAPES, 10, "Sources/App/Shapes.swift::Shape.scale"),  # implicit self, inherited
        (SHAPES, 11, "Sources/App/Shapes.swift::Shape.scale"),
        (SHAPES, 12, "Sources/App/Shapes.swift::Shape.area"),  # super
        (MAIN, 7, "Sources/App/Helper.swift::Helper"),
        (MAIN, 11, "Sources/App/Shapes.swift::Circle"),
        (MAIN, 12, "Sources/App/Shapes.swift::Shape.scale"),  # an overload: one target
        (MAIN, 13, "Sources/App/Helper.swift::Helper.help"),  # a declared property's type
        (MAIN, 15, "Sources/App/Helper.swift::Helper.help"),  # a local alias of a method
        (MAIN, 20, "Sources/App/Helper.swift::makeRunner"),  # same module, another file
    ):
        assert edges_at(rows, path, line) == {(target, True)}, (line, at(rows, path, line))


def test_swift_builtin_receivers_and_parameters_call_nothing_of_the_project(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, SWIFT)
    for line, why in (
        (16, "builtin receiver: Array"),
        (18, "builtin receiver: Dictionary"),
        (19, "builtin receiver: String"),
        (21, "call of the parameter done: whatever the caller passes"),
    ):
        assert [(r["callee"], r["rule"]) for r in at(rows, MAIN, line)] == [("", why)], line


CPP = {
    "calc.hpp": """\
#include <string>

class Calc {
public:
    int add(int a);
    std::string add(std::string a);
};
""",
    "calc.cpp": """\
#include "calc.hpp"

int Calc::add(int a) {
    return a;
}

std::string Calc::add(std::string a) {
    return a;
}
""",
    "other.cpp": """\
class Other {
public:
    int add(int a) { return a; }
};
""",
    "main.cpp": """\
#include "calc.hpp"

int main() {
    Calc c;
    c.add(1);
    c.add(std::string("x"));
    return 0;
}
""",
}


def test_cpp_overloads_are_one_target(tmp_path: Path, settings: Settings) -> None:
    rows = graph(tmp_path, settings, CPP)
    for line in (5, 6):
        found = edges_at(rows, "main.cpp", line)
        assert found and all(certain for _, certain in found), at(rows, "main.cpp", line)
        assert {callee.split("::", 1)[1] for callee, _ in found} == {"Calc.add"}
