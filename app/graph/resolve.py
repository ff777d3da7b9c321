"""The resolution cascade: each call site to zero or more definitions, with a confidence and
the rule that decided it; what resolves to nothing stays as an explicit unresolved record."""

from __future__ import annotations

import builtins
import posixpath
import re
from collections import Counter, defaultdict
from collections.abc import Iterable

from app.core.models import CallSite, Edge, Import, Symbol, Unresolved
from app.core.paths import is_test_path, test_cases
from app.graph.elixir import ElixirRules
from app.graph.facts import CLASS_KINDS, FileFacts, call_text, symbol_id
from app.graph.haskell import EXPORT_KINDS, HaskellExports, HaskellRules
from app.graph.java import JAVA_LANG, JavaRules
from app.graph.js_modules import JsModules, Reach
from app.graph.kotlin import MEMBER_OR_EXTENSION, KotlinRules
from app.graph.kotlin import nearest as kotlin_nearest
from app.graph.lua import LuaRules, module_names
from app.graph.preludes import BUILTIN_RESULTS, SAME_VALUE_RESULTS, prelude_reason
from app.graph.ruby import RUBY_CORE_CLASSES, RubyRules
from app.graph.rust import STD_INHERENT, RustRules
from app.graph.zig import ZigRules
from app.graph.zig import type_function as zig_type_function
from app.parse.call_text import IMPLICIT_MEMBER
from app.parse.calls import (
    ALIAS,
    ASSIGNED,
    BUILTIN_METHODS,
    BUILTIN_TYPES,
    CHAINED,
    ELEMENT,
    ELEMENT_STEP,
    EXTENDED,
    GLOBAL,
    GLOBAL_SCOPE,
    GO_CONTAINER,
    LOCAL_VARIABLE,
    METHOD_ALIAS,
    MODULE_EXPORTS,
    NEW,
    ON_ELEMENT,
    PACKAGE,
    PAIR,
    PARAMETER,
    PRIVATE,
    REGISTERED,
    RESULT,
    RETURNS,
    RETURNS_FUNCTION,
    SELF_CHAIN,
    TEMPLATE_PARAMETER,
    TRUNCATED,
    UNPACKED,
    USING,
    VALUE,
    VARIABLE,
    VIA,
)
from app.parse.imports import JS_DEFAULT
from app.parse.manifests import CARGO, GO_MODULE
from app.parse.scripts import SCRIPT_KIND, SHELL_BUILTINS

# Confidence per rule (tiers: certain >= 0.9, probable >= 0.7, uncertain below).
RULES = {
    "self-method": 0.95,
    "super": 0.95,
    "local-scope": 0.95,
    "import": 0.95,
    "module-attribute": 0.95,
    "re-export": 0.9,
    "class-member": 0.9,
    "namespace-member": 0.9,
    "typed-receiver": 0.9,
    "return-type": 0.9,  # `sm.Configure().Permit()`: through what `Configure` declares it returns
    "same-module": 0.9,
    "same-package": 0.9,
    # `isString(x)` where `const isString = typeOfTest('string')` and `typeOfTest` returns an
    # arrow: the code that runs is inside `typeOfTest` (or the `inner` a Python `make` returns).
    # Probable: a type-aware resolver stops at the variable where the function's return type
    # is declared (`const handler = handle(app)`, `handle(): (event) => ...`).
    "returned-function": 0.75,
    "unique-name": 0.75,
    # `const { show } = useToast()`: `useToast`'s own `show`, which it returns, as a rule.
    "returned-member": 0.75,
    # C: of one name's definitions in several folders (one per platform), the build links
    # the one beside the caller more often than not.
    "nearest-name": 0.7,
    "extended-receiver": 0.75,
    MEMBER_OR_EXTENSION: 0.75,
    # Lua's `M.area()`: a function of a table the file builds.
    "module-member": 0.75,
    "unique-method": 0.7,
    "reachable-method": 0.7,
    # A shell command named as one of the project's scripts (`rbenv-version-file`, or
    # `"$root/libexec/rbenv-hooks"`): it runs when that folder is on PATH, as the project's
    # own launcher arranges; another program of that name could come first.
    "project-program": 0.75,
}
AMBIGUOUS_TOTAL = 0.7  # split among the candidates of an ambiguous name, each <= 0.35
MAX_CANDIDATES = 8  # past this an ambiguous name is reported, not guessed
# Languages whose calls on an object's field (`self.x.f()`; PHP's `$this->x`, Ruby's `@x`,
# read as `this.x`, `self.x`) are typed by what the class says the field holds, wherever the
# call is (a call's value bound to a variable: `$s = $this->parser->getStream()`).
_FIELDS_READ = frozenset({"python", "php", "ruby"})
_CONSTRUCTORS = frozenset({"initialize", "__init__", "__construct", "constructor"})
_SELF_DOT = ("self.", "this.")
MAX_HIERARCHY = 32  # bases walked per lookup (cycles through aliases stop here too)
MAX_REEXPORT_HOPS = 4
_RUBY_SELF_KINDS = CLASS_KINDS | {"module"}
FREE_KINDS = frozenset({"function", "class", "struct", "interface", "enum", "type", "trait"})
FUNCTION_KINDS = frozenset({"function", "method"})
# Languages whose files share one namespace per directory (package), or whose bare calls
# inside a class may mean `this.`.
PACKAGE_LANGUAGES = frozenset({"go", "java", "csharp", "kotlin", "scala", "swift", "rust"})
# Languages whose definitions are named by namespace (`App.Models.Widget`) and imported so.
NAMESPACE_LANGUAGES = frozenset({"csharp", "php"})
# (PHP's bare `count($x)` is always a function: a method needs `$this->`.)
IMPLICIT_THIS = frozenset({"java", "csharp", "kotlin", "scala", "swift", "cpp", "ruby"})
# Languages whose type's members may be defined in several files of one folder (Go and Rust
# receivers and impls, a C++ header's class and its .cpp, Swift extensions): one class there.
_FOLDER_SCOPED = frozenset({"go", "rust", "cpp", "swift"})
_JS = frozenset({"javascript", "typescript", "tsx"})
_MODULE_VALUES = _JS | {"python"}  # languages whose modules' variables other files import
_TS_TYPES = frozenset({"type", "interface"})  # declarations no call can reach
# Languages whose `X = require("m")` binds what the module gives (`module.exports`, `return M`).
_REQUIRES = _JS | {"lua"}
# Languages whose files are modules: a name another file defines is seen only when imported.
_MODULE_FILES = _JS | {"python"}
# Languages whose code calls each other's definitions by name: a guess by name stays inside
# one of these (a Lua file's `P(...)` calls no Haskell constructor).
_FAMILIES = {
    "javascript": "js", "typescript": "js", "tsx": "js", "c": "c", "cpp": "c",
    "java": "jvm", "kotlin": "jvm", "scala": "jvm",
}  # fmt: skip
# Languages whose calls name a module or namespace by its nesting (`Hashie::Utils.safe_dup`,
# `CLI::detail::split_up(s)`), looked up from the caller's enclosing ones outwards.
_NESTED_SCOPES = frozenset({"ruby", "cpp"})
# Languages whose `A.B` type is a type nested in the type `A` (their packages are written in
# lower case; C#, PHP and C++ namespaces look like types and are left to the imports).
_NESTED_TYPES = frozenset({"swift", "java", "kotlin", "scala", "zig"})
# Languages whose nested classes call their outer classes' methods by their bare names.
_OUTER_MEMBERS = frozenset({"java", "csharp", "kotlin", "scala"})
# Languages where a type name written inside a class may name a class nested in it.
_NESTED_IN = _NESTED_TYPES | {"csharp", "cpp"}
_SCOPE_PATH = re.compile(r"(?:::)?\w+(?:::\w+)*")  # `A::B`, `::A::B` (from the top level)
_RUST_STD = frozenset({"std", "core", "alloc"})  # the crates every Rust program has
# The first names of standard library imports, by language.
_STANDARD_ROOTS = {
    "rust": _RUST_STD,
    "java": frozenset({"java", "javax"}),
    "kotlin": frozenset({"java", "javax", "kotlin"}),
    "scala": frozenset({"java", "javax", "scala"}),
}
_CHAIN_STEP = re.compile(r"\.|->|::|\?\.")  # between a call chain's steps
_DOTTED_NAME = re.compile(r"\w+(?:\.\w+)*")  # `p`, `org.apache.commons.lang3.Util`
# A chain's root when it is a value made there: `new p.Builder()`, Go's `new(T)`, `T{}`, `&T{}`.
_NEW_PREFIX = re.compile(r"\(?new\s+[\w.]+\(\)\)?")
# Languages where a class's methods are those its hierarchy declares: a method no project class
# of a typed receiver's hierarchy has is an outside base's. Not where a method may be added
# from elsewhere (Kotlin, Swift and C# extensions, Rust traits' blanket impls, Go interfaces,
# whose methods are no symbols, TypeScript declaration merging, PHP's `__call`). Ruby's
# classes may be reopened anywhere, but only an outside base read as its core class
# (`_language_base`) makes such a method that base's.
_CLASSES_HOLD_METHODS = frozenset({"python", "java", "ruby"})
# Languages whose container types the graph reads as `[]` + their element's (Go's slices,
# maps and channels, Rust's `Vec<T>` and slices, C++'s `std::vector<T>`, TypeScript's `T[]`,
# Python's `List[T]`): a loop's items, an element's.
_CONTAINER_TYPED = frozenset({"go", "rust", "cpp", "kotlin", "typescript", "tsx", "python"})
# Languages whose containers have methods of their own (`labels.len()`, `xs.push(x)`): a call on
# a container is the container's, not its items'.
_ELEMENTS_HELD = _CONTAINER_TYPED - {"go"}
_A_CONTAINER = "a container"  # what a chain's last step holds when it is one
_INHERITED_STEP = "(inherited) "  # before a chain's step that a base from outside gives
# A C++ container's methods that give one of its items, or an iterator whose `->` reaches it.
_CPP_ITEM_CALLS = frozenset(
    {"at()", "front()", "back()", "find()", "begin()", "rbegin()", "lower_bound()", "upper_bound()"}
)
# Languages whose types may have members defined in another folder than the type.
_JOINED_ACROSS_FOLDERS = frozenset({"cpp", "rust"})
# Languages whose build, not an import, picks which of a name's definitions a call reaches,
# and where one name is one function (C++'s overloads are several: no folder tells them apart).
_LINKED = frozenset({"c"})
# C++'s unnamed namespace, as a definition's qualified name holds it: what is declared inside is
# its source file's alone (internal linkage).
ANONYMOUS_NAMESPACE = "(anonymous)"
_SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".c++")
# Python's own classes a class may derive from without an import (`Exception`, `dict`).
_PYTHON_BUILTIN_CLASSES = frozenset(
    name for name in dir(builtins) if isinstance(getattr(builtins, name), type)
)
_SELF_ATTRIBUTE = re.compile(r"self\.\w+")  # Python's `self.x`, as a binding may say
_GO_NEW_PREFIX = re.compile(r"^(?:new\(\*?[\w.]+\)|\(?&?[\w.]+\{\}\)?)")
_SCOPE_KINDS = frozenset({"module", "class", "struct"})  # what such a path may name
# Languages where a value's type that the project does not define is one from outside, imported
# or not (Scala's `scala._` and `Predef` are imported by every file): `val fmt = new
# SimpleDateFormat(p)`; `fmt.parse(s)` is not ours.
_IMPORTS_UNREAD = frozenset({"scala"})
ClassKey = tuple[str, str]  # (scope: path, or directory for packages; qualified name)
Result = tuple[list[str], str]  # (symbol ids, rule)
Result3 = tuple[list[str], str, str]  # (symbol ids, rule, the reason when there are none)


def _shown(type_text: str) -> str:
    """A receiver's type as a reason shows it: a call's value as what the call returns."""
    if type_text.startswith(RESULT):
        return f"what {type_text[len(RESULT) :]}() returns"
    return type_text


def _in_registered(qualified: str, parents: dict[str, str], registered: set[str]) -> bool:
    """Whether a definition is one a call's string names, or is defined inside one (a helper
    in a `describe` block): bound to no name any other code can call."""
    seen = 0
    while qualified and seen < 64:  # parents come from the file's own nesting: no cycles
        if qualified in registered:
            return True
        qualified, seen = parents.get(qualified, ""), seen + 1
    return False


def _family(language: str) -> str:
    return _FAMILIES.get(language, language)


def _dir(path: str) -> str:
    return posixpath.dirname(path)


def _scope(path: str, language: str) -> str:
    return _dir(path) if language in _FOLDER_SCOPED else path


def _encloses_names(sym: Symbol, language: str) -> bool:
    """Whether names defined inside `sym` are in scope for code inside it: a function's, in
    JS/TS a variable's (`const X = factory((inst) => { const f = ...; f(); })`) and a module's
    (a `describe` block's callback, a TypeScript `namespace`), and a C++ namespace's
    (`MakeSpan(...)` inside `namespace absl`: absl's, as written in this file), and a Zig
    struct's (a container is a namespace: its methods name its declarations bare)."""
    return (
        sym.kind in FUNCTION_KINDS
        or (language in _JS and sym.kind in ("variable", "module"))
        or (language == "cpp" and sym.kind == "module")
        or (language == "zig" and sym.kind in CLASS_KINDS)
    )


# A Zig type made by a TitleCase function, called on: `Router(H, A).init()` reads `Router()`.
_ZIG_MADE_TYPE = re.compile(r"[A-Z]\w*\(\)")


def _python_module(imp: Import) -> str:
    """The module a Python import binds its name to, were it a module: `import a.b` a.b,
    `from a import b` a.b, `from . import b` .b."""
    if not imp.name:
        return imp.module
    return (imp.module if not imp.module.strip(".") else imp.module + ".") + imp.name


def _names_module(receiver: str, alias: str) -> bool:
    """`mod.sub.f()` calls into the module `mod`; `mod.make().f()` calls a method of what
    `mod.make()` returns, which is no definition of the module."""
    return receiver.split(".", 1)[0] == alias and "(" not in receiver


class Resolver:
    """Indexes over every file's facts; `resolve` answers one call site."""

    def __init__(self, files: dict[str, FileFacts]) -> None:
        self.files = files
        self.symbols: dict[str, Symbol] = {}
        self.scoped: dict[str, dict[tuple[str, str], list[str]]] = defaultdict(
            lambda: defaultdict(list)
        )  # path -> (parent, name) -> ids
        self.dir_top: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        self.free: dict[str, list[str]] = defaultdict(list)
        self.programs: dict[str, list[str]] = defaultdict(list)  # a script's file name -> it
        self.methods: dict[str, list[str]] = defaultdict(list)
        self.test_case_methods: Counter[str] = Counter()  # name -> methods of test cases
        self.assigned: set[str] = set()  # Python attribute names some statement sets
        # (language, App.Models.Widget) -> ids
        self.namespaced: dict[tuple[str, str], list[str]] = defaultdict(list)
        # path -> a top-level type's name -> the namespace it is declared in (C#, PHP): names
        # keep the namespace apart (`Widget`, parent `App.Models`), imports spell it out.
        self.namespaces: dict[str, dict[str, str]] = {}
        self.classes: dict[str, list[ClassKey]] = defaultdict(list)  # name -> keys
        self.class_kinds: dict[ClassKey, str] = {}
        self.members: dict[ClassKey, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        self.bases: dict[ClassKey, list[tuple[str, str]]] = defaultdict(list)  # -> (path, text)
        # class -> attribute -> (path, type text) it is bound to there
        self.attributes: dict[ClassKey, dict[str, list[tuple[str, str]]]] = defaultdict(
            lambda: defaultdict(list)
        )
        self.py_modules: dict[str, list[str]] = defaultdict(list)
        self.go_dirs: dict[str, list[str]] = defaultdict(list)  # also Java packages
        self.rust_modules: dict[str, list[str]] = defaultdict(list)
        self.hs_modules: dict[str, list[str]] = defaultdict(list)  # Data.Map ~ src/Data/Map.hs
        self.hs_exports: dict[str, HaskellExports] = {}  # path -> its export list, if it has one
        self.lua_modules: dict[str, list[str]] = defaultdict(list)  # a.b ~ lua/a/b.lua
        self.go_modules: list[tuple[str, str]] = []  # (module path, its go.mod's folder)
        # Scala, Java and Kotlin packages, which may span folders: os.watch -> its files
        self.packages: dict[str, list[str]] = defaultdict(list)
        self.package_of: dict[str, str] = {}  # path -> its package
        # Ruby modules and classes, C++ namespaces: `Hashie.Mash`, `CLI.detail` -> keys
        self.named_scopes: dict[str, list[ClassKey]] = defaultdict(list)
        # An Elixir module's private functions (`defp`): (module, name); no other module's.
        self.private: set[tuple[ClassKey, str]] = set()
        # (scope, owner, name) of a function that returns a function -> the nested definition
        # it returns by name ("" for a literal)
        self.returned_functions: dict[tuple[str, str, str], str] = {}
        # class -> method -> (path, the type it declares it returns)
        self.returns: dict[ClassKey, dict[str, list[tuple[str, str]]]] = defaultdict(
            lambda: defaultdict(list)
        )
        self._crates: list[tuple[str, str]] = []  # (a crate's name, its library's root file)
        # C++ and Rust types, by language, and the (folder, type) of every member, to join
        # the members defined in another folder than their type (`double Square::area()`
        # in src/, its class in include/; `impl Build for Graph` in src/data.rs, the struct in
        # src/graph_impl/).
        self._types: dict[str, set[ClassKey]] = defaultdict(set)
        self._member_keys: dict[str, set[ClassKey]] = defaultdict(set)
        self._joined: dict[ClassKey, ClassKey] = {}  # such a (folder, type) -> its type
        self.rust = RustRules(self)  # before the files: it reads each as it is indexed
        self.ruby = RubyRules(self)  # the same
        # C++'s `using X = Y;` and `typedef Y X;` by name, project-wide (headers are seen
        # wherever they are included, which the graph does not follow).
        self._cpp_aliases: dict[str, set[str]] = defaultdict(set)
        self._aliasing_names: set[str] = set()
        for path, facts in files.items():
            self._index_file(path, facts)
        self._join_outside_members()
        self.crate_roots = {crate: root for crate, root in self._crates if root in files}
        for crate, root in self.crate_roots.items():
            self.rust_modules[crate].append(root)
        self.js = JsModules(files)
        self.reach = Reach(self.js)
        self._top_cache: dict[tuple[tuple[str, ...], str, int], Result] = {}
        self._extension_cache: dict[str, dict[str, list[str]]] = {}
        self.haskell = HaskellRules(self)
        self.elixir = ElixirRules(self)
        self.lua = LuaRules(self)
        self.zig = ZigRules(self)
        self.java = JavaRules(self)
        self.kotlin = KotlinRules(self)
        # The facts are fixed for a resolver's life, so each class's hierarchy is walked once.
        self._hierarchies: dict[ClassKey, tuple[list[ClassKey], bool]] = {}
        self._asked_results: set[tuple[str, str, str]] = set()  # _result_keys in progress

    def _index_file(self, path: str, facts: FileFacts) -> None:
        kinds = {s.qualified_name: s.kind for s in facts.symbols}
        lang = facts.language
        # Lua: only a global function is seen by name from another file.
        lua_globals = {a.name for a in facts.attributes if a.type_text == GLOBAL}
        registered = {a.name for a in facts.attributes if a.type_text == REGISTERED}
        parents = {s.qualified_name: s.parent for s in facts.symbols}
        if lang in NAMESPACE_LANGUAGES:
            self.namespaces[path] = {
                s.qualified_name: s.parent
                for s in facts.symbols
                if s.parent and kinds.get(s.parent) == "module" and s.kind != "module"
            }
        cases = test_cases(path, lang, ((s.parent, s.name) for s in facts.symbols))
        for s in facts.symbols:
            sid = symbol_id(path, s.qualified_name)
            if sid in self.symbols:
                continue  # a redefinition (property setter, #ifdef): one node
            self.symbols[sid] = s
            if s.kind == SCRIPT_KIND:  # run by its file's name, never called by its own
                self.programs[path.rpartition("/")[2]].append(sid)
                continue
            if s.qualified_name not in registered:  # `test("parse", ...)` binds no name
                self.scoped[path][(s.parent, s.name)].append(sid)
            nested_in_function = kinds.get(s.parent, "") in FUNCTION_KINDS
            local = nested_in_function or (
                bool(registered) and _in_registered(s.qualified_name, parents, registered)
            )
            if s.kind in FREE_KINDS and not local and s.kind != "method":
                if lang != "lua" or (not s.parent and s.name in lua_globals):
                    self.free[s.name].append(sid)
                if not s.parent or lang in PACKAGE_LANGUAGES:
                    self.dir_top[_dir(path)][s.name].append(sid)
                if lang in NAMESPACE_LANGUAGES:
                    self.namespaced[(lang, self.full_name(path, s.qualified_name))].append(sid)
            if s.kind == "method" and s.parent in cases:
                self.test_case_methods[s.name] += 1  # only `self` reaches it: no name guess
            elif s.kind == "method" or (lang == "ruby" and s.parent and s.kind == "function"):
                self.methods[s.name].append(sid)  # a Ruby module's `def` is a mixin's method
            if (lang in _NESTED_SCOPES or lang == "elixir") and s.kind in _SCOPE_KINDS:
                key = (_scope(path, lang), s.qualified_name)
                for name in {s.qualified_name, self.nested_name(path, s.qualified_name)}:
                    if key not in self.named_scopes[name]:  # `Mash` and `Hashie.Mash`
                        self.named_scopes[name].append(key)
            if s.kind in CLASS_KINDS:
                key = (_scope(path, lang), s.qualified_name)
                if key not in self.classes[s.name]:
                    self.classes[s.name].append(key)
                self.class_kinds.setdefault(key, s.kind)
            if s.parent and (s.kind in FUNCTION_KINDS or s.kind in CLASS_KINDS):
                self.members[(_scope(path, lang), s.parent)][s.name].append(sid)
            if lang in _JOINED_ACROSS_FOLDERS and s.kind in CLASS_KINDS and s.kind != "impl":
                self._types[lang].add((_scope(path, lang), s.qualified_name))
            elif lang in _JOINED_ACROSS_FOLDERS and s.kind in FUNCTION_KINDS and s.parent:
                self._member_keys[lang].add((_scope(path, lang), s.parent))
        if lang == "cpp":
            for a in facts.attributes:
                if not a.owner and a.type_text.startswith(ALIAS):
                    self._cpp_aliases[a.name].add(a.type_text[len(ALIAS) :])
        if lang == "rust":
            self.rust.index_file(path, facts, _scope(path, lang))
        for b in facts.bases:
            self.bases[(_scope(path, lang), b.child)].append((path, b.base))
        if lang == "ruby":
            self.ruby.index_bases(path, facts)
        for a in facts.attributes:
            if a.type_text == PRIVATE:
                self.private.add(((_scope(path, lang), a.owner), a.name))
                continue
            if a.type_text == GLOBAL:
                continue
            if a.type_text == ASSIGNED:
                self.assigned.add(a.name)
                continue
            if a.type_text.startswith(METHOD_ALIAS):  # `alias to_s inspect`: the same method
                members = self.members[(_scope(path, lang), a.owner)]
                if a.name not in members and (
                    same := members.get(a.type_text[len(METHOD_ALIAS) :])
                ):
                    members[a.name] = list(same)
                continue
            if a.type_text.startswith(RETURNS_FUNCTION):
                nested = a.type_text[len(RETURNS_FUNCTION) :]
                self.returned_functions[(_scope(path, lang), a.owner, a.name)] = nested
                continue
            if a.type_text.startswith(RETURNS):
                returned = a.type_text[len(RETURNS) :]
                self.returns[(_scope(path, lang), a.owner)][a.name].append((path, returned))
                continue
            if a.type_text == PACKAGE:
                self.packages[a.name].append(path)
                self.package_of[path] = a.name
                continue
            if a.type_text in EXPORT_KINDS:
                self.hs_exports.setdefault(path, HaskellExports()).add(a)
                continue
            self.attributes[(_scope(path, lang), a.owner)][a.name].append((path, a.type_text))
        if lang == "python":
            parts = path.removesuffix(".pyi").removesuffix(".py").split("/")
            if parts[-1] == "__init__":
                parts.pop()
            for i in range(len(parts)):
                self.py_modules[".".join(parts[i:])].append(path)
        elif lang in (
            "go",
            "java",
            "kotlin",
        ):  # every tail of the folder: src/demo/shapes ~ demo.shapes
            parts = _dir(path).split("/") if _dir(path) else [""]
            for i in range(len(parts)):
                self.go_dirs["/".join(parts[i:])].append(path)
        elif lang == "haskell":  # every tail of the path: lib/Hakyll/Core/Store.hs
            parts = posixpath.splitext(path)[0].split("/")
            for i in range(len(parts)):
                self.hs_modules[".".join(parts[i:])].append(path)
        if posixpath.basename(path) == GO_MODULE:
            self.go_modules += [
                (i.module, _dir(path)) for i in facts.imports if i.name == GO_MODULE
            ]
        elif lang == "lua":
            for module in module_names(path):
                self.lua_modules[module].append(path)
        elif lang == "rust":
            stem = posixpath.basename(path).removesuffix(".rs")
            if stem in ("mod", "lib", "main"):
                stem = posixpath.basename(_dir(path))
            self.rust_modules[stem].append(path)
            for sym in facts.symbols:  # `pub mod graph { pub use ...; }`: a module in the file
                if sym.kind == "module" and not sym.parent and sym.end_line > sym.start_line:
                    self.rust_modules[sym.name].append(path)
        elif posixpath.basename(path) == CARGO:  # `use petgraph::Graph` in tests and benches
            self._crates += [
                (i.alias, posixpath.normpath(posixpath.join(_dir(path), i.module)))
                for i in facts.imports
                if i.name == CARGO
            ]

    # -- modules -----------------------------------------------------------------------------
    def module_files(self, facts: FileFacts, module: str) -> list[str] | None:
        """Project files an import's module names; None when it lies outside the project."""
        lang = facts.language
        if lang == "python":
            if module.startswith("."):
                level = len(module) - len(module.lstrip("."))
                base = _dir(facts.path).split("/") if _dir(facts.path) else []
                base = base[: len(base) - (level - 1)] if level > 1 else base
                rest = [p for p in module.lstrip(".").split(".") if p]
                module = ".".join(base + rest)
            return self.py_modules.get(module) or None
        if lang in _JS:
            return self.js.resolve(facts.path, module)
        if lang == "rust":
            if module.split("::", 1)[0] in _RUST_STD:  # `std::process`: never the project's
                return None
            relative = module.split("::", 1)[0] in ("self", "super")
            if relative and (own := self.rust.relative(facts.path, module.split("::"))):
                return own
            parts = [p for p in module.split("::") if p not in ("crate", "self", "super")]
            found = self.rust_modules.get(parts[-1]) if parts else None
            if module.split("::", 1)[0] == "crate" and (own := self.rust.in_crate(facts, parts)):
                # `use crate::{Graph}`: the crate's root; `crate::sync::rwlock`: its file, with
                # the files below it (what a re-export inside a macro may have named)
                below = own[0].removesuffix("mod.rs").removesuffix(".rs").rstrip("/") + "/"
                return own + [f for f in found or () if f not in own and f.startswith(below)]
            return self._preferred_modules(facts.path, module.split("::", 1)[0], found)
        if lang == "zig":  # `@import("util.zig")`, from the importing file's folder
            if not module.endswith(".zig"):
                return None  # `std`, `builtin`, a package the build names
            path = posixpath.normpath(posixpath.join(_dir(facts.path), module))
            return [path] if path in self.files else None
        if lang == "haskell":
            return self.hs_modules.get(module) or None
        if lang == "lua":
            return self.lua_modules.get(module) or None
        if lang == "scala":  # a package of the project; an object of one (`a.b.Obj`): none
            parts = module.split(".")
            if any(".".join(parts[:i]) in self.packages for i in range(len(parts), 0, -1)):
                return self.packages.get(module, [])
            return None
        if lang == "go" and (own := self._go_module_files(module)) is not None:
            return own
        if lang in ("java", "kotlin") and (declared := self.packages.get(module)):
            return declared  # the files that say `package a.b`, in whatever folders
        if lang in ("go", "java", "kotlin"):
            parts = module.split("/" if lang == "go" else ".")
            for i in range(len(parts)):
                if found := self.go_dirs.get("/".join(parts[i:])):
                    return found
            return None
        return None

    def _preferred_modules(self, path: str, head: str, found: list[str] | None) -> list[str] | None:
        """Of the modules a Rust path's last name finds, those of the crate it names
        (`tokio::sync` is tokio's `sync`, not tokio-util's) or, for a path that names no
        crate, those below the importing module (`pub use mutex::Mutex` in `sync/mod.rs` is
        `sync/mutex.rs`), when any are; all otherwise (`crate::de` may be a module another
        crate's code fills: serde's is serde_core's)."""
        if not found or head in ("crate", "super"):
            return found
        if (root := self.crate_roots.get(head)) is not None:
            folder = _dir(root)
        else:
            stem = posixpath.basename(path).removesuffix(".rs")
            folder = _dir(path) if stem in ("mod", "lib", "main") else path.removesuffix(".rs")
        inside = [f for f in found if f.startswith(folder + "/" if folder else "")]
        return inside or found

    def _go_module_files(self, module: str) -> list[str] | None:
        """A Go import inside one of the project's modules (its go.mod's `module` path, then
        the folders under it); None for any other."""
        for path, folder in self.go_modules:
            if module == path or module.startswith(path + "/"):
                target = posixpath.join(folder, module[len(path) :].strip("/")).strip("/")
                return [p for p in self.go_dirs.get(target, []) if _dir(p) == target]
        return None

    def top(self, paths: Iterable[str], name: str, hops: int = 0) -> Result:
        """A top-level definition named `name` in these files, following re-exports (kept:
        every call through a barrel asks the same)."""
        key = (tuple(paths), name, hops)
        if key not in self._top_cache:
            self._top_cache[key] = self._find_top(key[0], name, hops)
        return self._top_cache[key]

    def _find_top(self, paths: tuple[str, ...], name: str, hops: int) -> Result:
        ids = [sid for p in paths for sid in self.scoped[p].get(("", name), [])]
        ids = ids or [sid for p in paths for sid in self._extensions(p).get(name, [])]
        if ids:
            return ids, "import" if hops == 0 else "re-export"
        if hops >= MAX_REEXPORT_HOPS:
            return [], ""
        if found := self._module_alias(paths, name, hops):
            # `import useAuth from "./useAuth"` of its `export default useAuth`: an import.
            direct = hops == 0 and name == JS_DEFAULT
            return found, "import" if direct else "re-export"
        for p in paths:
            facts = self.files[p]
            for imp in facts.imports:
                star = imp.name == "*"
                if star and name == JS_DEFAULT and facts.language in _JS:
                    continue  # `export * from './options'` passes on all but its default
                if star or (imp.alias == name and imp.name):
                    target = self.module_files(facts, imp.module)
                    if target and p not in target:
                        found, _ = self.top(target, name if star else imp.name, hops + 1)
                        if found:
                            return found, "re-export"
        return [], ""

    def _extensions(self, path: str) -> dict[str, list[str]]:
        """A Kotlin file's top-level extension functions by name (`fun JdbcTransaction.
        assertEquals(...)`: a function named after the type it extends, where a member is a
        method and a local function's parent a function): what `import pkg.assertEquals`
        brings in."""
        if (known := self._extension_cache.get(path)) is not None:
            return known
        found: dict[str, list[str]] = defaultdict(list)
        if self.files[path].language == "kotlin":
            for (parent, name), ids in self.scoped[path].items():
                owner = self.symbols.get(symbol_id(path, parent)) if parent else None
                if parent and (owner is None or owner.kind not in FUNCTION_KINDS):
                    found[name] += [i for i in ids if self.symbols[i].kind == "function"]
        self._extension_cache[path] = found
        return found

    def _module_alias(self, paths: Iterable[str], name: str, hops: int) -> list[str]:
        """A module-level alias: importing `D` imports `Distance` (Python's `D = Distance`),
        JS/TS `export { stringType as string }` and `const stringType = ZodString.create`."""
        for p in paths:
            if self.files[p].language != "python" and self.files[p].language not in _JS:
                continue
            for _, said in self.attributes.get((p, ""), {}).get(name, []):
                target = said[len(ALIAS) :]
                if not said.startswith(ALIAS) or target == name:
                    continue  # a type claim, or `x = x`
                head, _, last = target.rpartition(".")
                if not head and (found := self.top([p], target, hops + 1)[0]):
                    return found
                keys = self.type_keys(self.files[p], head) if head else []
                if keys and (found := self.member(self.hierarchy(keys[0])[0], last)):
                    return found
        return []

    def _imported_value(self, facts: FileFacts, receiver: str) -> tuple[FileFacts | None, str]:
        """What an imported module-level variable holds (Python's `from .console import
        console`, `box.DOUBLE`; JS/TS `import { app } from './app'`): the file that binds it
        and its type as written there; (None, "") when no project file says."""
        head, _, rest = receiver.partition(".")
        for imp in facts.imports:
            if imp.alias != head or imp.name == "*":
                continue
            if not rest and imp.name:  # `from m import X`, `import { X } from './m'`
                files = self.module_files(facts, imp.module)
                return self._module_value(files or [], imp.name)
            if rest.isidentifier() and facts.language == "python":  # `m.X`: `import m`
                return self._module_value(self._module_named(facts, imp) or [], rest)
        return None, ""

    def _module_value(
        self, paths: Iterable[str], name: str, hops: int = 0
    ) -> tuple[FileFacts | None, str]:
        """The type a module-level variable is bound to in these files, following re-exports;
        a variable bound to two types says nothing."""
        for p in paths:
            said = {t for _, t in self.attributes.get((p, ""), {}).get(name, [])}
            said -= {ASSIGNED, REGISTERED, GLOBAL}
            if said:
                text = said.pop()
                held = not said and not text.startswith((ALIAS, VALUE, EXTENDED))
                if text == "Object" and self.files[p].language in _JS:
                    held = False  # `export const Jwt = { sign }`: its properties say more
                return (self.files[p], text) if held else (None, "")
        if hops >= MAX_REEXPORT_HOPS:
            return None, ""
        for p in paths:
            facts = self.files[p]
            for imp in facts.imports:
                if imp.alias == name and imp.name and imp.name != "*":
                    target = self.module_files(facts, imp.module)
                    if target and p not in target:
                        return self._module_value(target, imp.name, hops + 1)
        return None, ""

    def _module_exports(self, paths: list[str]) -> list[str]:
        """What a CommonJS module gives: its `module.exports = function` definition, or the
        definition `module.exports = View` names."""
        ids = [symbol_id(p, MODULE_EXPORTS) for p in paths]
        if found := [sid for sid in ids if sid in self.symbols]:
            return found
        for p in paths:
            for _, said in self.attributes.get((p, ""), {}).get(MODULE_EXPORTS, []):
                if said.startswith(ALIAS) and (found := self.top([p], said[len(ALIAS) :])[0]):
                    return found
        return []

    def _imported_member(self, paths: list[str], imported: str, name: str) -> Result:
        """`import { errorUtil } ...; errorUtil.f()`: a member of the imported namespace,
        object or class."""
        for sid in self.top(paths, imported)[0]:
            sym = self.symbols[sid]
            if ids := self.members.get(
                (_scope(sym.path, sym.language), sym.qualified_name), {}
            ).get(name):
                return ids, "class-member"
            if ids := self._declared_member(sym, name):
                return ids, "class-member"
        return self._object_member(paths, imported, name)

    def _object_member(
        self, paths: Iterable[str], held_by: str, name: str, rule: str = "class-member"
    ) -> Result:
        """JS/TS `Jwt.sign()` where the module binds `const Jwt = { sign, verify }`: the
        function the object's property names, as its module sees it (or, for a variable
        bound to a call, the function that call returns: `isString: typeOfTest('string')`)."""
        for p in paths:
            for _, said in self.attributes.get((p, held_by), {}).get(name, []):
                if not said.startswith(ALIAS):
                    continue
                if ids := self.top([p], said[len(ALIAS) :])[0]:
                    return ids, rule
                bound_in, held = self._module_value([p], said[len(ALIAS) :])
                if bound_in and (made := self._made_function(bound_in, "", held)):
                    return made, "returned-function"
        return [], ""

    def _made_function(self, facts: FileFacts, caller: str, held: str) -> list[str]:
        """The function a variable holds when it is bound to a call of a project function
        that returns one (`const isString = typeOfTest('string')`, `handler = make()`): the
        function it returns by name, else the function whose literal it returns."""
        called = held.removeprefix(RESULT) if held.startswith(RESULT) else ""
        if not called.isidentifier():
            return []
        ids, rule = self.lookup(facts, caller, called)
        if len(ids) != 1 or RULES.get(rule, 0) < 0.9:
            return []
        sym = self.symbols[ids[0]]
        nested = self.returned_functions.get((_scope(sym.path, sym.language), sym.parent, sym.name))
        if nested is None:
            return []
        inner = symbol_id(sym.path, f"{sym.qualified_name}.{nested}") if nested else ids[0]
        return [inner] if inner in self.symbols else ids

    def _declared_member(self, sym: Symbol, name: str) -> list[str]:
        """A member of a module-level value's declared type (`export const $ZodType:
        core.$constructor<T>`: `core.$ZodType.init()` calls `$constructor`'s `init`)."""
        if sym.parent:
            return []
        for path, said in self.attributes.get((sym.path, ""), {}).get(sym.name, []):
            if said and not said.startswith(ALIAS):
                keys = self.type_keys(self.files[path], said)
                if keys and (ids := self.member(self.hierarchy(keys[0])[0], name)):
                    return ids
        return []

    def _namespace(self, paths: Iterable[str], name: str, hops: int = 0) -> list[str] | None:
        """The module a barrel re-exports under one name (`export * as name from`)."""
        for p in paths:
            facts = self.files[p]
            for imp in facts.imports:
                if imp.alias == name and not imp.name:
                    return self.module_files(facts, imp.module)
                if imp.name == "*" and hops < MAX_REEXPORT_HOPS:
                    target = self.module_files(facts, imp.module)
                    if (
                        target
                        and p not in target
                        and (found := self._namespace(target, name, hops + 1))
                    ):
                        return found
        return None

    def full_name(self, path: str, qualified: str) -> str:
        """`Widget.Draw` in `namespace App.Models` -> `App.Models.Widget.Draw` (C#, PHP)."""
        namespace = self.namespaces.get(path, {}).get(qualified.split(".")[0], "")
        return f"{namespace}.{qualified}" if namespace else qualified

    def _namespaced(self, facts: FileFacts, caller: str, name: str, types_only: bool) -> Result:
        """C#/PHP: a name imported from a namespace of the project (`using App.Models;`,
        `use App\\Models\\Widget;`), or one of the namespaces the caller is in."""
        ids: list[str] = []
        lang = facts.language
        for imp in facts.imports:
            if imp.name == "*":
                ids = self.namespaced.get((lang, f"{imp.module}.{name}"), [])
            elif imp.alias == name and imp.name:
                ids = self.namespaced.get((lang, f"{imp.module}.{imp.name}"), [])
            if types_only:
                ids = [i for i in ids if self.symbols[i].kind in CLASS_KINDS]
            if ids:
                return ids, "import"
        parts = self.full_name(facts.path, caller).split(".") if caller else []
        while parts:
            parts.pop()
            ids = self.namespaced.get((lang, ".".join([*parts, name])), []) if parts else []
            if types_only:
                ids = [i for i in ids if self.symbols[i].kind in CLASS_KINDS]
            if ids:
                return ids, "same-package"
        return [], ""

    # -- classes -----------------------------------------------------------------------------
    def class_of(self, facts: FileFacts, caller: str) -> ClassKey | None:
        """The class a caller's `self`/`this` means: its nearest class-like ancestor (in
        Ruby also a module: its methods call each other, and those of what it includes; in
        Zig also a function that returns a type, `fn List(comptime T: type) type`, which
        Zig's style names in TitleCase: the struct it returns holds the methods)."""
        kinds = _RUBY_SELF_KINDS if facts.language == "ruby" else CLASS_KINDS
        zig = facts.language == "zig"
        qualified = caller
        for _ in range(16):
            sym = self.symbols.get(symbol_id(facts.path, qualified))
            if sym is None:
                return None
            if sym.kind in kinds or (zig and qualified != caller and zig_type_function(sym)):
                return (_scope(facts.path, facts.language), qualified)
            if not sym.parent:
                return None
            parent = self.symbols.get(symbol_id(facts.path, sym.parent))
            if parent is None or parent.kind in kinds or (zig and zig_type_function(parent)):
                # Go/JS methods name a receiver type that may live in another file.
                return (_scope(facts.path, facts.language), sym.parent)
            qualified = sym.parent
        return None

    def type_keys(self, facts: FileFacts, text: str, caller: str = "") -> list[ClassKey]:
        """Classes a written type name (`Base`, `mod.Base`) means from this file (from inside
        `caller`, whose local classes it sees); Go's `[]Route` (an index elided) means Route."""
        text = text.lstrip(GO_CONTAINER) if facts.language in _CONTAINER_TYPED else text
        text = text.removeprefix(PAIR)  # a C++ map's element: the keys of its value's type
        if facts.language == "lua":
            return self.lua.tables(facts, text)
        if text == "Self" and facts.language == "rust":  # `let g = Self::new();` in an impl
            key = self.class_of(facts, caller) if caller else None
            return [key] if key is not None else []
        if text.startswith(RESULT):  # `r := NewRouter()`: what NewRouter declares it returns
            return self._result_keys(facts, text[len(RESULT) :], caller)
        if facts.language == "python" and _SELF_ATTRIBUTE.fullmatch(text):  # a chain's root
            owner, held = self.attribute_type(facts, caller, text[5:])
            if held.startswith(ALIAS):
                return self.type_keys(owner, held[len(ALIAS) :])
            return [] if held else self._result_keys(facts, text, caller)
        head, _, name = text.rpartition(".")
        java_path = head[:1].islower() and facts.language == "java"  # `p.q.Other`: its package's
        if java_path and (keys := self.java.imported_class(facts, text)):
            return keys
        if head and facts.language in _NESTED_SCOPES:  # `CLI::App`, `Shapes::Circle`
            nesting = self.nesting(facts.path, caller)
            if keys := self._scope_keys(nesting, text):
                return keys
        if head and facts.language == "rust" and head.split(".")[0] in ("crate", "self", "super"):
            target = self.module_files(facts, head.replace(".", "::"))  # `crate::util::List`
            if target:
                return [self._key(sid) for sid in self.top(target, name)[0]]
        if head:  # mod.Base: the module's own definition
            for imp in facts.imports:
                target = self._module_named(facts, imp) if imp.alias == head else None
                if target is not None or (imp.alias == head and not imp.name):
                    return [self._key(sid) for sid in self.top(target or [], name)[0]]
            if facts.language in _NESTED_TYPES and head.isidentifier() and head[:1].isupper():
                return [  # Outer.Inner; `Base.Iterator` of a generic `Base`: none of ours
                    self._key(sid)
                    for key in self.type_keys(facts, head, caller)
                    for sid in self.members.get(key, {}).get(name, [])
                    if self.symbols[sid].kind in CLASS_KINDS
                ]
        if head and facts.language == "zig":
            return []  # `Io.net.Stream`: Zig sees only what a file declares or imports
        ids, rule = self.lookup(facts, caller, name, types_only=True)
        if rule == "external" and self._from_standard_library(facts, name):
            return []  # `use std::process::Command`: not the project's `Command`
        if not ids or RULES.get(rule, 0) < 0.9:
            if facts.language == "cpp" and (keys := self._cpp_aliased(facts, name, caller)):
                return keys  # `using Option_p = std::unique_ptr<Option>;`: an Option
            if facts.language == "zig" and not head:
                scope = _scope(facts.path, facts.language)  # it sees no other file's names
                return self.zig.aliased(facts, scope, name, caller)
            if facts.language == "rust":  # `use crate::graph::NodeIndex as GraphNodeIndex`
                name = next((i.name for i in facts.imports if i.alias == name and i.name), name)
            keys = [
                k
                for k in self.classes.get(name, [])
                if k not in self.rust.aliases and not self._in_a_function(k, facts.path)
            ]
            return keys if len(keys) == 1 else []
        keys = [self._key(sid) for sid in ids]
        if facts.language == "rust" and any(k in self.rust.aliases for k in keys):
            return self.rust.aliased(keys)
        return keys

    def _cpp_aliased(self, facts: FileFacts, name: str, caller: str) -> list[ClassKey]:
        """The classes a C++ type alias names (`using Option_p = std::unique_ptr<Option>;`,
        `typedef Foo Bar;`), when the project's aliases of that name all name one type and
        no class has that name."""
        targets = self._cpp_aliases.get(name, set())
        if len(targets) != 1 or name in self._aliasing_names or self.classes.get(name):
            return []  # several, or a class of that name somewhere: which one is meant?
        self._aliasing_names.add(name)
        try:
            return self.type_keys(facts, next(iter(targets)), caller)
        finally:
            self._aliasing_names.discard(name)

    def _result_keys(self, facts: FileFacts, called: str, caller: str) -> list[ClassKey]:
        """The class a call's value is: the one function the call certainly calls, then the
        type that function declares it returns (a class called is its own instance); nothing
        for a value that is typed through itself (`self.a = self.b.f()`, `self.b = self.a.g()`)."""
        asked = (facts.path, caller, called)
        if asked in self._asked_results:
            return []
        receiver, _, name = called.rpartition(".")
        receiver = "self" if receiver in ("this", "$this") else receiver
        if facts.language == "cpp" and not receiver.startswith("self"):
            receiver = receiver.replace(".", "::")  # `spdlog::details::make_q()`, read dotted
        self._asked_results.add(asked)
        try:
            ids, rule, _ = self._cascade(facts, CallSite(caller, name, receiver, 0))
        finally:
            self._asked_results.discard(asked)
        if len(ids) != 1 or RULES.get(rule, 0) < 0.9:
            return []
        sym = self.symbols[ids[0]]
        if sym.kind in CLASS_KINDS or zig_type_function(sym):  # Zig's `Router(H, A)`: a type
            return [self._key(ids[0])]
        if sym.name in _CONSTRUCTORS and sym.parent:  # Ruby's `new(...)` ran `initialize`
            return [(_scope(sym.path, sym.language), sym.parent)]
        said = self.returns.get((_scope(sym.path, sym.language), sym.parent), {}).get(sym.name)
        if not said:
            return []
        path, text = said[0]
        if text == SELF_CHAIN:  # `-> Self`: the class it is called on, else its own
            if receiver == "self" and (key := self.class_of(facts, caller)) is not None:
                return [key]
            if receiver[:1].isupper() and (keys := self.type_keys(facts, receiver, caller)):
                return keys  # `HtmlResponse.model_validate(...)` is an HtmlResponse
            return [(_scope(sym.path, sym.language), sym.parent)] if sym.parent else []
        # Zig names a type nested in the function's struct bare (`KeyValue` in KeyValue.init).
        inside = sym.qualified_name if sym.language == "zig" else ""
        return self.type_keys(self.files[path], text, inside)

    def _outer_member(self, key: ClassKey, name: str) -> list[str]:
        """A bare call inside a nested class of a method of a class around it (Java's
        `TimeZoneNameRule` calling `FastDatePrinter.getTimeZoneDisplay`), nearest first."""
        scope, qualified = key
        while "." in qualified:
            qualified = qualified.rpartition(".")[0]
            if ids := self.member(self.hierarchy((scope, qualified))[0], name):
                return ids
        return []

    def _from_standard_library(self, facts: FileFacts, name: str) -> bool:
        """Whether the file imports `name` from its language's standard library (`use
        std::process::Command`, `import java.util.List`). Other imports the project's files
        do not hold may still be the project's own, its package path cut by the folder it
        was indexed from."""
        for imp in facts.imports:
            if imp.alias == name and imp.name:
                head = re.split(r"::|\.", imp.module, maxsplit=1)[0]
                return head in _STANDARD_ROOTS.get(facts.language, ())
        return False

    def _module_named(self, facts: FileFacts, imp: Import) -> list[str] | None:
        """The project files a module import binds (`import a.b`, Python's `from a import b`
        when `b` is a module); None when it binds no module of the project."""
        if not imp.name:
            return self.module_files(facts, imp.module)
        if facts.language != "python":
            return None
        return self.module_files(facts, _python_module(imp))

    def _in_a_function(self, key: ClassKey, path: str) -> bool:
        """A class declared inside another file's function (a test's own `class FormData`):
        local to that function, no other file's type."""
        sym = self.symbols.get(symbol_id(key[0], key[1]))
        if sym is None or sym.path == path or not sym.parent:
            return False
        parent = self.symbols.get(symbol_id(sym.path, sym.parent))
        return parent is not None and parent.kind in FUNCTION_KINDS

    def _python_submodule(self, facts: FileFacts, imp: Import, receiver: str) -> list[str]:
        """The submodule a dotted receiver names through an imported package (typer's
        `_click.utils.echo()` after `from . import _click`, `typer._click.exceptions.Exit()`
        after `import typer`); [] when it names none."""
        head, _, rest = receiver.partition(".")
        if head != imp.alias or not rest or not all(p.isidentifier() for p in rest.split(".")):
            return []
        return self.module_files(facts, f"{_python_module(imp)}.{rest}") or []

    def _key(self, sid: str) -> ClassKey:
        sym = self.symbols[sid]
        return (_scope(sym.path, sym.language), sym.qualified_name)

    def _join_outside_members(self) -> None:
        """Members defined in another folder than their type (C++'s `double Square::area()
        {...}` in a .cpp under src/, the class in a header under include/; Rust's `impl
        Build for Graph` in src/data.rs, the struct in src/graph_impl/) belong to it, when the
        project has one type of that name in the language: its members list them (and what
        they return), its bases gain the impl's traits, and their own calls (`this`, `self`)
        read the type."""
        for lang, keys in self._member_keys.items():
            types = self._types[lang]
            for key in keys - types:
                name = key[1].rsplit(".", 1)[-1]
                found = [
                    k
                    for k in self.classes.get(name, [])
                    if k in types and (k[1] == key[1] or k[1].endswith(f".{key[1]}"))
                ]
                if not found and lang == "cpp":  # `void spdlog::async_logger::flush_()`: the
                    # class `async_logger` written inside `namespace spdlog {`
                    found = list(
                        dict.fromkeys(k for k in self.named_scopes.get(key[1], []) if k in types)
                    )
                if len(found) != 1:
                    continue
                self._joined[key] = found[0]
                members = self.members[found[0]]
                for member, sids in self.members.get(key, {}).items():
                    members[member].extend(sid for sid in sids if sid not in members[member])
                bases = self.bases[found[0]]
                bases.extend(b for b in self.bases.get(key, []) if b not in bases)
                returns = self.returns[found[0]]  # what `registry &registry::instance()` returns
                for member, said in self.returns.get(key, {}).items():
                    returns[member].extend(r for r in said if r not in returns[member])

    def hierarchy(self, key: ClassKey) -> tuple[list[ClassKey], bool]:
        """The class and its bases, breadth first, bounded; True when a base is outside."""
        key = self._joined.get(key, key)
        if (known := self._hierarchies.get(key)) is not None:
            return known
        if any(self.files[path].language == "ruby" for path, _ in self.bases.get(key, [])):
            self._hierarchies[key] = self.ruby.ancestors(key)
            return self._hierarchies[key]
        order, seen, outside = [key], {key}, False
        i = 0
        while i < len(order) and len(order) < MAX_HIERARCHY:
            current = order[i]
            i += 1
            for path, text in self.bases.get(current, []):
                found = self._base_keys(current, path, text)
                outside = outside or not found
                for base in found:
                    if base not in seen:
                        seen.add(base)
                        order.append(base)
        self._hierarchies[key] = (order, outside)
        return order, outside

    def _base_keys(self, key: ClassKey, path: str, text: str) -> list[ClassKey]:
        """The project classes a base written in `path` names."""
        if self.files[path].language == "ruby":  # `< Hash`, `include Extensions::X`
            return self._scope_keys(self.nested_name(path, key[1]), text)
        if self.files[path].language == "java":  # from inside the class: its nesting
            return self.type_keys(self.files[path], text, key[1])
        return self.type_keys(self.files[path], text)

    def _bases_known_outside(self, keys: list[ClassKey]) -> bool:
        """Every base of these classes' hierarchies that is no project class is one the
        language gives or a file imports from outside the project (`typing.MutableMapping`,
        `Exception`, Java's `Number`), not one the graph could not follow (a package's lazy
        `__getattr__` export): then a method no project class of them defines is that base's."""
        for key in keys:
            for k in self.hierarchy(key)[0]:
                for path, text in self.bases.get(k, []):
                    if self._base_keys(k, path, text):
                        continue
                    facts = self.files[path]
                    if not (self._is_external(facts, text) or _language_base(facts, text)):
                        return False
        return True

    def _is_external(self, facts: FileFacts, type_text: str) -> bool:
        """True when the type's name (or its module) comes from an import outside the project."""
        head = type_text.split(".", 1)[0]
        lang = facts.language
        for imp in facts.imports:
            if imp.alias == head and self.module_files(facts, imp.module) is None:
                if lang == "java" and self.java.imported_class(facts, f"{imp.module}.{imp.name}"):
                    return False  # `import p.Outer.Inner`: the project's nested class
                return lang in ("python", "javascript", "typescript", "tsx", "go", "java", "zig")
        return lang == "java" and head in JAVA_LANG and not self.classes.get(head)

    def attribute_type(
        self, facts: FileFacts, caller: str, name: str, depth: int = 0
    ) -> tuple[FileFacts, str]:
        """What `self.name` holds, read through the caller's class and then its bases: the
        file that says so and the type as written there (ALIAS + a name when it holds the
        class or function itself); "" when no class of the hierarchy says."""
        key = self.class_of(facts, caller)
        for k in self.hierarchy(key)[0] if key is not None else []:
            said = self.attributes.get(k, {}).get(name)
            if not said:
                continue
            path, text = said[0]
            if text.startswith("self.") and depth < 2:  # `self.client = self.client_class()`
                owner, held = self.attribute_type(facts, caller, text[5:], depth + 1)
                return (owner, held[len(ALIAS) :]) if held.startswith(ALIAS) else (facts, "")
            return self.files[path], text
        return facts, ""

    def _attribute_receiver(self, facts: FileFacts, call: CallSite) -> tuple[FileFacts, str]:
        """The type of a call's receiver and the file that names it: the call's own evidence,
        else what the class hierarchy says of a `self.x` receiver (Python; Rust, whose
        struct declares the field its `impl` blocks, maybe in other files, use)."""
        text = call.receiver_type
        if facts.language == "rust" and not text and call.receiver.startswith("self."):
            owner, held = self.attribute_type(facts, call.caller, call.receiver[5:])
            if held in BUILTIN_TYPES["rust"] or held.startswith(GO_CONTAINER):
                return owner, held  # `self.nodes: Vec<Node>`: Vec's own method
            # A field's type when it has the method: a type of that name without it (one
            # `MetricsBatch` of several, each behind a `#[cfg]`) says less than a guess
            keys = self.type_keys(owner, held) if held and not held.startswith(ALIAS) else []
            if keys and self._members_of(keys, call.callee)[0]:
                return owner, held
            return facts, ""
        if facts.language == "cpp" and not text:  # `messages_.push_back(m)` in `Q::f() {...}`
            field = call.receiver.removeprefix("this.")
            owner, held = self.attribute_type(facts, call.caller, field)
            return (
                (owner, held.removeprefix(ALIAS))
                if field.isidentifier() and held
                else (facts, text)
            )
        if facts.language not in _FIELDS_READ:
            return facts, text
        field = call.receiver.partition(".")[2] if call.receiver.startswith(_SELF_DOT) else ""
        if not text and field.isidentifier():  # `self.x`, PHP's `$this->x`, Ruby's `@x`
            owner, text = self.attribute_type(facts, call.caller, field)
            return owner, text.removeprefix(ALIAS)  # a class held itself: its members
        if facts.language != "python":
            return facts, text
        if text.startswith("self."):  # `c = self.client_class()`: an instance of what it holds
            owner, held = self.attribute_type(facts, call.caller, text[5:])
            if held.startswith(ALIAS):
                return owner, held[len(ALIAS) :]
            # `r = self._send(req)`: what the method declares it returns
            return facts, "" if held else RESULT + text
        return facts, text

    def _outside_attribute(self, facts: FileFacts, call: CallSite) -> str:
        """Why Python's `self.client.post()` calls nothing of the project, when nothing of the
        project gives `self` a `client`: no class of its hierarchy defines it (a method, a
        property, a class attribute), no statement sets `.client` on anything, and every base
        outside the project is known; then it is an outside base's (Django's
        `TestCase.client`), and so is the method called on it. "" otherwise."""
        field = call.receiver.removeprefix("self.")
        if field == call.receiver or not field.isidentifier() or field in self.assigned:
            return ""
        key = self.class_of(facts, call.caller)
        if key is None:
            return ""
        keys, outside = self.hierarchy(key)
        if not outside or not self._bases_known_outside([key]):
            return ""
        if self.member(keys, field) or any(field in self.attributes.get(k, {}) for k in keys):
            return ""
        return f"self.{field}: inherited from a class outside the project"

    def _outside_result(self, facts: FileFacts, type_text: str) -> bool:
        """Whether a value is what a call into an outside module returns (`http.createServer()`,
        `requests.get(url)`), where that call does not hand back what it was given
        (`copy.deepcopy(field)`)."""
        maker = type_text[len(RESULT) :] if type_text.startswith(RESULT) else ""
        if not maker or not self._is_external(facts, maker):
            return False
        head, _, rest = maker.partition(".")
        imported = next((i for i in facts.imports if i.alias == head), None)
        module = imported.module if imported is not None and not imported.name else head
        written = f"{module}.{rest}" if rest else maker
        if imported is not None and imported.name and not rest:  # `from copy import deepcopy`
            written = f"{imported.module}.{imported.name}"
        return written not in SAME_VALUE_RESULTS.get(facts.language, ())

    def _in_std(self, name: str) -> bool:
        """Whether the project defines `name` in a `namespace std` of its own (a `swap` or
        `hash` written for its types). Opening `namespace std` only to specialise templates
        (spdlog's `formatter<stopwatch>`) makes no `std::move` the project's."""
        return any(name in self.members.get(key, {}) for key in self.named_scopes.get("std", []))

    def _undefined(self, facts: FileFacts, name: str) -> str:
        """Why a bare name has no definition: one imported from a project module that holds
        none of that name (`gettext_lazy = lazy(gettext, str)` there is a value) says so."""
        for imp in facts.imports:
            if imp.alias == name and imp.name and self.module_files(facts, imp.module):
                return (
                    f"no definition: {imp.name} in {imp.module} is no function or class "
                    "(a value, or imported from outside)"
                )
        if facts.language == "bash":
            return "no function of the project: a shell builtin or a program"
        if facts.language == "lua":
            return "no global function of the project: a local value, Lua's or the host's"
        return prelude_reason(facts.language, name) or "no definition"

    def _cls(self, facts: FileFacts, call: CallSite) -> list[str]:
        """`cls(value)` in a method: the class itself (a subclass when called through one, as
        with `self.method()`)."""
        caller = self.symbols.get(symbol_id(facts.path, call.caller))
        key = self.class_of(facts, call.caller) if caller and caller.kind == "method" else None
        sid = symbol_id(facts.path, key[1]) if key is not None else ""
        return [sid] if sid in self.symbols else []

    def _held_by_self(self, facts: FileFacts, call: CallSite) -> list[str]:
        """`self.name()` where the class binds `name = function` (or a class) in its body."""
        owner, held = self.attribute_type(facts, call.caller, call.callee)
        if not held.startswith(ALIAS) or not held[len(ALIAS) :].isidentifier():
            return []
        ids, rule = self.lookup(owner, "", held[len(ALIAS) :])
        return ids if RULES.get(rule, 0) >= 0.9 else []

    def _module_class_member(self, facts: FileFacts, call: CallSite) -> list[str]:
        """`views.AuthorCreate.as_view()`: a method of a class named through a module the
        file imports (`from . import views`), found in the class or its bases."""
        head, _, cls = call.receiver.rpartition(".")
        if not head or not cls[:1].isupper():
            return []
        if not any(i.alias == head and self._module_named(facts, i) for i in facts.imports):
            return []
        keys = self.type_keys(facts, call.receiver, call.caller)
        return self.member(self.hierarchy(keys[0])[0], call.callee) if keys else []

    def _extended_member(self, facts: FileFacts, call: CallSite) -> list[str]:
        """Ruby: the receiver is extended with a module in the same method (`copy.extend(
        Hashie::Extensions::DeepMerge)`), so the module's method of that name is probably the
        one called; only probably: the extend may be conditional (`unless copy.respond_to?`)
        or come after the call."""
        written = call.receiver_type[len(EXTENDED) :]
        return self._scope_member(facts, call.caller, written, call.callee)

    def _scope_member(self, facts: FileFacts, caller: str, written: str, name: str) -> list[str]:
        """`name` in the module, class or namespace `written` (`Hashie.Utils`) names from
        inside `caller`: Ruby and C++ look in each enclosing one, innermost first. A C++
        namespace is every block written under its name, in any file: `shapes::scale` is each
        block's `scale` (a header's inline overload and a .cpp's definition alike), but
        for code outside the tests, never a test file's block (a test's specialization)."""
        found: list[str] = []
        for key in self._scope_keys(self.nesting(facts.path, caller), written):
            ids = self.ruby.class_method(key, name) if facts.language == "ruby" else []
            ids = ids or self.member(self.hierarchy(key)[0], name)
            found.extend(s for s in ids if s not in found)
        if is_test_path(facts.path):
            return found
        return [s for s in found if not is_test_path(self.symbols[s].path)] or found

    def nesting(self, path: str, caller: str) -> str:
        """Where the definition `caller` is written, as `_scope_keys` reads it: its parent's
        nested name. A member defined outside its class (C++'s `ConfigBase::from_config`
        inside `namespace CLI {`, its class declared in another file) is also inside the
        namespaces written around it: `CLI.ConfigBase`."""
        sym = self.symbols.get(symbol_id(path, caller))
        if sym is None or not sym.parent:
            return ""
        if symbol_id(path, sym.parent) in self.symbols:
            return self.nested_name(path, sym.parent)
        around = [
            s
            for s in self.files[path].symbols
            if s.kind == "module" and s.start_line <= sym.start_line <= sym.end_line <= s.end_line
        ]
        if not around:
            return sym.parent
        inner = max(around, key=lambda s: s.start_line)
        return f"{self.nested_name(path, inner.qualified_name)}.{sym.parent}"

    def nested_name(self, path: str, qualified: str) -> str:
        """A definition's name with every module or namespace it is written in (Ruby, C++):
        the class `Mash` in `module Hashie` is `Hashie.Mash`, its method `Hashie.Mash.get`."""
        sym = self.symbols.get(symbol_id(path, qualified))
        if sym is None or not sym.parent or sym.parent == qualified:
            return qualified
        return f"{self.nested_name(path, sym.parent)}.{sym.name}"

    def _scope_keys(self, nesting: str, written: str) -> list[ClassKey]:
        """The modules, classes or namespaces `written` names from inside `nesting` (Ruby,
        C++): `Utils` inside `Hashie.Mash` is `Hashie.Mash.Utils`, else `Hashie.Utils`, else
        `Utils`; `::Hash` (`.Hash`) only the top level's."""
        if written.startswith("."):  # not `Hashie::Hash`, whose own file calls it `Hash`
            top = written[1:]
            return [k for k in self.named_scopes.get(top, []) if self.nested_name(*k) == top]
        while nesting:
            if keys := self.named_scopes.get(f"{nesting}.{written}"):
                return keys
            nesting = nesting.rpartition(".")[0]
        found = self.named_scopes.get(written, [])
        if written in RUBY_CORE_CLASSES:  # `Hash` outside `module Hashie`: Ruby's own Hash
            ruby = [k for k in found if self.files[k[0]].language == "ruby"]
            return [k for k in found if k not in ruby or self.nested_name(*k) == written]
        return found

    def _kin(self, ids: list[str], language: str) -> list[str]:
        """The definitions among `ids` that code in `language` can call: its own language's,
        or one of its family's (TypeScript and JavaScript, C and C++, the JVM's)."""
        family = _family(language)
        return [i for i in ids if _family(self.symbols[i].language) == family]

    def _builtin_result(self, facts: FileFacts, type_text: str, caller: str) -> bool:
        """Whether a variable holds what a builtin returns that is the language's own value
        (`f = open(p)`, `names = sorted(x)`): no definition of that name in the project's
        reach, and one of BUILTIN_RESULTS."""
        called = type_text.removeprefix(RESULT)
        builtins = BUILTIN_RESULTS.get(facts.language, frozenset())
        if not type_text.startswith(RESULT) or called not in builtins:
            return False
        return not self.lookup(facts, caller, called)[0]

    def _inherited_step(self, facts: FileFacts, keys: list[ClassKey], name: str, step: str) -> str:
        """A chain's step no project class of its type declares (Python, Java, Ruby): when the
        type's other bases are all from outside, the step is theirs and so is the value it
        gives (`client.get(url)` on a `TestClient(httpx.Client)`), _INHERITED_STEP + the step
        as written; else "" (nothing known)."""
        if not keys or facts.language not in _CLASSES_HOLD_METHODS:
            return ""
        ids, outside = self._members_of(keys, name)
        if ids or not outside or not self._bases_known_outside(keys):
            return ""
        return f"{_INHERITED_STEP}{keys[0][1]}.{step}"

    def _members_of(self, keys: list[ClassKey], name: str) -> tuple[list[str], bool]:
        """`name` in each of several classes a type may mean (two of that name in a package:
        each one's, split), read through its bases; True when a base is outside."""
        found: list[str] = []
        outside = False
        for key in keys:
            if self._std_inherent([key], name):
                outside = True  # `opt.as_ref()`: Option's own, whatever the project adds
                continue
            order, beyond = self.hierarchy(key)
            outside = outside or beyond
            found += [sid for sid in self.member(order, name) if sid not in found]
        return found, outside

    def _std_inherent(self, keys: list[ClassKey], name: str) -> str:
        """The Rust standard type (`Option`) of these whose own method `name` is (`as_ref`):
        it comes before any the project's traits give that type; "" for none."""
        for key in keys:
            if name in STD_INHERENT.get(key[1], ()) and any(
                self.symbols[sid].language == "rust"
                for ids in self.members.get(key, {}).values()
                for sid in ids
            ):
                return key[1]
        return ""

    def member(self, keys: list[ClassKey], name: str, *, class_side: bool = False) -> list[str]:
        """The first of `keys` with a method `name`; in Ruby its instance method, or with
        `class_side` its class method, where the class has both."""
        for at, key in enumerate(keys):
            if ids := self.members.get(key, {}).get(name):
                # Rust: a type's own method of a name comes before its traits' (`self.add_node()`
                # in `impl Build for Graph` calls Graph's inherent `add_node`).
                ids = [i for i in ids if i not in self.rust.trait_methods] or ids
                if USING + name in self.attributes.get(key, {}):  # C++ `using Base::name;`:
                    ids = ids + [i for i in self.member(keys[at + 1 :], name) if i not in ids]
                return self.ruby.side(ids, class_side=class_side)
        return []

    # -- names -------------------------------------------------------------------------------
    def lookup(
        self, facts: FileFacts, caller: str, name: str, *, types_only: bool = False
    ) -> Result:
        """A bare name: local scope, imports, same module, same package, then the project."""
        path = facts.path
        scoped = self.scoped[path]
        qualified = caller
        while qualified:  # closures and nested definitions see their enclosing function's names
            sym = self.symbols.get(symbol_id(path, qualified))
            if sym is None or not _encloses_names(sym, facts.language):
                break
            ids: list[str] = self._bare(facts.language, scoped.get((qualified, name), []))
            in_namespace = facts.language == "cpp" and sym.kind == "module" and not types_only
            if in_namespace and (members := self._in_namespace(path, qualified, name)):
                return members, "namespace-member"  # `MakeSpan(...)` inside absl
            if types_only:
                ids = [i for i in ids if self.symbols[i].kind in CLASS_KINDS]
            if ids:
                return ids, "local-scope"
            qualified = sym.parent
        if facts.language in NAMESPACE_LANGUAGES:
            ids, rule = self._namespaced(facts, caller, name, types_only)
            if ids:
                return ids, rule
        for imp in facts.imports:
            if facts.language == "cpp":
                break  # `using std::swap;`: beside the project's names, not before them
            if imp.alias == name and imp.name:
                target = self.module_files(facts, imp.module)
                if target is None and (ids := self.java.imported_members(facts, imp.module, name)):
                    return ids, "import"  # `import static p.Util.helper`, `import p.Outer.In`
                if target is None:
                    return [], "external"
                ids, rule = self.top(target, imp.name)
                if ids:
                    return ids, rule
            elif imp.alias == name and facts.language in _REQUIRES:  # `X = require('./x')`
                target = self.module_files(facts, imp.module)
                if target is None:
                    return [], "external"
                if ids := self._module_exports(target):
                    return ids, "import"
        if ids := scoped.get(("", name), []):
            return ids, "same-module"
        if package := self.package_of.get(path):  # a package may span folders
            files = self.packages[package]  # their own definitions, not their imports'
            ids = [sid for p in files for sid in self.scoped[p].get(("", name), [])]
            if types_only:
                ids = [i for i in ids if self.symbols[i].kind in CLASS_KINDS]
            if ids:  # the file's own folder first: Kotlin's `expect` beside its `actual`s
                near = [i for i in ids if _dir(self.symbols[i].path) == _dir(path)]
                return near or ids, "same-package"
        if facts.language in PACKAGE_LANGUAGES:
            ids = self.dir_top[_dir(path)].get(name, [])
            if facts.language == "java":  # a nested class by its bare name: from inside its outer
                ids = [i for i in ids if self.java.sees_nested(path, caller, self.symbols[i])]
            if ids:
                return ids, "same-package"
        for imp in facts.imports:
            if imp.name == "*" and (target := self.module_files(facts, imp.module)):
                ids, _ = self.top(target, name)
                if ids:
                    return ids, "re-export"
            elif imp.name == "*" and (ids := self.java.imported_members(facts, imp.module, name)):
                return ids, "import"  # `import static p.Util.*`
        if facts.language in _MODULE_FILES and prelude_reason(facts.language, name):
            return [], ""  # `fetch(url)` unimported: the global, not another module's `fetch`
        candidates = self._kin(self.free.get(name, []), facts.language)
        if types_only:
            candidates = [c for c in candidates if self.symbols[c].kind in CLASS_KINDS]
        elif facts.language in _JS:  # a TS `type` or `interface` is gone at run time
            candidates = [c for c in candidates if self.symbols[c].kind not in _TS_TYPES]
        if facts.language == "cpp":
            candidates, own = self._linked_from(path, candidates)
            if own and any(i.module == "std" and i.alias == name for i in facts.imports):
                return candidates, "ambiguous-name"  # `using std::fma;`: std's is as likely
            if own:  # `Format64(x)` in duration.cc: its own unnamed namespace's
                return candidates, "same-module"
        if (
            not candidates
            and facts.language == "bash"
            and name not in SHELL_BUILTINS
            and (programs := self.programs.get(name.rpartition("/")[2].strip("\"'"), []))
        ):
            return programs, "project-program"
        if len(candidates) == 1:
            return candidates, "unique-name"
        if facts.language in _LINKED and (near := self._nearest(path, candidates)):
            return near, "nearest-name"
        return candidates, "ambiguous-name" if candidates else ""

    def _in_namespace(self, path: str, namespace: str, name: str) -> list[str]:
        """C++: the functions named `name` in this namespace wherever they are declared (an
        overload in a header beside the one in this file: the arguments choose), but other
        source files' unnamed namespaces."""
        found = [sid for sid in self.free.get(name, []) if self.symbols[sid].parent == namespace]
        return self._linked_from(path, found)[0]

    def _linked_from(self, path: str, candidates: list[str]) -> tuple[list[str], bool]:
        """C++: of these, the calling file's own in an unnamed namespace, and True, when it
        has one; else all but other source files' unnamed namespaces' (no other file can call
        those), and False."""

        def anonymous(sid: str) -> bool:
            return ANONYMOUS_NAMESPACE in self.symbols[sid].qualified_name.split(".")

        own = [c for c in candidates if anonymous(c) and self.symbols[c].path == path]
        if own:
            return own, True
        seen = [
            c
            for c in candidates
            if not (anonymous(c) and self.symbols[c].path.endswith(_SOURCE_SUFFIXES))
        ]
        return seen, False

    def _nearest(self, path: str, candidates: list[str]) -> list[str]:
        """The one candidate whose folder is nearer the caller's than every other's (C's
        `uv_mutex_lock` from `src/unix/loop.c`: `src/unix/thread.c`, not `src/win/thread.c`),
        else none."""
        mine = _dir(path).split("/")

        def shared(sid: str) -> int:
            theirs = _dir(self.symbols[sid].path).split("/")
            pairs = zip(mine, theirs, strict=False)  # folders in common, from the root down
            return next(
                (i for i, (a, b) in enumerate(pairs) if a != b), min(len(mine), len(theirs))
            )

        depth = {sid: shared(sid) for sid in candidates}
        best = max(depth.values(), default=0)
        near = [sid for sid, d in depth.items() if d == best]
        return near if len(near) == 1 else []

    def resolve(self, facts: FileFacts, call: CallSite) -> tuple[list[Edge], Unresolved | None]:
        caller = symbol_id(facts.path, call.caller)
        ids, rule, reason = self._cascade(facts, call)
        if facts.language == "kotlin" and len(ids) > 1:  # `expect` and `actual`s: the one seen
            ids = kotlin_nearest(facts.path, ids, lambda sid: self.symbols[sid].path)
        if facts.language == "scala" and call.receiver_type != NEW:
            ids = self._scala_applied(ids, caller)
        if not ids:
            text = call_text(call) or "(dynamic)"
            return [], Unresolved(caller, text, facts.path, call.line, reason)
        if len(ids) > MAX_CANDIDATES:
            text = call.callee
            why = f"ambiguous: {len(ids)} definitions named {text}"
            return [], Unresolved(caller, text, facts.path, call.line, why)
        if rule in RULES and len(ids) == 1:
            confidence = RULES[rule]
        elif rule in RULES:  # several certain candidates (a name in two imported files)
            confidence, rule = RULES[rule] / len(ids), f"{rule}-split"
        else:
            confidence = min(AMBIGUOUS_TOTAL / len(ids), 0.35)
        edges = [
            Edge(caller, sid, facts.path, call.line, round(confidence, 3), rule) for sid in ids
        ]
        return edges, None

    def _cascade(self, facts: FileFacts, call: CallSite) -> tuple[list[str], str, str]:
        name, receiver = call.callee, call.receiver
        if receiver == TRUNCATED:
            return [], "", f"{name} not extracted: the file has too many calls"
        if not name:
            return [], "", "dynamic call"
        if receiver == IMPLICIT_MEMBER:
            return [], "", f"{name}: a member of the type the context expects"
        lang = facts.language
        if lang == "elixir":
            return self.elixir.resolve(facts, call)
        if lang == "haskell":
            return self.haskell.resolve(facts, call)
        if lang == "python" and name == "cls" and not receiver and (ids := self._cls(facts, call)):
            return ids, "self-method", ""
        if call.receiver_type == PARAMETER:
            return [], "", f"call of the parameter {name}: whatever the caller passes"
        if call.receiver_type.startswith(UNPACKED):
            source = call.receiver_type[len(UNPACKED) :]
            if source and (ids := self._returned_member(facts, call.caller, source, name)):
                return ids, "returned-member", ""
            return [], "", f"call of {name}, unpacked from a value: whatever that value holds"
        if lang == "ruby" and call.receiver_type.startswith(ALIAS):  # RSpec's `described_class`
            held = call.receiver_type[len(ALIAS) :].replace(".", "::")  # as if written there
            return self._cascade(facts, CallSite(call.caller, name, held, call.line))
        if call.receiver_type == GLOBAL_SCOPE:  # `::fsync(fd)`: outside every namespace
            ids = [sid for sid in self.free.get(name, []) if "." not in sid.rpartition("::")[2]]
            if ids:
                return ids, "unique-name" if len(ids) == 1 else "ambiguous-name", ""
            return [], "", f"outside the project: the global namespace's {name}"
        if call.receiver_type == TEMPLATE_PARAMETER:  # whatever type the template is given:
            ids, rule, _ = self._by_method_name(facts, name)  # never a class of that name
            return ids, rule, f"{receiver}: a template parameter's type, whatever it is given"
        if (
            lang == "ruby"
            and receiver in ("self.class", "")
            and (ids := self.ruby.own_new(facts, call))
        ):
            return ids, "self-method", ""
        is_class = lang == "ruby" and receiver == "self.class"
        if is_class and (ids := self.ruby.own_class(facts, call)):
            return ids, "self-method", ""  # the class method `x` of `self.class.x`
        if receiver in ("self", "super") or (not receiver and lang in IMPLICIT_THIS):
            key = self.class_of(facts, call.caller)
            if key is not None:
                keys, outside = self.hierarchy(key)
                if receiver == "super":
                    keys = keys[1:]
                if lang == "kotlin":  # in `fun Module.x()`: Module's own members first
                    ids, rule = self.kotlin.member_first(facts, key, call)
                    if ids:
                        return ids, rule, ""
                class_side = lang == "ruby" and self.ruby.in_class_method(facts.path, call.caller)
                if ids := self.member(keys, name, class_side=class_side):
                    return ids, "super" if receiver == "super" else "self-method", ""
                if (
                    not receiver
                    and lang in _OUTER_MEMBERS
                    and (ids := self._outer_member(key, name))
                ):
                    return ids, "self-method", ""  # a nested class calls its outer class's
                if (
                    receiver == "self"
                    and lang == "python"
                    and (ids := self._held_by_self(facts, call))
                ):
                    return ids, "self-method", ""
                if receiver:
                    why = "inherited from a class outside the project" if outside else "no method"
                    return [], "", f"{why} {name} on {key[1]}"
        if not receiver:
            ids, rule = self.lookup(facts, call.caller, name)
            if lang == "kotlin" and (members := self.kotlin.extended_member(facts, ids, call)):
                ids, rule = members, MEMBER_OR_EXTENSION  # `modules(x)` in a KoinApplication's
                # lambda: its member, unless the arguments fit only the extension
            guessed = rule in ("", "unique-name", "ambiguous-name")
            if lang in _JS and guessed and (found := self._js_enclosing(facts, call.line, name)):
                return found, "local-scope", ""
            local = call.receiver_type.startswith(LOCAL_VARIABLE) and rule != "local-scope"
            if local or (guessed and call.receiver_type.startswith(VARIABLE)):
                held = call.receiver_type.partition(")")[2]  # `isString = typeOfTest('s')`
                if made := self._made_function(facts, call.caller, held):
                    return made, "returned-function", ""
                return [], "", f"call of the variable {name}: whatever it holds"
            return (
                ids,
                rule,
                "external import" if rule == "external" else self._undefined(facts, name),
            )
        if call.receiver_type.startswith(EXTENDED) and (ids := self._extended_member(facts, call)):
            return ids, "extended-receiver", ""
        if lang == "cpp" and receiver.split("::", 1)[0] == "std" and not self._in_std(name):
            return [], "", f"external module std (the C++ standard library's {name})"
        owner, type_text = self._attribute_receiver(facts, call)
        if not type_text and lang in _MODULE_VALUES:  # `console.print()`, `console` imported
            bound_in, type_text = self._imported_value(facts, call.receiver)
            owner = bound_in or facts
        if lang == "python" and not type_text and (why := self._outside_attribute(facts, call)):
            return [], "", why
        if lang == "go" and not type_text.startswith(CHAINED):
            type_text = type_text.lstrip(GO_CONTAINER)  # `routes[0].Match()`: a Route's
        elif lang in _CONTAINER_TYPED and type_text.startswith(GO_CONTAINER):
            if lang == "kotlin" and (ids := self.kotlin.on_builtin("List", name)):
                return ids, "extended-receiver", ""  # `fun Iterable<T>.appendTo()`
            return [], "", f"builtin receiver: {_A_CONTAINER}"  # `labels.len()`: Vec's own
        if type_text.startswith(CHAINED):  # `sm.Configure().Permit()`, a Go `mx.tree.Insert()`
            ids, declared = self._chained(facts, call, type_text[len(CHAINED) :])
            if ids:
                through_call = "()" in call.receiver or "()" in type_text.partition(VIA)[2]
                return ids, "return-type" if through_call else "typed-receiver", ""
            if declared and lang == "kotlin" and (ids := self.kotlin.on_builtin(declared, name)):
                return ids, "extended-receiver", ""  # `t.tableName.inProperCase()`: on String
            if declared == _A_CONTAINER:  # `self.pending: Vec<T>` ... `.clear()`: Vec's own
                return [], "", f"builtin receiver: {_A_CONTAINER}"
            if declared.startswith(_INHERITED_STEP):  # `client.get(url).json()`: httpx's value
                step = declared[len(_INHERITED_STEP) :]
                if not step.endswith("()"):  # the call itself: `client.get(url)`
                    held_by, _, method = step.rpartition(".")
                    why = "inherited from a class outside the project"
                    return [], "", f"{why} {method} on {held_by}"
                return [], "", f"method of what {step} returns: inherited from outside the project"
            if declared:
                return [], "", f"method of {declared}, a type outside the project"
            type_text = ""
        # `c = Client()` earlier in the same function, `self.c = Client()`
        if type_text and not type_text.startswith(EXTENDED):
            keys = self.type_keys(owner, type_text, call.caller if owner is facts else "")
            if keys:
                ids, outside = self._members_of(keys, name)
                if not ids and (std := self._std_inherent(keys, name)):
                    return [], "", f"builtin receiver: {std}"  # `opt.as_ref()`: Option's own
                if ids and lang == "rust" and not any(k in self._types[lang] for k in keys):
                    # `impl<T> Nullable for Option<T>`: the project's trait on an outside type,
                    # whose own methods of that name (`Option::as_ref`) come first
                    return ids, "extended-receiver", ""
                if ids:
                    return ids, "typed-receiver", ""
                if lang == "kotlin" and (ids := self.kotlin.on_type(keys, name)):
                    return ids, "extended-receiver", ""  # `fun KoinDefinition<T>.onOptions()`
                # Lua: maybe its metatable's `__index`; Kotlin: a smart cast (`if (x is Sub)
                # x.only()`) narrowed the type, so the method is guessed by name below.
                if not outside and lang not in ("lua", "kotlin"):
                    return [], "", f"no method {name} on {_shown(type_text)}"
                if outside and lang in _CLASSES_HOLD_METHODS and self._bases_known_outside(keys):
                    why = "inherited from a class outside the project"
                    return [], "", f"{why} {name} on {_shown(type_text)}"
            elif type_text in BUILTIN_TYPES.get(lang, ()):
                if lang == "kotlin" and (ids := self.kotlin.on_builtin(type_text, name)):
                    return ids, "extended-receiver", ""  # the project's `fun String.unquoted()`
                if not (lang == "kotlin" and self.kotlin.smart_cast(type_text, name)):
                    return [], "", f"builtin receiver: {type_text}"
            elif lang == "cpp" and type_text.startswith("std."):  # `std::string s; s.size()`
                written = type_text.replace(".", "::")
                return [], "", f"method of {written}, the C++ standard library's"
            elif self._outside_result(owner, type_text):
                maker = type_text[len(RESULT) :]  # `server = http.createServer(cb)`
                return [], "", f"method of what {maker}() returns, from outside the project"
            elif self._is_external(owner, type_text) or lang in _IMPORTS_UNREAD:
                return [], "", f"method of {type_text}, a type outside the project"
            elif self._builtin_result(owner, type_text, call.caller):
                return [], "", f"builtin receiver: what {type_text[len(RESULT) :]}() returns"
        if lang == "python" and (ids := self._module_class_member(facts, call)):
            return ids, "class-member", ""
        if lang == "lua" and (in_lua := self.lua.member(facts, receiver, name)) is not None:
            return in_lua
        head = receiver.split(".", 1)[0]
        for imp in facts.imports:  # module.func, alias.func, pkg.Func, from . import sub
            inner = self._python_submodule(facts, imp, receiver) if lang == "python" else []
            if inner and (ids := self.top(inner, name)[0]):
                return ids, "module-attribute", ""
            if imp.name and imp.alias == receiver and lang == "python":
                target = self._module_named(facts, imp)
            elif imp.name and imp.alias == receiver and lang in _JS:  # export * as ns
                files = self.module_files(facts, imp.module) or []
                target = self._namespace(files, imp.name)
                if target is None and (member := self._imported_member(files, imp.name, name))[0]:
                    return member[0], member[1], ""
            elif not imp.name and (imp.alias == receiver or _names_module(receiver, imp.alias)):
                target = self.module_files(facts, imp.module)
                if target is None:
                    return [], "", f"external module {imp.module}"
                if lang in _JS and receiver != imp.alias and target:  # z.iso.datetime()
                    if nested := self._js_nested(target, receiver.split(".")[1:], name):
                        return nested
                    target = None  # not the module's own `name`; a method, maybe
                if lang == "zig" and receiver != imp.alias and target:  # posix.Address.x()
                    if ids := self.zig.nested(target, receiver.split(".")[1:], name):
                        return ids, "class-member", ""
                    target = None  # `t.arena.reset()`: a method of a value, unknown here
            else:
                continue
            if target and (ids := self.top(target, name)[0]):
                return ids, "module-attribute", ""
            exported = self._object_member(target or [], MODULE_EXPORTS, name, "module-attribute")
            if lang in _JS and exported[0]:  # `module.exports = { isString: isStr }`
                return exported[0], exported[1], ""
        if lang == "rust" and ("::" in receiver or receiver.islower()):  # util::square
            if ids := self.rust.inline_module(facts, receiver, name):
                return ids, "module-attribute", ""
            target = self.module_files(facts, receiver)
            if target and (ids := self.top(target, name)[0]):
                return ids, "module-attribute", ""
            receiver = receiver.rsplit("::", 1)[-1]
        if lang == "scala" and (ids := self._scala_qualified(facts, receiver, name)):
            return ids, "namespace-member", ""
        if lang == "ruby" and (ids := self.ruby.made_in_place(facts, call)):
            return ids, "typed-receiver", ""  # `Crate.new(items).size`: Crate's
        if lang in _NESTED_SCOPES and _SCOPE_PATH.fullmatch(receiver):
            written = receiver.replace("::", ".")
            if ids := self._scope_member(facts, call.caller, written, name):
                return ids, "namespace-member", ""  # C++ `absl::Foo`, Ruby `Hashie::Utils.x`
            if lang == "ruby" and name == "new" and (ids := self.ruby.new(facts, call, written)):
                return ids, "class-member", ""
        # `M.area()`: a function of a table this file builds
        if lang == "lua" and (ids := self.lua.field((facts.path, receiver), name)):
            return ids, "module-member", ""
        if (
            lang == "java"
            and receiver.isidentifier()
            and (ids := self._members_of(self.java.static_field(facts, receiver), name)[0])
        ):  # `import static p.CSVFormat.RFC4180` ... `RFC4180.getCommentMarker()`
            return ids, "typed-receiver", ""
        if lang == "java" and receiver[:1].islower() and _DOTTED_NAME.fullmatch(receiver):
            if in_package := self.packages.get(receiver):  # `new p.Empty()`
                if ids := self.top(in_package, name)[0]:
                    return ids, "module-attribute", ""
            elif ids := self.java.imported_members(facts, receiver, name):  # `p.Util.helper()`
                return ids, "class-member", ""
        if lang == "zig" and _ZIG_MADE_TYPE.fullmatch(receiver):  # `Router(H, A).init()`
            keys = self.type_keys(facts, receiver[:-2], call.caller)
            if keys and (ids := self._members_of(keys, name)[0]):
                return ids, "class-member", ""
        if receiver[:1].isupper():  # Class.method, Type::new, Enum.from
            keys = self.type_keys(facts, receiver, call.caller)
            if keys and (ids := self._members_of(keys, name)[0]):
                return ids, "class-member", ""
            companions = self.kotlin.companions(keys) if lang == "kotlin" else []
            if companions and (ids := self._members_of(companions, name)[0]):
                return ids, "class-member", ""  # `App.init()`: App's companion object's
            if not keys and receiver.isidentifier() and lang not in _JS:
                # JS/TS: a capitalised name is as often a value (`const FoodEnum = z.enum()`)
                return [], "", f"{receiver} is not a type defined in the project"
        if self._is_external(facts, receiver):  # `from lib import client; client.get()`
            head = receiver.split(".", 1)[0]
            return [], "", f"method of {head}, imported from outside the project"
        return self._by_method_name(facts, name)

    def _by_method_name(self, facts: FileFacts, name: str) -> Result3:
        """A method of a receiver whose type is not known: guessed by its name alone."""
        lang = facts.language
        candidates = self._kin(self.methods.get(name, []), lang)
        if lang == "ruby":  # a value is an instance: not the class method named apart beside it
            candidates = [c for c in candidates if not self.ruby.class_side(c)] or candidates
        if lang == "kotlin":  # `x.onOptions()`: an extension function is called as a method
            candidates += self.kotlin.extensions_named(name)
        if lang in _JS and (narrowed := self._js_reachable(facts.path, name, candidates)):
            return narrowed
        if len(candidates) == 1 and name in BUILTIN_METHODS.get(lang, ()):
            return candidates, "builtin-method-name", ""  # `x.toString()`: most likely not ours
        if len(candidates) == 1 and not self.test_case_methods[name]:
            return candidates, "unique-method", ""  # not when test cases define it too: a
            # name common enough for a test's helper (`post`) is no evidence of one method
        if not candidates and lang == "kotlin" and (own := prelude_reason(lang, name)):
            return [], "", own  # `scope?.let { }`: a standard-library extension on any value
        if not candidates and lang == "kotlin" and name in BUILTIN_METHODS["kotlin"]:
            return [], "", f"the language's own: {name} is a method of Kotlin's collections"
        if not candidates and self.test_case_methods[name]:
            return [], "", f"only test cases define {name}, reached through their own `self`"
        return candidates, "ambiguous-method", "no method of that name in the project"

    def _chained(self, facts: FileFacts, call: CallSite, root_type: str) -> tuple[list[str], str]:
        """The method a call on a call chain calls: from the type of the chain's first name,
        through what each method declares it returns (a fluent `this` keeps the type) and
        each field's declared type; nothing when a step says nothing. With no method, the
        type the last step declares when it is one from outside the project (Java's `TimeZone`
        of `FastTimeZone.getGmtTimeZone(id).getRawOffset()`), _A_CONTAINER for a container's
        own method, _INHERITED_STEP + the step a base from outside gives (`_inherited_step`),
        else ""."""
        on_element = root_type.endswith(ON_ELEMENT)  # `self.next[1].index()`
        root_type, _, walked = root_type.removesuffix(ON_ELEMENT).partition(VIA)
        made = _GO_NEW_PREFIX if facts.language == "go" else _NEW_PREFIX
        steps = (
            _CHAIN_STEP.split(walked)[1:]
            + _CHAIN_STEP.split(made.sub("", call.receiver, count=1))[1:]
            + ([ELEMENT_STEP[1:]] if on_element else [])
        )
        outside = ""
        cpp = facts.language == "cpp"
        held = root_type  # the last step's type as written: Go's `[]Route` holds Routes
        if root_type == SELF_CHAIN:
            key = self.class_of(facts, call.caller)
            keys = [key] if key is not None else []
        else:
            keys = self.type_keys(facts, root_type, call.caller)
        if cpp:  # `details::registry::instance()`: the path to a type
            keys, steps = self._cpp_path(facts, call.caller, root_type, keys, steps)
        for step in steps:
            if step == ELEMENT_STEP[1:]:  # Go's `range`: an element of the value so far
                if held.startswith(GO_CONTAINER):
                    held = held.removeprefix(GO_CONTAINER)
                else:
                    keys, held = self._elements(keys), ""
                outside = ""  # an item of a `list` from outside is no list
                continue
            name = step.removesuffix("()")
            if cpp and held.startswith(GO_CONTAINER) and step in _CPP_ITEM_CALLS:
                held = held.removeprefix(GO_CONTAINER)  # `opts.front()`, `m.find(k)`: an item
                if step == "at()":  # `m.at(k)`: a map's value
                    held = held.removeprefix(PAIR)
                continue
            if held.startswith(PAIR):  # a C++ map's element: `.second` is its value
                if step != "second":
                    return [], ""
                held = held.removeprefix(PAIR)
                continue
            said = next(
                (
                    (k, found[0])
                    for key in keys
                    for k in self.hierarchy(key)[0]
                    if (
                        found := (self.returns if step.endswith("()") else self.attributes)
                        .get(k, {})
                        .get(name)
                    )
                ),
                None,
            )
            if said is None:  # a method a base from outside gives, or nothing known
                called = step.endswith("()")  # an attribute set without a type is the class's
                return [], self._inherited_step(facts, keys, name, step) if called else ""
            owner, (path, text) = said
            held = text
            if text != SELF_CHAIN:
                text = text.removeprefix(ALIAS)
                declared = self.files[path]
                keys = self._enclosed_type(owner, text, declared.language) or self.type_keys(
                    declared, text
                )
                outside = text if not keys and self._outside_type(declared, text) else ""
        if held.startswith(GO_CONTAINER) and facts.language in _ELEMENTS_HELD:
            return [], _A_CONTAINER  # `synced.pending: Vec<T>` ... `.clear()`: Vec's own
        if std := self._std_inherent(keys, call.callee):
            return [], std  # `self.elements[i].as_ref()`: Option's own
        ids = self._members_of(keys, call.callee)[0] if keys else []
        if not ids and not outside:  # `client.get(url)` on a `TestClient(httpx.Client)`
            return [], self._inherited_step(facts, keys, call.callee, call.callee)
        return ids, outside

    def _cpp_path(
        self, facts: FileFacts, caller: str, root: str, keys: list[ClassKey], steps: list[str]
    ) -> tuple[list[ClassKey], list[str]]:
        """A C++ chain that starts with a namespace path (`details::registry::instance()`):
        its first names, while they name namespaces (or nothing yet), join the root until
        they name a type; the rest are the chain's steps. A path to no type is left as it is
        (`CLI::detail::join()` calls a namespace's function, which the name lookup finds)."""
        path, named, rest = root, keys, steps
        while (
            rest
            and not rest[0].endswith("()")
            and not any(k in self.class_kinds for k in named)  # namespaces, or none yet
            and (wider := self.type_keys(facts, f"{path}.{rest[0]}", caller))
        ):
            path, named, rest = f"{path}.{rest[0]}", wider, rest[1:]
            if any(k in self.class_kinds for k in named):
                return named, rest
        return keys, steps

    def _elements(self, keys: list[ClassKey]) -> list[ClassKey]:
        """What ranging over a value of these Go types gives when no container was written
        (`[]Route`): a named container type's (`type nodes []*node`) ELEMENT attribute, else
        the type itself (a method's declared return keeps no container)."""
        out: list[ClassKey] = []
        for key in keys:
            if self.class_kinds.get(key) != "type":
                out.append(key)
            elif said := self.attributes.get(key, {}).get(ELEMENT):
                path, text = said[0]
                out += self.type_keys(self.files[path], text)
        return out

    def _outside_type(self, facts: FileFacts, type_text: str) -> bool:
        """A declared type none of the project's: a builtin one or one imported from outside."""
        builtin = type_text in BUILTIN_TYPES.get(facts.language, ())
        return builtin or self._is_external(facts, type_text)

    def _enclosed_type(self, owner: ClassKey, text: str, language: str) -> list[ClassKey]:
        """A type name written inside a class that names a class nested in it or in a class
        around it (`Builder` in `Visitor.builder()`'s declaration is `Visitor.Builder`), with
        every part of it (a C# partial class is declared in several files). Not Rust's: an
        `impl`'s associated `type Neighbors` is no type its methods name bare."""
        if not text.isidentifier() or language not in _NESTED_IN:
            return []
        scope, qualified = owner
        while qualified:
            nested = [
                sid
                for sid in self.members.get((scope, qualified), {}).get(text, [])
                if self.symbols[sid].kind in CLASS_KINDS
            ]
            if nested and language == "csharp":
                names = {self.symbols[sid].qualified_name for sid in nested}
                return [key for key in self.classes.get(text, []) if key[1] in names]
            if nested:
                return [self._key(sid) for sid in nested]
            qualified = qualified.rpartition(".")[0]
        return []

    def _scala_applied(self, ids: list[str], caller: str) -> list[str]:
        """Scala: calling an object (`os.exists(p)`, `Path(s)`) calls its `apply` (a class's
        companion object's, which shares its name); a class without one is constructed, and
        so is one called from inside its own `apply` (`def apply(s) = Path(s, 0)`: another
        overload, or the case class's constructor)."""
        out: list[str] = []
        for sid in ids:
            sym = self.symbols[sid]
            applied = self.members.get(self._key(sid), {}).get("apply", [])
            if sym.kind in CLASS_KINDS and applied and caller not in applied:
                out += applied
            else:
                out.append(sid)
        return list(dict.fromkeys(out))

    def _scala_qualified(self, facts: FileFacts, receiver: str, name: str) -> list[str]:
        """Scala: `os.remove.all(p)`, `pkg.Obj.f()`: through a package of the project (written
        whole, or inside the file's own package), then its objects."""
        parts = receiver.split(".")
        own = self.package_of.get(facts.path, "")
        for i in range(len(parts), 0, -1):
            written = ".".join(parts[:i])
            files = self.packages.get(written) or self.packages.get(f"{own}.{written}")
            if files:
                break
        else:
            return []
        if i == len(parts):
            return self.top(files, name)[0]
        keys = [self._key(sid) for sid in self.top(files, parts[i])[0]]
        for part in parts[i + 1 :]:
            keys = [self._key(sid) for k in keys for sid in self.members.get(k, {}).get(part, [])]
        return self.member(keys, name)

    def _js_reachable(
        self, path: str, name: str, candidates: list[str]
    ) -> tuple[list[str], str, str] | None:
        """JS/TS, a method on a receiver of unknown type: its object comes from a module the
        caller's imports reach, so of several methods of that name the one a class defines
        there is probable (a guess, never certain; a method of an object built inside a
        function is no such evidence); a unique one defined out of reach stays uncertain."""
        near = [c for c in candidates if self.reach.reaches(path, self.symbols[c].path)]
        if len(candidates) == 1 and not near:
            return candidates, "unreachable-method", ""
        if len(candidates) < 2 or not near or len(near) == len(candidates):
            return None
        builtin = name in BUILTIN_METHODS.get(self.files[path].language, ())
        if len(near) == 1 and not builtin and self._of_class(near[0]):
            return near, "reachable-method", ""
        return near, "ambiguous-method", ""

    def _of_class(self, sid: str) -> bool:
        sym = self.symbols[sid]
        parent = self.symbols.get(symbol_id(sym.path, sym.parent))
        return parent is not None and parent.kind in CLASS_KINDS

    def _js_nested(self, files: list[str], parts: list[str], name: str) -> Result3 | None:
        """`z.iso.datetime()`: each part a namespace the module re-exports (`export * as iso`),
        the last one possibly an exported class or object holding the member."""
        for i, part in enumerate(parts):
            inner = self._namespace(files, part)
            if inner is None:
                if i == len(parts) - 1 and (member := self._imported_member(files, part, name))[0]:
                    return member[0], member[1], ""
                return None
            files = inner
        ids = self.top(files, name)[0]
        return (ids, "module-attribute", "") if ids else None

    def _js_enclosing(self, facts: FileFacts, line: int, name: str) -> list[str]:
        """A name defined in a function whose lines hold the call, innermost first: JS/TS
        callbacks assigned onto objects (`inst._zod.parse = () => {...}`) are named by the
        object, not by the function they are written in, whose locals they still see."""
        scoped = self.scoped[facts.path]
        holding = [
            s
            for s in facts.symbols
            if s.start_line <= line <= s.end_line and _encloses_names(s, facts.language)
        ]
        for sym in sorted(holding, key=lambda s: s.end_line - s.start_line):
            if ids := self._bare(facts.language, scoped.get((sym.qualified_name, name), [])):
                return ids
        return []

    def _returned_member(self, facts: FileFacts, caller: str, source: str, name: str) -> list[str]:
        """`const { show } = useToast()`: the function `show` defined inside the project's
        `useToast`, which returns it (a custom hook's own functions)."""
        found, _ = self.lookup(facts, caller, source)
        ids = [
            symbol_id(self.symbols[i].path, f"{self.symbols[i].qualified_name}.{name}")
            for i in found
        ]
        return [i for i in ids if i in self.symbols]

    def _bare(self, language: str, ids: list[str]) -> list[str]:
        """The definitions a bare name can call: in JS/TS no method (`PostItem.Skeleton = ...`,
        an object's `session() {}`, a class's), which only a receiver reaches."""
        if language not in _JS:
            return ids
        return [i for i in ids if self.symbols[i].kind != "method"]


def _language_base(facts: FileFacts, text: str) -> bool:
    """A base the language itself gives: Python's builtins (`Exception`, `dict`), Ruby's core
    classes written from the top level (`class Hash < ::Hash`)."""
    if facts.language == "ruby":
        return text.startswith(".") and text[1:] in RUBY_CORE_CLASSES
    return facts.language == "python" and text in _PYTHON_BUILTIN_CLASSES
