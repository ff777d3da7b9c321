"""Call sites, imports and bases from the chunker's tree-sitter parse (queries/<lang>.calls.scm)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from tree_sitter import Node, Query, QueryCursor
from tree_sitter_language_pack import get_language

from app.core.models import Attribute, CallSite, Import, Inheritance
from app.parse.call_text import (
    TEXT_CHARS,
    elide,
    receiver_text,
    split_called,
    without_generics,
)
from app.parse.definitions import CLASS_LIKE, Found, node_text, parser_for, zig_type_function
from app.parse.imports import JS_DEFAULT, parse_import
from app.parse.languages import GRAMMARS, QUERY_DIR, QUERY_FILES
from app.parse.optional_types import allows_none, one_type
from app.parse.ruby_bare import bare_calls

# A HEEx tag naming a function component: `<.icon`, `<Layouts.flash` (not `<div`, `</.icon`).
_HEEX_COMPONENT = re.compile(rb"<(?P<module>[A-Z]\w*(?:\.[A-Z]\w*)*)?\.(?P<name>[a-z_]\w*[?!]?)")
# A generated file can hold 100,000 calls; past this the rest become one explicit record.
MAX_CALLS_PER_FILE = 20_000
# The receiver of a call past the file limit (resolve.py reports it as unresolved).
TRUNCATED = "<truncated>"

# Receivers that mean "this object" / "the parent class", by language.
_SELF = {
    "python": {"self", "cls"},
    "rust": {"self", "Self"},
    "ruby": {"self"},
    "php": {"$this", "self", "static"},
    "swift": {"self"},
}
_DEFAULT_SELF = {"this"}
# Languages whose bindings declare a type (TypeScript's annotations: `core.$constructor<T>`;
# Lua's `local j = job.new()`, a table's constructor by its name); elsewhere only a
# capitalised constructor counts.
_DECLARED_TYPES = frozenset({"go", "java", "rust", "typescript", "tsx", "lua", "cpp"})
_JS_LANGUAGES = frozenset({"javascript", "typescript", "tsx"})
_TS_LANGUAGES = frozenset({"typescript", "tsx"})
_JSX_LANGUAGES = frozenset({"javascript", "tsx"})  # grammars that read JSX elements
# The receiver that means "the parent class", by language (Python's is `super()`); `base` and
# `parent` are only keywords in C# and PHP (elsewhere they are ordinary variables: Lua's
# `base:sub(1, 1)`, Go's `parent.Child()`), and languages without classes have none.
_SUPER: dict[str, frozenset[str]] = {
    "csharp": frozenset({"base"}),
    "php": frozenset({"parent"}),
    **dict.fromkeys(
        ("go", "rust", "c", "cpp", "lua", "zig", "bash", "elixir", "haskell"), frozenset()
    ),
}
_DEFAULT_SUPER = frozenset({"super"})
# C++'s cast operators, written like a template function's call (`reinterpret_cast<T*>(p)`).
_CPP_CASTS = frozenset({"static_cast", "dynamic_cast", "const_cast", "reinterpret_cast"})
# Types of the language itself: a receiver of one calls no project method (unless the project
# defines a class of that name, which the resolver checks first).
_JS_BUILTINS = frozenset(
    {"Array", "ReadonlyArray", "Object", "String", "Number", "Map", "Set", "WeakMap", "WeakSet",
     "Record", "Promise", "RegExp", "Date"}
)  # fmt: skip
BUILTIN_TYPES: dict[str, frozenset[str]] = {
    "python": frozenset(
        {"dict", "list", "str", "set", "tuple", "frozenset", "bytes", "bytearray", "Dict", "List",
         "Set", "Tuple", "FrozenSet", "Mapping", "MutableMapping", "Sequence", "MutableSequence",
         "AbstractSet", "MutableSet", "OrderedDict", "defaultdict", "Counter", "deque"}
    ),
    "javascript": _JS_BUILTINS,
    "typescript": _JS_BUILTINS,
    "tsx": _JS_BUILTINS,
    "java": frozenset(
        {"String", "StringBuilder", "List", "ArrayList", "LinkedList", "Map", "HashMap",
         "LinkedHashMap", "TreeMap", "Set", "HashSet", "TreeSet", "Collection", "Optional",
         "Object", "Integer", "Long"}
    ),
    "rust": frozenset(
        {"String", "str", "Vec", "HashMap", "HashSet", "BTreeMap", "BTreeSet", "VecDeque",
         "Option", "Result"}
    ),
    "swift": frozenset(
        {"Array", "Dictionary", "Set", "String", "Substring", "Int", "Double", "Bool",
         "Optional", "Data"}
    ),
    "csharp": frozenset(
        {"string", "String", "object", "List", "Dictionary", "HashSet", "IEnumerable", "IList",
         "IDictionary", "ICollection", "StringBuilder", "Array"}
    ),
    "kotlin": frozenset(
        {"String", "List", "MutableList", "Map", "MutableMap", "Set", "MutableSet", "ArrayList",
         "HashMap", "Array", "Any", "HashSet", "LinkedHashSet", "LinkedHashMap", "Collection",
         "MutableCollection", "Iterable", "Sequence", "ArrayDeque", "StringBuilder", "Pair",
         "Triple"}
    ),
    "ruby": frozenset({"Array", "String", "Hash", "Symbol", "Integer"}),
}  # fmt: skip
# Methods of those types: a call of one on a receiver of unknown type is no evidence for the
# one project method of that name.
_JS_METHODS = frozenset(
    {"toString", "valueOf", "then", "catch", "finally", "push", "pop", "shift", "unshift",
     "slice", "splice", "map", "filter", "forEach", "reduce", "some", "every", "find", "includes",
     "indexOf", "join", "concat", "keys", "values", "entries", "get", "set", "has", "add",
     "delete", "clear", "split", "replace", "trim", "startsWith", "endsWith", "toLowerCase",
     "toUpperCase", "match", "test", "call", "apply", "bind"}
)  # fmt: skip
BUILTIN_METHODS: dict[str, frozenset[str]] = {
    "python": frozenset(
        {"get", "items", "keys", "values", "update", "pop", "setdefault", "append", "extend",
         "insert", "remove", "index", "count", "sort", "copy", "clear", "add", "discard", "join",
         "split", "strip", "lstrip", "rstrip", "replace", "format", "startswith", "endswith",
         "lower", "upper", "encode", "decode"}
    ),
    "javascript": _JS_METHODS,
    "typescript": _JS_METHODS,
    "tsx": _JS_METHODS,
    "swift": frozenset(
        {"append", "insert", "remove", "removeAll", "contains", "map", "filter", "reduce",
         "forEach", "first", "sorted", "joined", "split", "hasPrefix", "hasSuffix", "index"}
    ),
    # Vec, slices, str/String, Option/Result, HashMap/HashSet, VecDeque, Iterator and the
    # traits every type derives (Clone, Display, PartialEq, Hash, From/Into).
    "rust": frozenset(
        {"len", "is_empty", "iter", "iter_mut", "into_iter", "push", "pop", "insert", "remove",
         "get", "get_mut", "get_unchecked", "get_unchecked_mut", "contains", "contains_key",
         "clear", "extend", "first", "last", "sort", "sort_by", "retain", "truncate", "swap",
         "reverse", "split", "join", "trim", "starts_with", "ends_with", "to_string", "to_owned",
         "as_str", "clone", "unwrap", "expect", "unwrap_or", "unwrap_or_else", "map", "and_then",
         "ok", "is_some", "is_none", "is_ok", "is_err", "take", "replace", "entry", "keys",
         "values", "next", "collect", "filter", "find", "position", "any", "all", "fold",
         "count", "enumerate", "zip", "rev", "push_back", "push_front", "pop_back", "pop_front",
         "reserve", "drain", "chars", "fmt", "eq", "cmp", "partial_cmp", "hash", "into"}
    ),
    # String, StringBuilder, List/Map/Set/Collection, Optional, Iterator, Stream and Object.
    "java": frozenset(
        {"size", "isEmpty", "get", "put", "add", "remove", "contains", "containsKey", "clear",
         "addAll", "iterator", "hasNext", "next", "stream", "forEach", "map", "filter",
         "collect", "equals", "hashCode", "toString", "length", "charAt", "substring",
         "indexOf", "startsWith", "endsWith", "trim", "split", "append", "isPresent", "orElse",
         "getOrDefault", "keySet", "values", "entrySet", "getKey", "getValue", "compareTo",
         "toArray", "set", "replace", "toLowerCase", "toUpperCase"}
    ),
    # kotlin.collections, kotlin.text and the scope functions every value has, and a function
    # type's `invoke`.
    "kotlin": frozenset(
        {"size", "isEmpty", "isNotEmpty", "get", "set", "put", "add", "remove", "contains",
         "containsKey", "clear", "addAll", "first", "firstOrNull", "last", "lastOrNull", "map",
         "mapNotNull", "flatMap", "filter", "forEach", "any", "all", "none", "count", "find",
         "joinToString", "toList", "toMutableList", "toSet", "toMap", "getOrPut", "getOrElse",
         "keys", "values", "iterator", "hasNext", "next", "equals", "hashCode", "toString",
         "startsWith", "endsWith", "split", "trim", "substring", "replace", "let", "also",
         "apply", "run", "takeIf", "invoke"}
    ),
    # string, List/Dictionary/HashSet, IEnumerable with LINQ, object and delegates.
    "csharp": frozenset(
        {"Add", "AddRange", "Remove", "Contains", "ContainsKey", "TryGetValue", "Clear",
         "Insert", "IndexOf", "ToString", "Equals", "GetHashCode", "GetType", "ToList",
         "ToArray", "ToDictionary", "Select", "Where", "Any", "All", "First", "FirstOrDefault",
         "Last", "LastOrDefault", "Single", "SingleOrDefault", "OrderBy", "Count", "Concat",
         "Distinct", "Skip", "Take", "GetEnumerator", "MoveNext", "Dispose", "Split", "Trim",
         "StartsWith", "EndsWith", "Substring", "Replace", "Invoke"}
    ),
    # Go's slices, maps and strings have no methods; these are the builtin `error` interface
    # and the standard interfaces every package implements (fmt.Stringer, io, sync.Locker).
    "go": frozenset({"Error", "String", "Read", "Write", "Close", "Lock", "Unlock"}),
    # std::vector, std::string, std::map/set, std::optional and the smart pointers.
    "cpp": frozenset(
        {"size", "empty", "push_back", "emplace_back", "pop_back", "begin", "end", "front",
         "back", "insert", "emplace", "erase", "find", "count", "clear", "at", "data", "c_str",
         "substr", "append", "reserve", "resize", "swap", "length", "compare", "value",
         "has_value", "value_or", "reset", "get", "str"}
    ),
    # Array, Hash, String, Enumerable and Object.
    "ruby": frozenset(
        {"each", "map", "select", "reject", "find", "include?", "key?", "fetch", "merge",
         "push", "pop", "shift", "first", "last", "size", "length", "empty?", "nil?", "to_s",
         "to_a", "to_h", "to_sym", "join", "split", "strip", "keys", "values", "delete",
         "each_with_object", "inject", "reduce", "any?", "all?", "is_a?", "respond_to?", "send",
         "dup", "freeze", "tap", "sort", "uniq", "count", "sub", "gsub", "call"}
    ),
    # PHP's arrays and strings have no methods: the SPL interfaces (Iterator, ArrayAccess,
    # Countable), Throwable and Closure are what a receiver of unknown type most often is.
    "php": frozenset(
        {"current", "key", "next", "rewind", "valid", "count", "offsetGet", "offsetSet",
         "offsetExists", "offsetUnset", "getIterator", "getMessage", "getCode", "getPrevious",
         "__invoke", "bindTo", "call"}
    ),
    # Zig's std: ArrayList, HashMap, Allocator, readers and writers, iterators, and the
    # init/deinit pair every container has.
    "zig": frozenset(
        {"init", "deinit", "append", "appendSlice", "appendAssumeCapacity", "insert",
         "orderedRemove", "swapRemove", "pop", "get", "getPtr", "getOrPut", "put", "putNoClobber",
         "contains", "remove", "fetchRemove", "count", "iterator", "next", "clearRetainingCapacity",
         "clearAndFree", "ensureTotalCapacity", "ensureUnusedCapacity", "toOwnedSlice", "resize",
         "alloc", "free", "create", "destroy", "dupe", "realloc", "allocator", "writer",
         "reader", "print", "write", "writeAll", "writeByte", "read", "readAll", "close",
         "format", "eql", "reset", "keyIterator", "valueIterator", "flush", "random",
         "lock", "unlock", "tryLock", "wait", "signal", "broadcast", "spawn", "join", "detach"}
    ),
}  # fmt: skip
# Literal nodes (and splat parameters) by the builtin type they make.
_LITERALS = {
    "dictionary": "dict", "dictionary_comprehension": "dict", "dictionary_splat_pattern": "dict",
    "list": "list", "list_comprehension": "list", "set": "set", "set_comprehension": "set",
    "string": "str", "concatenated_string": "str", "tuple": "tuple",
    "list_splat_pattern": "tuple",
}  # fmt: skip
_JS_LITERALS = {
    "array": "Array", "object": "Object", "string": "String", "template_string": "String",
    "array_type": "Array", "regex": "RegExp", "rest_pattern": "Array",
}  # fmt: skip
_TS_PREDEFINED = {"string": "String", "number": "Number"}
_OTHER_LITERALS = {
    "csharp": {"string_literal": "string", "verbatim_string_literal": "string",
               "interpolated_string_expression": "string"},
    "kotlin": {"string_literal": "String"},
    "ruby": {"array": "Array", "string": "String", "hash": "Hash", "simple_symbol": "Symbol"},
}  # fmt: skip
# Kotlin's collection factories: `val xs = mutableListOf(1)` makes a builtin list.
_KOTLIN_FACTORIES = {
    "listOf": "List", "mutableListOf": "MutableList", "arrayListOf": "ArrayList",
    "mapOf": "Map", "mutableMapOf": "MutableMap", "hashMapOf": "HashMap", "setOf": "Set",
    "mutableSetOf": "MutableSet",
}  # fmt: skip
_SWIFT_LITERALS = {
    "array_literal": "Array", "array_type": "Array", "dictionary_literal": "Dictionary",
    "dictionary_type": "Dictionary", "line_string_literal": "String",
    "multi_line_string_literal": "String",
}  # fmt: skip
# A bound variable whose value is another name (`step = self.tracker.step`) is stored with
# this mark before the aliased text, so a bare call of the variable means a call of that.
ALIAS = "="
# A class's method known by a second name (Ruby's `alias to_s inspect`, `alias_method :merge,
# :deep_merge`): an Attribute of the class named by the new name, this mark before the old one.
METHOD_ALIAS = "(alias of) "
# A type that gives way to any other binding of its variable in the function, while its
# bindings are read: what a PHP `catch (SyntaxError $e)` binds (`$e = new RuntimeError(...)`
# in another catch block), and a Python annotation that allows None (`jar: Jar | None = None`
# is most often followed by `if jar is None: jar = CookieJar()`, which a call then meets).
YIELDING = "(yielding) "
# A variable extended with a module (Ruby's `copy.extend(Mod)`) is stored with this mark before
# the module's name: the module's methods are its own, probably.
EXTENDED = "+"
# What a CommonJS module gives whoever requires it (a definition's name, or an alias's).
MODULE_EXPORTS = "module.exports"
# What a module gives as a whole (CommonJS's, an ES module's default): bound at module level
# even where the binding lies inside a definition (`export default function make() {}`).
_MODULE_NAMES = frozenset({MODULE_EXPORTS, JS_DEFAULT})
# The receiver type of a bare call of a parameter: no definition of that name is meant.
PARAMETER = "(parameter)"
# A bare call of a name unpacked from a value (`const { serialize } = opts`, `function
# f({ onError })`, `const [get, set] = pair`): whatever that value holds.
UNPACKED = "(unpacked)"
# A bare call of a variable bound to something other than a name (`const auth =
# basicAuth(opts)` ... `auth(c, next)`, `let match: Match`, `handler = make()`): whatever it
# holds, never another file's definition that merely shares the name. A Python function's
# local shadows every other definition of the name (but one nested in the same function);
# elsewhere the binding may lie in another block, or after the call (`let rt = rt();`), so
# only a guess by name gives way.
LOCAL_VARIABLE = "(local variable)"
VARIABLE = "(variable)"
# A function that returns a function literal (`const typeOfTest = type => thing => ...`,
# `def make(): ... return inner`), as an Attribute (+ the nested definition's name, if one):
# a call of a variable bound to its result runs code inside it.
RETURNS_FUNCTION = "(returns a function)"
_FUNCTION_LITERALS = frozenset({"arrow_function", "function_expression", "function", "lambda"})
# The receiver type of a C++ template's type parameter (`template <class Policy>` ...
# `Policy::value(x)`): whatever type the template is given, never a class of that name.
TEMPLATE_PARAMETER = "(template parameter)"
# What an Elixir module says of a function it keeps to itself (`defp`), as an Attribute.
PRIVATE = "(private)"
# A Haskell module's export list, as Attributes of the module (owner ""): the list itself
# (named by the module's own name), each name it exports, each `module M` it passes on.
EXPORT_LIST = "(export list)"
EXPORTED = "(exported)"
EXPORTED_MODULE = "(exported module)"
# The receiver type of a C++ call qualified by the global namespace alone (`::close(fd)`):
# a function outside every namespace (the C library's, most often), never the enclosing
# namespace's namesake (spdlog's `os::fsync` calls `::fsync`).
GLOBAL_SCOPE = "(global scope)"
# A Lua file's global function (`function f()` or `f = function()` at its top, no `local`), as an
# Attribute (owner ""): the only kind of free function another file can call by name.
GLOBAL = "(global)"
# A JavaScript definition named by a call's string (`test("parse", () => {...})`,
# `defineGetter(req, "ip", fn)`), as an Attribute (owner "", its qualified name): no code calls
# it by that name, so a bare call never reaches it or anything defined inside it.
REGISTERED = "(registered)"
# A Python attribute name some statement of the file sets (`obj.client = ...`), as an Attribute
# (owner ""): an attribute no project code sets or defines is an outside base's.
ASSIGNED = "(assigned)"
# A Ruby class method (`def self.parse`, a `def` in `class << self`), as an Attribute (owner:
# its class or module; name: the method), and a module whose methods become the class's own
# (`extend ClassMethods`, `include` in `class << self`: owner, SINGLETON_BASE, the module).
SINGLETON = "(class method)"
SINGLETON_BASE = "(class methods from)"
# A Scala file's package (`package os`, `package a` + `package b` = "a.b"), as an Attribute
# (owner "", the package's name): a package may span folders, as a folder several packages.
PACKAGE = "(package)"
# The receiver type of Scala's `new C(x)`: the class's constructor, never its companion's
# `apply` (what `C(x)` calls).
NEW = "(new)"
# What a method declares it returns, as an Attribute (owner: its class; name: the method):
# RETURNS + the type as written, generics and references gone (`self`, `this`, `Self`, `static`:
# the class itself).
RETURNS = "(returns)"
# The receiver type of a call on a call chain (`sm.Configure().Permit()`): CHAINED + the type of
# the chain's first name (SELF_CHAIN for `this`/`self`); the resolver walks the rest through
# what each method returns.
CHAINED = "(chain)"
# What a variable bound to a call's value holds (`r := NewRouter()`): RESULT + the called name
# as written (`NewRouter`, `mux.NewRouter`, `$this.parser.getStream`); the resolver finds the
# function and what it declares it returns.
RESULT = "(result of)"
# What a variable bound to an expression's value holds when it is no single call of a name:
# VALUE + the expression as a receiver reads (`r.NewRoute().Subrouter()`, Go's `nn := n`), then
# an ELEMENT_STEP for Go's `range r.routes` and `r.routes[i]`.
VALUE = "(value of)"
# The receiver type a call on an element is first given (`labels[i].is_inner()`, C++'s
# `opts[i]->name()`): the element of what the receiver before the index holds, worked out as a
# loop's items are.
ELEMENT_OF = "(element of)"
# After a chained receiver type: the resolver takes one element step after the receiver's own
# steps (`self.next[1].index()`: `self`, `.next`, then an element of it).
ON_ELEMENT = " then an element"
# Languages whose containers have methods of their own (`labels.len()`), so a call on an
# element must be told from one on the container.
_ELEMENT_RECEIVERS = frozenset({"rust", "cpp", "kotlin", "typescript", "tsx", "python"})
# Between a chain's first name's type and the steps the resolver walks before the receiver's
# own: CHAINED + `Router` + VIA + `.NewRoute().Subrouter()` (a variable bound to a chain).
VIA = " via "
# A step of those: an element of the value so far. A Go type's text keeps a GO_CONTAINER per
# container around its element (`[]*Route`: `[]Route`, `map[string][]T`: `[][]T`), which the
# step takes away; a named container type (`type nodes []*node`) gives its ELEMENT attribute.
ELEMENT_STEP = ".[]"
ELEMENT = "(element)"
# Before a type parameter's name: the attribute holding its upper bound (Kotlin's `<T : B>`).
BOUND = "(bound)"
# Before a member's name: the attribute of a C++ class that brings a base's overloads of it
# beside its own (`using detail::buffer<T>::append;`); its text is the base as written.
USING = "(using)"
_CPP_USING_MEMBER = re.compile(r"using\s+(?:typename\s+)?(?P<base>[^;]+)::(?P<name>~?\w+)\s*;")
GO_CONTAINER = "[]"  # before a Go type's text once per container around it (`[]Route`)
# Before a C++ map's value type, inside its GO_CONTAINER: an element met in a loop is a pair
# whose `.second` is a value (`for (auto &l : loggers_) l.second->flush()`); `m[k]` is one.
PAIR = "(pair)"
SECOND_STEP = ".second"  # a pair's value, after an ELEMENT_STEP of a map
SELF_CHAIN = "(self)"
# Languages whose methods declare what they return (calls.scm `@returns`).
RETURN_TYPES = frozenset(
    {"csharp", "java", "php", "typescript", "tsx", "rust", "kotlin", "go", "python", "cpp", "zig"}
)
_SPACE = re.compile(r"\s+")
_ZIG_MADE = re.compile(r"\(.*\)$", re.DOTALL)  # `Server(H)`: the type Server makes
_DOTTED = re.compile(r"[\w$]+(?:\.[\w$]+)+")  # what an alias may name: `self.tracker.step`
_SELF_ATTRIBUTE = re.compile(r"self\.\w+")
_DOTTED_NAME = re.compile(r"\w+(?:\.\w+)*")
_CALLED = re.compile(r"\$?\w+(?:\.\w+)*")  # what a RESULT bind may name
# A call chain's first name and the rest: `sm.Configure().Permit()`, `$this->parser->getStream()`
# The first name may be a call (`NewRouter().NewRoute()`): the chain starts at what it returns.
_CHAIN = re.compile(r"(\$?\w+)(\(\))?((?:(?:\.|->|::|\?\.)\w+(?:\(\))?)*)")
# A chain that starts at a constructor call: `new Builder().append()`, PHP's `(new X())->m()`.
_NEW_ROOT = re.compile(r"\(?new\s+(\w+(?:\.\w+)*)\(\)\)?((?:(?:\.|->|::|\?\.)\w+(?:\(\))?)*)")
# A Go channel type's head (`chan T`, `<-chan T`, `chan<- T`).
_GO_CHANNEL = re.compile(r"(?:<-\s*chan|chan\s*<-|chan\b)\s*")
# Go's values of a named type: `new(Route)`, `Route{}`, `&Route{}` (then the chain, if any).
_GO_ROOT = re.compile(r"(?:new\(\*?([\w.]+)\)|\(?&?([\w.]+)\{\}\)?)((?:\.\w+(?:\(\))?)*)")
_SELF_WORDS = frozenset({"this", "self", "$this"})
_RUBY_FIELD = re.compile(r"@\w")  # `@items`, not a class variable `@@count`
_PHP_FIELD = re.compile(r"\$this->(\w+)")
_PHP_THIS = re.compile(r"^\$this->(?=\w)")
_SIMPLE = re.compile(r"(?:self\.|this\.)?\$?\w+")  # receivers a binding can type: `c`, `self.c`


@cache
def _query(language: str) -> Query | None:
    stem = QUERY_FILES.get(language)
    path = QUERY_DIR / f"{stem}.calls.scm"
    if stem is None or not path.exists():
        return None
    grammar: Any = GRAMMARS[language]
    text = path.read_text(encoding="utf-8")
    if language in _JS_LANGUAGES:
        text += (QUERY_DIR / "js_shared.calls.scm").read_text(encoding="utf-8")
    if language in _JSX_LANGUAGES:
        text += (QUERY_DIR / "jsx.calls.scm").read_text(encoding="utf-8")
    return Query(get_language(grammar), text)


def has_calls(language: str) -> bool:
    return _query(language) is not None


def _clean(text: str) -> str:
    return _SPACE.sub("", without_generics(text))[:TEXT_CHARS]


def _literal_type(language: str, node: Node) -> str:
    """The builtin type a literal node (or a `*args` / `**kwargs` parameter) makes, or ""."""
    if language == "python":
        return _LITERALS.get(node.type, "")
    if language in ("javascript", "typescript", "tsx"):
        if node.type == "predefined_type":
            return _TS_PREDEFINED.get(node_text(node), "")
        if node.type == "object" and any(c.type == "spread_element" for c in node.children):
            return ""  # `{ ...schemas }`: its methods are the spread module's, not Object's
        if node.type == "array_type" and (held := container_element(node_text(node), language)):
            return GO_CONTAINER + held  # `Socket[]`: `sockets[i].close()` calls Socket's
        if node.type == "array" and language in _TS_LANGUAGES:
            return GO_CONTAINER  # its items unsaid: a declared `Post[]` beside it says them
        return _JS_LITERALS.get(node.type, "")
    if language == "swift":
        return _SWIFT_LITERALS.get(node.type, "")
    if language == "kotlin" and node.type == "call_expression" and node.named_children:
        return _KOTLIN_FACTORIES.get(node_text(node.named_children[0]), "")
    return _OTHER_LITERALS.get(language, {}).get(node.type, "")


def _bind_name(language: str, captures: dict[str, list[Node]]) -> str:
    """The variable a binding names; a Kotlin lambda over a collection's items that names none
    binds `it` (`xs.map { it.name }`)."""
    if var := captures.get("var"):
        return _bound_name(language, var[0])
    if field := captures.get("this_var"):  # a constructor's parameter property (TS, PHP)
        return "this." + node_text(field[0])
    bind = captures["bind"][0]
    walked = language == "kotlin" and bind.type == "lambda_literal" and "element_of" in captures
    return "it" if walked else ""


# The annotation nodes a query captures whole beside a bare or dotted name, read through
# app/parse/optional_types.py: Python's `Optional[Conn]`, `Conn | None`, a forward reference;
# TypeScript's `Conn | null`.
_ANNOTATIONS = {
    "python": frozenset({"string", "binary_operator", "generic_type", "subscript"}),
    "typescript": frozenset({"union_type"}),
    "tsx": frozenset({"union_type"}),
}


def _bound(language: str, captures: dict[str, list[Node]]) -> str:
    """What a binding says of its variable: a type name, ALIAS + a name, or "" (no claim)."""
    if literal := captures.get("literal"):
        if language == "python" and literal[0].type in ("list", "list_comprehension"):
            return GO_CONTAINER  # items unsaid: a declared `List[Conn]` beside it says them
        return _literal_type(language, literal[0])
    if caught := captures.get("caught"):  # `catch (\Twig\Error\Error $e)`
        return YIELDING + _clean(node_text(caught[0])).lstrip("\\").replace("\\", ".")
    if captures.get("template"):
        return TEMPLATE_PARAMETER
    if extended := captures.get("extended"):
        return EXTENDED + _clean(node_text(extended[0])).replace("::", ".")
    if result := captures.get("result"):
        called = receiver_text(node_text(result[0]), language)
        if language == "php":  # `$this->parser->getStream()`: the field's, as `this.parser`
            called = _PHP_THIS.sub("this.", called)
        name = called.removesuffix("()").replace("->", ".").replace("::", ".").replace("?.", ".")
        if not called.endswith("()"):
            return ""
        if _CALLED.fullmatch(name):
            return RESULT + name
        return VALUE + called if _CHAIN.fullmatch(called) or _GO_ROOT.fullmatch(called) else ""
    if of := captures.get("value_of"):  # Go's `nn := n`
        return VALUE + node_text(of[0])
    if of := captures.get("pair_of"):  # C++'s `for (auto &[name, lg] : loggers_)`: `.second`
        iterated = receiver_text(node_text(of[0]), language)
        return VALUE + iterated + ELEMENT_STEP + SECOND_STEP if iterated else ""
    if of := captures.get("element_of"):  # Go's `for _, r := range x.routes`, `r := rs[i]`
        iterated = receiver_text(node_text(of[0]), language)
        if language == "rust":  # `for l in &self.labels`, `for l in labels.iter()`
            iterated = _RUST_ITERATED.sub("", iterated.lstrip("&").removeprefix("mut "))
        return VALUE + iterated + ELEMENT_STEP if iterated else ""
    if alias := captures.get("alias"):  # `util::square` reads as `util.square`
        return ALIAS + _clean(node_text(alias[0])).replace("::", ".")
    written = node_text(captures["type"][0])
    if captures["type"][0].type in _ANNOTATIONS.get(language, ()):
        # `Optional[Conn]`, `"Conn | None"`, `Conn | null`: a Conn where a method is called on it
        said = _bound_type(language, one_type(written, language), captures)
        return YIELDING + said if said and allows_none(written, language) else said
    return _bound_type(language, written, captures)


def _bound_type(language: str, written: str, captures: dict[str, list[Node]]) -> str:
    """What a binding to a type as written (`Client`, `Vec<Label>`, `*mux.Router`) says."""
    type_text = _clean(written).lstrip("*&").replace("::", ".")
    if held := container_element(written, language):
        return GO_CONTAINER + held  # `Vec<Label>`: `[]Label`, what its loop's items are
    if held is not None and (
        written.strip() in _RUST_CONTAINERS or language in _TS_LANGUAGES or language == "python"
    ):
        return GO_CONTAINER  # `HashSet::default()`, `Record<string, string>`: items unsaid
    if language == "cpp" and "<" in written:  # a smart pointer's target, or no claim
        return cpp_type(written)
    if language == "rust":
        type_text = type_text.removeprefix("mut")  # `&mut T`, spaces gone
    if language == "go":
        type_text = go_type(written)
    if language == "php":  # `\Tiny\Shape` as the return types read it: `Tiny.Shape`
        type_text = type_text.lstrip("\\").replace("\\", ".")
    if language == "python" and "|" in written:
        return ""  # A | B: no single class to claim (`Page[Item]` is a Page, `Dict[K, V]` a dict)
    if language == "python" and type_text.rpartition(".")[2] in ("Any", "Final", "ClassVar"):
        return ""  # any value at all, or a qualifier (`x: Final = Wrapper()`): no type here
    if type_text in BUILTIN_TYPES.get(language, ()):
        return type_text
    if language == "python" and _SELF_ATTRIBUTE.fullmatch(type_text):
        return type_text  # `self.client_class()`: whatever class that attribute holds
    around = captures["type"][0].parent
    if language == "python" and around is not None and around.type == "call":
        if type_text.rpartition(".")[2] == "cast":  # `cast(SafeOpenProtocol, opened)`
            arguments = around.child_by_field_name("arguments")
            first = arguments.named_children[:1] if arguments is not None else []
            claimed = node_text(first[0]).strip("'\"") if first else ""
            return claimed if all(part.isidentifier() for part in claimed.split(".")) else ""
        lowercase = not type_text.rsplit(".", 1)[-1][:1].isupper()
        if lowercase and _CALLED.fullmatch(type_text):  # `r = client.send(req)`
            return RESULT + type_text
    if language in _DECLARED_TYPES or type_text.rsplit(".", 1)[-1][:1].isupper():
        return type_text
    return ""


def _rspec_value(value: Node) -> str:
    """What an RSpec `let` or `subject` block's last expression makes: an instance of a class
    (`Dash.new(x)`, `described_class.new`), the class itself (`Dash`, `described_class`), an
    anonymous subclass as its base (`Class.new(Dash) do ... end`); "" for anything else."""
    if written := _rspec_class(value):
        return ALIAS + written
    receiver = value.child_by_field_name("receiver")
    method = value.child_by_field_name("method")
    if value.type != "call" or receiver is None or method is None or node_text(method) != "new":
        return ""
    written = _rspec_class(receiver)
    if written == "Class":  # `Class.new(Base) do ... end`: a class, as its base reads
        arguments = value.child_by_field_name("arguments")
        first = arguments.named_children[:1] if arguments is not None else []
        base = _rspec_class(first[0]) if first else ""
        block = value.child_by_field_name("block")
        if block is not None and _adds_methods(block):
            return ""  # its own `def`s or mixins answer before the base's: not the base
        return ALIAS + base if base else ""
    return written


def _adds_methods(block: Node) -> bool:
    """Whether a class body (a `Class.new` block) defines a method or mixes a module in."""
    stack = [block]
    while stack:
        node = stack.pop()
        if node.type in ("method", "singleton_method"):
            return True
        method = node.child_by_field_name("method") if node.type == "call" else None
        if method is not None and node_text(method) in ("include", "prepend", "extend"):
            return True
        stack.extend(node.named_children)
    return False


def _rspec_class(node: Node) -> str:
    """The class a constant names (`Hashie::Dash` as `Hashie.Dash`), or `described_class`: the
    one its innermost `describe Foo do` names; "" for anything else."""
    if node.type in ("constant", "scope_resolution"):
        return _clean(node_text(node)).replace("::", ".")
    if node.type != "identifier" or node_text(node) != "described_class":
        return ""
    around = node.parent
    while around is not None:
        method = around.child_by_field_name("method")
        arguments = around.child_by_field_name("arguments")
        if around.type == "call" and method is not None and node_text(method) == "describe":
            first = arguments.named_children[:1] if arguments is not None else []
            if first and first[0].type in ("constant", "scope_resolution"):
                return _rspec_class(first[0])
        around = around.parent
    return ""


def _bound_name(language: str, var: Node) -> str:
    """The variable a binding names; a C/C++ declarator holds its `*` or `&` (`Calc& c`)."""
    text = node_text(var)
    if language == "ruby":
        return ruby_self_field(text)
    if language == "php":
        return php_this_field(text)
    return _SPACE.sub("", text).lstrip("*&") if language in ("c", "cpp") else text


def php_this_field(text: str) -> str:
    """PHP's `$this->parser` as the object's field `this.parser`, as JavaScript's `this.parser`
    is: what the constructor or a typed property declares types it in every method."""
    if match := _PHP_FIELD.fullmatch(text):
        return "this." + match.group(1)
    return text


def ruby_self_field(text: str) -> str:
    """Ruby's instance variable as the object's field (`@items.add` -> `self.items.add`), as
    Python's `self.items` is: what `initialize` puts there types it in every method."""
    if _RUBY_FIELD.match(text):
        return "self." + text[1:]
    return text


def _receiver(language: str, text: str, self_name: str) -> str:
    if text in _SELF.get(language, _DEFAULT_SELF) or (self_name and text == self_name):
        return "self"
    if text in _SUPER.get(language, _DEFAULT_SUPER):
        return "super"
    if language == "python" and text.startswith("super("):
        return "super"
    return text


def _go_receiver_name(core: Node) -> str:
    receiver = core.child_by_field_name("receiver")
    if receiver is None:
        return ""
    for param in receiver.named_children:
        name = param.child_by_field_name("name")
        if name is not None:
            return node_text(name)
    return ""


def extract(
    language: str, root: Node, found: Found
) -> tuple[
    tuple[Import, ...], tuple[CallSite, ...], tuple[Inheritance, ...], tuple[Attribute, ...]
]:
    """Imports, call sites (each with its innermost enclosing definition), bases, and what
    classes say of their attributes' types."""
    query = _query(language)
    if query is None:
        return (), (), (), ()
    by_core = {(d.core.start_byte, d.core.type): d for d in found.definitions}
    raw: dict[tuple[int, int], tuple[int, int, str, str, str]] = {}  # call range -> (rank, ...)
    import_nodes: list[Node] = []
    bases: list[Inheritance] = []
    binds: list[tuple[int, str, str]] = []  # (where, variable, its type as written)
    params: list[tuple[int, tuple[str, str]]] = []  # (where, (name, PARAMETER or UNPACKED))
    returned: list[Attribute] = []  # what methods return
    elements: list[Attribute] = []  # what Go's named container types hold
    properties: list[Attribute] = []  # Python's `@property` methods, as attributes
    closures: list[Closure] = []  # function literals: scopes for variables, never callers
    assigned_names: set[str] = set()  # attributes set anywhere in the file (Python)
    for _, captures in QueryCursor(query).matches(root):
        if call := captures.get("call"):
            _add_call(language, call[0], captures, raw)
        elif (step := captures.get("step")) and step[0].parent is not None:
            _add_step(step[0], captures["callee"][0], raw)
        elif (bind := captures.get("bind")) and (name := _bind_name(language, captures)):
            if said := _bound(language, captures):
                binds.append((bind[0].start_byte, name, said))
        elif assigned := captures.get("assigned"):
            assigned_names.add(node_text(assigned[0]))
        elif param := captures.get("param"):
            params.append((param[0].start_byte, (node_text(param[0]), PARAMETER)))
        elif unpacked := captures.get("unpacked"):
            source = captures.get("returned_by")  # `= useCustomToast()`: that function's
            marker = UNPACKED + (node_text(source[0]) if source else "")
            params.append((unpacked[0].start_byte, (node_text(unpacked[0]), marker)))
        elif imp := captures.get("import"):
            import_nodes.append(imp[0])
        elif heex := captures.get("heex"):
            _heex_calls(heex[0], raw)
        elif (let := captures.get("let")) and (value := captures.get("let_value")):
            name = node_text(captures["var"][0]).lstrip(":")
            if said := _rspec_value(value[0]):
                binds.append((let[0].start_byte, name, said))
        elif (described := captures.get("described")) and (cls := captures.get("described_class")):
            binds.append((described[0].start_byte, "described_class", ALIAS + _rspec_class(cls[0])))
            made = _clean(node_text(cls[0])) + ".new"  # as the call is written: `A::B.new`
            binds.append((described[0].start_byte, "subject", RESULT + made))
        elif (using := captures.get("using_member")) and (holder := captures.get("using_owner")):
            owner = by_core.get((holder[0].start_byte, holder[0].type))
            used = _CPP_USING_MEMBER.fullmatch(node_text(using[0]).strip())
            if owner is not None and used:
                held = _clean(without_generics(used["base"])).replace("::", ".")
                elements.append(Attribute(owner.qualified, USING + used["name"], held))
        elif singleton := captures.get("singleton_def"):
            owner = by_core.get((singleton[0].start_byte, singleton[0].type))
            if owner is not None and owner.parent:
                elements.append(Attribute(owner.parent, owner.name, SINGLETON))
        elif (cls := captures.get("class")) and (extended := captures.get("singleton_base")):
            owner = by_core.get((cls[0].start_byte, cls[0].type))
            if owner is not None:
                written = _clean(node_text(extended[0])).replace("::", ".")
                elements.append(Attribute(owner.qualified, SINGLETON_BASE, written))
        elif key := captures.get("object_key"):  # `{ sign }` holds `sign`
            value = captures.get("object_value", key)
            named = captures.get("object_name")
            object_owner = node_text(named[0]) if named else JS_DEFAULT
            object_owner = MODULE_EXPORTS if captures.get("exports_object") else object_owner
            elements.append(Attribute(object_owner, node_text(key[0]), ALIAS + node_text(value[0])))
        elif closure := captures.get("closure"):
            closures.append(Closure(closure[0].start_byte, closure[0].end_byte))
        elif (prop := captures.get("property")) and (returns := captures.get("returns")):
            owner = by_core.get((prop[0].start_byte, prop[0].type))
            if owner is not None and (said := _return_type(node_text(returns[0]), language)):
                # A property reads as an attribute of the type it declares (`resp.headers`).
                properties.append(Attribute(owner.qualified.rpartition(".")[0], owner.name, said))
        elif (method := captures.get("method")) and (returns := captures.get("returns")):
            owner = by_core.get((method[0].start_byte, method[0].type))
            written = node_text(returns[0])
            if language == "zig":  # `Allocator.Error!Foo` returns a Foo, `Server(H)` a Server
                written = _ZIG_MADE.sub("", written.rpartition("!")[2])
            if owner is not None and (said := _return_type(written, language)):
                # Kept under the definition's parent, as the resolver looks it up: a C++
                # namespace's function `details.make_q` has the parent `spdlog.details`.
                held = owner.parent if language == "cpp" else owner.qualified.rpartition(".")[0]
                returned.append(Attribute(held, owner.name, RETURNS + said))
        elif (generic := captures.get("generic")) and (bound := captures.get("type_bound")):
            owner = by_core.get((generic[0].start_byte, generic[0].type))
            bounded = node_text(captures["type_param"][0])
            if owner is not None and (said := _clean(node_text(bound[0]))):
                elements.append(Attribute(owner.qualified, BOUND + bounded, said))
        elif (named := captures.get("type_alias")) and (aliased := captures.get("aliased")):
            target = "" if _in_a_body(named[0]) else cpp_type(node_text(aliased[0]))
            if target:  # `using Option_p = ...;` where includers see it, not in a function
                elements.append(Attribute("", node_text(named[0]), ALIAS + target))
        elif (container := captures.get("container")) and (element := captures.get("element")):
            held = go_type(node_text(element[0])).removeprefix(GO_CONTAINER)
            elements.append(Attribute(node_text(container[0]), ELEMENT, held))
        elif (cls := captures.get("class")) and (renamed := captures.get("method_alias")):
            owner = by_core.get((cls[0].start_byte, cls[0].type))
            old_name = node_text(captures["aliased_method"][0]).lstrip(":")
            # The alias is of the method as it is when the line runs: the class's own only
            # when defined above it (`alias regular_key? key?` above `def key?` is Hash's).
            own = owner is not None and any(
                d.qualified == f"{owner.qualified}.{old_name}"
                and d.core.start_byte < renamed[0].start_byte
                for d in found.definitions
            )
            if owner is not None and own:
                new_name = node_text(renamed[0]).lstrip(":")
                elements.append(Attribute(owner.qualified, new_name, METHOD_ALIAS + old_name))
        elif (cls := captures.get("class")) and (base := captures.get("base")):
            owner = by_core.get((cls[0].start_byte, cls[0].type))
            if owner is not None:
                text = _clean(node_text(base[0])).replace("::", ".").lstrip("*&")
                if language == "php":  # `extends \App\Base\Node`: as types are read
                    text = text.lstrip("\\").replace("\\", ".")
                bases.append(Inheritance(owner.qualified, text, base[0].start_point.row + 1))
    for d in found.definitions:
        if d.core.type == "preproc_function_def":
            _macro_calls(language, query, d.core, raw)
    if language == "ruby":  # `pull_spec && find && authorize`: calls of `self`'s methods
        for bare in bare_calls(root):
            raw.setdefault(
                (bare.start_byte, bare.end_byte),
                (0, bare.start_point.row + 1, node_text(bare), "", ""),
            )
    defs = sorted(found.definitions, key=lambda d: (d.start_byte, -d.end_byte))
    scopes: list[Any] = sorted([*defs, *closures], key=lambda d: (d.start_byte, -d.end_byte))
    types = _scope_types(scopes, binds)
    calls = _attribute(language, raw, scopes, types, params)
    imports = tuple(i for node in import_nodes for i in parse_import(language, node))
    attributes = _class_attributes(language, defs, types) + tuple(dict.fromkeys(returned))
    attributes += tuple(elements) + tuple(properties)
    attributes += tuple(Attribute("", d.qualified, REGISTERED) for d in defs if d.call)
    attributes += tuple(
        Attribute(d.qualified.rpartition(".")[0], d.name, RETURNS_FUNCTION + nested)
        for d in defs
        if (nested := _returned_function(d.core)) is not None
    )
    attributes += tuple(Attribute("", name, ASSIGNED) for name in sorted(assigned_names))
    if language == "elixir":
        attributes += _elixir_private(defs)
    if language == "haskell":
        attributes += _haskell_exports(root)
    if language == "lua":
        attributes += _lua_module(root)
    if language in _PACKAGE_NODES:
        attributes += _package(language, root)
    return imports, calls, tuple(dict.fromkeys(bases)), attributes


def _returned_function(core: Node) -> str | None:
    """What a JS/TS or Python function returns when it is a function: "" for a literal (an
    arrow, a `function` expression, a lambda), the name of a function defined in its body
    that it returns by name (Python's `return inner`); None otherwise, and where a return
    type is declared (`handle(app): (event) => Promise<R>`: the type, not the code, is what a
    caller of the result is said to call)."""
    function = core.child_by_field_name("value") if core.type == "variable_declarator" else core
    if function is None or function.child_by_field_name("return_type") is not None:
        return None
    body = function.child_by_field_name("body")
    if body is None:
        return None
    if body.type in _FUNCTION_LITERALS:  # `type => thing => typeof thing === type`
        return ""
    nested = {
        node_text(name)
        for child in body.named_children
        if child.type == "function_definition" and (name := child.child_by_field_name("name"))
    }
    for child in body.named_children:
        if child.type != "return_statement" or not child.named_children:
            continue
        value = child.named_children[0]
        if value.type in _FUNCTION_LITERALS:
            return ""
        if value.type == "identifier" and node_text(value) in nested:
            return node_text(value)
    return None


def _heex_calls(template: Node, raw: dict[tuple[int, int], tuple[int, int, str, str, str]]) -> None:
    """A HEEx template's function components as calls where their tags are written: `<.icon`
    calls `icon` (the module's or an imported one), `<Layouts.flash` calls `Layouts.flash`."""
    text = template.text or b""
    for match in _HEEX_COMPONENT.finditer(text):
        line = template.start_point.row + 1 + text.count(b"\n", 0, match.start())
        receiver = (match.group("module") or b"").decode()
        key = (template.start_byte + match.start(), template.start_byte + match.end())
        raw.setdefault(key, (0, line, match.group("name").decode(), receiver, ""))


@dataclass(frozen=True, slots=True)
class Closure:
    """A function literal's byte range: a scope for the variables and parameters bound in it
    (a Go handler's `r *http.Request` beside its function's `r := chi.NewRouter()`), never
    the caller of what it calls (that stays the definition around it)."""

    start_byte: int
    end_byte: int
    kind: str = "(closure)"
    name: str = ""
    qualified: str = ""


def _lua_module(root: Node) -> tuple[Attribute, ...]:
    """What a Lua file's top level says, as Attributes: the table requiring it gives
    (`return M`, `return setmetatable(M, mt)`: MODULE_EXPORTS, ALIAS + "M"), a field bound to
    one of its functions (`M.iter = iter`: owner "M", ALIAS + "iter"), and its globals
    (`function f()`, `f = function()`; not `local function f()`, nor `M.f`)."""
    out = []
    for i, child in enumerate(root.children):
        name = child.child_by_field_name("name")
        local = root.field_name_for_child(i) == "local_declaration"
        if child.type == "return_statement" and child.named_children:
            value = child.named_children[0].named_children[:1]  # the expression list's first
            if (
                value
                and value[0].type == "function_call"
                and _lua_called(value[0]) == "setmetatable"
            ):
                args = value[0].child_by_field_name("arguments")
                value = args.named_children[:1] if args is not None else []
            if value and value[0].type == "identifier":
                out.append(Attribute("", MODULE_EXPORTS, ALIAS + node_text(value[0])))
        if (
            name is None
            or local
            or child.type not in ("function_declaration", "assignment_statement")
        ):
            continue
        if name.type == "identifier":
            out.append(Attribute("", node_text(name), GLOBAL))
        elif child.type == "assignment_statement" and name.type == "dot_index_expression":
            table, field = name.child_by_field_name("table"), name.child_by_field_name("field")
            values = child.named_children[-1].named_children
            if (
                table is not None
                and field is not None
                and table.type == "identifier"
                and (values and values[0].type == "identifier")
            ):
                out.append(
                    Attribute(node_text(table), node_text(field), ALIAS + node_text(values[0]))
                )
    return tuple(out)


def _in_a_body(node: Node) -> bool:
    """Whether a C++ declaration is inside a function's body (seen there only)."""
    parent = node.parent
    while parent is not None:
        if parent.type in ("compound_statement", "lambda_expression"):
            return True
        parent = parent.parent
    return False


# TypeScript's and Python's containers whose items are one type: an array, a set, a record's
# values; a list, a sequence, a set, a `tuple[T, ...]`.
_TS_CONTAINER = re.compile(
    r"(?:readonly\s+)?(?:Array|ReadonlyArray|Set|ReadonlySet)\s*<(.+)>"
    r"|(?:readonly\s+)?Record\s*<[^,<>]+,\s*(.+)>|(?:readonly\s+)?(.+?)\s*\[\]"
)
_PYTHON_CONTAINER = re.compile(
    r"(?:typing\.|t\.|collections\.abc\.|collections\.)?(?:List|list|Sequence|MutableSequence"
    r"|Iterable|Iterator|Collection|Set|set|FrozenSet|frozenset|AbstractSet|MutableSet|Deque"
    r"|deque|Tuple|tuple)\[(.+?)(?:,\s*\.\.\.)?\]",
    re.S,
)
# Rust's and C++'s standard containers whose items a loop walks: the element's type is their
# first type argument (a map's entries are pairs, not read). Names a project may well define
# for itself (tokio's and petgraph's own `LinkedList`, a C++ `list` without `std::`) are left out.
_CONTAINERS = {
    "rust": re.compile(
        r"&?\s*(?:'\w+\s+)?(?:mut\s+)?(?:(?:std::)?(?:vec::|collections::)?"
        r"(?:Vec|VecDeque|HashSet|BTreeSet)\s*<(.+)>|\[([^;\]]+)(?:;[^\]]*)?\])"
    ),
    "cpp": re.compile(
        r"(?:const\s+)?std::(?:vector|set|multiset|unordered_set|list|forward_list|deque"
        r"|array)\s*<(.+?)(?:,\s*[^<>]+)?>\s*[&*]?"
    ),
    "kotlin": re.compile(
        r"(?:List|MutableList|ArrayList|Set|MutableSet|HashSet|LinkedHashSet|Collection"
        r"|MutableCollection|Iterable|Sequence|Array|ArrayDeque)\s*<\s*(?:out\s+|in\s+)?(.+)>\??"
    ),
    # An element of `List[Conn]`, `Sequence[Conn]`, `tuple[Conn, ...]`: a loop's items.
    "python": _PYTHON_CONTAINER,
    # An element of `Socket[]`, `Array<Socket>`, `Set<Socket>`, `Record<string, Socket>`.
    "typescript": _TS_CONTAINER,
    "tsx": _TS_CONTAINER,
}
_CPP_MAP = re.compile(
    r"(?:const\s+)?std::(?:map|unordered_map|multimap|unordered_multimap)\s*<(.+)>\s*[&*]?"
)
_RUST_CONTAINERS = frozenset({"Vec", "VecDeque", "HashSet", "BTreeSet"})
# `.iter()` and its kin after what a Rust `for` loop walks: the same items.
_RUST_ITERATED = re.compile(r"\.(?:iter|iter_mut|into_iter)\(\)$")


def container_element(written: str, language: str) -> str | None:
    """The element type of a Rust, C++, Kotlin or TypeScript container type as written
    (`Vec<Label>`, `&[Label]`, `std::vector<Option *>`, `Socket[]`; a C++ map's PAIR + its
    value type; a TypeScript container of containers GO_CONTAINER + the inner one's): its name
    ("" when it is no single named type), or None when the type is no container of those."""
    if language == "rust" and written.strip() in _RUST_CONTAINERS:
        return ""  # `HashSet::default()`: a container, its items unsaid
    if language == "cpp" and (mapped := _CPP_MAP.fullmatch(written.strip())):
        arguments = _top_level_parts(mapped.group(1))
        value = cpp_type(arguments[1]) if len(arguments) > 1 else ""
        return PAIR + value if value else ""
    pattern = _CONTAINERS.get(language)
    found = pattern.fullmatch(written.strip()) if pattern else None
    if found is None:
        return None
    element = next(g for g in found.groups() if g is not None)
    if language == "cpp":
        return cpp_type(element)
    if language in _TS_LANGUAGES and (inner := container_element(element, language)) is not None:
        return GO_CONTAINER + inner  # `Progress[][]`: an element is a container of Progress
    text = _clean(element).lstrip("&*").removeprefix("mut").replace("::", ".")
    return text if _DOTTED_NAME.fullmatch(text) and text[:1].isupper() else ""


def _top_level_parts(text: str) -> list[str]:
    """A template's arguments split at the commas outside any `<>`, `()` or `[]`."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    return [*parts, text[start:].strip()]


# C++'s smart pointers: `->` on one reaches what it points to.
_CPP_POINTER = re.compile(r"(?:std::)?(?:unique_ptr|shared_ptr|weak_ptr)\s*<(.+)>")


def cpp_type(written: str) -> str:
    """A C++ type as the graph reads it: what a smart pointer points to (`std::unique_ptr<Option>`
    -> `Option`), qualifiers, pointers and template arguments gone (`const ns::App *` ->
    `ns.App`); "" for no single named type (`std::function<...>`, a builtin)."""
    text = re.sub(r"\b(?:const|volatile|typename|struct|class)\b", " ", written).strip()
    while (pointer := _CPP_POINTER.fullmatch(text.rstrip("*& "))) is not None:
        text = pointer.group(1).strip()
    text = _clean(text).strip("*&").replace("::", ".")
    return text if _DOTTED_NAME.fullmatch(text) and not text.startswith("std.") else ""


def go_type(written: str) -> str:
    """A Go type as the graph reads it: GO_CONTAINER once per container around the element
    (a slice, an array, a map's values, a channel, variadic `...T`), then the element's name,
    pointers gone: `[]*Route` -> `[]Route`, `map[string][]T` -> `[][]T`, `*Mux` -> `Mux`."""
    text, layers = written.strip(), 0
    while True:
        text = text.lstrip("*& \t")
        if text.startswith("..."):
            text = text[3:]
        elif text.startswith(("[", "map[")):
            text = text[_bracket_end(text, text.index("[")) :]
        elif channel := _GO_CHANNEL.match(text):
            text = text[channel.end() :]
        else:
            break
        layers += 1
    return GO_CONTAINER * layers + _clean(text).lstrip("*&").replace("::", ".")


def _bracket_end(text: str, start: int) -> int:
    """The index just past the `]` that closes the `[` at `start`."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"[": 1, "]": -1}.get(text[i], 0)
        if depth == 0:
            return i + 1
    return len(text)


# Python's generic wrappers (typing, collections.abc): `-> Iterator[Response]` of a
# `@contextmanager` hands its caller a Response, and `Optional[T]` may be None.
_PYTHON_WRAPPERS = frozenset(
    {"AsyncContextManager", "AsyncGenerator", "AsyncIterable", "AsyncIterator", "Awaitable",
     "ContextManager", "Coroutine", "Generator", "Iterable", "Iterator", "Optional", "Union"}
)  # fmt: skip


def _return_type(written: str, language: str = "") -> str:
    """`StateConfiguration<T>` -> `StateConfiguration`, `&mut Handle` -> `Handle`, `?Foo` ->
    `Foo`, `self` / `static` / `this` / `Self` -> SELF_CHAIN; "" for no single named type
    (`A | B`, `(A, B)`, `impl Trait`, a builtin word). C++'s grammar tells a type from
    a builtin word, so there a lower-case name (`registry &instance()`) is a type too, and
    a smart pointer (`std::shared_ptr<logger> make()`) what it points to."""
    if language == "cpp":
        return cpp_type(written)
    if language in ("python", "typescript", "tsx"):  # `-> Optional[Response]`, `Foo | null`
        written = one_type(written, language)
    text = _clean(without_generics(written)).lstrip("?&*").removeprefix("mut").strip()
    text = text.strip("'\"")  # Python's forward reference `-> "Response"`
    text = text.replace("::", ".").lstrip("\\").replace("\\", ".")
    if text in ("self", "static", "this", "Self", "$this"):
        return SELF_CHAIN
    if "[" in written and text.rpartition(".")[2] in _PYTHON_WRAPPERS:
        return ""  # `-> Iterator[Response]`: what it yields, not an Iterator, is what is used
    # `-> Response`, and a module's (`-> streams.StreamReader`, Go's `*mux.Router`)
    named = _DOTTED_NAME.fullmatch(text) and text.rpartition(".")[2][:1].isupper()
    return text if named else ""


# The node that says which package a file's top-level definitions live in (on the JVM a package
# spans folders: `src/main/java/p` and `src/test/java/p` are one package).
_PACKAGE_NODES = {
    "scala": "package_clause",
    "java": "package_declaration",
    "kotlin": "package_header",
}


def _package(language: str, root: Node) -> tuple[Attribute, ...]:
    """The package of a file's top-level definitions: its package clauses, joined (Scala may
    write several, `package a` then `package b`; a clause with a body is a scope of its own)."""
    wanted = _PACKAGE_NODES[language]
    clauses = [c for c in root.children if c.type == wanted]
    if language == "scala":
        names = [
            _SPACE.sub("", node_text(c).removeprefix("package"))
            for c in clauses
            if c.child_by_field_name("body") is None
        ]
    else:  # the dotted name alone: Kotlin's header node runs on over the comments after it
        names = [
            _SPACE.sub("", node_text(n))
            for c in clauses[:1]
            for n in c.named_children[:1]
            if n.type in ("identifier", "scoped_identifier")
        ]
    return (Attribute("", ".".join(names), PACKAGE),) if names else ()


def _lua_called(call: Node) -> str:
    name = call.child_by_field_name("name")
    return node_text(name) if name is not None else ""


def _haskell_exports(root: Node) -> tuple[Attribute, ...]:
    """`module Shop (total, Price(..), Render(render), module Shop.Price) where`: what the
    module's export list names (nothing without a list: every top-level name is exported)."""
    header = next((child for child in root.children if child.type == "header"), None)
    exports = header.child_by_field_name("exports") if header is not None else None
    module = header.child_by_field_name("module") if header is not None else None
    if exports is None or module is None:
        return ()
    out = [Attribute("", node_text(module), EXPORT_LIST)]
    for item in exports.named_children:
        if item.type == "module_export" and (named := item.child_by_field_name("module")):
            out.append(Attribute("", node_text(named), EXPORTED_MODULE))
        elif item.type == "export":
            for part in (item.child_by_field_name("variable"), item.child_by_field_name("type")):
                if part is not None:
                    out.append(Attribute("", node_text(part), EXPORTED))
            children = item.child_by_field_name("children")
            for child in children.named_children if children is not None else ():
                if child.type == "variable":  # a class's method or a record's field
                    out.append(Attribute("", node_text(child), EXPORTED))
    return tuple(out)


def _add_call(
    language: str,
    node: Node,
    captures: dict[str, list[Node]],
    raw: dict[tuple[int, int], tuple[int, int, str, str, str]],
    shift: tuple[int, int] = (0, 0),
) -> None:
    """Records the call `node` a query match captured in `raw` by its byte range (moved by
    `shift`, bytes and lines, for a call read from a macro's body), a named callee before
    a dynamic one."""
    if language == "kotlin" and _arguments_after_a_line_break(node):
        return
    if language == "elixir" and _elixir_written_as_a_call(node):
        return
    if callee := captures.get("callee"):
        recv = captures.get("receiver")
        rank, name, receiver, literal = 0, _clean(node_text(callee[0])), "", ""
        if recv:  # `[1, 2].push`: a literal cleaned to nothing keeps its kind
            receiver = receiver_text(node_text(recv[0]), language) or recv[0].type
            if language == "haskell":
                receiver = receiver.rstrip(".")  # the module of `Logger.message` holds its dot
            if language == "ruby":
                receiver = ruby_self_field(receiver)
            if language == "php":
                receiver = php_this_field(receiver)
            literal = _literal_type(language, recv[0])  # `", ".join(...)`
            if language in _ELEMENT_RECEIVERS and elide(node_text(recv[0]), language).endswith("]"):
                # An array literal (`[a, b].filter()`) ends so too: no element of one
                subscript = recv[0].type in ("subscript_expression", "subscript") or (
                    language not in _TS_LANGUAGES and language != "python"
                )
                literal = ELEMENT_OF if subscript else literal
        elif "new" in captures:
            literal = NEW  # Scala's `new C(x)`
    elif dynamic := captures.get("dynamic"):
        written = node_text(dynamic[0])
        if named := split_called(written):  # `std::get<0>(t)`, `\is_int($x)`
            rank, (receiver, name), literal = 1, named, ""
            if language == "cpp" and not receiver and name in _CPP_CASTS:
                return  # `static_cast<int>(x)`: an operator, as `sizeof` is; no call
            if language == "cpp" and not receiver and written.startswith("::"):
                literal = GLOBAL_SCOPE  # `::fsync(fd)`
        else:  # `handlers[k]()`, `f()()`: no name to resolve; kept so it is reported.
            rank, name, receiver, literal = 1, "", receiver_text(written, language), ""
    else:
        return
    key = (node.start_byte + shift[0], node.end_byte + shift[0])
    if key not in raw or rank < raw[key][0]:
        raw[key] = (rank, node.start_point.row + 1 + shift[1], name, receiver, literal)


def _add_step(
    step: Node, callee: Node, raw: dict[tuple[int, int], tuple[int, int, str, str, str]]
) -> None:
    """A Zig chain's `.name(args)` step: a call made on the chain's text before it (its
    SuffixExpr's children are flat: `self`, `.handler`, `.handle(r)`), on the chain's line."""
    chain = step.parent
    if chain is None:
        return
    before = (chain.text or b"")[: step.start_byte - chain.start_byte].decode("utf-8", "replace")
    # `.?` unwraps an optional, `.*` follows a pointer: the call is on what they give.
    receiver = receiver_text("".join(before.split()).replace(".?", "").replace(".*", ""), "zig")
    if receiver:
        name = _clean(node_text(callee))
        raw[(step.start_byte, step.end_byte)] = (0, chain.start_point.row + 1, name, receiver, "")


# Elixir's definitions: their heads are written as calls (`def cast(data, params) do`).
_EX_DEFINING = frozenset(
    {"def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate", "defn"}
    | {"defnp"}
)
_EX_PRIVATE = frozenset({"defp", "defmacrop", "defguardp", "defnp"})
_EX_ANCESTORS = 64  # enough for any attribute's nesting; deeper is code, not a spec


def _elixir_private(defs: list[Any]) -> tuple[Attribute, ...]:
    """An Elixir module's private functions (`defp`, `defmacrop`), each said as an attribute
    of its module (PRIVATE): no other module can call or import them. A name with a public
    definition too (`def put_meta/2` beside `defp put_meta/3`) is public."""
    private: dict[tuple[str, str], bool] = {}
    for d in defs:
        target = d.core.child_by_field_name("target") if d.core.type == "call" else None
        if target is not None and d.parent and d.kind == "function":
            key = (d.parent, d.name)
            private[key] = private.get(key, True) and node_text(target) in _EX_PRIVATE
    return tuple(Attribute(owner, name, PRIVATE) for (owner, name), p in private.items() if p)


def _elixir_written_as_a_call(node: Node) -> bool:
    """A definition's head (`def cast(data, params)`, also before `when`) or what a module
    attribute says (`@spec cast(t, map) :: t`): Elixir writes both as calls; neither is one."""
    parent = node.parent
    if parent is not None and parent.type == "binary_operator":
        operator = parent.child_by_field_name("operator")
        if operator is not None and node_text(operator) == "when":
            parent = parent.parent  # `def f(x) when is_integer(x)`: the guard is a call
    if parent is not None and parent.type == "arguments" and node.prev_named_sibling is None:
        owner = parent.parent
        target = owner.child_by_field_name("target") if owner is not None else None
        if target is not None and node_text(target) in _EX_DEFINING:
            return True
    ancestor = node.parent
    for _ in range(_EX_ANCESTORS):
        if ancestor is None:
            return False
        if ancestor.type == "unary_operator":
            operator = ancestor.child_by_field_name("operator")
            if operator is not None and node_text(operator) == "@":
                return True
        ancestor = ancestor.parent
    return False


# A macro's body is one token to the grammar; read as a function body it yields its calls.
_MACRO_BODY_PREFIX = b"void __macro__(void) {"


def _macro_calls(
    language: str,
    query: Query,
    macro: Node,
    raw: dict[tuple[int, int], tuple[int, int, str, str, str]],
) -> None:
    """The calls in a C or C++ function-like macro's body (`uv__want_endgame(...)` inside
    `DECREASE_PENDING_REQ_COUNT`), placed where they are written. Line continuations become
    spaces, so bytes and lines keep their places; so do pasted names (`_##s` reads `___s`) and
    stringified ones (`#s`, ` s`). A `;` ends the body: an expression (`g(_##s)`, a one-line
    alias's whole body) is a statement then, not a type to C."""
    value = macro.child_by_field_name("value")
    if value is None:
        return
    body = value.text or b""
    body = body.replace(b"\\\n", b" \n").replace(b"##", b"__").replace(b"#", b" ")
    tree = parser_for(language).parse(_MACRO_BODY_PREFIX + body + b"\n;}")
    shift = (value.start_byte - len(_MACRO_BODY_PREFIX), value.start_point.row)
    for _, captures in QueryCursor(query).matches(tree.root_node):
        if call := captures.get("call"):
            _add_call(language, call[0], captures, raw, shift)


def _class_attributes(
    language: str, defs: list[Any], types: dict[int, dict[str, str]]
) -> tuple[Attribute, ...]:
    """Each class's attributes with a type claim, for the resolver to read through subclasses,
    and the module's names (owner ""): bound to another name (`D = Distance`), or in Python
    and JS/TS of a type (`export const $ZodType: core.$constructor<T>`, `console =
    Console()`), whose methods other files call."""
    out = [
        Attribute("", var, said)
        for var, said in types.get(0, {}).items()
        if not said.startswith(VALUE)  # an expression's value is read where it is used
        and (
            (said.startswith(ALIAS) and said[len(ALIAS) :].isidentifier())
            or (language in _JS_LANGUAGES and said and not said.startswith(ALIAS))
            or (language == "python" and said and not said.startswith(ALIAS))  # `console =
            # Console()`, `DOUBLE: Box = Box(...)`: other modules import the value
            or (language in _JS_LANGUAGES and _DOTTED.fullmatch(said[len(ALIAS) :]))
            or (language == "rust" and _DOTTED.fullmatch(said[len(ALIAS) :]))  # `a::B`
            or (language == "zig" and _DOTTED.fullmatch(said[len(ALIAS) :]))  # `request.Request`
        )
    ]
    for d in defs:
        if not _class_like(d, language):
            continue
        for var, type_text in types.get(id(d), {}).items():
            name = var.removeprefix("self.").removeprefix("this.")
            if type_text and name.isidentifier() and not type_text.startswith(VALUE):
                out.append(Attribute(d.qualified, name, type_text))
    return tuple(dict.fromkeys(out))  # `self.x` and a declared `x` may both say it


def _weak(said: str) -> bool:
    """A binding the resolver must work out (a call's result, an expression's value), a
    container whose items are not said (`HashSet::default()` beside `: HashSet<Symbol>`), or
    what a `catch` caught (the variable may be bound to what the block makes)."""
    return said.startswith((RESULT, VALUE, YIELDING)) or said == GO_CONTAINER


def _scope_types(defs: list[Any], binds: list[tuple[int, str, str]]) -> dict[int, dict[str, str]]:
    """id(definition) or 0 (module) -> variable -> its type (or ALIAS + a name); a variable
    bound to two different things says nothing."""
    types: dict[int, dict[str, str]] = {}
    for stack, (at, var, type_text) in _sweep(defs, [(b[0], b) for b in sorted(binds)]):
        where = stack
        if (len(stack) == 1 and stack[0].qualified == var) or var in _MODULE_NAMES:
            where = []  # `export const X: T = make(...)` is itself a definition: a module name
        elif stack and getattr(stack[-1], "name", "") == var and stack[-1].core.start_byte == at:
            # A property that is a definition of its own (Kotlin's with a getter or setter):
            # its type is its class's attribute.
            where = stack[:-1]
        if "." in var and var != MODULE_EXPORTS:  # `self.client = Client()`: in every method
            if type_text.startswith(VALUE):  # `self._payload = payload`: the parameter's type
                local = types.get(id(stack[-1]), {}) if stack else {}
                type_text = local.get(type_text[len(VALUE) :], "")
                if not type_text or type_text.startswith((ALIAS, VALUE)):
                    continue
            where = [d for d in stack if d.kind in CLASS_LIKE][-1:]
            if not where:
                continue
        scope = types.setdefault(id(where[-1]) if where else 0, {})
        held = scope.get(var, type_text)
        if held != type_text:
            # A call's result or an expression's value says less than a type or an alias: a
            # variable bound to both keeps that (`$twig = new Environment()` ... `$twig =
            # $this->getMock()`, `q = QueryParams()` ... `q = q.remove("a")`); otherwise a
            # variable rebound to another type says nothing.
            if _weak(type_text) and held and not _weak(held):
                continue
            if not (_weak(held) and type_text):
                type_text = ""
        scope[var] = type_text
    for scope in types.values():  # a yielding type that nothing replaced holds
        for var, said in scope.items():
            scope[var] = said.removeprefix(YIELDING)
    return types


def _attribute(
    language: str,
    raw: dict[tuple[int, int], tuple[int, int, str, str, str]],
    defs: list[Any],
    types: dict[int, dict[str, str]],
    params: list[tuple[int, tuple[str, str]]],
) -> tuple[CallSite, ...]:
    """Give every call its innermost enclosing definition (a sweep: defs and calls sorted),
    and the receiver's type when a binding in an enclosing definition names it; a bare call
    of a local alias becomes a call of the aliased name, one of a parameter or of a name
    unpacked from a value is marked so."""
    parameters: dict[int, dict[str, str]] = {}  # id(definition) -> its parameters' markers
    for stack, (param, marker) in _sweep(defs, sorted(params)):
        if stack:
            markers = parameters.setdefault(id(stack[-1]), {})
            if markers.get(param, marker) == UNPACKED:  # the same name, its source said
                markers[param] = marker
            markers.setdefault(param, marker)
    out: list[CallSite] = []
    ordered = sorted(raw.items())
    limited = [(start, value) for (start, _), value in ordered[:MAX_CALLS_PER_FILE]]
    for stack, (_, line, name, receiver, literal) in _sweep(defs, limited):
        caller = next((d for d in reversed(stack) if not isinstance(d, Closure)), None)
        receiver_type = "" if literal == ELEMENT_OF else literal
        scopes = [types.get(key, {}) for key in [*(id(d) for d in reversed(stack)), 0]]
        self_name = ""
        if language == "go" and caller is not None and caller.kind == "method":
            self_name = _go_receiver_name(caller.core)
        if name and not receiver:
            said = next((scope[name] for scope in scopes if name in scope), "")
            if language == "ruby":  # a bare `subject` calls RSpec's method, whatever it holds
                said = ""
            if said.startswith(ALIAS) and _DOTTED.fullmatch(said[len(ALIAS) :]):
                receiver, _, name = said[len(ALIAS) :].rpartition(".")
            elif said.startswith(ALIAS) and said[len(ALIAS) :].isidentifier():
                name = said[len(ALIAS) :]  # `_ = gettext` ... `_("text")`
            if not receiver:  # `def f(callback): callback()`: whatever is passed
                held = (parameters.get(id(d), {}).get(name) for d in reversed(stack))
                receiver_type = next((marker for marker in held if marker), receiver_type)
            if not receiver and not receiver_type and said and not said.startswith(ALIAS):
                local = language == "python" and any(name in scope for scope in scopes[:-1])
                receiver_type = (LOCAL_VARIABLE if local else VARIABLE) + said
        if literal == ELEMENT_OF and receiver.isidentifier():  # `labels[i].is_inner()`
            element = VALUE + receiver + ELEMENT_STEP
            receiver_type = _value_type(element, scopes, self_name, language)
        elif literal == ELEMENT_OF:  # `self.next[1].index()`: the chain, then an element
            chained = _chain_root(receiver, scopes, self_name, language)
            receiver_type = chained + ON_ELEMENT if chained else ""
        elif language == "kotlin" and receiver.startswith("this@"):
            receiver_type = _labelled_class(stack, receiver[5:])  # `this@Outer.ping()`
        elif receiver and name and _SIMPLE.fullmatch(receiver) and not literal:
            said = next((scope[receiver] for scope in scopes if receiver in scope), "")
            if not said and receiver.startswith(("self.", "this.")):
                said = _class_attribute(types, stack, receiver.partition(".")[2], language)
            receiver_type = "" if said.startswith(ALIAS) else said
            if language == "ruby" and said.startswith(ALIAS):  # `described_class.new`
                receiver_type = said  # the class itself (app/graph/resolve.py reads it so)
            said = _held(said, scopes, self_name, language)
            if said.startswith(VALUE):
                receiver_type = _value_type(said, scopes, self_name, language)
            if said and any(scope.get(said) == TEMPLATE_PARAMETER for scope in scopes):
                receiver_type = TEMPLATE_PARAMETER  # `H h` in `template <class H>`: `h.combine()`
        elif (
            receiver
            and name
            and language in RETURN_TYPES
            and not literal
            and (
                "()" in receiver
                or receiver[:1].isupper()  # `Builder.DEFAULT.append()`
                or (language == "go" and _GO_ROOT.fullmatch(receiver) is not None)  # `new(T)`
                or _bound_root(receiver, scopes)  # `response.headers.update()`
            )
        ):
            receiver_type = _chain_root(receiver, scopes, self_name, language)
        if self_name and receiver.startswith(self_name + ".") and not receiver_type:
            receiver_type = _chain_root(receiver, [{}], self_name)  # `mx.tree.Insert()`
        receiver = _receiver(language, receiver, self_name) if receiver and name else receiver
        qualified = caller.qualified if caller else ""
        out.append(CallSite(qualified, name, receiver, line, receiver_type))
    if len(ordered) > MAX_CALLS_PER_FILE:
        rest = len(ordered) - MAX_CALLS_PER_FILE
        out.append(CallSite("", f"{rest} more calls", TRUNCATED, ordered[MAX_CALLS_PER_FILE][1][1]))
    return tuple(out)


def _arguments_after_a_line_break(call: Node) -> bool:
    """Kotlin ends a statement at a line break before `(`; tree-sitter-kotlin reads `val x = a`
    and a next line `(b).f()` as the call `a(b)`, which no one wrote."""
    parts = call.named_children
    suffix = parts[-1] if len(parts) > 1 else None
    if suffix is None or suffix.type != "call_suffix" or not suffix.named_children:
        return False
    arguments = suffix.named_children[0]
    return arguments.type == "value_arguments" and (
        arguments.start_point.row > parts[0].end_point.row
    )


def _chain_root(
    receiver: str,
    scopes: list[dict[str, str]],
    self_name: str = "",
    language: str = "",
    depth: int = 0,
) -> str:
    """CHAINED + the type of a call chain's first name (`sm` bound to a StateMachine, `this`
    or a Go method's receiver name, a capitalised class name, `new X()`, Go's `new(X)` and
    `X{}`; RESULT + a function's name when the chain starts with a call of it), or "" when
    nothing says."""
    return _chain_parts(receiver, scopes, self_name, language, depth)[0]


def _chain_parts(
    receiver: str, scopes: list[dict[str, str]], self_name: str, language: str, depth: int
) -> tuple[str, str]:
    """`_chain_root`'s answer and the chain's steps after its first name (`.NewRoute()`)."""
    if made := _NEW_ROOT.fullmatch(receiver):
        return CHAINED + made.group(1), made.group(2)
    if language == "go" and (made := _GO_ROOT.fullmatch(receiver)):
        return CHAINED + (made.group(1) or made.group(2)), made.group(3)
    chain = _CHAIN.fullmatch(receiver)
    if chain is None or not (chain.group(2) or chain.group(3)):
        return "", ""  # a name alone is no chain
    root, steps = chain.group(1), chain.group(3)
    if chain.group(2):  # `NewRouter().NewRoute()`: what NewRouter declares it returns
        return CHAINED + RESULT + root, steps
    if root in _SELF_WORDS or (self_name and root == self_name):
        return CHAINED + SELF_CHAIN, steps
    said = _held(
        next((scope[root] for scope in scopes if root in scope), ""), scopes, self_name, language
    )
    if said.startswith(VALUE):  # `sub := r.PathPrefix("/a").Subrouter()` ... `sub.Path()`
        typed = _value_type(said, scopes, self_name, language, depth + 1)
        return (typed if not typed or typed.startswith(CHAINED) else CHAINED + typed), steps
    if said and not said.startswith(ALIAS):
        return CHAINED + said, steps
    if language == "cpp" and not said and steps.startswith("::"):
        return CHAINED + root, steps  # `details::registry::instance().flush_all()`: a path
    if language == "cpp" and not said and steps and not root[:1].isupper():
        return _then(CHAINED + SELF_CHAIN, "." + root), steps  # `loggers_.at(k)`: a field?
    return (CHAINED + root if root[:1].isupper() and not said else ""), steps


def _bound_root(receiver: str, scopes: list[dict[str, str]]) -> bool:
    """A dotted receiver whose first name is a variable some binding of the function types
    (`response.headers`, `r.routes`), not `self`/`this` (the class's own attributes)."""
    chain = _CHAIN.fullmatch(receiver)
    if chain is None or not chain.group(3) or chain.group(1) in _SELF_WORDS:
        return False
    said = next((scope[chain.group(1)] for scope in scopes if chain.group(1) in scope), "")
    return bool(said) and not said.startswith(ALIAS)


def _held(said: str, scopes: list[dict[str, str]], self_name: str, language: str) -> str:
    """What a variable's binding says it holds, a call on another local variable, a variable
    bound to a field (Go's `m := r.tree`, Python's `writer = self._writer`) and Python's call of
    a variable declared a class (`factory(app)`, its `__call__`) read as that expression's
    value."""
    said = _local_result(said, scopes, self_name)
    if language == "go" and said.startswith(ALIAS):
        return VALUE + said[len(ALIAS) :]
    if language == "python" and said.startswith(ALIAS) and "." in said:
        return VALUE + said[len(ALIAS) :]
    called = said[len(RESULT) :]
    if language == "python" and said.startswith(RESULT) and called.isidentifier():
        # `client = factory(app)` where `factory: ClientFactory`: what its `__call__` returns
        held = next((scope[called] for scope in scopes if called in scope), "")
        if _DOTTED_NAME.fullmatch(held) and held.rpartition(".")[2][:1].isupper():
            return VALUE + called + ".__call__()"
    return said


def _local_result(said: str, scopes: list[dict[str, str]], self_name: str) -> str:
    """A variable bound to a method's call on another local variable (`route :=
    sub.NewRoute()`) holds that expression's value, which `_value_type` reads through the
    other variable's type; any other binding is as said."""
    root, dot, _ = said[len(RESULT) :].partition(".")
    if not said.startswith(RESULT) or not dot:
        return said
    held = next((scope[root] for scope in scopes if root in scope), "")
    if root == self_name or (held and not held.startswith(ALIAS)):
        return VALUE + said[len(RESULT) :] + "()"
    return said


def _value_type(
    said: str, scopes: list[dict[str, str]], self_name: str, language: str, depth: int = 0
) -> str:
    """The receiver type of a variable bound to an expression's value (VALUE + its text, maybe
    ending in ELEMENT_STEPs): a name's own type, else CHAINED + its first name's type + VIA +
    the steps after it, for the resolver to walk; "" when nothing says (or past two bindings
    deep)."""
    expression = said[len(VALUE) :]
    elements = ""
    while expression.endswith((ELEMENT_STEP, SECOND_STEP)):
        step = ELEMENT_STEP if expression.endswith(ELEMENT_STEP) else SECOND_STEP
        expression, elements = expression[: -len(step)], step + elements
    if depth > 2:
        return ""
    if self_name and expression == self_name:  # Go's `range hr` over a method's receiver
        held = CHAINED + SELF_CHAIN
    elif expression.isidentifier():
        held = next((scope[expression] for scope in scopes if expression in scope), "")
        if not held and language == "cpp":  # `for (auto &l : loggers_)`: a field, maybe
            held = _then(CHAINED + SELF_CHAIN, "." + expression)
        if held.startswith(VALUE):
            held = _value_type(held, scopes, self_name, language, depth + 1)
        elif held.startswith(ALIAS):
            held = ""
    else:
        root, steps = _chain_parts(expression, scopes, self_name, language, depth)
        held = _then(root, steps) if root else ""
    return _then(held, elements) if held else ""


def _then(typed: str, steps: str) -> str:
    """A receiver type with more steps for the resolver to walk after it."""
    if not steps:
        return typed
    head, _, walked = (typed if typed.startswith(CHAINED) else CHAINED + typed).partition(VIA)
    return head + VIA + walked + steps


def _labelled_class(stack: list[Any], label: str) -> str:
    """The enclosing class a Kotlin `this@label` names (its qualified name), or "" when the
    label is a function's or a lambda's (`this@apply`: a receiver the facts do not hold)."""
    for d in reversed(stack):
        if d.kind in CLASS_LIKE and d.qualified.rpartition(".")[2] == label:
            return str(d.qualified)
    return ""


def _class_attribute(
    types: dict[int, dict[str, str]], stack: list[Any], name: str, language: str
) -> str:
    """What the innermost enclosing class's body binds `name` to (`factory = Factory()`
    there types `self.factory` in its methods), or ""."""
    classes = [d for d in stack if _class_like(d, language)]
    return types.get(id(classes[-1]), {}).get(name, "") if classes else ""


def _class_like(d: Any, language: str) -> bool:
    """A class, or a Zig function that returns a type: the fields of the struct it returns
    are bound in its scope."""
    return d.kind in CLASS_LIKE or zig_type_function(language, d.kind, d.name)


def _sweep(defs: list[Any], items: list[tuple[int, Any]]) -> Iterator[tuple[list[Any], Any]]:
    """For (start byte, payload) items in order: the stack of definitions enclosing each."""
    stack: list[Any] = []
    i = 0
    for start, item in items:
        while i < len(defs) and defs[i].start_byte <= start:
            while stack and stack[-1].end_byte <= defs[i].start_byte:
                stack.pop()
            stack.append(defs[i])
            i += 1
        while stack and stack[-1].end_byte <= start:
            stack.pop()
        yield stack, item
