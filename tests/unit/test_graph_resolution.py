"""The resolver on the constructs real libraries use: overload stubs, re-exports through barrels
and packages, local aliases of methods and module functions, and receivers of builtin types."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from app.core.settings import Settings
from app.service import Service
from app.store.graph_tables import GRAPH_EDGES, GRAPH_SYMBOLS
from app.store.store import Store

PY_MODELS = """\
import typing
from typing import overload


class Box:
    @overload
    def get_value(self, k: int) -> int: ...
    @overload
    def get_value(self, k: str) -> str: ...
    def get_value(self, k):
        return self.lookup(k)

    def lookup(self, k):
        return k

    @typing.overload
    def put(self, k: int) -> None: ...
    @typing.overload
    def put(self, k: str) -> None: ...
    def put(self, k):
        self.get_value(k)


class Tracker:
    def step(self):
        return 1

    def update(self, x):
        return x

    def get(self, k):
        return k

    def append(self, x):
        return x

    def join(self, x):
        return x


class Runner:
    def __init__(self):
        self.tracker = Tracker()

    def run(self, opts: dict, names: list[str], *args, **kwargs):
        step = self.tracker.step
        step()
        kwargs.get("a")
        d = {}
        d.update(kwargs)
        opts.get("x")
        names.append("y")
        ", ".join(names)
        args.index(1)
"""

PYTHON = {
    "pkg/__init__.py": "from .core import helper\nfrom .models import Box\n__all__ = ['helper']\n",
    "pkg/core.py": "def helper(x):\n    return x\n",
    "pkg/hooks.py": (
        "def validator(x):\n    return x\n\n\ndef wrap(validator, n):\n    return validator(n)\n"
    ),
    "pkg/use.py": "def use(thing):\n    thing.update(1)\n    thing.step()\n",
    "pkg/models.py": PY_MODELS,
    "app.py": (
        "import pkg\nfrom pkg import helper, Box\nfrom pkg import core\n\n\n"
        "def main():\n    helper(1)\n    pkg.helper(2)\n    b = Box()\n    b.put(1)\n"
        "    f = core.helper\n    f(3)\n"
    ),
}

TS_BOX = """\
export class Box {
  get(k: number): number;
  get(k: string): string;
  get(k: any): any {
    return this.lookup(k);
  }
  lookup(k: any): any {
    return k;
  }
  push(x: any): void {}
  split(x: any): void {}
}
export function make(a: number): Box;
export function make(a: string): Box;
export function make(a: any): Box {
  return new Box();
}
"""

TYPESCRIPT = {
    "src/core/finish.ts": "export function finishResult(x: number): number {\n  return x;\n}\n",
    "src/core/named.ts": (
        "export function namedOne(): void {}\nexport function renamedSrc(): void {}\n"
    ),
    "src/core/space.ts": "export function spaced(): void {}\n",
    "src/internal.ts": (
        'export * from "./core/finish";\nexport { namedOne } from "./core/named";\n'
        'export { renamedSrc as renamed } from "./core/named";\n'
        'export * as space from "./core/space";\n'
    ),
    "src/index.ts": 'export * from "./internal";\n',
    "src/hooks.ts": (
        "export function cb(): void {}\nexport function run(cb: () => void): void {\n  cb();\n}\n"
    ),
    "src/errorUtil.ts": (
        "export namespace errorUtil {\n  export const errToObj = (m: string) => ({ m });\n}\n"
        "export function fail(x: any): void {\n  x.toString();\n}\n"
        'export class Msg {\n  toString(): string {\n    return "";\n  }\n}\n'
    ),
    "src/err.ts": (
        'import { errorUtil } from "./errorUtil";\n\nexport function check(): void {\n'
        '  errorUtil.errToObj("a");\n}\n'
    ),
    "src/box.ts": TS_BOX,
    "src/holder.ts": """\
import { Box } from "./box";
export class Holder {
  box: Box;
  constructor() {
    this.box = new Box();
  }
  run(): void {
    const look = this.box.lookup;
    look(1);
  }
}
""",
    "src/app.ts": """\
import { finishResult, namedOne, renamed, space } from "./index";
import { make } from "./box";
import * as finish from "./core/finish";

export function main(names: string[], label: string, ...rest: number[]): void {
  finishResult(1);
  namedOne();
  renamed();
  space.spaced();
  const b = make(1);
  b.get(1);
  const f = finish.finishResult;
  f(2);
  const list = [1, 2];
  list.push(3);
  names.push("a");
  label.split(",");
  "a,b".split(",");
  rest.push(1);
}
""",
}

JAVASCRIPT = {
    "lib/finish.js": "export function finishResult(x) {\n  return x;\n}\n",
    "lib/index.js": (
        'export * from "./finish.js";\nexport { finishResult as done } from "./finish.js";\n'
    ),
    "lib/bag.js": "export class Bag {\n  push(x) {}\n  keys() {}\n}\n",
    "lib/legacy.js": (
        "var finishResult = require('./finish.js').finishResult;\n\n"
        "function run() {\n  finishResult(1);\n}\n"
    ),
    "lib/app.js": """\
import { finishResult, done } from "./index.js";
import * as finish from "./finish.js";

export function main(...args) {
  finishResult(1);
  done(2);
  const f = finish.finishResult;
  f(3);
  const list = [];
  list.push(1);
  const o = {};
  o.keys();
  args.push(2);
}
""",
}

RUST = {
    "src/main.rs": (
        "mod shapes;\nuse crate::shapes::area;\nuse crate::shapes::Circle;\n\n"
        "fn main() {\n    area(1);\n    let c = Circle::new();\n    let v: Vec<u8> = Vec::new();\n"
        "    v.push(1);\n}\n"
    ),
    "src/shapes/mod.rs": "mod geometry;\npub use geometry::{area, Circle};\n",
    "src/shapes/geometry.rs": (
        "pub fn area(x: u8) -> u8 { x }\npub struct Circle {}\nimpl Circle {\n"
        "    pub fn new() -> Circle { Circle {} }\n    pub fn push(&self) {}\n}\n"
    ),
}

GO = {
    "go.mod": "module example.com/demo\n",
    "main.go": 'package main\n\nimport "example.com/demo/shapes"\n\nfunc main() {\n'
    "\tshapes.Area(1)\n\tshapes.Perimeter(2)\n}\n",
    "shapes/a.go": "package shapes\n\nfunc Area(x int) int { return helper(x) }\n",
    "shapes/b.go": "package shapes\n\nfunc Perimeter(x int) int { return x }\n"
    "func helper(x int) int { return x }\n",
}

JAVA = {
    "src/demo/util/Calc.java": (
        "package demo.util;\n\npublic class Calc {\n    public int add(int a) {\n"
        "        return a;\n    }\n    public String add(String a) {\n        return a;\n    }\n"
        "    public int length() {\n        return 0;\n    }\n}\n"
    ),
    "src/demo/app/App.java": (
        "package demo.app;\n\nimport demo.util.Calc;\n\npublic class App {\n"
        "    public void run(String s) {\n        Calc c = new Calc();\n        c.add(1);\n"
        '        c.add("x");\n        s.length();\n    }\n}\n'
    ),
}


CSHARP = {
    "Models/Widget.cs": """\
namespace App.Models
{
    public class Widget
    {
        public void Draw(int a) {}
        public void Draw(string a) {}
    }
}
""",
    "Other/Widget.cs": """\
namespace App.Other
{
    public class Widget
    {
        public void Draw(int a) {}
    }
}
""",
    "Helpers.cs": """\
namespace App
{
    public class Helpers
    {
        public static void Help() {}
    }
}
""",
    "Program.cs": """\
using App.Models;
using System;

namespace App
{
    public class Program
    {
        public void Main(Widget p)
        {
            var w = new Widget();
            w.Draw(1);
            p.Draw(2);
            Helpers.Help();
            Console.WriteLine(1);
        }
    }
}
""",
}

PHP = {
    "src/Models/Widget.php": """\
<?php
namespace App\\Models;

class Widget
{
    public function draw() {}
}
""",
    "src/Other/Widget.php": """\
<?php
namespace App\\Other;

class Widget
{
    public function draw() {}
}
""",
    "src/Http/Controller.php": """\
<?php
namespace App\\Http;

use App\\Models\\Widget;
use App\\Other\\{Widget as OtherWidget};

class Controller
{
    public function show(OtherWidget $o)
    {
        $w = new Widget();
        $w->draw();
        $o->draw();
        Widget::make();
    }
}
""",
}

KOTLIN = {
    "src/demo/util/Calc.kt": """\
package demo.util

class Calc {
    fun add(a: Int): Int = a
    fun add(a: String): String = a
}
""",
    "src/demo/other/Calc.kt": """\
package demo.other

class Calc {
    fun add(a: Int): Int = a
}
""",
    "src/demo/app/Main.kt": """\
package demo.app

import demo.util.Calc
import demo.other.Calc as OtherCalc

fun main() {
    val c = Calc()
    c.add(1)
    c.add("x")
    val o = OtherCalc()
    o.add(2)
}
""",
}


def build(tmp_path: Path, settings: Settings, files: dict[str, str]) -> tuple[Service, Store]:
    repo = tmp_path / "repo"
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    service = Service(repo, settings)
    service.index(with_vectors=False)
    return service, Store.open(service.index_dir)


def at(rows: list[dict[str, Any]], path: str, line: int) -> list[dict[str, Any]]:
    """The graph rows (edges and unresolved records) of the calls on one line."""
    return [r for r in rows if r["path"] == path and r["line"] == line]


def edges_at(rows: list[dict[str, Any]], path: str, line: int) -> set[tuple[str, bool]]:
    """(callee id, certain) of each edge on one line."""
    found = at(rows, path, line)
    return {(r["callee"], round(r["confidence"], 3) >= 0.9) for r in found if r["callee"]}


def graph(tmp_path: Path, settings: Settings, files: dict[str, str]) -> list[dict[str, Any]]:
    return build(tmp_path, settings, files)[1].read_table(GRAPH_EDGES).to_pylist()


def test_python_overload_stubs_give_way_to_the_implementation(
    tmp_path: Path, settings: Settings
) -> None:
    service, store = build(tmp_path, settings, PYTHON)
    symbols = {r["qualified_name"]: r for r in store.read_table(GRAPH_SYMBOLS).to_pylist()}
    assert (symbols["Box.get_value"]["start_line"], symbols["Box.get_value"]["end_line"]) == (
        10,
        11,
    )
    assert symbols["Box.put"]["start_line"] == 20
    callee = {e.symbol: e for e in service.callees("Box.put").entries}["Box.get_value"]
    assert (callee.start_line, callee.tier) == (10, "certain")
    caller = service.callers("Box.lookup").entries[0]
    assert (caller.symbol, caller.start_line) == ("Box.get_value", 10)


def test_typescript_overload_signatures_and_java_overloads_are_one_target(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path / "ts", settings, TYPESCRIPT)
    assert edges_at(rows, "src/app.ts", 10) == {("src/box.ts::make", True)}
    rows = graph(tmp_path / "java", settings, JAVA)
    for line in (8, 9):
        assert edges_at(rows, "src/demo/app/App.java", line) == {
            ("src/demo/util/Calc.java::Calc.add", True)
        }


def reexport_cases() -> list[tuple[str, dict[str, str], str, int, str]]:
    return [
        ("python", PYTHON, "app.py", 7, "pkg/core.py::helper"),
        ("python", PYTHON, "app.py", 8, "pkg/core.py::helper"),
        ("python", PYTHON, "app.py", 9, "pkg/models.py::Box"),
        ("typescript", TYPESCRIPT, "src/app.ts", 6, "src/core/finish.ts::finishResult"),
        ("typescript", TYPESCRIPT, "src/app.ts", 7, "src/core/named.ts::namedOne"),
        ("typescript", TYPESCRIPT, "src/app.ts", 8, "src/core/named.ts::renamedSrc"),
        ("typescript", TYPESCRIPT, "src/app.ts", 9, "src/core/space.ts::spaced"),
        ("javascript", JAVASCRIPT, "lib/app.js", 5, "lib/finish.js::finishResult"),
        ("javascript", JAVASCRIPT, "lib/app.js", 6, "lib/finish.js::finishResult"),
        ("javascript", JAVASCRIPT, "lib/legacy.js", 4, "lib/finish.js::finishResult"),
        ("typescript", TYPESCRIPT, "src/err.ts", 4, "src/errorUtil.ts::errorUtil.errToObj"),
        ("rust", RUST, "src/main.rs", 6, "src/shapes/geometry.rs::area"),
        ("rust", RUST, "src/main.rs", 7, "src/shapes/geometry.rs::Circle.new"),
        ("go", GO, "main.go", 6, "shapes/a.go::Area"),
        ("go", GO, "main.go", 7, "shapes/b.go::Perimeter"),
        ("go", GO, "shapes/a.go", 3, "shapes/b.go::helper"),
        ("csharp", CSHARP, "Program.cs", 10, "Models/Widget.cs::Widget"),
        ("csharp", CSHARP, "Program.cs", 11, "Models/Widget.cs::Widget.Draw"),
        ("csharp", CSHARP, "Program.cs", 12, "Models/Widget.cs::Widget.Draw"),
        ("csharp", CSHARP, "Program.cs", 13, "Helpers.cs::Helpers.Help"),
        ("php", PHP, "src/Http/Controller.php", 11, "src/Models/Widget.php::Widget"),
        (
            "php",
            PHP,
            "src/Http/Controller.php",
            12,
            "src/Models/Widget.php::Widget.draw",
        ),
        ("php", PHP, "src/Http/Controller.php", 13, "src/Other/Widget.php::Widget.draw"),
        ("kotlin", KOTLIN, "src/demo/app/Main.kt", 7, "src/demo/util/Calc.kt::Calc"),
        ("kotlin", KOTLIN, "src/demo/app/Main.kt", 8, "src/demo/util/Calc.kt::Calc.add"),
        ("kotlin", KOTLIN, "src/demo/app/Main.kt", 9, "src/demo/util/Calc.kt::Calc.add"),
        ("kotlin", KOTLIN, "src/demo/app/Main.kt", 10, "src/demo/other/Calc.kt::Calc"),
        ("kotlin", KOTLIN, "src/demo/app/Main.kt", 11, "src/demo/other/Calc.kt::Calc.add"),
    ]


@pytest.mark.parametrize(
    "language", ["python", "typescript", "javascript", "rust", "go", "csharp", "php", "kotlin"]
)
def test_reexports_resolve_through_barrels_and_packages(
    tmp_path: Path, settings: Settings, language: str
) -> None:
    cases = [c for c in reexport_cases() if c[0] == language]
    rows = graph(tmp_path, settings, cases[0][1])
    for _, _, path, line, target in cases:
        assert edges_at(rows, path, line) == {(target, True)}, at(rows, path, line)
    # A definition of the project is never reported as an external import.
    external = [r for r in rows if not r["callee"] and "external" in r["rule"]]
    assert external == []


def test_local_aliases_call_the_aliased_target(tmp_path: Path, settings: Settings) -> None:
    rows = graph(tmp_path / "py", settings, PYTHON)
    assert edges_at(rows, "app.py", 12) == {("pkg/core.py::helper", True)}
    assert edges_at(rows, "pkg/models.py", 47) == {("pkg/models.py::Tracker.step", True)}
    rows = graph(tmp_path / "ts", settings, TYPESCRIPT)
    assert edges_at(rows, "src/app.ts", 13) == {("src/core/finish.ts::finishResult", True)}
    assert edges_at(rows, "src/holder.ts", 9) == {("src/box.ts::Box.lookup", True)}
    rows = graph(tmp_path / "js", settings, JAVASCRIPT)
    assert edges_at(rows, "lib/app.js", 8) == {("lib/finish.js::finishResult", True)}


def test_a_builtin_method_name_on_an_unknown_receiver_stays_uncertain(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path / "py", settings, PYTHON)
    assert edges_at(rows, "pkg/use.py", 2) == {("pkg/models.py::Tracker.update", False)}
    assert max(round(r["confidence"], 3) for r in at(rows, "pkg/use.py", 2)) < 0.7
    assert [r["rule"] for r in at(rows, "pkg/use.py", 3)] == ["unique-method"]  # not builtin
    rows = graph(tmp_path / "ts", settings, TYPESCRIPT)
    assert edges_at(rows, "src/errorUtil.ts", 5) == {("src/errorUtil.ts::Msg.toString", False)}
    assert max(round(r["confidence"], 3) for r in at(rows, "src/errorUtil.ts", 5)) < 0.7


def test_a_call_of_a_parameter_is_not_a_call_of_a_definition_of_that_name(
    tmp_path: Path, settings: Settings
) -> None:
    for files, path, line, name in (
        (PYTHON, "pkg/hooks.py", 6, "validator"),
        (TYPESCRIPT, "src/hooks.ts", 3, "cb"),
    ):
        rows = graph(tmp_path / path.rsplit(".", 1)[1], settings, files)
        found = [(r["callee"], r["rule"]) for r in at(rows, path, line)]
        assert found == [("", f"call of the parameter {name}: whatever the caller passes")]


def test_a_call_of_a_name_unpacked_from_a_value_is_not_a_definition_of_that_name(
    tmp_path: Path, settings: Settings
) -> None:
    # trpc's `const { serialize } = opts; ... serialize(chunk)` went to the project's one
    # module-level `serialize` (unique-name, probable); the TypeScript compiler says local.
    transformer = "export function serialize(v: unknown): string {\n  return String(v);\n}\n"
    stream = (
        'import { serialize as encode } from "./transformer";\n\n'
        "export function producer(opts: { serialize?: (v: unknown) => string }) {\n"
        "  const { serialize } = opts;\n"
        "  return (x: unknown) => serialize(x) + encode(x);\n"
        "}\n\n"
        "export function consumer({ deserialize = (v: unknown) => v }) {\n"
        "  const [first, { serialize: pick }] = [deserialize, opts()];\n"
        "  return pick(first(1));\n"
        "}\n\n"
        "function opts() {\n  return { serialize: (v: unknown) => String(v) };\n}\n"
    )
    files = {"src/transformer.ts": transformer, "src/stream.ts": stream}
    for language, suffix in (("ts", ".ts"), ("js", ".js")):
        source = {path.replace(".ts", suffix): text for path, text in files.items()}
        if suffix == ".js":  # the same code without its type annotations
            source = {
                p: re.sub(r": \{[^}]*\}|: unknown|: string", "", t) for p, t in source.items()
            }
        rows = graph(tmp_path / language, settings, source)
        path = f"src/stream{suffix}"
        unpacked = "unpacked from a value: whatever that value holds"
        assert [
            (r["callee"], r["rule"]) for r in at(rows, path, 5) if "serialize" in r["rule"]
        ] == [("", f"call of serialize, {unpacked}")]
        encoded = [r["callee"] for r in at(rows, path, 5) if r["callee"]]
        assert encoded == [f"src/transformer{suffix}::serialize"]  # the import still resolves
        line_10 = sorted(r["rule"] for r in at(rows, path, 10))
        assert line_10 == [f"call of first, {unpacked}", f"call of pick, {unpacked}"]


def test_a_receiver_imported_from_outside_the_project_is_not_guessed(
    tmp_path: Path, settings: Settings
) -> None:
    files = {
        "store.py": "class Store:\n    def fetch(self, k):\n        return k\n",
        "app.py": "from somelib import client\n\n\ndef main():\n    client.fetch(1)\n",
        "web.ts": 'import { api } from "somelib";\n\nexport function main(): void {\n'
        "  api.fetch(1);\n}\n",
    }
    rows = graph(tmp_path, settings, files)
    for path, line, head in (("app.py", 5, "client"), ("web.ts", 4, "api")):
        found = [(r["callee"], r["rule"]) for r in at(rows, path, line)]
        assert found == [("", f"method of {head}, imported from outside the project")]


@pytest.mark.parametrize(
    ("files", "path", "lines"),
    [
        # a container whose items are said apart (`names: list[str]`, `const list = [1, 2]`,
        # which a declared `Post[]` would type) is "a container"
        (PYTHON, "pkg/models.py", {48: "dict", 50: "dict", 51: "dict", 52: "a container",
                                   53: "str", 54: "tuple"}),
        (TYPESCRIPT, "src/app.ts", {15: "a container", 16: "Array", 17: "String", 18: "String",
                                    19: "Array"}),
        (JAVASCRIPT, "lib/app.js", {10: "Array", 12: "Object", 13: "Array"}),
        (JAVA, "src/demo/app/App.java", {10: "String"}),
        (RUST, "src/main.rs", {9: "Vec"}),
    ],
)  # fmt: skip
def test_builtin_receivers_never_resolve_into_the_project(
    tmp_path: Path, settings: Settings, files: dict[str, str], path: str, lines: dict[int, str]
) -> None:
    rows = graph(tmp_path, settings, files)
    for line, kind in lines.items():
        found = at(rows, path, line)
        assert [(r["callee"], r["rule"]) for r in found] == [("", f"builtin receiver: {kind}")]


def test_a_method_of_what_a_module_function_returns_is_no_function_of_the_module(
    tmp_path: Path, settings: Settings
) -> None:
    # zod's tests: `z.string().nullish()` is ZodString's method, not the module's `nullish`.
    files = {
        "schemas.ts": "export function string(): any {}\nexport function nullish(): void {}\n",
        "use.ts": 'import * as z from "./schemas";\n\nexport function f(): void {\n'
        "  z.string().nullish();\n  z.nullish();\n}\n",
        "schemas.py": "def string():\n    pass\n\n\ndef nullish():\n    pass\n",
        "use.py": "import schemas\n\n\ndef f():\n    schemas.string().nullish()\n"
        "    schemas.nullish()\n",
    }
    rows = graph(tmp_path, settings, files)
    for path, line in (("use.ts", 4), ("use.py", 5)):
        nullish = [r for r in at(rows, path, line) if r["callee_text"].endswith("nullish")]
        assert not [r for r in nullish if r["confidence"] >= 0.9], nullish
    assert edges_at(rows, "use.ts", 5) == {("schemas.ts::nullish", True)}
    assert edges_at(rows, "use.py", 6) == {("schemas.py::nullish", True)}


def test_a_type_s_name_means_the_type_not_its_extension(tmp_path: Path, settings: Settings) -> None:
    # Swift's `extension Point` (and a Rust `impl Point`) is a definition of the same name:
    # `callers Point` was an error listing both; the type is what a reader means.
    files = {
        "Sources/Point.swift": "struct Point {\n    var x: Int\n}\n",
        "Sources/Point+Math.swift": "extension Point {\n    func twice() -> Int { x * 2 }\n}\n",
        "Sources/Use.swift": "func make() -> Point {\n    return Point(x: 1)\n}\n",
    }
    service, _ = build(tmp_path, settings, files)
    answer = service.callers("Point")
    assert answer.path == "Sources/Point.swift"
    assert [(e.symbol, e.line) for e in answer.entries] == [("make", 2)]
