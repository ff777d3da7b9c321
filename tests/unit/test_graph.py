"""The call graph's promises: bounded on bad input, incremental equals full, PageRank as
networkx computes it, and the CLI's JSON contract."""

from __future__ import annotations

import json
import random
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app.cli import main
from app.core.models import Edge
from app.core.settings import Settings
from app.graph.facts import FileFacts
from app.graph.rank import hotspot_score, pagerank, rank_symbols
from app.graph.resolve import Resolver
from app.indexer.chunk import parse_file
from app.main import main as launcher
from app.parse.calls import MAX_CALLS_PER_FILE, extract, has_calls
from app.parse.definitions import find_definitions, line_starts, parser_for
from app.service import Service
from app.store.graph_tables import GRAPH_EDGES
from app.store.store import Store

FIXTURES = Path(__file__).parents[1] / "fixtures" / "callgraph"


def resolve_all(sources: dict[str, str]) -> tuple[list[Edge], list[tuple[str, int, str]]]:
    files = {p: FileFacts.from_parsed(parse_file(p, text)) for p, text in sources.items()}
    resolver = Resolver(files)
    edges, unresolved = [], []
    for facts in files.values():
        for call in facts.calls:
            found, missing = resolver.resolve(facts, call)
            edges.extend(found)
            if missing is not None:
                unresolved.append((missing.path, missing.line, missing.reason))
            assert found or missing is not None  # nothing dropped silently
    return edges, unresolved


def test_a_class_inheriting_from_itself_through_an_alias_stays_bounded() -> None:
    edges, unresolved = resolve_all(
        {
            "m.py": "from m import A as B\n\n\nclass A(B):\n    def f(self):\n"
            "        return self.missing()\n\n    def g(self):\n        return self.f()\n",
            "n.py": "class X(Y):\n    def run(self):\n        return self.walk()\n\n\n"
            "class Y(X):\n    def walk(self):\n        return self.nothing()\n",
        }
    )
    assert {(e.path, e.line, e.callee) for e in edges} == {
        ("m.py", 9, "m.py::A.f"),
        ("n.py", 3, "n.py::Y.walk"),
    }
    assert ("m.py", 6, "no method missing on A") in unresolved
    assert ("n.py", 8, "no method nothing on Y") in unresolved


def test_a_5000_way_ambiguous_name_is_reported_not_guessed() -> None:
    sources = {
        f"gen/m{i}.py": "".join(
            f"class C{i}_{j}:\n    def get(self):\n        return 1\n\n\n" for j in range(100)
        )
        + "".join(f"def get_{j}():\n    return 1\n\n\n" for j in range(2))
        for i in range(50)
    }
    sources["use.py"] = "def caller(obj):\n    return obj.get()\n"
    started = time.perf_counter()
    edges, unresolved = resolve_all(sources)
    assert time.perf_counter() - started < 10
    assert not [e for e in edges if e.path == "use.py"]
    assert ("use.py", 2, "ambiguous: 5000 definitions named get") in unresolved


def test_a_generated_file_with_100000_calls_is_capped_explicitly() -> None:
    text = "def f():\n    return 1\n\n\n" + "f()\n" * 100_000
    started = time.perf_counter()
    parsed = parse_file("generated.py", text)
    assert time.perf_counter() - started < 60  # about 3 s idle; bounded, not a benchmark
    assert len(parsed.calls) == MAX_CALLS_PER_FILE + 1
    edges, unresolved = resolve_all({"generated.py": text[:2_000]})
    assert edges and not unresolved
    last = FileFacts.from_parsed(parsed)
    resolver = Resolver({"generated.py": last})
    _, missing = resolver.resolve(last, last.calls[-1])
    assert missing is not None and missing.reason.startswith("80000 more calls not extracted")


def test_syntax_errors_keep_the_calls_around_them() -> None:
    text = (
        "def a():\n    b(\n\n\ndef b():\n    return c()\n\n\n"
        "def c():\n    return d(  # never closed\n\n\ndef d():\n    return a()\n"
    )
    edges, _ = resolve_all({"broken.py": text})
    pairs = {(e.caller.split("::")[1], e.callee.split("::")[1]) for e in edges}
    assert ("b", "c") in pairs and ("d", "a") in pairs


def test_hotspots_put_the_code_that_does_the_work_before_the_helpers_it_calls(
    tmp_path: Path, settings: Settings
) -> None:
    """A one-line throw helper that every function calls has the highest PageRank; the
    hotspots open with the long function that calls the others."""
    repo = tmp_path / "repo"
    (repo / "shop").mkdir(parents=True)
    checks = "".join(
        f"\n\ndef check_{name}(order):\n    if not order.{name}:\n        fail('no {name}')\n"
        f"    return order.{name}\n"
        for name in ("items", "address", "payment", "customer")
    )
    (repo / "shop" / "orders.py").write_text(
        "def fail(message):\n    raise ValueError(message)\n"
        + checks
        + "\n\ndef place_order(order):\n    items = check_items(order)\n"
        "    address = check_address(order)\n    payment = check_payment(order)\n"
        "    customer = check_customer(order)\n    if not items:\n        fail('empty')\n"
        "    total = sum(item.price for item in items)\n    payment.charge(total)\n"
        "    return {'customer': customer, 'address': address, 'total': total}\n"
        "\n\ndef main(orders):\n    return [place_order(order) for order in orders]\n"
    )
    service = Service(repo, settings)
    service.index(with_vectors=False)
    hot = service.hotspots(3)
    assert [h["symbol"] for h in hot][:1] == ["place_order"]
    graph = service.graph()
    by_pagerank = max(graph.symbols.values(), key=lambda row: row["pagerank"])
    assert by_pagerank["name"] == "fail"  # what PageRank alone would have listed first
    assert "fail" not in [h["symbol"] for h in hot]


def test_pagerank_matches_networkx_and_is_fast_at_50000_symbols() -> None:
    import networkx as nx
    from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python

    rng = random.Random(7)
    nodes = [f"n{i}" for i in range(200)]
    weights: dict[tuple[str, str], float] = {}
    for _ in range(600):
        key = (rng.choice(nodes), rng.choice(nodes[:40]))
        weights[key] = weights.get(key, 0) + rng.choice([0.95, 0.75, 0.35])
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_weighted_edges_from((a, b, w) for (a, b), w in weights.items())
    reference = _pagerank_python(graph, weight="weight")
    ours = pagerank(nodes, [(a, b, w) for (a, b), w in weights.items()])
    assert max(abs(reference[n] - ours[n]) for n in nodes) < 1e-9

    big = [f"s{i}" for i in range(50_000)]
    edges = [
        Edge(rng.choice(big), big[int(rng.paretovariate(1.2)) % 50_000], "p", 1, 0.9, "r")
        for _ in range(200_000)
    ]
    weighted = [(e.caller, e.callee, e.confidence) for e in edges]
    started = time.perf_counter()
    pagerank(big, weighted)
    assert time.perf_counter() - started < 2.0  # about 0.3 s on an idle 2-core machine
    ranks = rank_symbols(big, edges)
    assert sum(score for _, _, score in ranks.values()) == pytest.approx(1.0)


def _edge_set(service: Service) -> set[tuple[object, ...]]:
    rows = Store.open(service.index_dir).read_table(GRAPH_EDGES).to_pylist()
    return {
        (r["path"], r["caller"], r["callee"], r["callee_text"], r["line"],
         round(r["confidence"], 3), r["rule"])
        for r in rows
    }  # fmt: skip


def test_an_incremental_update_gives_the_graph_a_full_rebuild_gives(
    tmp_path: Path, settings: Settings
) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "python", repo)
    for i in range(12):  # unrelated files, so one edit is a small share of the project
        (repo / f"pkg/extra{i}.py").write_text(f"def helper{i}():\n    return len([])\n")
    service = Service(repo, settings)
    service.index(with_vectors=False)
    edits = [
        ("pkg/base.py", lambda t: t + "\n    def radius(self):\n        return 0\n"),
        ("pkg/util.py", lambda t: t.replace("def pong(n)", "def pong_renamed(n)")),
        ("pkg/more.py", lambda t: "def fact(n):\n    return n\n\n\ndef main():\n    fact(1)\n"),
        ("pkg/shapes.py", lambda t: t.replace("class Square(Model)", "class Square(Circle)")),
    ]
    for path, edit in edits:
        target = repo / path
        target.write_text(edit(target.read_text() if target.exists() else ""))
        report = service.index(with_vectors=False)
        assert report.graph["resolved_calls"] < report.graph["calls"]  # only what can change
        fresh = Service(repo, Settings(index_dir=tmp_path / f"fresh-{path.replace('/', '-')}"))
        fresh.index(with_vectors=False)
        assert _edge_set(service) == _edge_set(fresh), path
    (repo / "pkg/util.py").unlink()
    service.index(with_vectors=False)
    fresh = Service(repo, Settings(index_dir=tmp_path / "fresh-removed"))
    fresh.index(with_vectors=False)
    assert _edge_set(service) == _edge_set(fresh)


def test_an_edit_that_drops_calls_leaves_no_edge_of_them_behind(
    tmp_path: Path, settings: Settings
) -> None:
    # Found by `repolens-tui-bench graph-replay` on httpx (commit 75a13a15, which cut ten
    # lines from httpx/_compat.py): the rows of a changed file's calls past its new count
    # were kept, so the live graph showed calls no longer in the file.
    repo = tmp_path / "repo"
    repo.mkdir()
    for i in range(12):  # unrelated files, so the edit is a small share of the project
        (repo / f"extra{i}.py").write_text(f"def helper{i}():\n    return len([{i}])\n")
    (repo / "a.py").write_text("def f():\n    helper1()\n    helper2()\n    len([])\n")
    service = Service(repo, settings)
    service.index(with_vectors=False)
    (repo / "a.py").write_text("def f():\n    helper1()\n")
    report = service.index(with_vectors=False)
    assert report.graph["resolved_calls"] < report.graph["calls"]  # an incremental update
    fresh = Service(repo, Settings(index_dir=tmp_path / "fresh"))
    fresh.index(with_vectors=False)
    assert _edge_set(service) == _edge_set(fresh)


def test_callers_json_contract_and_errors(
    tmp_path: Path, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "python", repo)
    index_dir = str(settings.index_dir)
    assert main(["index", str(repo), "--no-vectors", "-q", "--index-dir", index_dir]) == 0
    capsys.readouterr()
    assert main(["callers", str(repo), "Base.save", "--json", "--index-dir", index_dir]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["symbol"] == "Base.save"
    assert payload["callers"] == [
        {"path": "pkg/shapes.py", "start_line": 22, "end_line": 24, "symbol": "Square.describe",
         "tier": "certain", "confidence": 0.95, "line": 23, "rule": "self-method",
         "test": False}
    ]  # fmt: skip
    assert payload["hidden_tests"] == 0
    assert payload["unresolved"] == []

    args = ["callees", str(repo), "pkg/app.py::main", "--json", "--index-dir", index_dir]
    assert main([*args, "--min-tier", "certain"]) == 0
    payload = json.loads(capsys.readouterr().out)
    confidences = [c["confidence"] for c in payload["callees"]]
    assert confidences == sorted(confidences, reverse=True) and min(confidences) >= 0.9
    assert {u["callee"] for u in payload["unresolved"]} >= {"json.dumps", "handler"}

    assert main(["callers", str(repo), "area", "--index-dir", index_dir]) == 1
    assert "names 2 definitions" in capsys.readouterr().err
    assert main(["callers", str(repo), "nope", "--index-dir", index_dir]) == 1
    err = capsys.readouterr().err
    assert err.startswith("repolens-tui: error: ") and err.count("\n") == 1

    # Through the console script's launcher, as a user types it (app.main routes commands).
    assert launcher(["hotspots", str(repo), "--json", "-n", "3", "--index-dir", index_dir]) == 0
    hot = json.loads(capsys.readouterr().out)["hotspots"]
    scores = [
        hotspot_score(h["pagerank"], h["end_line"] - h["start_line"] + 1, h["fan_out"]) for h in hot
    ]
    assert len(hot) == 3 and scores == sorted(scores, reverse=True)
    assert main(["symbols", str(repo), "squar", "--json", "--index-dir", index_dir]) == 0
    found = json.loads(capsys.readouterr().out)["symbols"]
    assert found[0]["symbol"] in ("square", "Square")


def test_test_callers_are_marked_listed_last_and_can_be_hidden(
    tmp_path: Path, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    files = {
        "app/core.py": "def send(x):\n    return x\n\n\ndef client():\n    return send(1)\n",
        "tests/test_core.py": (
            "from app.core import send\n\n\ndef test_send():\n    send(1)\n    send(2)\n"
        ),
    }
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    index_dir = str(settings.index_dir)
    assert main(["index", str(repo), "--no-vectors", "-q", "--index-dir", index_dir]) == 0
    capsys.readouterr()
    assert main(["callers", str(repo), "send", "--json", "--index-dir", index_dir]) == 0
    payload = json.loads(capsys.readouterr().out)
    marks = [(c["symbol"], c["test"]) for c in payload["callers"]]
    assert marks == [("client", False), ("test_send", True), ("test_send", True)]
    assert payload["hidden_tests"] == 0
    args = ["callers", str(repo), "send", "--no-tests", "--index-dir", index_dir]
    assert main([*args, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [c["symbol"] for c in payload["callers"]] == ["client"]
    assert payload["hidden_tests"] == 2
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "2 more in test code, left out by --no-tests" in text and "test_send" not in text
    assert main(["callers", str(repo), "send", "--index-dir", index_dir]) == 0
    assert "[test]" in capsys.readouterr().out
    # Hotspots leave test code out unless asked for it.
    assert main(["hotspots", str(repo), "--json", "--index-dir", index_dir]) == 0
    hot = [h["symbol"] for h in json.loads(capsys.readouterr().out)["hotspots"]]
    assert "test_send" not in hot and "send" in hot
    assert main(["hotspots", str(repo), "--json", "--tests", "--index-dir", index_dir]) == 0
    assert "test_send" in [h["symbol"] for h in json.loads(capsys.readouterr().out)["hotspots"]]


@pytest.mark.parametrize(
    "module", ["app.graph.build", "app.graph.navigate", "app.cli.graph", "app.bench.graph"]
)
def test_graph_modules_import_no_ui(module: str) -> None:
    import subprocess
    import sys

    code = f"import sys, {module}\nassert not [m for m in sys.modules if m.startswith('textual')]"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


def test_symbol_search_narrows_by_kind_and_language(sample_repo: Path, settings: Settings) -> None:
    service = Service(sample_repo, settings)
    service.index(with_vectors=False)

    classes = service.symbol("kind:class retry")
    assert classes and all(row["kind"] == "class" for row in classes)
    assert classes[0]["symbol"] == "RetryPolicy"
    javascript = service.symbol("lang:javascript cookie")
    assert javascript and {row["language"] for row in javascript} == {"javascript"}
    assert not service.symbol("lang:rust retry")
    central = service.symbol("kind:method lang:py")  # filters alone: most central first
    assert central and all(row["kind"] == "method" for row in central)
    ranks = [row["pagerank"] for row in central]
    assert ranks == sorted(ranks, reverse=True)


RUST_TOPO = """pub struct Topo {
    order: Vec<usize>,
}

pub fn toposort(nodes: &[usize]) -> Vec<usize> {
    nodes.to_vec()
}
"""
RUST_TOPO_TEST = """fn assert_is_topo_order(order: &[usize]) {
    assert!(!order.is_empty());
}
"""


def test_symbol_search_ignores_case_and_lists_code_before_tests(
    indexed: Callable[[dict[str, str]], Service],
) -> None:
    # A stranger types `topo` in lower case: the type named `Topo` matches it whole, and of
    # the names that hold it equally well the library's come before its examples' and tests'.
    service = indexed(
        {
            "examples/walk.rs": RUST_TOPO.replace("Topo", "Walk"),
            "src/topo.rs": RUST_TOPO,
            "tests/graph.rs": RUST_TOPO_TEST,
        }
    )
    found = [(row["symbol"], row["path"]) for row in service.symbol("topo")]
    assert found[:4] == [
        ("Topo", "src/topo.rs"),
        ("toposort", "src/topo.rs"),
        ("toposort", "examples/walk.rs"),
        ("assert_is_topo_order", "tests/graph.rs"),
    ], found


PYTHON_CONN = """class Conn:
    def resp(self, status):
        return self.put_resp_header("status", status)

    def conn(self):
        return self

    def put_resp_header(self, key, value):
        return self

    def put_resp_cookie(self, key, value):
        return self.put_resp_header("set-cookie", value)

    def put_resp_content_type(self, kind):
        return self.put_resp_header("content-type", kind)
"""


def test_symbol_search_puts_the_names_that_hold_the_query_first(
    indexed: Callable[[dict[str, str]], Service],
) -> None:
    # Typed in the finder on plug: `conn.put_resp` listed `Conn.resp` and `Conn.conn` above
    # the `put_resp_*` functions, since names whose words are a subset of the query's score
    # highest by similarity alone.
    service = indexed({"plug/conn.py": PYTHON_CONN})
    found = [row["symbol"] for row in service.symbol("conn.put_resp")]
    assert sorted(found[:3]) == [
        "Conn.put_resp_content_type",
        "Conn.put_resp_cookie",
        "Conn.put_resp_header",
    ], found
    assert [row["symbol"] for row in service.symbol("put_resp_cookie")][:1] == [
        "Conn.put_resp_cookie"
    ]
    # Letters in order, as a fuzzy finder reads them: `put_cookie` is `put_resp_cookie`.
    assert [row["symbol"] for row in service.symbol("put_cookie")][:1] == ["Conn.put_resp_cookie"]


@pytest.mark.usefixtures("haskell_calls_unread")
def test_an_empty_call_list_says_when_the_language_s_calls_are_not_read(
    tmp_path: Path, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "Stack.hs").write_text(
        "module Stack where\n\npush :: a -> [a] -> [a]\npush x xs = x : xs\n\n"
        "pushTwo :: a -> [a] -> [a]\npushTwo x = push x . push x\n"
    )
    (repo / "stack.py").write_text("def push(x, xs):\n    return [x, *xs]\n")
    index_dir = str(settings.index_dir)
    assert main(["index", str(repo), "--no-vectors", "-q", "--index-dir", index_dir]) == 0
    capsys.readouterr()
    assert main(["callees", str(repo), "Stack.hs::pushTwo", "--index-dir", index_dir]) == 0
    text = capsys.readouterr().out
    assert "Calls in haskell are not read." in text and "none found" not in text
    assert main(["callers", str(repo), "Stack.hs::push", "--json", "--index-dir", index_dir]) == 0
    assert json.loads(capsys.readouterr().out)["calls_not_read"] == "haskell"
    assert main(["callers", str(repo), "stack.py::push", "--json", "--index-dir", index_dir]) == 0
    assert json.loads(capsys.readouterr().out)["calls_not_read"] == ""
    # No edges, so no hotspots: said, with the reason, rather than an arbitrary list.
    assert main(["hotspots", str(repo), "--index-dir", index_dir]) == 0
    assert capsys.readouterr().out == "No hotspots: calls in haskell are not read.\n"
    assert main(["hotspots", str(repo), "--json", "--index-dir", index_dir]) == 0
    assert json.loads(capsys.readouterr().out) == {"hotspots": [], "calls_not_read": ["haskell"]}


CLOSURE_RECEIVERS = {
    # `this.app.get()` inside a callback inside a method: a closure in the scope stack when
    # a field of `this` is typed. A failure there once cost whole files their calls.
    "lib/response.js": "res.send = function send(body) {\n"
    "  [1].forEach(function (x) { this.app.get('etag fn'); });\n"
    "  return this.req.get('Content-Type');\n}\n",
    "src/store.ts": "class Store {\n  load() {\n    return [1].map((x) => this.db.read(x));\n"
    "  }\n}\n",
    "app/jobs.py": "class Jobs:\n    def run(self):\n"
    "        return list(map(lambda j: self.pool.start(j), []))\n",
    "src/Repo.kt": "class Repo {\n  fun all() = listOf(1).map { this.db.one(it) }\n}\n",
}


@pytest.mark.parametrize("path", sorted(CLOSURE_RECEIVERS))
def test_call_facts_are_read_through_closures_with_self_receivers(path: str) -> None:
    text = CLOSURE_RECEIVERS[path]
    language = parse_file(path, text).language
    src = text.encode()
    root = parser_for(language).parse(src).root_node
    found = find_definitions(language, root, src, line_starts(src))
    calls = extract(language, root, found)[1]  # raises where the index would drop the file
    assert any(c.receiver.startswith(("this.", "self.")) for c in calls), calls
    assert parse_file(path, text).calls == calls


CHUNK_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "chunk"


@pytest.mark.parametrize("name", sorted(p.name for p in CHUNK_FIXTURES.iterdir()))
def test_call_facts_are_read_from_every_fixture_without_error(name: str) -> None:
    text = (CHUNK_FIXTURES / name).read_text(encoding="utf-8")
    language = parse_file(f"src/{name}", text).language
    if not has_calls(language):
        pytest.skip(f"{language}: no call facts")
    src = text.encode()
    root = parser_for(language).parse(src).root_node
    extract(language, root, find_definitions(language, root, src, line_starts(src)))
