"""The call-graph oracle bench: call sites found with tree-sitter, real jedi's answers, and the
per-tier scoring of our graph against them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.bench.oracle import (
    OracleReport,
    OurGraph,
    Site,
    Target,
    call_sites,
    format_report,
    run_oracle,
    sample_sites,
    score,
)
from app.bench.oracle_python import jedi_answers
from app.core.settings import Settings

TINY = {
    "pkg/__init__.py": "from .core import helper\n",
    "pkg/core.py": (
        "def helper():\n    return 1\n\n\n"
        "class Store:\n    def get(self, key):\n        return key\n"
    ),
    "pkg/app.py": (
        "from pkg import helper\nfrom pkg.core import Store\n\n\ndef main():\n    helper()\n"
        '    d = {}\n    d.get("x")\n    s = Store()\n    s.get(1)\n'
    ),
}


def _write(root: Path, files: dict[str, str]) -> Path:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root


def test_call_sites_name_the_called_word_in_characters() -> None:
    text = 'x = "é"; obj.run(\n    a)\nhelper()\nhandlers[k]()\n'
    sites = call_sites("m.py", text, "python")
    assert [(s.name, s.line, s.name_line, s.name_column) for s in sites] == [
        ("run", 1, 1, 13),  # 13 characters before `run`, 14 bytes
        ("helper", 3, 3, 0),
    ]  # the dynamic call has no name to ask about
    ts = "const c = new Client();\nc.send(x).then(f);\n"
    found = [(s.name, s.name_line, s.name_column) for s in call_sites("a.ts", ts, "typescript")]
    assert sorted(found) == [("Client", 1, 14), ("send", 2, 2), ("then", 2, 10)]
    tsx = "const a = <Card.Header>\n  <div><Editor post={p} /></div>\n</Card.Header>;\n"
    found = [(s.name, s.name_line, s.name_column) for s in call_sites("a.tsx", tsx, "tsx")]
    assert sorted(found) == [("Editor", 2, 8), ("Header", 1, 16)]  # `<div>` is HTML's
    rb = "def go(x)\n  y = 1\n  save && x && y && valid?\nend\n"
    found = [(s.name, s.name_line, s.name_column) for s in call_sites("a.rb", rb, "ruby")]
    assert sorted(found) == [("save", 3, 2), ("valid?", 3, 20)]  # `x`, `y` are variables


def test_a_sample_is_the_same_for_the_same_seed() -> None:
    sites = [Site("a.py", i, i, 0, f"f{i}") for i in range(1, 50)]
    first = sample_sites(sites, 10, seed=3)
    assert first == sample_sites(list(reversed(sites)), 10, seed=3)
    assert first != sample_sites(sites, 10, seed=4)
    assert len(first) == 10 and sample_sites(sites, 100, seed=3) == sites


def test_jedi_follows_imports_to_the_project_definition_or_says_outside(tmp_path: Path) -> None:
    root = _write(tmp_path / "tiny", TINY)
    text = (root / "pkg/app.py").read_text()
    sites = call_sites("pkg/app.py", text, "python")
    answers = jedi_answers(root, sites)
    by_name = {(s.name, s.name_line): a for s, a in zip(sites, answers, strict=True)}
    assert by_name[("helper", 6)] == [Target("pkg/core.py", 1, "helper")]  # through __init__
    assert by_name[("Store", 9)] == [Target("pkg/core.py", 5, "Store")]
    assert by_name[("get", 10)] == [Target("pkg/core.py", 6, "get")]
    outside = by_name[("get", 8)]  # dict.get: builtins, outside the project
    assert outside and all(t.path == "" for t in outside)


def _symbol(
    path: str, name: str, kind: str, start: int, end: int, parent: str = ""
) -> dict[str, object]:
    qualified = f"{parent}.{name}" if parent else name
    return {
        "id": f"{path}::{qualified}", "path": path, "name": name, "kind": kind,
        "qualified_name": qualified, "parent": parent, "start_line": start, "end_line": end,
    }  # fmt: skip


def test_a_cpp_overload_maps_to_the_one_row_its_overloads_share() -> None:
    # Overloads share one id and one row, which holds the first overload's lines; the
    # reopened namespace's row holds only its first block.
    rows = [
        _symbol("t.hpp", "CLI", "module", 1, 900),
        _symbol("t.hpp", "detail", "module", 3, 10, "CLI"),
        _symbol("t.hpp", "lexical_cast", "function", 20, 25, "CLI.detail"),
        _symbol("t.hpp", "Other", "class", 30, 40),
        _symbol("t.hpp", "get", "method", 32, 33, "Other"),
        _symbol("t.hpp", "get", "function", 50, 52),
    ]
    for row in rows:
        row["language"] = "cpp"
    graph = OurGraph(rows, [])
    # the compiler's pick, the third overload on line 880
    assert graph.symbol_at(Target("t.hpp", 880, "lexical_cast")) == "t.hpp::CLI.detail.lexical_cast"
    assert graph.symbol_at(Target("t.hpp", 880, "missing")) == ""
    assert graph.symbol_at(Target("t.hpp", 880, "get")) == ""  # two definitions: which one?


def test_an_oracle_target_maps_to_our_definition_overload_signatures_included(
    tmp_path: Path,
) -> None:
    graph = OurGraph(
        [
            _symbol("doc.ts", "Doc", "class", 3, 40),
            _symbol("doc.ts", "constructor", "method", 8, 10, "Doc"),
            _symbol("doc.ts", "write", "method", 20, 34, "Doc"),
            _symbol("doc.ts", "write", "function", 50, 52),  # a free function of that name
            _symbol("doc.ts", "args", "function", 60, 70),
        ],
        [],
    )
    assert graph.symbol_at(Target("doc.ts", 21, "write")) == "doc.ts::Doc.write"
    # `write(line: string): void;` on line 19, a signature we keep no symbol for
    assert graph.symbol_at(Target("doc.ts", 19, "write")) == "doc.ts::Doc.write"
    assert graph.symbol_at(Target("doc.ts", 50, "write")) == "doc.ts::write"
    assert graph.symbol_at(Target("doc.ts", 4, "args")) == ""  # a field, not a definition
    assert graph.symbol_at(Target("other.ts", 1, "write")) == ""
    # `module.exports = function query(options) {` on line 25: our definition there is named
    # by where it is assigned, the oracle names the function expression.
    # A parameter declared on that line (`= function handle(err, next) {`) is no such target.
    lines = ["//\n"] * 24 + ["module.exports = function query(options, next) {\n"]
    (tmp_path / "query.js").write_text("".join(lines) + "  return next;\n}\n")
    exports = OurGraph(
        [_symbol("query.js", "exports", "function", 25, 47, "module")], [], root=tmp_path
    )
    assert exports.symbol_at(Target("query.js", 25, "query")) == "query.js::module.exports"
    assert exports.symbol_at(Target("query.js", 25, "next")) == ""
    assert exports.symbol_at(Target("query.js", 30, "query")) == ""
    # `module.exports = class Application extends Emitter {`: the class the same way.
    (tmp_path / "app.js").write_text("module.exports = class Application extends Emitter {\n}\n")
    app = OurGraph([_symbol("app.js", "exports", "class", 1, 2, "module")], [], root=tmp_path)
    assert app.symbol_at(Target("app.js", 1, "Application")) == "app.js::module.exports"
    assert app.symbol_at(Target("app.js", 1, "Emitter")) == ""
    # `static create = (params) => {...}` on line 27: TypeScript goes to the arrow and names
    # it "(Anonymous function)"; our definition there is the field's, `Doc.create`.
    made = OurGraph([_symbol("doc.ts", "create", "method", 27, 33, "Doc")], [], root=tmp_path)
    assert made.symbol_at(Target("doc.ts", 27, "(Anonymous function)")) == "doc.ts::Doc.create"
    assert made.symbol_at(Target("doc.ts", 29, "(Anonymous function)")) == ""  # a callback
    # zod's `const stringType = ZodString.create;`, where the TS service stops: the alias
    # stands for the definition it names.
    (tmp_path / "types.ts").write_text("class ZodString {}\nconst stringType = ZodString.create;\n")
    aliased = OurGraph(
        [
            _symbol("types.ts", "ZodString", "class", 1, 1),
            _symbol("types.ts", "create", "method", 1, 1, "ZodString"),
        ],
        [],
        root=tmp_path,
    )
    assert aliased.symbol_at(Target("types.ts", 2, "stringType")) == "types.ts::ZodString.create"
    assert aliased.symbol_at(Target("types.ts", 2, "other")) == ""


def _graph(edges: list[tuple[int, str, str, float, str]]) -> OurGraph:
    symbols = [
        _symbol("pkg/core.py", "helper", "function", 1, 2),
        _symbol("pkg/core.py", "Store", "class", 5, 7),
        _symbol("pkg/core.py", "get", "method", 6, 7, "Store"),
    ]
    rows = [
        {"path": "pkg/app.py", "line": line, "callee": callee, "callee_text": text,
         "confidence": confidence, "rule": rule}
        for line, text, callee, confidence, rule in edges
    ]  # fmt: skip
    return OurGraph(symbols, rows)


def test_scoring_counts_each_tier_recall_and_false_reasons(tmp_path: Path) -> None:
    root = _write(tmp_path / "tiny", TINY)
    sites = call_sites("pkg/app.py", (root / "pkg/app.py").read_text(), "python")
    answers = jedi_answers(root, sites)
    # Our graph as given here: the typed receiver right (certain), the constructor to its
    # `__init__`-less class right, `d.get` wrongly into the project (probable), `helper`
    # called an external import although the project defines it.
    graph = _graph(
        [
            (6, "helper", "", 0.0, "external import"),
            (8, "d.get", "pkg/core.py::Store.get", 0.7, "unique-method"),
            (9, "Store", "pkg/core.py::Store", 0.95, "import"),
            (10, "s.get", "pkg/core.py::Store.get", 0.9, "typed-receiver"),
        ]
    )
    report = score(OracleReport("tiny", "python", "jedi"), graph, sites, answers)
    assert (report.sites, report.oracle_in_project, report.oracle_external) == (4, 3, 1)
    assert report.precision == {"certain": 1.0, "probable": 0.0, "uncertain": None}
    assert report.recall_certain_probable == pytest.approx(2 / 3, abs=0.001)
    assert report.ours_unresolved == 1 and report.false_reasons == {"external import": 1}
    assert report.false_reason_share == 1.0
    # Each rule's judged edges and the right ones among them: what calibrates its confidence.
    assert report.by_rule == {"unique-method": [1, 0], "import": [1, 1], "typed-receiver": [1, 1]}
    assert "unique-method 0/1" in format_report(report)
    assert report.examples["wrong probable"] == [
        "pkg/app.py:8 get: ours pkg/core.py::Store.get (unique-method), oracle outside the project"
    ]
    # Every disagreement can be listed, or none: the count kept per kind is the caller's.
    none = score(OracleReport("tiny", "python", "jedi"), graph, sites, answers, examples_kept=0)
    assert none.examples["wrong probable"] == [] and none.false_reasons == report.false_reasons


def test_two_calls_of_one_name_on_a_line_are_told_apart_by_their_receiver() -> None:
    # `Store.get(a) or cache.get(b)`: the site asked about is judged by its own call's edge,
    # not also by the other one's.
    text = "Store.get(1) or cache.get(2)\n"
    first, second = call_sites("pkg/app.py", text, "python")
    assert (first.receiver, second.receiver) == ("Store", "cache")
    graph = _graph(
        [
            (1, "Store.get", "pkg/core.py::Store.get", 0.9, "class-member"),
            (1, "cache.get", "pkg/core.py::helper", 0.7, "unique-method"),
        ]
    )
    assert graph.call(first).edges == (("pkg/core.py::Store.get", 0.9, "class-member"),)
    assert graph.call(second).edges == (("pkg/core.py::helper", 0.7, "unique-method"),)


def test_the_bench_indexes_samples_and_scores_a_real_project(
    tmp_path: Path, settings: Settings
) -> None:
    root = _write(tmp_path / "tiny", TINY)
    report = run_oracle(root, settings, "python", sample=300, seed=1)
    assert report.sites == 4 and report.oracle == "jedi"
    assert report.oracle_in_project == 3 and report.oracle_external == 1
    judged = sum(report.edges_by_tier.values())
    assert judged >= 2 and report.correct_by_tier["certain"] >= 2  # Store() and s.get
    assert report.ours_unresolved + report.ours_not_extracted <= report.sites


TINY_TS = {
    "src/core/finish.ts": (
        "export function finishResult(x: number): number {\n  return x + 1;\n}\n\n"
        "export class Box {\n  get(key: string): string {\n    return key;\n  }\n}\n"
    ),
    "src/internal.ts": 'export * from "./core/finish";\n',
    "src/app.ts": (
        'import { finishResult, Box } from "./internal";\n\n'
        "export function main(): void {\n  finishResult(1);\n"
        '  const m = new Map<string, string>();\n  m.get("x");\n'
        '  const b = new Box();\n  b.get("y");\n}\n'
    ),
}


def _typescript_or_skip() -> None:
    from app.bench.oracle_ts import OracleUnavailable, node_setup

    try:
        node_setup(None)
    except OracleUnavailable as error:  # CI's clean machine has node, not this npm package
        pytest.skip(f"the TypeScript oracle cannot run here: {error}")


def test_the_typescript_service_goes_through_a_barrel_or_says_outside(tmp_path: Path) -> None:
    _typescript_or_skip()
    from app.bench.oracle_ts import ts_answers

    root = _write(tmp_path / "tiny", TINY_TS)
    sites = call_sites("src/app.ts", (root / "src/app.ts").read_text(), "typescript")
    answers, name = ts_answers(root, sites)
    assert name.startswith("typescript ")
    by_name = {(s.name, s.name_line): a for s, a in zip(sites, answers, strict=True)}
    assert by_name[("finishResult", 4)] == [Target("src/core/finish.ts", 1, "finishResult")]
    assert by_name[("Box", 7)] == [Target("src/core/finish.ts", 5, "Box")]
    assert by_name[("get", 8)] == [Target("src/core/finish.ts", 6, "get")]
    outside = by_name[("get", 6)]  # Map.get: the standard library's declarations
    assert outside and all(t.path == "" for t in outside)


def test_a_missing_typescript_package_is_one_line_that_says_how_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.bench.cli import main

    root = _write(tmp_path / "tiny", TINY_TS)
    args = ["graph-oracle", str(root), "--language", "typescript", "--node-dir"]
    code = main([*args, str(tmp_path / "empty"), "--index-dir", str(tmp_path / "idx")])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1
    if shutil.which("node") is None:
        assert err.startswith("repolens-tui: error: the TypeScript oracle needs node")
    else:
        assert err.startswith("repolens-tui: error: no typescript package in ")
        assert "npm install --prefix" in err
    assert not (tmp_path / "idx").exists()  # it said so before indexing anything


def test_a_definition_jedi_finds_in_its_own_stubs_is_the_project_s_when_it_has_it(
    tmp_path: Path,
) -> None:
    # jedi ships django-stubs and answers with them even inside Django's own source tree
    root = _write(
        tmp_path / "django-like",
        {
            "django/__init__.py": "",
            "django/test/__init__.py": "from .testcases import SimpleTestCase\n",
            "django/test/testcases.py": (
                "class SimpleTestCase:\n    def assertRaisesMessage(self, exc, msg):\n"
                "        return None\n"
            ),
            "t.py": (
                "from django.test import SimpleTestCase\n\n\nclass T(SimpleTestCase):\n"
                '    def test_it(self):\n        self.assertRaisesMessage(ValueError, "m")\n'
            ),
        },
    )
    sites = call_sites("t.py", (root / "t.py").read_text(), "python")
    [answer] = jedi_answers(root, sites)
    assert answer == [
        Target(
            "django/test/testcases.py",
            0,
            "assertRaisesMessage",
            "SimpleTestCase.assertRaisesMessage",
        )
    ]
    graph = OurGraph(
        [
            _symbol(
                "django/test/testcases.py", "assertRaisesMessage", "method", 2, 3, "SimpleTestCase"
            )
        ],
        [],
    )
    assert (
        graph.symbol_at(answer[0]) == "django/test/testcases.py::SimpleTestCase.assertRaisesMessage"
    )


def test_the_console_script_knows_every_bench_command() -> None:
    from app.bench.cli import build_parser
    from app.cli import command_names
    from app.main import BENCH_COMMANDS

    assert command_names(build_parser()) == BENCH_COMMANDS


def test_no_bench_command_shadows_a_command_of_the_product() -> None:
    """`repolens-tui hotspots PATH` once answered "a benchmark command": the bench's command
    of that name took the product's."""
    from app.cli import build_parser, command_names
    from app.main import BENCH_COMMANDS

    assert not BENCH_COMMANDS & command_names(build_parser())


def test_an_import_the_typescript_service_cannot_follow_is_no_answer(tmp_path: Path) -> None:
    _typescript_or_skip()
    from app.bench.oracle_ts import ts_answers

    text = 'import { expect } from "vitest";\n\nexpect(1);\n'
    root = _write(tmp_path / "tiny", {"a.test.ts": text})
    answers, _ = ts_answers(root, call_sites("a.test.ts", text, "typescript"))
    assert answers == [[]]  # not the import line: vitest is not installed here


def test_a_call_of_a_local_alias_is_judged_by_what_it_stands_for(
    tmp_path: Path, settings: Settings
) -> None:
    # Django's `qn = self.quote_name` then `qn(...)`: our call carries `quote_name`, the site
    # the oracle asks about is written `qn`; the two must meet, not count as "not extracted".
    files = {
        "ops.py": (
            "class Ops:\n    def quote_name(self, name):\n        return name\n\n"
            "    def sql(self, other):\n        qn = self.quote_name\n"
            '        return qn("x") + other.strip()\n'
        )
    }
    report = run_oracle(_write(tmp_path / "alias", files), settings, "python", 300, 1)
    assert report.oracle_in_project == 1 and report.ours_not_extracted == 0
    assert report.recall_certain_probable == 1.0


TINY_JAVA = {
    "src/main/java/p/Box.java": (
        "package p;\n\npublic class Box<T> {\n  public Box() {}\n"
        "  public T get() { return null; }\n  public static int size() { return 0; }\n}\n"
    ),
    "src/main/java/p/Empty.java": "package p;\n\nclass Empty {}\n",
    "src/test/java/p/BoxTest.java": (
        "package p;\n\nimport java.util.ArrayList;\nimport static p.Box.size;\n\n"
        "class BoxTest {\n  void t() {\n\tnew Box<String>().get();\n"
        '    new ArrayList<String>().add("x");\n    size();\n    new Empty();\n'
        "    missing.call();\n    new p.Empty();\n    new Empty() { };\n  }\n}\n"
    ),
}


def test_java_call_sites_name_methods_and_constructed_types() -> None:
    text = TINY_JAVA["src/test/java/p/BoxTest.java"]
    found = [(s.name, s.name_line, s.name_column) for s in call_sites("B.java", text, "java")]
    assert sorted(found) == [
        ("ArrayList", 9, 8),  # `new ArrayList<String>()`: the type, not its arguments
        ("Box", 8, 5),  # after a tab: columns are characters
        ("Empty", 11, 8),
        ("Empty", 13, 10),  # `new p.Empty()`: the last name of the scoped type
        ("Empty", 14, 8),
        ("add", 9, 28),
        ("call", 12, 12),
        ("get", 8, 19),
        ("size", 10, 4),
    ]


def _or_skip(language: str) -> None:
    """Skip where the oracle's tool is not installed (a JDK, a Go toolchain), saying why."""
    from app.bench.oracle import OracleUnavailable
    from app.bench.oracle_gcc import gcc_setup
    from app.bench.oracle_go import go_setup
    from app.bench.oracle_java import java_setup
    from app.bench.oracle_kotlin import kotlin_setup
    from app.bench.oracle_php import php_setup
    from app.bench.oracle_ruby import ruby_setup
    from app.bench.oracle_rust import rust_setup
    from app.bench.oracle_zig import zig_setup

    try:
        if language in ("c", "cpp"):
            gcc_setup(language)
        elif language == "php":
            php_setup()
        elif language == "ruby":
            ruby_setup()
            if shutil.which("rspec") is None:
                pytest.skip("the ruby oracle cannot run here: no rspec on PATH")
        else:
            setups = {"java": java_setup, "go": go_setup, "rust": rust_setup}
            {**setups, "kotlin": kotlin_setup, "zig": zig_setup}[language]()
    except OracleUnavailable as error:
        pytest.skip(f"the {language} oracle cannot run here: {error}")


def test_javac_answers_each_call_with_its_declaration_or_outside(tmp_path: Path) -> None:
    _or_skip("java")
    from app.bench.oracle_java import java_answers

    root = _write(tmp_path / "tiny", TINY_JAVA)
    path = "src/test/java/p/BoxTest.java"
    sites = call_sites(path, (root / path).read_text(), "java")
    answers, name = java_answers(root, sites)
    assert name.startswith("javac (")
    by_name = {(s.name, s.name_line): a for s, a in zip(sites, answers, strict=True)}
    box = "src/main/java/p/Box.java"
    assert by_name[("Box", 8)] == [Target(box, 4, "Box")]  # the constructor, by its class
    assert by_name[("get", 8)] == [Target(box, 5, "get")]
    assert by_name[("size", 10)] == [Target(box, 6, "size")]  # through the static import
    assert by_name[("Empty", 11)] == [Target("src/main/java/p/Empty.java", 3, "Empty")]
    assert by_name[("ArrayList", 9)] == [Target("", 0, "ArrayList")]  # the JDK's
    assert by_name[("add", 9)] == [Target("", 0, "add")]
    assert by_name[("call", 12)] == []  # javac cannot resolve it: no answer, not a guess
    # An anonymous class (`new Empty() { }`) is an instance of the type it names.
    assert by_name[("Empty", 14)] == [Target("src/main/java/p/Empty.java", 3, "Empty")]


def test_graph_oracle_scores_java_against_javac(tmp_path: Path, settings: Settings) -> None:
    _or_skip("java")
    report = run_oracle(_write(tmp_path / "tiny", TINY_JAVA), settings, "java", 300, 1)
    assert report.oracle.startswith("javac")
    assert report.oracle_in_project == 6  # Box(), get(), size(), the three `new Empty()`
    assert report.precision["certain"] == 1.0 and report.recall_certain_probable == 1.0


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("java", "the Java oracle needs a JDK 11 or later"),
        ("go", "the Go oracle needs a Go toolchain 1.18 or later"),
        ("cpp", "the C/C++ oracle needs GCC 10 or later (g++ on PATH)"),
        ("rust", "the Rust oracle needs cargo and rustc on PATH"),
        ("kotlin", "the Kotlin oracle needs kotlinc 2.0 or later and a JDK"),
        ("ruby", "the Ruby oracle runs the repository's tests: it needs Ruby 2.7 or later"),
        ("php", "the PHP oracle runs the repository's tests under Xdebug: it needs PHP 7.4"),
    ],
)
def test_a_missing_tool_is_one_line_that_says_what_to_install(
    language: str,
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.bench.cli import main

    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))
    tiny = {
        "java": TINY_JAVA,
        "go": TINY_GO,
        "cpp": TINY_CPP,
        "rust": TINY_RUST,
        "kotlin": TINY_KOTLIN,
        "ruby": TINY_RUBY,
        "php": TINY_PHP,
    }[language]
    root = _write(tmp_path / "tiny", tiny)
    args = ["graph-oracle", str(root), "--language", language]
    code = main([*args, "--index-dir", str(tmp_path / "idx")])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1
    assert err.startswith(f"repolens-tui: error: {said}")
    assert not (tmp_path / "idx").exists()  # it said so before indexing anything


TINY_GO = {
    "go.mod": "module example.com/tiny\n\ngo 1.18\n",
    "box/box.go": (
        "package box\n\ntype Box struct{ items []*Item }\ntype Item struct{}\n"
        "type Sizer interface{ Size() int }\n\n"
        "func New() *Box { return &Box{} }\nfunc (b *Box) Size() int { return len(b.items) }\n"
        "func (i *Item) Size() int { return 1 }\n"
    ),
    "main.go": (
        'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/tiny/box"\n\t"other.org/lib"\n)\n\n'
        "func main() {\n\tb := box.New()\n\tb.Size()\n\tvar s box.Sizer = b\n"
        '\ts.Size()\n\tfmt.Println("é", new(box.Item).Size())\n\tlib.Run()\n'
        "\tf := b.Size\n\tf()\n}\n"
    ),
}


def test_go_call_sites_name_functions_methods_and_columns_in_characters() -> None:
    found = [
        (s.name, s.name_line, s.name_column, s.receiver)
        for s in call_sites("main.go", TINY_GO["main.go"], "go")
    ]
    assert ("New", 11, 10, "box") in found
    assert ("Size", 12, 3, "b") in found
    assert ("Size", 15, 32, "new(box.Item)") in found  # after `é`: characters, not bytes
    assert ("f", 18, 1, "") in found


def test_go_types_answers_each_call_with_its_declaration_or_outside(tmp_path: Path) -> None:
    _or_skip("go")
    from app.bench.oracle_go import go_answers

    root = _write(tmp_path / "tiny", TINY_GO)
    sites = call_sites("main.go", (root / "main.go").read_text(), "go")
    answers, name = go_answers(root, sites)
    assert name.startswith("go/types (go version")
    by_name = {(s.name, s.name_line): a for s, a in zip(sites, answers, strict=True)}
    assert by_name[("New", 11)] == [Target("box/box.go", 7, "New")]  # through the go.mod path
    assert by_name[("Size", 12)] == [Target("box/box.go", 8, "Size")]
    assert by_name[("Size", 14)] == [Target("box/box.go", 5, "Size")]  # the interface's method
    assert by_name[("Size", 15)] == [Target("box/box.go", 9, "Size")]  # new(box.Item)
    assert by_name[("Println", 15)][0].path == ""  # the standard library's
    assert by_name[("Run", 16)] == []  # a module that is not here: no answer, not a guess
    assert by_name[("f", 18)] == []  # a variable: go/types knows its type, not its value


def test_graph_oracle_scores_go_against_go_types(tmp_path: Path, settings: Settings) -> None:
    _or_skip("go")
    report = run_oracle(_write(tmp_path / "tiny", TINY_GO), settings, "go", 300, 1)
    assert report.oracle.startswith("go/types")
    assert report.oracle_in_project == 3  # New, b.Size, new(box.Item).Size
    assert report.oracle_project_other == 1  # Sizer.Size: an interface's method, no symbol
    assert report.precision["certain"] == 1.0 and report.recall_certain_probable == 1.0


TINY_CPP = {
    "include/shapes.hpp": (
        "#include <string>\n"
        "namespace shapes {\n"
        "struct Shape { virtual double area() const { return 0; } };\n"
        "struct Square : Shape { double side = 1; double area() const override; };\n"
        "double scale(double x);\n"
        "inline double scale(double x, double by) { return x * by; }\n"
        "}  // namespace shapes\n"
    ),
    "src/shapes.cpp": (
        '#include "shapes.hpp"\n'
        "namespace shapes {\n"
        "double Square::area() const { return side * side; }\n"
        "double scale(double x) { return scale(x, 2.0); }\n"
        "}  // namespace shapes\n"
    ),
    "src/main.cpp": (
        '#include "shapes.hpp"\n'
        "int main() {\n"
        "    shapes::Square sq;\n"
        "    const shapes::Shape &s = sq;\n"
        "    double a = sq.area() + s.area();\n"
        "    std::string n = std::to_string(shapes::scale(a));\n"
        "    return int(shapes::scale(a, n.size()));\n"
        "}\n"
    ),
}


def test_gcc_names_a_function_from_its_demangled_label() -> None:
    from app.bench.oracle_gcc import short_name

    assert short_name("int ns::helper(int)") == "helper"
    assert short_name("local") == "local"
    assert short_name("T twice(T) [with T = int]") == "twice"
    assert short_name("virtual double shapes::Square::area() const") == "area"
    assert (
        short_name("std::vector<_Tp, _Alloc>::size_type std::vector<_Tp>::size() const") == "size"
    )
    assert short_name("shapes::Square::Square()") == "Square"
    assert short_name("void f<std::pair<int, int> >(int)") == "f"


def test_gcc_answers_each_call_with_its_definition_or_outside(tmp_path: Path) -> None:
    _or_skip("cpp")
    from app.bench.oracle_gcc import gcc_answers

    root = _write(tmp_path / "tiny", TINY_CPP)
    sites = call_sites("src/main.cpp", (root / "src/main.cpp").read_text(), "cpp")
    files = sorted(TINY_CPP)
    answers, name = gcc_answers(root, sites, "cpp", files)
    assert name.startswith("g++") and name.endswith("(2 of 2 units)")  # the two sources
    by_name: dict[tuple[str, int], list[list[Target] | None]] = {}
    for site, answer in zip(sites, answers, strict=True):
        by_name.setdefault((site.name, site.name_line), []).append(answer)
    # Declared in the header, defined in another unit: the definition. `s.area()` is a
    # virtual call through a reference: GCC names no target, and neither does the oracle.
    assert by_name[("area", 5)] == [[Target("src/shapes.cpp", 3, "area")], []]
    assert by_name[("scale", 6)] == [[Target("src/shapes.cpp", 4, "scale")]]
    assert by_name[("scale", 7)] == [[Target("include/shapes.hpp", 6, "scale")]]  # the overload
    assert [a[0].path for a in by_name[("to_string", 6)] if a] == [""]  # the standard library's
    assert [a[0].path for a in by_name[("size", 7)] if a] == [""]


def test_graph_oracle_scores_cpp_against_gcc(tmp_path: Path, settings: Settings) -> None:
    _or_skip("cpp")
    report = run_oracle(_write(tmp_path / "tiny", TINY_CPP), settings, "cpp", 300, 1)
    assert report.oracle.startswith("g++")
    # `sq.area()`, both `scale`s, and `scale(x, 2.0)` in shapes.cpp; `s.area()` is a virtual
    # call, which GCC leaves unresolved, so it is not judged.
    assert report.oracle_in_project == 4
    # `Square::area` is defined in src/, its class in include/: one class, a certain edge.
    # Which `scale` overload a call picks takes its arguments' types: every overload, uncertain.
    assert report.edges_by_tier["certain"] == 1 and report.precision["certain"] == 1.0
    assert report.edges_by_tier["probable"] == 0 and report.recall_all == 1.0


TINY_RUST = {
    "Cargo.toml": (
        '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n\n'
        '[dev-dependencies]\nnot-on-this-machine = "9"\n'  # a library build needs none
    ),
    "src/lib.rs": (
        "pub struct Graph { n: Vec<u32> }\n"
        "pub trait Visit { fn visit(&self) -> u32; }\n"
        "impl Graph {\n"
        "    pub fn new() -> Self { Graph { n: Vec::new() } }\n"
        "    pub fn size(&self) -> usize { self.n.len() }\n"
        "}\n"
        "impl Visit for Graph { fn visit(&self) -> u32 { self.size() as u32 } }\n"
        "pub fn walk<V: Visit>(v: &V) -> u32 { v.visit() }\n"
        "pub fn run() -> u32 {\n"
        "    let g = Graph::new();\n"
        "    let d: &dyn Visit = &g;\n"
        "    d.visit() + walk(&g) + g.visit()\n"
        "}\n"
    ),
    "tests/t.rs": "#[test]\nfn t() { tiny::run(); }\n",
}


def test_rustc_paths_lose_their_generics_and_name_their_definitions() -> None:
    from app.bench.oracle_rust import targets_of, without_generics

    assert without_generics("Graph::<N, E, Ty, Ix>::remove_node") == "Graph::remove_node"
    assert without_generics("<MinScored<K, T> as Ord>::cmp") == "<MinScored as Ord>::cmp"
    assert without_generics("<K as Hash>::hash::<__H>") == "<K as Hash>::hash"
    keys = {
        ("Graph", "", "remove_node"): [("src/graph.rs", 40, "graph")],
        ("EdgeReference", "EdgeRef", "source"): [
            ("src/adj.rs", 9, "adj"),
            ("src/csr.rs", 7, "csr"),
        ],
        ("", "algo::toposort", "toposort"): [("src/algo/mod.rs", 3, "algo::toposort")],
    }
    assert targets_of("Graph::<N, E>::remove_node", keys) == [
        Target("src/graph.rs", 40, "remove_node")
    ]
    assert targets_of("<adj::EdgeReference<'_, E, Ix> as EdgeRef>::source", keys) == [
        Target("src/adj.rs", 9, "source")  # the module rustc names picks one of the two
    ]
    assert targets_of("algo::toposort::<&G>", keys) == [Target("src/algo/mod.rs", 3, "toposort")]
    assert targets_of("<G as IntoNeighbors>::neighbors", keys) == []  # whatever G is
    assert targets_of("<dyn Visit as Visit>::visit", keys) == []
    assert targets_of("Vec::<u32>::push", keys) == [Target("", 0, "push")]  # the standard's


def test_rustc_answers_each_library_call_with_its_definition_or_outside(tmp_path: Path) -> None:
    _or_skip("rust")
    from app.bench.oracle_rust import rust_answers

    root = _write(tmp_path / "tiny", TINY_RUST)
    sites = call_sites("src/lib.rs", (root / "src/lib.rs").read_text(), "rust")
    sites += call_sites("tests/t.rs", (root / "tests/t.rs").read_text(), "rust")
    answers, name = rust_answers(root, sites)
    assert name.startswith("rustc ") and name.endswith(" MIR")
    by_name: dict[tuple[str, int], list[list[Target] | None]] = {}
    for site, answer in zip(sites, answers, strict=True):
        by_name.setdefault((site.name, site.name_line), []).append(answer)
    assert by_name[("new", 10)] == [[Target("src/lib.rs", 4, "new")]]
    assert by_name[("size", 7)] == [[Target("src/lib.rs", 5, "size")]]
    # `d.visit()` through a trait object and `v.visit()` on a type parameter: no one function.
    assert by_name[("visit", 8)] == [[]]
    assert by_name[("visit", 12)] == [[], [Target("src/lib.rs", 7, "visit")]]  # `g.visit()`
    assert by_name[("walk", 12)] == [[Target("src/lib.rs", 8, "walk")]]
    assert by_name[("len", 5)] == [[Target("", 0, "len")]]  # Vec's
    assert by_name[("run", 2)] == [None]  # a test: only the library is built


TINY_KOTLIN = {
    "src/commonMain/kotlin/t/Tools.kt": (
        "package t\n\nexpect object Tools {\n    fun stamp(): Int\n}\n"
    ),
    "src/jvmMain/kotlin/t/Tools.kt": (
        "package t\n\nactual object Tools {\n    actual fun stamp(): Int = 1\n}\n"
    ),
    "src/jsMain/kotlin/t/Tools.kt": "package t\n\nthis is not Kotlin, and no JVM build reads it\n",
    "src/commonMain/kotlin/t/Box.kt": """\
package t

open class Base {
    fun size(): Int = 1
    open fun drop(all: Boolean = true) {}
}

class Box : Base() {
    override fun drop(all: Boolean) {}
    fun clear() = drop()
    inline fun twice(f: () -> Int): Int = f() + f()
}

fun Box.count(): Int = size()

fun main() {
    val b = Box()
    b.size()
    b.count()
    b.twice { 1 }
    Tools.stamp()
    listOf(1).size
}
""",
    "src/commonTest/kotlin/t/BoxTest.kt": "package t\n\nfun check() = Box().size()\n",
}


def test_kotlin_call_sites_name_functions_methods_and_receivers() -> None:
    text = TINY_KOTLIN["src/commonMain/kotlin/t/Box.kt"]
    found = [(s.name, s.name_line, s.receiver) for s in call_sites("Box.kt", text, "kotlin")]
    assert ("Box", 17, "") in found and ("size", 18, "b") in found
    assert ("drop", 10, "") in found and ("stamp", 21, "Tools") in found


def test_kotlinc_answers_each_call_with_its_declaration_or_outside(tmp_path: Path) -> None:
    _or_skip("kotlin")
    from app.bench.oracle_kotlin import kotlin_answers

    root = _write(tmp_path / "tiny", TINY_KOTLIN)
    path = "src/commonMain/kotlin/t/Box.kt"
    sites = call_sites(path, (root / path).read_text(), "kotlin")
    test = "src/commonTest/kotlin/t/BoxTest.kt"
    sites += call_sites(test, (root / test).read_text(), "kotlin")
    answers, name = kotlin_answers(root, sites)
    assert name.startswith("kotlinc's bytecode (")
    by_name = {(s.name, s.name_line): a for s, a in zip(sites, answers, strict=True)}
    assert by_name[("Box", 17)] == [Target(path, 8, "Box")]  # the constructor: its class
    assert by_name[("size", 18)] == [Target(path, 4, "size")]  # found in the base class
    assert by_name[("count", 19)] == [Target(path, 14, "count")]  # an extension function
    assert by_name[("size", 14)] == [Target(path, 4, "size")]  # its receiver's member
    # `drop()` leaves out an argument: the base's `drop$default`, which runs the override.
    assert by_name[("drop", 10)] == [Target(path, 5, "drop"), Target(path, 9, "drop")]
    assert by_name[("twice", 20)] is None  # inline: the body is copied, no call is left
    # The JVM runs the `actual`; common code calls the `expect`, which counts the same.
    common = "src/commonMain/kotlin/t/Tools.kt"
    assert by_name[("stamp", 21)] == [
        Target("src/jvmMain/kotlin/t/Tools.kt", 4, "stamp"),
        Target(common, 0, "stamp", "Tools.stamp"),
    ]
    assert by_name[("listOf", 22)] == [Target("", 0, "listOf")]  # the standard library's
    assert by_name[("size", 3)] is None  # a test: not compiled


def test_graph_oracle_scores_kotlin_against_kotlinc(tmp_path: Path, settings: Settings) -> None:
    _or_skip("kotlin")
    report = run_oracle(_write(tmp_path / "tiny", TINY_KOTLIN), settings, "kotlin", 300, 1)
    assert report.oracle.startswith("kotlinc's bytecode")
    # Box(), size() twice, count(), drop(), stamp(): the project's; listOf: outside.
    assert (report.oracle_in_project, report.oracle_external) == (6, 1)
    assert report.precision["certain"] == 1.0 and report.recall_certain_probable == 1.0


TINY_RUBY = {
    "lib/tiny.rb": """\
require 'set'

module Tiny
  autoload :Box, 'tiny/box'
  autoload :Crate, 'tiny/crate'

  class Plain
  end
end
""",
    "lib/tiny/box.rb": """\
module Tiny
  class Box
    def initialize(items)
      @items = items
    end

    def size
      count_items()
    end

    def count_items
      @items.length
    end

    def method_missing(name, *args)
      name == :anything ? 1 : super
    end

    def respond_to_missing?(name, include_private = false)
      name == :anything || super
    end
  end
end
""",
    "lib/tiny/crate.rb": """\
module Tiny
  class Crate < Box
    def size
      super + 1
    end
  end
end
""",
    "spec/box_spec.rb": """\
require 'tiny'

describe Tiny::Box do
  it 'counts' do
    box = Tiny::Box.new([1, 2])
    expect(box.size).to eq(2)
    expect(box.anything).to eq(1)
    Tiny::Plain.new
    expect(Tiny::Crate.new([1]).size).to eq(2)
    never_called(1) if false
  end
end
""",
}


def test_ruby_call_sites_name_methods_and_receivers() -> None:
    text = TINY_RUBY["spec/box_spec.rb"]
    found = [(s.name, s.name_line, s.receiver) for s in call_sites("box_spec.rb", text, "ruby")]
    assert ("new", 5, "Tiny::Box") in found and ("size", 6, "box") in found
    assert ("describe", 3, "") in found and ("never_called", 10, "") in found


def test_ruby_s_tests_under_tracepoint_answer_each_call_they_ran(tmp_path: Path) -> None:
    _or_skip("ruby")
    from app.bench.oracle_ruby import ruby_answers

    root = _write(tmp_path / "tiny", TINY_RUBY)
    (root / ".rspec").write_text("-I lib\n", encoding="utf-8")
    box, spec = "lib/tiny/box.rb", "spec/box_spec.rb"
    sites = call_sites(spec, (root / spec).read_text(), "ruby")
    sites += call_sites(box, (root / box).read_text(), "ruby")
    answers, name = ruby_answers(root, sites)
    assert name.startswith("the tests under TracePoint (ruby ")
    by_name = {(s.path, s.name, s.name_line): a for s, a in zip(sites, answers, strict=True)}
    # `Tiny::Box.new` (an autoloaded class) ran Box's initialize; the class counts as well.
    assert by_name[(spec, "new", 5)] == [Target(box, 2, "Box"), Target(box, 3, "initialize")]
    assert by_name[(spec, "size", 6)] == [Target(box, 7, "size")]
    assert by_name[(box, "count_items", 8)] == [Target(box, 11, "count_items")]
    assert by_name[(box, "length", 12)] == [Target("", 0, "length")]  # Ruby's own, in C
    # A class with no `initialize` of its own: the class, where Ruby opened it.
    assert by_name[(spec, "new", 8)] == [Target("lib/tiny.rb", 7, "Plain")]
    assert by_name[(spec, "anything", 7)] is None  # method_missing ran, not `anything`
    # Crate's `size` ran; Box's, which it overrides, is what a reader may name too.
    crate = "lib/tiny/crate.rb"
    assert by_name[(spec, "size", 9)] == [Target(crate, 3, "size"), Target(box, 7, "size")]
    assert by_name[(spec, "never_called", 10)] is None  # never run: no answer


def test_graph_oracle_scores_ruby_against_its_tests(tmp_path: Path, settings: Settings) -> None:
    _or_skip("ruby")
    root = _write(tmp_path / "tiny", TINY_RUBY)
    (root / ".rspec").write_text("-I lib\n", encoding="utf-8")
    report = run_oracle(root, settings, "ruby", 300, 1)
    assert report.oracle.startswith("the tests under TracePoint")
    # Box.new, Plain.new, Crate.new, size twice, count_items; the spec's `describe`, `it`,
    # `expect`, `eq` are RSpec's, outside.
    assert report.oracle_in_project == 6
    assert report.precision["certain"] == 1.0 and report.recall_certain_probable == 1.0


TINY_PHP = {
    "composer.json": '{"autoload": {"psr-4": {"Tiny\\\\": "src/"}}}\n',
    "src/Shape.php": """\
<?php
namespace Tiny;

interface Shape
{
    public function area(): int;
}
""",
    "src/Base.php": """\
<?php
namespace Tiny;

abstract class Base implements Shape
{
    protected $side;

    public function __construct(int $side)
    {
        $this->side = $side;
    }
}
""",
    "src/Square.php": """\
<?php
namespace Tiny;

class Square extends Base implements \\Countable
{
    public function area(): int
    {
        return $this->side * $this->side;
    }

    public function count(): int
    {
        return 4;
    }
}
""",
    "tests/SquareTest.php": """\
<?php
namespace Tiny\\Tests;

use PHPUnit\\Framework\\TestCase;
use Tiny\\Square;

class SquareTest extends TestCase
{
    public function testArea(): void
    {
        $square = new Square(3);
        $this->assertSame(9, $this->measure($square));
        $this->assertSame(4, count($square));
        if (false) {
            never_called();
        }
    }

    private function measure(\\Tiny\\Shape $shape): int
    {
        return $shape->area();
    }
}
""",
}


def test_php_call_sites_name_functions_methods_and_made_classes() -> None:
    text = TINY_PHP["tests/SquareTest.php"]
    found = [(s.name, s.name_line, s.receiver) for s in call_sites("t.php", text, "php")]
    assert ("Square", 11, "") in found and ("measure", 12, "$this") in found
    assert ("count", 13, "") in found and ("area", 21, "$shape") in found


def test_php_s_tests_under_xdebug_answer_each_call_they_ran(tmp_path: Path) -> None:
    _or_skip("php")
    from app.bench.oracle_php import php_answers

    root = _write(tmp_path / "tiny", TINY_PHP)
    test, square = "tests/SquareTest.php", "src/Square.php"
    sites = call_sites(test, (root / test).read_text(), "php")
    answers, name = php_answers(root, sites)
    assert name.startswith("the tests under Xdebug (PHP ")
    by_name = {(s.name, s.name_line): a for s, a in zip(sites, answers, strict=True)}
    # `new Square(3)` ran the constructor Square inherits from Base: both count.
    assert by_name[("Square", 11)] == [
        Target("src/Base.php", 8, "__construct"),
        Target(square, 4, "Square"),
    ]
    assert by_name[("measure", 12)] == [Target(test, 19, "measure")]
    # A call on an interface ran Square's `area`, which implements Shape's: both count.
    assert by_name[("area", 21)] == [Target(square, 6, "area"), Target("src/Shape.php", 6, "area")]
    # PHP's own `count()`, not the `Square::count` it calls in turn.
    assert by_name[("count", 13)] == [Target("", 0, "count")]
    assert by_name[("never_called", 15)] is None  # never run: no answer


def test_graph_oracle_scores_php_against_its_tests(tmp_path: Path, settings: Settings) -> None:
    _or_skip("php")
    report = run_oracle(_write(tmp_path / "tiny", TINY_PHP), settings, "php", 300, 1)
    assert report.oracle.startswith("the tests under Xdebug")
    assert report.oracle_in_project == 3  # new Square, measure, area
    assert report.precision["certain"] == 1.0 and report.recall_certain_probable == 1.0


TINY_ZIG = {
    "build.zig": (
        'const std = @import("std");\n\n'
        "pub fn build(b: *std.Build) void {\n"
        '    const mod = b.addModule("tiny", .{\n'
        '        .root_source_file = b.path("src/root.zig"),\n'
        "        .target = b.standardTargetOptions(.{}),\n"
        "        .optimize = b.standardOptimizeOption(.{}),\n"
        "    });\n"
        "    const tests = b.addTest(.{ .root_module = mod });\n"
        '    b.step("test", "Run the tests").dependOn(&b.addRunArtifact(tests).step);\n'
        "}\n"
    ),
    "src/root.zig": (
        'const std = @import("std");\n'
        'const list = @import("list.zig");\n\n'
        "pub fn total(n: u32) u32 {\n"
        "    var l = list.List.init(n);\n"  # 5
        "    l.grow();\n"
        "    var p = list.Pool(u32){ .value = n };\n"
        "    p.acquire();\n"  # 8
        "    std.debug.assert(n < 100);\n"
        "    return twice(l.size);\n"  # 10
        "}\n\n"
        "inline fn twice(x: u32) u32 {\n"
        "    return x * 2;\n"
        "}\n\n"
        'test "total" {\n'
        "    try std.testing.expect(total(1) > 0);\n"
        "}\n"
    ),
    "src/list.zig": (
        "pub const List = struct {\n"
        "    const Self = @This();\n"
        "    size: u32,\n\n"
        "    pub fn init(n: u32) Self {\n"  # 5
        "        return .{ .size = n };\n"
        "    }\n\n"
        "    pub fn grow(self: *Self) void {\n"  # 9
        "        self.bump();\n"  # 10
        "    }\n\n"
        "    fn bump(self: *Self) void {\n"  # 13
        "        self.size += 1;\n"
        "    }\n"
        "};\n\n"
        "pub fn Pool(comptime T: type) type {\n"
        "    return struct {\n"
        "        const Self = @This();\n"
        "        value: T,\n\n"
        "        pub fn acquire(self: *Self) void {\n"  # 23
        "            self.release();\n"  # 24
        "        }\n\n"
        "        fn release(self: *Self) void {\n"  # 27
        "            _ = self;\n"
        "        }\n"
        "    };\n"
        "}\n\n"
        "pub fn unused(l: *List) void {\n"
        "    l.grow();\n"  # 34: no test reaches it
        "}\n"
    ),
}


def test_zig_call_sites_name_functions_methods_and_receivers() -> None:
    text = TINY_ZIG["src/root.zig"]
    found = [(s.name, s.name_line, s.receiver) for s in call_sites("r.zig", text, "zig")]
    assert ("init", 5, "list.List") in found and ("grow", 6, "l") in found
    assert ("assert", 9, "std.debug") in found and ("twice", 10, "") in found
    assert ("Pool", 7, "list") in found  # a function that makes a type is called too


def test_the_zig_compiler_answers_each_call_its_tests_compile(tmp_path: Path) -> None:
    from app.bench.oracle_zig import zig_answers

    _or_skip("zig")
    root = _write(tmp_path / "tiny", TINY_ZIG)
    sites = [
        site
        for path in ("src/root.zig", "src/list.zig")
        for site in call_sites(path, (root / path).read_text(), "zig")
    ]
    answers, name = zig_answers(root, sites)
    assert name.startswith("zig 0.16") and name.endswith("(1 of 1)")
    said = {(s.path, s.name, s.name_line): a for s, a in zip(sites, answers, strict=True)}
    lists = "src/list.zig"
    assert said[("src/root.zig", "init", 5)] == [Target(lists, 5, "init")]
    assert said[("src/root.zig", "grow", 6)] == [Target(lists, 9, "grow")]
    assert said[("src/root.zig", "acquire", 8)] == [Target(lists, 23, "acquire")]  # Pool(u32)'s
    assert said[(lists, "bump", 10)] == [Target(lists, 13, "bump")]
    assert said[(lists, "release", 24)] == [Target(lists, 27, "release")]
    assert said[("src/root.zig", "assert", 9)] == [Target("", 0, "assert")]  # std's
    assert said[("src/root.zig", "twice", 10)] == [Target("src/root.zig", 13, "twice")]  # inlined
    assert said[(lists, "grow", 34)] == []  # compiled file, but no test reaches `unused`


def test_graph_oracle_scores_zig_against_the_compiler(tmp_path: Path, settings: Settings) -> None:
    _or_skip("zig")
    report = run_oracle(_write(tmp_path / "tiny", TINY_ZIG), settings, "zig", 300, 1)
    assert report.oracle.startswith("zig 0.16")
    # `self.bump()` in List and `self.release()` in what Pool(T) returns: self-method, right.
    assert report.by_rule["self-method"] == [2, 2]
    assert report.precision["certain"] == 1.0


def test_a_missing_zig_says_how_to_get_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.bench import oracle_zig
    from app.bench.cli import main

    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))
    monkeypatch.setattr(oracle_zig, "_packaged_zig", lambda: None)
    root = _write(tmp_path / "tiny", TINY_ZIG)
    args = ["graph-oracle", str(root), "--language", "zig"]
    code = main([*args, "--index-dir", str(tmp_path / "i")])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1
    assert err.startswith("repolens-tui: error: the Zig oracle compiles the repository's tests")
    assert not (tmp_path / "i").exists()
