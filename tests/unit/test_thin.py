"""Thin definitions (wrappers and accessors) detected on real parses, across languages."""

from __future__ import annotations

from app.indexer.chunk import parse_file
from app.parse.definitions import find_definitions, line_starts, parser_for
from app.parse.thin import thinness


def _flags(path: str, source: str) -> dict[str, str]:
    return {c.qualified_name: c.thin for c in parse_file(path, source).chunks if c.symbol}


def _definitions(language: str, source: str) -> dict[str, str]:
    """The thinness of the first definition by each name, methods of small classes included
    (they get no chunk of their own)."""
    src = source.encode()
    root = parser_for(language).parse(src).root_node
    flags: dict[str, str] = {}
    for d in find_definitions(language, root, src, line_starts(src)).definitions:
        flags.setdefault(d.qualified, thinness(d))
    return flags


def test_python_wrapper_with_docstring_is_detected() -> None:
    source = '''
def get(url):
    """Send a GET request."""
    return request("GET", url)


def request(method, url):
    prepared = build(method, url)
    return send(prepared)
'''
    flags = _flags("client.py", source)
    assert flags["get"] == "wrapper"
    assert flags["request"] == ""


def test_typescript_factory_returning_new_as_any_is_a_wrapper() -> None:
    source = """
export function union(options: any[], params?: string): ZodUnion {
  return new ZodUnion({ type: "union", options }) as any;
}

export function parse(input: string): number {
  const value = Number(input);
  if (Number.isNaN(value)) throw new Error("not a number");
  return value;
}
"""
    flags = _flags("schemas.ts", source)
    assert flags["union"] == "wrapper"
    assert flags["parse"] == ""


def test_go_method_forwarding_to_a_route_is_a_wrapper() -> None:
    source = """package mux

func (r *Router) Path(tpl string) *Route {
	return r.NewRoute().Path(tpl)
}

func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	return p
}
"""
    flags = _flags("mux.go", source)
    assert flags["Router.Path"] == "wrapper"
    assert flags["cleanPath"] == ""


def test_classes_and_empty_functions_are_not_wrappers() -> None:
    source = "class A:\n    pass\n\n\ndef noop():\n    pass\n"
    assert not any(_flags("a.py", source).values())


def test_arrow_function_whose_expression_is_a_call_is_a_wrapper() -> None:
    source = """
export const stringbool = (...args: any[]) =>
  core._stringbool({ Codec: ZodCodec }, ...args) as any;

export const double = (value: number) => value * 2;
"""
    flags = _flags("schemas.ts", source)
    assert flags["stringbool"] == "wrapper"
    assert flags["double"] == ""


def test_go_setter_returning_its_receiver_is_an_accessor() -> None:
    source = """package mux

func (r *Router) StrictSlash(value bool) *Router {
	r.strictSlash = value
	return r
}

func (r *Route) GetName() string {
	return r.name
}

func (r *Route) Name(name string) *Route {
	if r.name != "" {
		r.err = fmt.Errorf("route already has name %q", r.name)
	}
	r.name = name
	return r
}
"""
    flags = _flags("mux.go", source)
    assert flags["Router.StrictSlash"] == "accessor"
    assert flags["Route.GetName"] == "accessor"
    assert flags["Route.Name"] == ""


def test_python_property_is_an_accessor_and_computing_code_is_not() -> None:
    source = '''
class Client:
    @property
    def base_url(self):
        """Base URL to use when sending requests with relative URLs."""
        return self._base_url

    @base_url.setter
    def base_url(self, url):
        self._base_url = self._enforce_trailing_slash(URL(url))

    def __init__(self, username, password):
        self._username = to_bytes(username)
        self._password = to_bytes(password)
        self._nonce_count = 1

    def closed(self):
        self.is_closed = True

    def count(self):
        self.calls = self.calls + 1

    def identity(self, value):
        return value
'''
    flags = _definitions("python", source)
    assert flags["Client.base_url"] == "accessor"  # the getter
    assert flags["Client.closed"] == flags["Client.__init__"] == "accessor"
    assert flags["Client.count"] == ""  # it computes
    assert flags["Client.identity"] == ""


def test_javascript_getter_through_this_is_an_accessor() -> None:
    source = """
class Layer {
  get path() {
    return this._path;
  }

  handle(req, res) {
    this.count = this.count + 1;
    return this.fn(req, res);
  }
}
"""
    flags = _definitions("javascript", source)
    assert flags["Layer.path"] == "accessor"
    assert flags["Layer.handle"] == ""


def test_a_call_guarded_by_a_try_that_only_gives_up_is_still_thin() -> None:
    python = _definitions(
        "python",
        """
def load(path):
    try:
        return read_config(path)
    except FileNotFoundError:
        return None

def strict(path):
    try:
        return read_config(path)
    except ValueError as error:
        raise ConfigError(path) from error

def parse(path):
    try:
        text = read_config(path)
        return text.split()
    except ValueError:
        return None
""",
    )
    assert (python["load"], python["strict"], python["parse"]) == ("wrapper", "wrapper", "")
    javascript = _definitions(
        "javascript",
        """
function getPathname(req) {
  try {
    return parseUrl(req).pathname;
  } catch (err) {
    return undefined;
  }
}
function logged(x) {
  try { return g(x); } catch (e) { log(e); return null; }
}
function cleaned(x) {
  try { return g(x); } finally { release(x); }
}
""",
    )
    assert javascript["getPathname"] == "accessor"  # it reads a field of the parsed URL
    assert javascript["logged"] == javascript["cleaned"] == ""  # the handlers do work


def test_swift_wrappers_and_accessors_are_detected() -> None:
    source = """
extension MutableCollection {
  public mutating func stablePartition(by p: (Element) throws -> Bool) rethrows -> Index {
    try stablePartition(subrange: startIndex..<endIndex, by: p)
  }
  func first(_ k: Int) -> Index { return index(startIndex, offsetBy: k) }
  mutating func setBase(_ v: Base) { self.base = v }
  func stored() -> Base { self.base }
  func fails() -> Index { throw Failure(code: 1) }
  mutating func stablePartition(count n: Int, by p: (Element) -> Bool) -> Index {
    let h = n / 2
    return try stablePartition(count: h, by: p)
  }
}
"""
    src = source.encode()
    root = parser_for("swift").parse(src).root_node
    found = find_definitions("swift", root, src, line_starts(src)).definitions
    flags = {d.qualified: thinness(d) for d in found}  # the last overload by each name
    assert flags["MutableCollection.first"] == "wrapper"
    assert flags["MutableCollection.setBase"] == "accessor"
    assert flags["MutableCollection.stored"] == "accessor"
    assert flags["MutableCollection.fails"] == ""  # `throw` ends the work here; not a forward
    overloads = [thinness(d) for d in found if d.name == "stablePartition"]
    assert overloads == ["wrapper", ""]


def test_kotlin_wrappers_and_accessors_are_detected() -> None:
    source = """
class Registry {
    fun wrap(x: Int): Int = other(x)
    fun wrap2(x: Int): Int { return other(x) }
    fun set(v: Int) { this.v = v }
    fun get(): Int = this.v
    fun fails(): Int { throw IllegalStateException("no") }
    fun work(x: Int): Int {
        val y = other(x)
        return y + 1
    }
}

fun BeanDefinition<*>.createdAtStart() {
    _createdAtStart = true
}
"""
    flags = _definitions("kotlin", source)
    assert flags["Registry.wrap"] == "wrapper"
    assert flags["Registry.wrap2"] == "wrapper"
    assert flags["Registry.set"] == "accessor"
    assert flags["Registry.get"] == "accessor"
    assert flags["Registry.fails"] == ""
    assert flags["Registry.work"] == ""
    # An extension function sets its receiver's property without `this.`.
    assert flags["BeanDefinition.createdAtStart"] == "accessor"


def test_csharp_setter_through_this_is_an_accessor() -> None:
    source = """
class Machine {
    public int Wrap(int x) => Other(x);
    public void Set(int v) { this.v = v; }
    public int Work(int x) { var y = Other(x); return y + 1; }
}
"""
    flags = _definitions("csharp", source)
    assert flags["Machine.Wrap"] == "wrapper"
    assert flags["Machine.Set"] == "accessor"
    assert flags["Machine.Work"] == ""


def test_methods_reading_or_setting_members_without_this_are_accessors() -> None:
    # C++, C# and Java reach a member without `this`: in a method, a bare name assigned (no
    # declaration) or returned alone is a field. A free function returning a name is not.
    cpp = """
class Option {
  public:
    Option *envname(std::string name) {
        envname_ = std::move(name);
        return this;
    }
    std::string get_envname() const { return envname_; }
    int width(int w) { int c = w * 2; return c; }
};
int identity(int x) { return x; }
"""
    flags = _definitions("cpp", cpp)
    assert flags["Option.envname"] == "accessor"
    assert flags["Option.get_envname"] == "accessor"
    assert flags["Option.width"] == ""
    assert flags["identity"] == ""
    csharp = "class Machine { public void Set(int v) { _v = v; } public int Get() => _v; }"
    flags = _definitions("csharp", csharp)
    assert flags["Machine.Set"] == "accessor"
    assert flags["Machine.Get"] == "accessor"


def test_argument_checks_that_only_throw_do_not_make_work() -> None:
    # `if (trigger == null) throw ...;` before the one forwarding call checks the arguments:
    # the work is still done by the call (C#, Java, C++, TypeScript, Python alike).
    csharp = """
class StateConfiguration {
    public StateConfiguration PermitIf(TTrigger trigger, TState destination, Func<bool> guard)
    {
        if (trigger == null) throw new ArgumentNullException(nameof(trigger));
        if (guard == null) { throw new ArgumentNullException(nameof(guard)); }
        return InternalPermitIf(trigger, destination, new TransitionGuard(guard));
    }
    public StateConfiguration Checked(TTrigger trigger)
    {
        if (trigger == null) throw new ArgumentNullException(nameof(trigger));
        else Log(trigger);
        return InternalPermit(trigger);
    }
}
"""
    flags = _definitions("csharp", csharp)
    assert flags["StateConfiguration.PermitIf"] == "wrapper"
    assert flags["StateConfiguration.Checked"] == ""  # the else branch works
    python = """
def get(url, params=None):
    if url is None:
        raise ValueError("a URL is required")
    return request("GET", url, params=params)


def check(url):
    if url is None:
        raise ValueError("a URL is required")
"""
    flags = _definitions("python", python)
    assert flags["get"] == "wrapper"
    assert flags["check"] == ""  # only the check: nothing is forwarded
    java = "class A { int f(Object x) { if (x == null) { throw new Npe(); } return g(x); } }"
    assert _definitions("java", java)["A.f"] == "wrapper"


def test_a_class_without_a_body_is_empty() -> None:
    # `class MissingPropertyException(msg: String) : Exception(msg)` declares a name and a
    # base and does nothing itself; a class with members, or a C# record with a body, does.
    kotlin = """
class MissingPropertyException(msg: String) : Exception(msg)

class Registry(val koin: Koin) {
    fun size(): Int = 1
}
"""
    flags = _definitions("kotlin", kotlin)
    assert flags["MissingPropertyException"] == "empty"
    assert flags["Registry"] == ""
    csharp = "record Point(int X, int Y);\nrecord Line(Point A, Point B) { public int N => 2; }\n"
    flags = _definitions("csharp", csharp)
    assert (flags["Point"], flags["Line"]) == ("empty", "")
    # Go's fields sit one level down (type_spec > struct_type > field_declaration_list).
    go = "package chi\n\ntype Mux struct {\n\thandler Handler\n}\n\ntype ctxKey struct{}\n"
    flags = _definitions("go", go)
    assert (flags["Mux"], flags["ctxKey"]) == ("", "empty")


def test_a_call_handed_a_block_of_work_is_no_wrapper() -> None:
    """`synchronized(this) { ... }`, `forEach { ... }`, `new Promise((resolve) => { ... })`:
    the lambda is the function's own work. A one-expression lambda that computes nothing
    still only forwards."""
    kotlin = _definitions(
        "kotlin",
        """class Scope {
    fun close() = synchronized(this) {
        callbacks.forEach { it.onScopeClose(this) }
        closed = true
    }
    fun drop(scope: Scope?) {
        scope?.let { s ->
            synchronized(this) {
                val v = values.remove(s.id)
                onClose?.invoke(v)
            }
        }
    }
    fun inject(): Lazy<T> = lazy(mode) { get<T>(qualifier) }
}
""",
    )
    assert (kotlin["Scope.close"], kotlin["Scope.drop"], kotlin["Scope.inject"]) == (
        "",
        "",
        "wrapper",
    )
    js = _definitions(
        "javascript",
        "function load(p) {\n  return new Promise((ok) => { const f = open(p); ok(f); });\n}\n"
        "function later(p) { return defer(() => open(p)); }\n",
    )
    assert (js["load"], js["later"]) == ("", "wrapper")
    swift = _definitions(
        "swift", "func run() { queue.sync { a(); b() } }\nfunc once() { queue.sync { a() } }\n"
    )
    go = _definitions(
        "go",
        "package p\nfunc run() { do(func() { a(); b() }) }\nfunc once() { do(func() { a() }) }\n",
    )
    ruby = _definitions(
        "ruby", "def each_pair\n  keys.each do |k|\n    a(k)\n    b(k)\n  end\nend\n"
    )
    assert (swift["run"], swift["once"], go["run"], go["once"]) == ("", "wrapper", "", "wrapper")
    assert ruby["each_pair"] == ""


def test_a_call_that_hands_the_receiver_back_is_a_wrapper() -> None:
    """A fluent method that forwards and returns `this` / `self` does no work of its own, in
    every language's spelling; one that does two things first still does."""
    cases = {
        "kotlin": (
            "fun <S : Any> KoinDefinition<S>.bind(): KoinDefinition<S> {\n"
            "    bind(clazz = S::class)\n    return this\n}\n"
            "fun <S : Any> KoinDefinition<S>.bindAll(): KoinDefinition<S> {\n"
            "    bind(clazz = S::class)\n    log(S::class)\n    return this\n}\n",
            "KoinDefinition.bind",
            "KoinDefinition.bindAll",
        ),
        "java": (
            "class Builder {\n"
            "  Builder setQuote(char q) { setQuote(Character.valueOf(q)); return this; }\n"
            "  Builder setEscape(char e) { trim(e); setEscape(String.valueOf(e)); return this; }\n"
            "}\n",
            "Builder.setQuote",
            "Builder.setEscape",
        ),
        "csharp": (
            "class Config {\n"
            "  Config OnExit(Action a) { _rep.AddExitAction(a); return this; }\n"
            "  Config OnEntry(Action a) { _rep.AddEntryAction(a); Log(a); return this; }\n"
            "}\n",
            "Config.OnExit",
            "Config.OnEntry",
        ),
        "cpp": (
            "struct App {\n"
            "  App *needs(App *a) { need_subcommands_.insert(a); return this; }\n"
            "  App &clear() { aliases_.clear(); names_.clear(); return *this; }\n"
            "};\n",
            "App.needs",
            "App.clear",
        ),
        "php": (
            "<?php\nclass Env {\n"
            "  public function addGlobal($n) { $this->globals->add($n); return $this; }\n"
            "  public function addAll($n) { $this->all->add($n); $this->reset(); return $this; }\n"
            "}\n",
            "Env.addGlobal",
            "Env.addAll",
        ),
        "swift": (
            "extension Request {\n"
            "  func retry(using r: Retrier) -> Self {\n    add(r)\n    return self\n  }\n"
            "  func validate(using v: Validator) -> Self {\n    add(v)\n    check(v)\n"
            "    return self\n  }\n}\n",
            "Request.retry",
            "Request.validate",
        ),
        "ruby": (
            "class Mash\n  def deep_update(other)\n    _deep_update(other)\n    self\n  end\n\n"
            "  def deep_merge(other)\n    _deep_update(other)\n    reset\n    self\n  end\nend\n",
            "Mash.deep_update",
            "Mash.deep_merge",
        ),
    }
    _assert_wrapper_beside_work(cases)


def test_argument_check_calls_before_the_forward_do_not_make_work() -> None:
    """Each language's check call (`precondition`, `require`, `assert!`, `assert`,
    `Objects.requireNonNull`) before the one forwarding call keeps it a wrapper; a call
    that is no check still counts as work."""
    cases = {
        "swift": (
            "extension Collection {\n"
            "  func combinations(ofCount k: Int) -> S {\n"
            '    precondition(k >= 0, "negative")\n    return S(self, k: k)\n  }\n'
            "  func windows(ofCount k: Int) -> S {\n    record(k)\n    return S(self, k: k)\n"
            "  }\n}\n",
            "Collection.combinations",
            "Collection.windows",
        ),
        "kotlin": (
            'fun scope(id: String): Scope {\n    require(id.isNotEmpty()) { "empty" }\n'
            "    return registry.scope(id)\n}\n"
            "fun named(id: String): Scope {\n    log(id)\n    return registry.scope(id)\n}\n",
            "scope",
            "named",
        ),
        "rust": (
            "fn node(i: usize) -> Node {\n    assert!(i > 0);\n    Node::new(i)\n}\n"
            "fn edge(i: usize) -> Node {\n    count(i);\n    Node::new(i)\n}\n",
            "node",
            "edge",
        ),
        "python": (
            "def write(self, data):\n    assert data is not None\n"
            "    return self._write(data)\n\n\n"
            "def send(self, data):\n    self.count(data)\n    return self._write(data)\n",
            "write",
            "send",
        ),
        "java": (
            "class P {\n"
            '  P parse(String s) { Objects.requireNonNull(s, "s"); return new P(s); }\n'
            "  P read(String s) { trim(s); return new P(s); }\n}\n",
            "P.parse",
            "P.read",
        ),
    }
    _assert_wrapper_beside_work(cases)


def _assert_wrapper_beside_work(cases: dict[str, tuple[str, str, str]]) -> None:
    """Per language: (source, the definition that must read as a wrapper, its neighbour that
    does work)."""
    for language, (source, wrapper, working) in cases.items():
        flags = _definitions(language, source)
        assert flags[wrapper] == "wrapper", language
        assert flags[working] == "", language


def test_a_call_whose_arguments_compute_does_work_of_its_own() -> None:
    python = _definitions(
        "python",
        """
def remaining(a, b):
    return max(0, a - b)

def should_close(self):
    return bool(self._closing or (self._payload is not None and not self._payload.is_eof()))

def largest(a, b):
    return max(a, b)

def fallback(text):
    return escape(text or "")

def missing(name):
    return NotFound("missing: " + name)
""",
    )
    assert python["remaining"] == python["should_close"] == ""
    # No operator, a default, or a message built for an error: still a wrapper.
    assert python["largest"] == python["missing"] == "wrapper"
    swift = _definitions(
        "swift",
        """
extension AdjacentPairsSequence {
  public var count: Int {
    Swift.max(0, base.count - 1)
  }
  public func striding(by step: Int) -> Self {
    Self(base: base, stride: stride * step)
  }
  public func wrapped() -> Self {
    Self(base: base, stride: stride)
  }
}
""",
    )
    assert swift["AdjacentPairsSequence.count"] == swift["AdjacentPairsSequence.striding"] == ""
    assert swift["AdjacentPairsSequence.wrapped"] == "wrapper"
    php = _definitions(
        "php",
        "<?php\nfunction upper($s) { return mb_strtoupper($s ?? '', 'UTF-8'); }\n"
        "function ms($p) { return sprintf('%.2fms', $p->getDuration() * 1000); }\n",
    )
    assert (php["upper"], php["ms"]) == ("wrapper", "")


def test_a_lambda_that_computes_is_the_functions_own_work() -> None:
    """A predicate handed over (`c => c.Guard == null || c.Guard(args)`, `x > 0`,
    `it.name == n`) is what the function does; a lambda that only reads or calls forwards."""
    csharp = _definitions(
        "csharp",
        """class Guard {
  public bool GuardConditionsMet(object[] args) {
    return Conditions.All(c => c.Guard == null || c.Guard(args));
  }
  public void Close() { items.ForEach(i => i.Close()); }
}""",
    )
    assert (csharp["Guard.GuardConditionsMet"], csharp["Guard.Close"]) == ("", "wrapper")
    js = _definitions(
        "javascript",
        "function positive(xs) { return xs.filter((x) => x > 0); }\n"
        "function names(xs) { return xs.map((x) => x.name); }\n",
    )
    assert (js["positive"], js["names"]) == ("", "wrapper")
    kotlin = _definitions(
        "kotlin",
        "class A {\n  fun find(n: String) = items.firstOrNull { it.name == n }\n"
        "  fun all() = items.map { it.name }\n}\n",
    )
    assert (kotlin["A.find"], kotlin["A.all"]) == ("", "wrapper")


def test_a_lambda_of_one_branch_or_loop_is_work_handed_over() -> None:
    kotlin = _definitions(
        "kotlin",
        """
class Factory {
    override fun dropAll() {
        synchronized(this) {
            if (values.isNotEmpty()) {
                values.values.forEach { v -> onClose.invoke(v) }
                values.clear()
            }
        }
    }
    fun locked() {
        synchronized(this) { values.clear() }
    }
}
""",
    )
    assert kotlin["Factory.dropAll"] == ""
    assert kotlin["Factory.locked"] == "wrapper"
    rust = _definitions(
        "rust",
        """
fn node_indices(&self) -> impl Iterator<Item = NodeIndex> {
    self.nodes.iter().enumerate().filter_map(|(i, node)| {
        if node.weight.is_some() { Some(node_index(i)) } else { None }
    })
}
""",
    )
    assert rust["node_indices"] == ""


def test_a_method_that_only_returns_keeps_its_file_chunked() -> None:
    # A bare `return` is neither wrapper nor accessor, and the file's definitions keep their
    # chunks (a failure here would leave the whole file to line windows).
    step = "    def step{0}(self, x):\n        y = x + {0}\n        z = y * 2\n        return z\n\n"
    methods = "".join(step.format(i) for i in range(40))
    source = f"class Reader:\n{methods}    async def wait_eof(self):\n        return\n"
    flags = _flags("streams.py", source)
    assert flags["Reader.wait_eof"] == ""
    assert flags["Reader.step0"] == ""
