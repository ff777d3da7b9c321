"""The index manifest (schema version, table versions, model id) and the one-writer lock."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

# Bump when the tables' columns or meaning change; older indexes are rebuilt, newer refused.
SCHEMA_VERSION = 4  # 3: the call-graph tables; 4: `thin` (wrapper, accessor) for `delegates`
# Bump when chunking, token text, embedded text or graph facts change: every file is
# re-processed.
# 22: computing calls and one-branch lambdas are not wrappers; 23: call receivers with their
# arguments elided, qualified calls with generic arguments named (graph-fixes); 24: comment
# marks inside string and regex literals are no comments in call receivers; Kotlin `this@Outer`
# and a line opening with `(`; 25: C and C++ function-like macros over several lines are
# definitions, with the calls in their bodies; 26: Rust items inside an item-level macro call
# (`cfg_rt! { pub fn spawn ... }`) are definitions; 27: a `.h` header that holds C++ is C++;
# 28: C and C++ annotation macros (`ABSL_CONST_INIT`, `UV_EXTERN`) out of the grammar's way;
# 29: signatures read from the file as written, not from the bytes the grammar was given; 30: a
# C header's `extern "C" {` for C++ readers out of the grammar's way, errors weighed by size;
# 31: Scala values that carry logic (an instance with a body, a block) are definitions;
# 36: LuaLS-annotated tables are classes; 37: Scala and Lua calls are read; 38: a call handed
# a one-expression lambda that computes (a predicate) is no wrapper; 39: Elixir calls are read;
# 40: Bash calls are read; 41: documentation pages a tool generated (jazzy, Dokka, javadoc,
# ...) are skipped; 42: Zig calls are read; 43: Haskell calls are read; 44: Haskell export lists;
# 45: Lua's requires, returned tables and globals; `base`/`parent` are super in C# and PHP only;
# 46: a nested type `A.B` (Swift, Java, Kotlin, Scala) is B inside A, never another B; 47: Ruby's
# `include`/`prepend` are bases, `X.new` calls `initialize`, modules' methods are methods; 48: C++
# `CLI::App app;` types `app`, `: public ns::Base` is a base; 49: Kotlin's imported extension
# functions; 50: what methods declare they return types a call chain's next receiver; 51: and a
# variable bound to a call (`r := NewRouter()`), Go's return types too; 52: a function literal's
# parameters and variables are its own; 53: a go.mod's module path names the project's own Go
# imports; 54: a Go struct's field types type the calls through them (`mx.tree.InsertRoute()`);
# 55: a loop variable's declared type (Java, C#, C++); C++ template bases (`: Base<T>`) and
# template parameters (`Policy::value()` calls no class named Policy); 56: a Cargo.toml's crate
# name is its library's root (`use petgraph::Graph`), an inline `pub mod x { }` a Rust module;
# 57: a C++ value of a template parameter's type (`Sink& sink`) is guessed by method name only;
# 58: a Rust path of no crate (`pub use mutex::Mutex`) prefers the importing module's children;
# 59: and `crate::x` is no longer narrowed to the crate's own folder (serde's `crate::de`);
# 60-62: the JVM's packages, static imports and nested classes; 63: a call chain may start
# with a function's call (`NewRouter().NewRoute()`) or Go's `new(T)`, `T{}`, `&T{}`; a variable
# bound to a chain is typed through it; Go's `range` and `x[i]` give an element; 64: Python's
# return annotations and properties type receivers; a dotted receiver on a typed variable;
# 65: a Python generic base (`Base[T]`) is a base, `X = Base[T]` an alias of Base; a typed
# receiver's method found in no project class of its hierarchy, with a base from outside, is
# the outside base's (no guess by name); 66: that only in Python and Java, only when the outside
# bases are known (imported or builtin); `-> Self` is the class it is called on; 67: Python's
# `self.x = param` has the parameter's annotated type (`Any` is none); 68: annotated names
# (`x: Foo = ...`, a dataclass's fields) have their annotations' types; 87: Rust's `crate::`
# paths from the file's crate root, `type X = a::B<T>` aliases, `Option`'s and `Result`'s own
# methods before a project trait's; a call on an element (`xs[i].m()`) in Rust, C++ and Kotlin;
# 88: Rust's `Self::new()` is the impl's type, `let e = xs[i];` an element; 89: C/C++ nullability
# macros after `*` (`char* absl_nonnull Cord::data()`) out of the grammar's way; a C++
# namespace's functions seen from inside it, an unnamed namespace its source file's own; 90: those
# are namespace members (0.9), not local names (0.95); 91: Rust's `let ix = self.g.add_node(w);`
# holds what the method returns; 92: a C++ namespace's functions matched by their parent
# (`CLI.detail`), not by a qualified name that keeps only the innermost namespace; 93: Ruby's
# lookup order (mixins before the superclass), what an `included` hook mixes in, `extend`,
# `self.class.new`, `::Top::Name`, aliases, `@field`s set to `Foo.new`; PHP's `$this->field`s
# typed by `new`, a typed parameter or their declaration, types written `\A\B`, and what a
# field's method returns (`$s = $this->parser->getStream()`), traits and `extends \A\B` bases,
# `catch (E $e)` (a catch block's variables its own); Ruby's bare `new(x)` in a class method,
# `doc = new(x)`, names read from inside the class whose body they are in; 98:
# reStructuredText, AsciiDoc and Org read by section, as Markdown is; 99: Zig's `self` inside
# the struct a TitleCase function returns (`fn Pool(comptime T: type) type`) is that struct;
# 100: and the functions in that struct are its methods; 101: each step of a Zig chain is a call
# (`self.handler.handle(r)`), a type an imported Zig file declares holds its functions; 102:
# `const P = Part(A)` names the type Part makes, `Router(H, A).init()` calls its function; 103:
# what a Zig function declares it returns types the variable bound to its call; 104: Zig's
# `const Request = request.Request` aliases, a struct's names seen by its methods, a type
# function's call is its type, and no other file's namesake type; 105: a Zig struct's fields
# type `self.x` (`.?` and `.*` unwrapped); 106: a shell file's own top-level code is a `script`
# definition named after the file, and commands named as the project's scripts call them; 107:
# a JS/TS name unpacked from a value (`const { serialize } = opts`) is called as that value; 108:
# a Ruby class method beside an instance method of its name is `Owner.self.name`; 109: an
# Elixir call of the module a value holds (`adapter.send_chunked(p)`) is a call site; 110: a
# Markdown title reads without its badges, images, link targets and HTML tags; 111: the
# shell's own statements (`return`, `shift`, `set -e`) are no call sites; 112: a Kotlin primary
# constructor on the line under its class header no longer breaks the file's parse; 113: a C
# or C++ conditional whose branches each open a brace is read as its `#else` branch; 114: a
# Haskell conditional's `#else` and `#elif` branches are read, not skipped as a directive;
# 115: JSX elements are calls of their components, a JS/TS object's functions one level down
# (`authOptions = { callbacks: { session() {} } }`) are its members; 116: an ES module's
# `export default x` is what `import x from "./m"` reaches; 117: a Ruby method called by a bare
# name (`authorize`, `save`) is a call site; 118: JS/TS names unpacked from a call of a function
# are marked with that function (`const { show } = useToast()`); 119: PHP's nullsafe `?->` calls;
# 120: Elixir's `use` directives, HEEx function components as calls; 121: Python's `tests.py`
# and `test.py`, Rust's `tests.rs` are test files (not embedded); 122: a test case's methods
# are no name guess for calls on values of unknown type; 123: Symfony's `DataFixtures/`,
# Laravel's `database/factories/` and `seeders/` are test files (not embedded); 124: end-to-end
# tests (`e2e/`, `cypress/`, `*.cy.ts`, `*.e2e.ts`) are test files; 125: a TypeScript
# constructor's parameter properties type `this.x`; 126: so do PHP 8's promoted constructor
# parameters; 127: Python attribute names a statement sets (`obj.client = ...`), so a
# `self.client` nothing of the project gives is an outside base's; 128: C# and Swift `#if`
# groups read as one branch where every branch read together breaks the parse; 129: Swift's
# `#_sourceLocation` read as a name; 130: C and C++ `#if` groups whose branches each balance
# their braces read without their directives where the grammar fails on them; 131: a one-line C
# or C++ function-like macro is a symbol and a call target, and no macro takes a namespace;
# 132: Kotlin's `..<`, line-initial `in` entries, `object : T by x`, `$$"..."`, `T<*>::f`,
# binary literals and `when` guards read as syntax the grammar knows; 133: Swift's typed throws,
# `@_lifetime`, `__owned`, `__consuming` and `unsafe` / `consume` / `copy` read as spaces;
# 134: C# 14's extension blocks read as classes named by their receiver's type; 135: a C or C++
# macro between a return type and the definition's name (`void SPDLOG_INLINE pool::f(`) as spaces;
# 136: also before a name whose scope has template arguments (`base_sink<Mutex>::flush`); 137:
# `std::` calls are the standard library's unless the project defines that name in its own std;
# 138: a C++ call qualified by the global namespace alone (`::fsync(fd)`) is no namespace member;
# 139: a C++ member defined outside with its class's namespaces (`void ns::Cls::f()`) joins Cls;
# 140: a C or C++ macro before a brace opening a line's code (`SPDLOG_TRY {`) as spaces; 141:
# C++'s casts (`static_cast<T>(x)`) are no call sites; 142: a C++ declared type types its
# variable, and a return type a chain, whatever its case (`async_logger *logger`); `std::` types
# call the standard library; 143: C++'s class fields type calls in members defined outside the
# class, `auto x = std::make_shared<T>()`, `new T()` and a function's call type `x`, and a
# namespace's functions keep what they return; a class's `using Base::name;` puts the base's
# overloads beside its own; 144: a C++ type named two namespaces deep (`a::b::T x`) types x;
# 145: a C++ type named any number of namespaces deep, and a call chain that starts with a
# namespace path (`details::registry::instance().flush_all()`) reads the type the path names;
# 146: a C++ loop over a class's field (`for (auto &s : sinks_)`) types its items, and a map's
# items are pairs whose `.second` is the map's value type (`m[k]` is one; `auto &[k, v]` binds v)
# 147: a C++ chain on a class's field (`loggers_.at(k)->flush()`), and a container's methods
# that give an item (`at()`, `front()`, `back()`, `find()`, `begin()`, ...)
# 148: a C++ `auto x = obj.method()` holds what the method declares it returns
# 149: a Python annotation naming one class beside None (`Optional[C]`, `C | None`, a forward
# reference `"C | None"`) is that class; `x = await obj.method()` holds what the method returns,
# and `x = self.attr` what the attribute holds
# 150: a TypeScript class's typed fields type `this.field`; `T | null`, `T | undefined`, `x?: T`
# are a T; `const r = await x.send()` holds what `send(): Promise<T>` promises; an element of
# `T[]`, `Array<T>`, `Record<K, T>` is a T (`xs.push()` is the container's own)
# 151: a Python loop's items and an element by index of `List[C]`, `Sequence[C]`, `tuple[C,
# ...]` are Cs (`conns.append()` is the container's own); `x: List[C] = []` keeps its annotation;
# a TypeScript `for (const c of list)` loop's items too
# 152: an item of a value from outside the project (`self.xs = list(...)`) is guessed by name,
# not said to be a method of `list`
# 153: Python's call of a name declared a class (`client = factory(app)`, `factory:
# ClientFactory`) holds what its `__call__` returns; a chain's method no project class of the
# type defines, when its other bases are from outside (Python, Java, Ruby), is theirs, and so is
# the value it gives (`client.get(url).json()` on a `TestClient(httpx.Client)`): no name guess;
# nor for what a Python builtin returns (`with open(p) as f: f.write(s)`)
# 154: a module-level variable other files import has the type it is bound to (Python's
# `console = Console()`, `box.DOUBLE`; JS/TS `export const app = new App()`); an object of
# functions names them (`export const Jwt = { sign }`, `export default { isString }`,
# `module.exports = { str: toStr }`); a bare call of a variable is never a guess at another
# file's function of its name (in a Python function, at no other definition); a folder required
# as a package (`require('../..')`) is the file its package.json gives; a class declared inside
# a function is no other file's type; a variable bound to a call of a function that returns a
# function calls into it (probable); TypeScript's generic call signatures one per line parse
# 155: a JavaScript variable holds what the call it is bound to returns (not `require`); a
# method of what a call into an outside module returns is that module's (`http.createServer()`,
# not `copy.deepcopy(x)`); Python's `cast(T, v)` is a T
STRATEGY_VERSION = "chunk-155"

MANIFEST_NAME = "manifest.json"
LOCK_NAME = "write.lock"


class IndexStoreError(Exception):
    """Base of the index's own errors; messages are for people."""


class IndexLocked(IndexStoreError):
    pass


class IndexIncompatible(IndexStoreError):
    pass


class IndexCorrupt(IndexStoreError):
    pass


class IndexDamaged(IndexCorrupt):
    """A table's files cannot be read. Every table is derived: the chunk, file and graph
    tables from the repository, the shared vectors table (`shared`) from the chunk texts."""

    def __init__(self, message: str, *, table: str, note: str, shared: bool) -> None:
        super().__init__(message)
        self.table = table
        self.note = note  # what cannot be read, and why: "FILE cannot be read (ERROR)"
        self.shared = shared


class IndexChanged(IndexStoreError):
    """The tables a reader opened were pruned after a newer index was published."""


class IndexWriteError(IndexStoreError):
    """The index cannot be written (disk full, read-only, no permission)."""


# (errno, words LanceDB uses for it, what to tell the person)
_WRITE_FAILURES = (
    (28, "no space left", "the disk holding the index is full; free some space and run again"),
    (122, "quota exceeded", "the disk quota of the index folder is used up"),
    (30, "read-only file system", "the index folder is on a read-only file system"),
    (13, "permission denied", "the index folder is not writable by this user"),
    (1, "operation not permitted", "the index folder is not writable by this user"),
)


def is_write_failure(error: BaseException) -> bool:
    """Whether `error` says the disk refused a write (full, read-only, no permission)."""
    return _write_advice(error) is not None


def _write_advice(error: BaseException) -> str | None:
    text = str(error).lower()
    code = getattr(error, "errno", None)
    for number, words, advice in _WRITE_FAILURES:
        if code == number or words in text or f"os error {number})" in text:
            return advice
    return None


@contextlib.contextmanager
def write_errors_explained(index_dir: Path) -> Iterator[None]:
    """Turn an OS or LanceDB failure to write into one clear IndexWriteError. The index keeps
    its last published state, because nothing is published after a failed write."""
    try:
        yield
    except (OSError, RuntimeError, ValueError) as error:
        advice = _write_advice(error)
        if advice is None:
            raise
        raise IndexWriteError(
            f"cannot write the index at {index_dir}: {advice} (or choose another folder "
            "with --index-dir or REPOLENS_INDEX_DIR); the index keeps its last "
            "published state"
        ) from error


@dataclass(slots=True)
class Manifest:
    schema_version: int = SCHEMA_VERSION
    strategy_version: str = STRATEGY_VERSION
    repo_root: str = ""
    table_versions: dict[str, int] = field(default_factory=dict)
    embedding_model: str = ""
    updated_at: float = 0.0
    last_run: dict[str, Any] = field(default_factory=dict)
    # The folder under the index holding the tables; a rebuild writes a new one beside it.
    tables_dir: str = "tables"
    # The folder a rebuild replaced, and when: kept a moment for readers that opened it.
    retired_tables_dir: str = ""
    retired_at: float = 0.0
    # Per table, the published version before the current one (readers may still hold it).
    previous_versions: dict[str, int] = field(default_factory=dict)
    # Per table, its version when old versions were last pruned.
    maintained_versions: dict[str, int] = field(default_factory=dict)
    graph_pending: list[str] = field(default_factory=list)  # paths the graph has not caught up
    vectors_complete: str = ""  # the model every chunk has a vector for ("" when unknown)
    commit: str = ""  # the git commit the repository was at when indexed ("" if not git)


def read_manifest(index_dir: Path) -> Manifest | None:
    path = index_dir / MANIFEST_NAME
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise IndexCorrupt(
            f"the index manifest {path} cannot be read ({error}); "
            "rebuild the index with `repolens-tui index PATH --rebuild`"
        ) from error
    version = data.get("schema_version")
    if not isinstance(version, int):
        raise IndexCorrupt(f"the index manifest {path} has no schema version; rebuild the index")
    if version > SCHEMA_VERSION:
        raise IndexIncompatible(
            f"the index at {index_dir} was written by a newer repolens-tui (schema {version}, "
            f"this one reads {SCHEMA_VERSION}); upgrade repolens-tui or rebuild with --rebuild"
        )
    known = {name for name in Manifest.__dataclass_fields__}
    return Manifest(**{key: value for key, value in data.items() if key in known})


def write_manifest(index_dir: Path, manifest: Manifest) -> None:
    """Write atomically: a reader sees the old manifest or the new one, never half of one."""
    manifest.updated_at = time.time()
    path = index_dir / MANIFEST_NAME
    staging = path.with_name(f".{MANIFEST_NAME}.{os.getpid()}.tmp")
    with staging.open("w", encoding="utf-8") as handle:
        json.dump(asdict(manifest), handle, indent=2, sort_keys=True)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(staging, path)


class WriteLock:
    """An exclusive `flock` on the index; the kernel frees it when the holder dies."""

    def __init__(self, index_dir: Path) -> None:
        self.path = index_dir / LOCK_NAME
        self._handle: IO[str] | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+", encoding="utf-8", errors="backslashreplace")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise IndexLocked(
                f"the index at {self.path.parent} is being written by {holder}; "
                "wait for it to finish (searching still works meanwhile)"
            ) from None
        handle.seek(0)
        handle.truncate()
        command = " ".join(sys.argv[:3])
        handle.write(f"pid {os.getpid()} on {socket.gethostname()} ({command})\n")
        handle.flush()
        self._handle = handle

    def release(self) -> None:
        if self._handle is not None:
            with contextlib.suppress(OSError):
                self._handle.seek(0)
                self._handle.truncate()
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None

    def __enter__(self) -> WriteLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
