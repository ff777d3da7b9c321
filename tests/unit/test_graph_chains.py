"""Receivers typed through what functions declare they return (call chains, variables bound
to calls), function literals as scopes, Go's own module path, and an edit of a return type
against a rebuild; with real tree-sitter, the index and the resolver."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings
from app.service import Service
from app.store.graph_tables import GRAPH_EDGES
from app.store.store import Store
from tests.unit.test_graph_resolution import at, build, edges_at, graph

CHAINS = {
    "src/Machine.cs": """\
public class StateMachine {
    public StateConfiguration Configure(int s) { return new StateConfiguration(); }
}
public class StateConfiguration {
    public StateConfiguration Permit(int t) { return this; }
    public void OnEntry() {}
}
public class Use {
    void Run() {
        var sm = new StateMachine();
        sm.Configure(1).Permit(2).OnEntry();
    }
}
""",
    "src/query.ts": """\
export class Query {
  where(x: number): this { return this }
  limit(n: number): Query { return this }
  run(): Rows { return new Rows() }
}
export class Rows {
  first(): number { return 1 }
}
export function list(q: Query) {
  return q.where(1).limit(2).run().first()
}
""",
    "src/runtime.rs": """\
pub struct Runtime { h: Handle }
pub struct Handle {}
impl Runtime {
    pub fn handle(&self) -> &Handle { &self.h }
}
impl Handle {
    pub fn spawn(&self) {}
}
pub fn go(rt: Runtime) {
    rt.handle().spawn();
}
""",
    "src/process.rs": """\
pub struct Command {}
impl Command {
    pub fn new(p: &str) -> Command { Command {} }
    pub fn spawn(&self) {}
}
""",
    "src/uses_std.rs": """\
use std::process::Command;
pub fn run() {
    Command::new("true").spawn();
}
""",
    "src/Compiler.php": """\
<?php
class Compiler {
    public function write(string $s): self { return $this; }
    public function indent(): static { return $this; }
    public function raw(string $s): void {}
    public function compile(): void {
        $this->write('a')->indent()->raw('b');
    }
}
""",
}


CALL_RESULTS = {
    "mux/mux.go": """\
package mux

type Router struct{}
type Route struct{}

func NewRouter() *Router { return &Router{} }
func (r *Router) HandleFunc(p string) *Route { return &Route{} }
func (r *Route) Methods(m string) *Route { return r }
""",
    "app/main.go": """\
package main

import "example.com/demo/mux"

func main() {
	r := mux.NewRouter()
	r.HandleFunc("/").Methods("GET")
}
""",
    "src/db.ts": """\
export class Select {
  where(x: number): Select { return this }
}
export function select(): Select { return new Select() }
export function run() {
  const q = select()
  q.where(1)
}
""",
}


CLOSURES = {
    "router.go": """\
package chi

import "net/http"

type Mux struct{}

func NewRouter() *Mux { return &Mux{} }
func (m *Mux) Get(p string, h http.HandlerFunc) {}
func (m *Mux) Use(h http.HandlerFunc) {}
func (m *Mux) Context() {}

func routes() {
	r := NewRouter()
	r.Get("/", func(w http.ResponseWriter, r *http.Request) {
		r.Context()
	})
	r.Use(nil)
}
""",
}


def test_an_edit_of_a_return_type_moves_the_chain_as_a_rebuild_would(
    tmp_path: Path, settings: Settings
) -> None:
    files = {
        "mux/mux.go": "package mux\n\ntype Router struct{}\n\n"
        "func NewRouter() *Router { return &Router{} }\n"
        "func (r *Router) HandleFunc(p string) *Route { return &Route{} }\n",
        "mux/route.go": "package mux\n\ntype Route struct{}\ntype Alt struct{}\n\n"
        "func (r *Route) Methods(m string) *Route { return r }\n"
        "func (a *Alt) Methods(m string) *Alt { return a }\n",
        "mux/use.go": "package mux\n\nfunc use() {\n\tr := NewRouter()\n"
        '\tr.HandleFunc("/").Methods("GET")\n}\n',
    }
    for i in range(12):  # unrelated files, so the edit is re-resolved incrementally
        files[f"other/f{i}.go"] = (
            f"package other\n\nfunc F{i}() int {{ return g{i}() }}\n"
            f"func g{i}() int {{ return {i} }}\n"
        )
    service, _ = build(tmp_path, settings, files)
    mux = service.root / "mux/mux.go"
    mux.write_text(mux.read_text().replace("string) *Route {", "string) *Alt {"))
    report = service.index(with_vectors=False)
    assert report.graph["resolved_calls"] < report.graph["calls"]
    live = Store.open(service.index_dir).read_table(GRAPH_EDGES).to_pylist()
    assert edges_at(live, "mux/use.go", 5) >= {("mux/route.go::Alt.Methods", True)}
    fresh = Service(service.root, Settings(index_dir=tmp_path / "fresh"))
    fresh.index(with_vectors=False)
    rebuilt = Store.open(fresh.index_dir).read_table(GRAPH_EDGES).to_pylist()
    assert {tuple(sorted(r.items())) for r in live} == {tuple(sorted(r.items())) for r in rebuilt}


GO_MODULE_PATH = {
    "go.mod": "module github.com/demo/chi/v5\n\ngo 1.22\n",
    "chi.go": "package chi\n\nfunc NewRouter() int { return 1 }\n",
    "middleware/logger.go": "package middleware\n\nfunc Logger() int { return 2 }\n",
    "examples/main.go": """\
package main

import (
	"github.com/demo/chi/v5"
	"github.com/demo/chi/v5/middleware"
	"github.com/other/lib"
)

func main() {
	chi.NewRouter()
	middleware.Logger()
	lib.Run()
}
""",
}


def test_go_imports_of_the_project_s_own_module_path_are_its_folders(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, GO_MODULE_PATH)
    main = "examples/main.go"
    assert edges_at(rows, main, 10) == {("chi.go::NewRouter", True)}, at(rows, main, 10)
    assert edges_at(rows, main, 11) == {("middleware/logger.go::Logger", True)}
    assert [r["rule"] for r in at(rows, main, 12)] == ["external module github.com/other/lib"]


def test_a_function_literal_s_parameters_are_its_own(tmp_path: Path, settings: Settings) -> None:
    rows = graph(tmp_path, settings, CLOSURES)
    # `r` is the router in routes() and the request inside the handler literal.
    assert edges_at(rows, "router.go", 14) == {("router.go::Mux.Get", True)}
    assert edges_at(rows, "router.go", 17) == {("router.go::Mux.Use", True)}
    inner = at(rows, "router.go", 15)
    assert [(r["callee"], r["rule"]) for r in inner] == [
        ("", "method of http.Request, a type outside the project")
    ], inner
    assert {r["caller"] for r in inner} == {"router.go::routes"}  # the literal is no caller


def test_a_variable_holds_what_the_call_it_is_bound_to_returns(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, CALL_RESULTS)
    main = "app/main.go"
    # `r := mux.NewRouter()`: a *Router, whose HandleFunc returns a *Route.
    assert {(r["callee"], r["rule"]) for r in at(rows, main, 7)} == {
        ("mux/mux.go::Router.HandleFunc", "typed-receiver"),
        ("mux/mux.go::Route.Methods", "return-type"),
    }, at(rows, main, 7)
    assert edges_at(rows, "src/db.ts", 7) == {("src/db.ts::Select.where", True)}


def test_a_call_chain_is_typed_by_what_each_method_returns(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, CHAINS)
    for path, line, target in (
        ("src/Machine.cs", 11, "StateConfiguration.Permit"),
        ("src/Machine.cs", 11, "StateConfiguration.OnEntry"),
        ("src/query.ts", 10, "Query.limit"),  # `where(): this` keeps Query
        ("src/query.ts", 10, "Rows.first"),
        ("src/runtime.rs", 10, "Handle.spawn"),  # `-> &Handle`
        ("src/Compiler.php", 7, "Compiler.raw"),  # `: self`, `: static`
    ):
        found = {(r["callee"], r["rule"]) for r in at(rows, path, line)}
        assert (f"{path}::{target}", "return-type") in found, (path, line, found)
    # `Command` is std's (imported from outside), not the project's struct of that name: its
    # `spawn` is at most guessed by name.
    found = at(rows, "src/uses_std.rs", 3)
    assert not [r for r in found if r["callee"] and r["confidence"] >= 0.7], found


GO_FIELDS = {
    "mux.go": """\
package chi

type node struct{}

func (n *node) InsertRoute(p string) *node { return n }

type Mux struct {
	tree *node
}

func (mx *Mux) handle(p string) {
	mx.tree.InsertRoute(p)
}
""",
}


def test_a_go_struct_field_types_the_calls_through_it(tmp_path: Path, settings: Settings) -> None:
    rows = graph(tmp_path, settings, GO_FIELDS)
    assert {(r["callee"], r["rule"]) for r in at(rows, "mux.go", 12)} == {
        ("mux.go::node.InsertRoute", "typed-receiver")
    }


# Two classes with a method of one name each, so that only the loop variable's declared type
# can tell which one a call in the loop's body runs.
LOOPS = {
    "src/Records.java": """\
class Record { String get(int i) { return ""; } }
class Header { String get(int i) { return ""; } }
class Printer {
    void print(java.util.List<Record> records) {
        for (final Record record : records) {
            record.get(0);
        }
    }
}
""",
    "src/Machine.cs": """\
public class Trigger { public void Fire() {} }
public class Alarm { public void Fire() {} }
public class Runner {
    void RunAll(System.Collections.Generic.List<Trigger> triggers) {
        foreach (Trigger trigger in triggers) trigger.Fire();
        foreach (string name in names) name.Trim();
    }
}
""",
    "src/app.cpp": """\
namespace cli {
template <typename T> class OptionBase { public: void group() {} };
class Option : public OptionBase<Option> { public: void check() {} };
}
class Flag { public: void check() {} void group() {} };
template <class Policy> class Table { void at(Policy p) { Policy::value(1); p.value(3); } };
class Policy { public: static void value(int) {} };
void use() { Policy::value(2); }
void validate(std::vector<cli::Option*> options) {
    for (const cli::Option* opt : options) {
        opt->check();
        opt->group();
    }
}
""",
}


def test_a_loop_variable_is_typed_by_its_declared_type(tmp_path: Path, settings: Settings) -> None:
    rows = graph(tmp_path, settings, LOOPS)
    for path, line, target in (
        ("src/Records.java", 6, "Record.get"),
        ("src/Machine.cs", 5, "Trigger.Fire"),
        ("src/app.cpp", 11, "Option.check"),
        ("src/app.cpp", 12, "OptionBase.group"),  # a template base's method
    ):
        found = {(r["callee"], r["rule"]) for r in at(rows, path, line)}
        assert found == {(f"{path}::{target}", "typed-receiver")}, (path, line, found)
    # A template's type parameter is whatever type the template is given, not a class that
    # happens to share its name (at most a guess by the method's name); outside the
    # template, `Policy` is that class.
    for receiver in ("Policy", "p"):  # the parameter itself, and a value of its type
        found = [r for r in at(rows, "src/app.cpp", 6) if r["callee_text"] == f"{receiver}.value"]
        assert found and all(round(r["confidence"], 3) < 0.7 for r in found), found
    assert edges_at(rows, "src/app.cpp", 8) == {("src/app.cpp::Policy.value", True)}
    # `foreach (string name ...)`: a string's method, nothing of the project.
    assert [r["callee"] for r in at(rows, "src/Machine.cs", 6)] == [""]


MUTEX = """\
pub struct Mutex {}
impl Mutex {
    pub fn new() -> Mutex { Mutex {} }
    pub fn lock(&self) {}
}
"""

CRATE = {
    "Cargo.toml": '[package]\nname = "tiny-graph"\nversion = "0.1.0"\n',
    "src/lib.rs": """\
mod graph_impl;
pub mod sync;
mod other;
pub mod graph {
    pub use crate::graph_impl::Graph;
}
pub use crate::graph::Graph;
""",
    "src/graph_impl/mod.rs": """\
pub struct Graph {}
impl Graph {
    pub fn new() -> Graph { Graph {} }
    pub fn add_node(&mut self) {}
}
""",
    "src/sync/mod.rs": "mod mutex;\npub use mutex::Mutex;\n",
    "src/sync/mutex.rs": MUTEX,
    "src/other/mod.rs": "mod mutex;\n",
    "src/other/mutex.rs": MUTEX,  # the same name in another module
    "tests/graph.rs": """\
use tiny_graph::Graph;
use tiny_graph::graph::Graph as Inner;
use tiny_graph::sync::Mutex;

fn builds() {
    let mut g = Graph::new();
    g.add_node();
    Inner::new();
    let m = Mutex::new();
    m.lock();
}
""",
}


def test_rust_tests_import_the_library_by_the_crate_s_name(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, CRATE)
    new = ("src/graph_impl/mod.rs::Graph.new", True)
    assert edges_at(rows, "tests/graph.rs", 6) == {new}, at(rows, "tests/graph.rs", 6)
    assert edges_at(rows, "tests/graph.rs", 7) == {("src/graph_impl/mod.rs::Graph.add_node", True)}
    # through the inline module `pub mod graph { pub use ... }` of the crate's root
    assert edges_at(rows, "tests/graph.rs", 8) == {new}, at(rows, "tests/graph.rs", 8)
    # `pub use mutex::Mutex` in src/sync/mod.rs is its own child module, not src/other's
    assert edges_at(rows, "tests/graph.rs", 9) == {("src/sync/mutex.rs::Mutex.new", True)}
    assert edges_at(rows, "tests/graph.rs", 10) == {("src/sync/mutex.rs::Mutex.lock", True)}


ELEMENTS = {
    "Cargo.toml": '[package]\nname = "tiny-graph"\nversion = "0.1.0"\n',
    "src/lib.rs": """\
mod graph_impl;
mod labels;
pub mod graph {
    pub use crate::graph_impl::Graph;
}
pub use crate::graph::Graph;
""",
    "src/graph_impl/mod.rs": CRATE["src/graph_impl/mod.rs"],
    "src/labels.rs": """\
use crate::{Graph};

pub struct Label {}
impl Label { pub fn is_inner(&self) -> bool { true } }
pub struct Holder { next: [Label; 2], g: Graph, h: Inner }
impl Holder {
    fn walk(&mut self, labels: Vec<Label>) {
        labels[0].is_inner();
        self.next[1].is_inner();
        labels.len();
        self.g.add_node();
        self.h.add_node();
    }
}
type Inner = crate::graph_impl::Graph;
pub struct Bag { items: Vec<Holder> }
impl Bag {
    fn new() -> Self { Bag { items: Vec::new() } }
    fn first(&self) -> bool {
        let bag = Self::new();
        let holder = &bag.items[0];
        let label = holder.next[0];
        label.is_inner()
    }
}
""",
}


def test_rust_calls_on_elements_and_through_the_crate_root(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, ELEMENTS)
    inner = ("src/labels.rs::Label.is_inner", True)
    assert edges_at(rows, "src/labels.rs", 8) == {inner}, at(rows, "src/labels.rs", 8)
    assert edges_at(rows, "src/labels.rs", 9) == {inner}, at(rows, "src/labels.rs", 9)
    # the vector's own method, no element's
    assert [r["callee"] for r in at(rows, "src/labels.rs", 10)] == [""]
    # `use crate::{Graph}` is the crate root's `Graph`, re-exported from graph_impl
    add_node = ("src/graph_impl/mod.rs::Graph.add_node", True)
    assert edges_at(rows, "src/labels.rs", 11) == {add_node}, at(rows, "src/labels.rs", 11)
    # `type Inner = crate::graph_impl::Graph;`: a path from the crate's root
    assert edges_at(rows, "src/labels.rs", 12) == {add_node}, at(rows, "src/labels.rs", 12)
    # `Self::new()` is a Bag; an element bound to a name (`let label = holder.next[0];`)
    assert edges_at(rows, "src/labels.rs", 23) == {inner}, at(rows, "src/labels.rs", 23)


RESULTS = {
    "src/lib.rs": """\
pub struct Ix { v: usize }
impl Ix { pub fn index(&self) -> usize { self.v } }
pub struct Other;
impl Other { pub fn index(&self) -> usize { 1 } }
pub struct G { n: Vec<Ix> }
impl G {
    pub fn add_node(&mut self) -> Ix { Ix { v: 0 } }
}
pub struct S { g: G }
impl S {
    fn first(&mut self) -> usize {
        let ix = self.g.add_node();
        ix.index()
    }
}
""",
}


def test_a_rust_variable_holds_what_the_method_it_is_bound_to_returns(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, RESULTS)
    assert edges_at(rows, "src/lib.rs", 13) == {("src/lib.rs::Ix.index", True)}


def test_a_cargo_manifest_names_the_crate_as_code_writes_it() -> None:
    from app.core.models import Import
    from app.parse.manifests import CARGO, manifest_imports

    assert manifest_imports(CARGO, '[package]\nname = "tokio-util"\n') == (
        Import("src/lib.rs", CARGO, "tokio_util", 1),
    )
    lib = '[package]\nname = "pkg"\n[lib]\nname = "fast"\npath = "./lib/root.rs"\n'
    assert manifest_imports(CARGO, lib) == (Import("lib/root.rs", CARGO, "fast", 1),)
    assert manifest_imports(CARGO, '[workspace]\nmembers = ["a"]\n') == ()
    assert manifest_imports(CARGO, "[package\nname = ") == ()  # broken: nothing, no error
    assert manifest_imports(CARGO, "[package]\nname = 3\n") == ()


GO_VALUES = {
    "route.go": """\
package mux

type Router struct {
	routes []*Route
	named  map[string]*Route
}
type Route struct{}
type Other struct{}

func NewRouter() *Router { return &Router{} }
func (r *Router) NewRoute() *Route { return &Route{} }
func (r *Router) Match() bool { return false }
func (r *Route) Host(h string) *Route { return r }
func (r *Route) Subrouter() *Router { return &Router{} }
func (r *Route) Match() bool { return true }
func (o *Other) Host(h string) *Other { return o }
func (o *Other) Match() bool { return true }

type Routes []*Route
type Table map[string]Routes

func (rs Routes) All() {}
func (t Table) All()   {}
""",
    "use.go": """\
package mux

func (r *Router) each() {
	for _, route := range r.routes {
		route.Match()
	}
	for _, named := range r.named {
		named.Host("b")
	}
}

func use() {
	new(Route).Host("a").Match()
	(&Route{}).Match()
	Route{}.Host("a")
	router := new(Router)
	router.Match()
	NewRouter().NewRoute().Match()
	sub := router.NewRoute().Host("a").Subrouter()
	sub.Match()
	route := sub.NewRoute()
	route.Host("c").Match()
}

func (t Table) walk() {
	for _, rs := range t {
		for _, r := range rs {
			r.Match()
		}
		same := rs
		same.All()
		one := rs[0]
		one.Host("d")
	}
}
""",
}


def test_go_values_made_in_place_and_variables_bound_to_chains_are_typed(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, GO_VALUES)
    route, router = "route.go::Route", "route.go::Router"
    expected = {  # line: (the call as the graph writes it, its one certain callee)
        5: ("route.Match", f"{route}.Match"),  # range over a slice field: its element
        8: ("named.Host", f"{route}.Host"),  # range over a map field: its value
        13: ("new(Route).Host().Match", f"{route}.Match"),
        14: ("(&Route{}).Match", f"{route}.Match"),
        15: ("Route{}.Host", f"{route}.Host"),
        17: ("router.Match", f"{router}.Match"),  # router := new(Router)
        18: ("NewRouter().NewRoute", f"{router}.NewRoute"),  # a chain from a function's call
        20: ("sub.Match", f"{router}.Match"),  # sub bound to a chain
        22: ("route.Host().Match", f"{route}.Match"),  # bound to a variable bound to a chain
        28: ("r.Match", f"{route}.Match"),  # a named map's element, then a named slice's
        31: ("same.All", "route.go::Routes.All"),  # `same := rs`: the same value
        33: ("one.Host", f"{route}.Host"),  # `one := rs[0]`: an element
    }
    for line, (written, callee) in expected.items():
        found = [r for r in at(rows, "use.go", line) if r["callee_text"] == written]
        edges = {(r["callee"], round(r["confidence"], 3) >= 0.9) for r in found}
        assert edges == {(callee, True)}, at(rows, "use.go", line)


BOUND_TO_CHAINS = {
    "src/Env.php": """\
<?php
class Compiler {
    public function getEnvironment(): Environment { return new Environment(); }
}
class Environment {
    public function load(): Wrapper { return new Wrapper(); }
    public function render() {}
}
class Wrapper {
    public function render() {}
}
class Use {
    public function run(Compiler $compiler) {
        $env = $compiler->getEnvironment();
        $env->render();
        $template = $env->load();
        $template->render();
        $twig = new Environment();
        $twig = $this->getMockBuilder()->getMock();
        $twig->render();
    }
}
""",
}


def test_a_variable_bound_to_a_chain_is_typed_where_it_is_used(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, BOUND_TO_CHAINS)
    expected = {
        15: "src/Env.php::Environment.render",  # `$env = $compiler->getEnvironment()`
        17: "src/Env.php::Wrapper.render",  # `$template = $env->load()`: through `$env`
        20: "src/Env.php::Environment.render",  # a type and a chain's value: the type stays
    }
    for line, callee in expected.items():
        assert edges_at(rows, "src/Env.php", line) == {(callee, True)}, at(
            rows, "src/Env.php", line
        )


PYTHON_RETURNS = {
    "pkg/models.py": """\
class Headers:
    def update(self, x): pass

class URL:
    def copy_with(self, **kw) -> "URL": return self

class Response:
    @property
    def headers(self) -> Headers:
        return Headers()
    def close(self) -> None: ...

class Other:
    def close(self) -> None: ...
    def update(self, x): pass
    def copy_with(self): pass
""",
    "pkg/client.py": """\
from pkg.models import URL, Response

class Client:
    @property
    def base_url(self) -> URL: ...
    def _send(self, request) -> Response: ...
    def build(self) -> Response: ...
    def send(self, request):
        response = self._send(request)
        response.close()
        response.headers.update({})
        self.base_url.copy_with(path="/")

def use(client: Client):
    resp = client.build()
    resp.close()
    client.build().headers.update({})
""",
}


def test_python_return_annotations_and_properties_type_receivers(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, PYTHON_RETURNS)
    models = "pkg/models.py::"
    expected = {  # line: (the call as the graph writes it, its one certain callee)
        10: ("response.close", f"{models}Response.close"),  # `r = self._send(req)`
        11: ("response.headers.update", f"{models}Headers.update"),  # a property's type
        12: ("self.base_url.copy_with", f"{models}URL.copy_with"),
        16: ("resp.close", f"{models}Response.close"),  # `resp = client.build()`
        17: ("client.build().headers.update", f"{models}Headers.update"),
    }
    for line, (written, callee) in expected.items():
        found = [r for r in at(rows, "pkg/client.py", line) if r["callee_text"] == written]
        edges = {(r["callee"], round(r["confidence"], 3) >= 0.9) for r in found}
        assert edges == {(callee, True)}, at(rows, "pkg/client.py", line)


PYTHON_OPTIONAL = {
    "pkg/__init__.py": "",
    "pkg/conn.py": """\
class Connection:
    def close(self) -> None: ...

class Other:
    def close(self) -> None: ...

class Jar:
    def fill(self) -> None: ...

class DefaultJar(Jar):
    def fill(self) -> None: ...
""",
    "pkg/resp.py": """\
from typing import Optional, Union
from pkg.conn import Connection, DefaultJar, Jar

class Response:
    _connection: "Connection | None" = None
    _spare: Optional[Connection] = None

    def __init__(self, conn: Union[Connection, None] = None) -> None:
        self._last: None | Connection = conn

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
        self._spare.close()
        self._last.close()

    def reuse(self) -> "Optional[Connection]": ...

class Request:
    async def send(self, conn: "Connection") -> Response: ...

async def fetch(req: Request, conn: Connection | None) -> None:
    resp = await req.send(conn)
    resp.close()
    conn.close()
    resp.reuse().close()

def either(conn: "Connection | Request") -> None:
    conn.close()

def session(jar: Jar | None = None) -> None:
    if jar is None:
        jar = DefaultJar()
    jar.fill()

class Holder:
    _conn: Connection | None = None

    def flush(self) -> None:
        conn = self._conn
        conn.close()
""",
}


def test_python_optional_annotations_and_awaited_calls_type_receivers(
    tmp_path: Path, settings: Settings
) -> None:
    """`Optional[C]`, `C | None`, `Union[C, None]` and forward references hold a C wherever a
    method is called on them (None has none); `await` hands over what the coroutine function
    declares it returns. Two classes in a union are no single type; a parameter that allows
    None gives way to what the function binds it to (`if jar is None: jar = DefaultJar()`);
    `conn = self._conn` holds what the attribute holds."""
    rows = graph(tmp_path, settings, PYTHON_OPTIONAL)
    conn, resp = "pkg/conn.py::Connection.close", "pkg/resp.py::Response.close"
    expected = {  # line: (the call as the graph writes it, its one certain callee)
        13: ("self._connection.close", conn),  # a class attribute's `"Connection | None"`
        14: ("self._spare.close", conn),  # `Optional[Connection]`
        15: ("self._last.close", conn),  # `None | Connection` from a `Union[...]` parameter
        24: ("resp.close", resp),  # `resp = await req.send(conn)`
        25: ("conn.close", conn),  # a parameter's `Connection | None`
        26: ("resp.reuse().close", conn),  # `-> "Optional[Connection]"`
    }
    for line, (written, callee) in expected.items():
        found = [r for r in at(rows, "pkg/resp.py", line) if r["callee_text"] == written]
        edges = {(r["callee"], round(r["confidence"], 3) >= 0.9) for r in found}
        assert edges == {(callee, True)}, at(rows, "pkg/resp.py", line)
    assert not any(certain for _, certain in edges_at(rows, "pkg/resp.py", 29))
    # A parameter that allows None gives way to what the function binds it to.
    assert edges_at(rows, "pkg/resp.py", 34) == {("pkg/conn.py::DefaultJar.fill", True)}
    # A local name bound to an attribute holds the attribute's type.
    assert edges_at(rows, "pkg/resp.py", 41) == {(conn, True)}


TYPESCRIPT_OPTIONAL = {
    "src/conn.ts": """\
export class Connection {
  close(): void {}
}
export class Other {
  close(): void {}
}
""",
    "src/resp.ts": """\
import { Connection } from "./conn";
const conn = { close() {} };

export class Response {
  private conn: Connection | null = null;
  spare?: Connection;

  close(): void {
    this.conn.close();
    this.spare.close();
    conn.close();
  }
  async send(): Promise<Response> { return this; }
  other(): Connection | undefined { return undefined; }
}

export async function go(r: Response, c?: Connection, d: Connection | null = null) {
  const x = await r.send();
  x.close();
  c.close();
  d.close();
  r.other().close();
}
""",
}


def test_typescript_fields_optional_types_and_awaited_calls_type_receivers(
    tmp_path: Path, settings: Settings
) -> None:
    """A class's typed fields type `this.field` in its methods (not a bare name there, which
    is the module's); `T | null`, `T | undefined` and `x?: T` hold a T; `await` hands over
    what an async method's `Promise<T>` holds."""
    rows = graph(tmp_path, settings, TYPESCRIPT_OPTIONAL)
    conn, resp = "src/conn.ts::Connection.close", "src/resp.ts::Response.close"
    expected = {  # line: (the call as the graph writes it, its one certain callee)
        9: ("this.conn.close", conn),  # a field's `Connection | null`
        10: ("this.spare.close", conn),  # an optional field
        19: ("x.close", resp),  # `const x = await r.send()`
        20: ("c.close", conn),  # `c?: Connection`
        21: ("d.close", conn),  # `d: Connection | null`
        22: ("r.other().close", conn),  # `: Connection | undefined`
    }
    for line, (written, callee) in expected.items():
        found = [r for r in at(rows, "src/resp.ts", line) if r["callee_text"] == written]
        edges = {(r["callee"], round(r["confidence"], 3) >= 0.9) for r in found}
        assert edges == {(callee, True)}, at(rows, "src/resp.ts", line)
    assert not edges_at(rows, "src/resp.ts", 11)  # the module's `conn`, an object literal


TYPESCRIPT_CONTAINERS = {
    "src/conn.ts": TYPESCRIPT_OPTIONAL["src/conn.ts"],
    "src/server.ts": """\
import { Connection } from "./conn";

export class Server {
  protected clients: Record<string, Connection>;

  closeAll(sid: string, list: Connection[], grid: Connection[][], more: Array<Connection>) {
    this.clients[sid].close();
    list[0].close();
    grid[0].push(list[0]);
    more[1].close();
    list.push(more[0]);
    [list[0], more[0]].filter(Boolean);
    grid.pop();
    const queue: Connection[] = [];
    queue[0].close();
    for (const c of list) c.close();
    for (const key in this.clients) key.close();
  }
}
""",
}


def test_typescript_container_elements_type_their_calls(tmp_path: Path, settings: Settings) -> None:
    """An element of `T[]`, `Array<T>` and `Record<K, T>` is a T; a container's own methods
    (`push`, `filter`) are the container's, an array literal included; a declared `T[]` says
    more than the `[]` it starts as; `for (const c of list)` holds its items (`in`, the keys)."""
    rows = graph(tmp_path, settings, TYPESCRIPT_CONTAINERS)
    conn = "src/conn.ts::Connection.close"
    for line in (7, 8, 10, 15, 16):
        assert edges_at(rows, "src/server.ts", line) == {(conn, True)}, at(
            rows, "src/server.ts", line
        )
    for line in (9, 11, 12, 13):  # an unresolved call's reason is its rule
        reasons = {r["rule"] for r in at(rows, "src/server.ts", line) if not r["callee"]}
        assert reasons == {"builtin receiver: a container"}, at(rows, "src/server.ts", line)
    assert not any(certain for _, certain in edges_at(rows, "src/server.ts", 17))  # a key


PYTHON_CONTAINERS = {
    "pkg/__init__.py": "",
    "pkg/conn.py": PYTHON_OPTIONAL["pkg/conn.py"],
    "pkg/pool.py": """\
from typing import List, Optional, Sequence
from pkg.conn import Connection

class Pool:
    conns: List[Connection]

    def __init__(self, spare: Optional[List[Connection]] = None) -> None:
        self.spare: list[Connection] = []

    def close_all(self, extra: Sequence[Connection], names: list[str]) -> None:
        for conn in self.conns:
            conn.close()
        for conn in extra:
            conn.close()
        self.conns[0].close()
        extra[1].close()
        for conn in self.spare:
            conn.close()
        self.conns.append(None)
        names.append("x")
        [conn for conn in extra].count(None)

    def close_copies(self, extra: Sequence[Connection]) -> None:
        self.copies = list(extra)
        for conn in self.copies:
            conn.close()
""",
}


def test_python_container_annotations_type_their_items(tmp_path: Path, settings: Settings) -> None:
    """An item of `List[C]`, `list[C]` or `Sequence[C]`, in a loop or by index, is a C; the
    container's own methods (`append`, a list literal's `count`) are the container's; a
    declared `list[C]` says more than the `[]` it starts as."""
    rows = graph(tmp_path, settings, PYTHON_CONTAINERS)
    conn = "pkg/conn.py::Connection.close"
    for line in (12, 14, 15, 16, 18):
        assert edges_at(rows, "pkg/pool.py", line) == {(conn, True)}, at(rows, "pkg/pool.py", line)
    for line in (19, 20):  # an unresolved call's reason is its rule
        reasons = {r["rule"] for r in at(rows, "pkg/pool.py", line) if not r["callee"]}
        assert reasons == {"builtin receiver: a container"}, at(rows, "pkg/pool.py", line)
    assert {r["rule"] for r in at(rows, "pkg/pool.py", 21)} == {"builtin receiver: list"}
    # An item of a list whose items nothing says is no list: guessed by name, as any value
    assert (conn, False) in edges_at(rows, "pkg/pool.py", 26), at(rows, "pkg/pool.py", 26)


PYTHON_FACTORY = {
    "pkg/__init__.py": "",
    "pkg/client.py": """\
import httpx

class TestClient(httpx.Client):
    def login(self) -> None: ...

class Request:
    def json(self) -> dict: ...
""",
    "pkg/types.py": """\
from typing import Protocol
from pkg.client import TestClient

class ClientFactory(Protocol):
    def __call__(self, app) -> TestClient: ...
""",
    "tests/test_a.py": """\
from pkg.types import ClientFactory

def test_it(factory: ClientFactory, other) -> None:
    client = factory(None)
    client.login()
    response = client.get("/")
    response.json()
    other(None).login()
""",
}


def test_python_a_call_of_a_typed_name_and_methods_a_base_from_outside_gives(
    tmp_path: Path, settings: Settings
) -> None:
    """`client = factory(app)` with `factory: ClientFactory` (a pytest fixture's Protocol) holds
    what `ClientFactory.__call__` returns; a method no project class of the type defines, when
    its other bases are from outside (`TestClient(httpx.Client)`), is theirs, and so is the
    value it gives: `response.json()` is no guess at the project's `Request.json`."""
    rows = graph(tmp_path, settings, PYTHON_FACTORY)
    assert edges_at(rows, "tests/test_a.py", 5) == {("pkg/client.py::TestClient.login", True)}
    reasons = {5 + n: {r["rule"] for r in at(rows, "tests/test_a.py", 5 + n)} for n in (1, 2)}
    assert reasons == {
        6: {"inherited from a class outside the project get on TestClient"},
        7: {"method of what TestClient.get() returns: inherited from outside the project"},
    }
    assert edges_at(rows, "tests/test_a.py", 8) == {("pkg/client.py::TestClient.login", False)}


def test_python_what_a_builtin_returns_is_the_language_s_value(
    tmp_path: Path, settings: Settings
) -> None:
    """`with open(p) as f: f.write(s)` writes a file, not the project's one `write`; `max(xs)`
    hands over whatever it is given, and a project's own `open` is its own."""
    files = {
        "pkg/__init__.py": "",
        "pkg/up.py": "class UploadFile:\n    def write(self, data): ...\n\n"
        "class Box:\n    def pick(self): ...\n",
        "pkg/store.py": "from pkg.up import UploadFile\n\ndef open(path) -> UploadFile: ...\n",
        "tests/test_a.py": """\
def test_it(path, boxes):
    with open(path, "w") as file:
        file.write("x")
    best = max(boxes)
    best.pick()
""",
        "tests/test_b.py": """\
from pkg.store import open

def test_store(path):
    f = open(path)
    f.write("y")
""",
    }
    rows = graph(tmp_path, settings, files)
    assert {r["rule"] for r in at(rows, "tests/test_a.py", 3)} == {
        "builtin receiver: what open() returns"
    }
    assert edges_at(rows, "tests/test_a.py", 5) == {("pkg/up.py::Box.pick", False)}
    assert edges_at(rows, "tests/test_b.py", 5) == {("pkg/up.py::UploadFile.write", True)}
