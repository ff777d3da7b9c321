"""Definitions found by the per-language tree-sitter queries: naming, nesting and kinds."""

from __future__ import annotations

import inspect
import re
import threading
from collections import deque
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tree_sitter import Node, Parser, Query, QueryCursor
from tree_sitter_language_pack import get_language, get_parser

from app.parse.languages import DATA_LANGUAGES, GRAMMARS, query_path
from app.parse.text import DOC_CHARS, SIGNATURE_CHARS, clip_doc, collapse

# Kinds whose functions are methods, and kinds whose members may get chunks of their own.
CLASS_LIKE = frozenset({"class", "interface", "struct", "enum", "trait", "impl", "variable"})
CONTAINERS = CLASS_LIKE | {"module"}
# Languages whose constructors carry their class's name.
CONSTRUCTOR_NAMED = frozenset({"java", "csharp", "cpp"})
# Objects whose members are plain module functions, not methods (CommonJS).
EXPORT_SCOPES = frozenset({"exports", "module", "module.exports"})

_ECMA = {
    "export_statement": False,
    "expression_statement": False,
    "lexical_declaration": True,
    "variable_declaration": True,
    "ambient_declaration": False,
}
# Node types a definition grows into (export, decorators, templates, its statement).
# True: only when the wrapper holds no sibling of the same type (`const a = f, b = g`).
WRAPPERS: dict[str, dict[str, bool]] = {
    "python": {"decorated_definition": False},
    "javascript": _ECMA,
    "typescript": _ECMA,
    "tsx": _ECMA,
    "go": {"type_declaration": True},
    "c": {"type_definition": False, "declaration": False},
    "cpp": {"type_definition": False, "declaration": False, "template_declaration": False},
    "lua": {"variable_declaration": False},
}
# Names for definitions whose query has no @name capture.
_FALLBACK_NAMES = {
    "export_statement": "default",
    "companion_object": "Companion",
    "init_declaration": "init",
    "secondary_constructor": "constructor",
    "namespace_definition": "(anonymous)",
}
_PATH_TYPES = frozenset({"member_expression", "dot_index_expression", "method_index_expression"})
_SCOPED_TYPES = frozenset({"qualified_identifier", "scope_resolution"})
_BODY_TYPES = frozenset(
    {"block", "statement_block", "compound_statement", "class_body", "declaration_list",
     "field_declaration_list", "enum_body", "interface_body", "object_type", "function_body",
     "template_body", "enumerator_list", "enum_variant_list", "constructor_body",
     "enum_class_body", "protocol_body", "enum_member_declaration_list", "object",
     "computed_property", "class_declarations", "instance_declarations", "Block",
     "ContainerDecl"}
)  # fmt: skip
# Languages whose body is not delimited: the signature is the first line.
_FIRST_LINE_SIGNATURE = frozenset({"ruby", "lua", "bash", "elixir", "haskell"})
_GENERICS = re.compile(r"<[^<>]*>|\[[^\[\]]*\]")
_STRING_PREFIX = re.compile(r"^[rRbBuUfF]*('''|\"\"\"|'|\")")
_NAME_CHARS = 120
_PY_OVERLOAD = re.compile(r"@\s*(?:[\w.]+\.)?overload")
# The type an instance is for: the first capitalised name of `Map k v`, `(Map k v)`, `IntMap`.
_HASKELL_TYPE_HEAD = re.compile(r"[\s(]*([A-Z][\w.']*)")
# Languages that write one function as several pieces side by side: Elixir's clauses
# (`def f(0)`, `def f(n)`), Haskell's type signature and equations (`go :: Int -> Int`,
# `go 0 = 1`, `go n = ...`). Consecutive pieces of one name are one definition.
CLAUSE_LANGUAGES = frozenset({"elixir", "haskell"})
# Kotlin's grammar puts a property's getter and setter beside its declaration, not in it.
_SIBLING_ACCESSORS = frozenset({"getter", "setter"})

_local = threading.local()  # parsers are not thread-safe; one per thread and language


@dataclass(slots=True, eq=False)
class Definition:
    """One definition: its outer range (with export/decorators/statement) and its naming."""

    kind: str
    name: str
    core: Node  # the node the query matched
    start_byte: int
    end_byte: int
    start_line: int  # 1-based, of the outer node
    end_line: int
    core_line: int  # where the definition itself starts (after decorators)
    scope: str = ""  # explicit qualifier: receiver type, object path, C++ scope
    member: bool = False  # `a.b.c = function` / register(obj, "x", fn): the path is the name
    call: bool = False  # found as register("name", fn) / describe("suite", () => {...})
    qualified: str = ""
    parent: str = ""
    lead_line: int = 0  # first line its chunk may start at (overload signatures fold in)
    enclosing: Definition | None = None
    children: list[Definition] = field(default_factory=list)


@dataclass(slots=True)
class Found:
    """What one query run over one file yields."""

    definitions: list[Definition]  # every definition, in source order (parents first)
    roots: list[Definition]  # those not inside another definition
    comment_lines: set[int]  # lines holding only a comment
    attribute_lines: set[int]  # lines holding only a decorator/attribute


@cache
def _query(language: str) -> Query:
    path = query_path(language)
    if path is None:
        raise KeyError(language)
    grammar: Any = GRAMMARS[language]  # the stubs want a Literal of grammar names
    return Query(get_language(grammar), path.read_text(encoding="utf-8"))


def parser_for(language: str) -> Parser:
    parsers: dict[str, Parser] = _local.__dict__.setdefault("parsers", {})
    if language not in parsers:
        grammar: Any = GRAMMARS[language]
        parsers[language] = get_parser(grammar)
    return parsers[language]


def line_starts(src: bytes) -> list[int]:
    """Byte offset of the start of every line."""
    return [0, *(m.end() for m in re.finditer(b"\n", src))]


def node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def end_row(node: Node) -> int:
    """Last row a node really occupies (some grammars end line comments at the next row)."""
    end = node.end_point
    return end.row - 1 if end.column == 0 and end.row > node.start_point.row else end.row


def _own_lines(node: Node, src: bytes, starts: list[int]) -> range:
    """1-based lines a comment/attribute node fills alone (nothing but blanks around it)."""
    first, last = node.start_point.row, end_row(node)
    if src[starts[first] : node.start_byte].strip():
        return range(0)
    line_end = starts[last + 1] - 1 if last + 1 < len(starts) else len(src)
    if node.end_byte < line_end and src[node.end_byte : line_end].strip():
        last -= 1
    return range(first + 1, last + 2)


def _clean(name: str) -> str:
    name = collapse(name, _NAME_CHARS)
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "\"'`":
        name = name[1:-1]
    return name


def _clean_type(text: str) -> str:
    """`*Router[T]`, `&'a mut Foo<T>`, `List<String>?` -> the bare type name."""
    prev = None
    while prev != text:
        prev, text = text, _GENERICS.sub("", text)
    text = re.sub(r"^[\s*&]*(?:'\w+\s+)?(?:mut\s+|dyn\s+)?", "", text)
    return re.sub(r"\s+", "", text).rstrip("?")


def _split_path(text: str) -> tuple[str, str]:
    """`Layer.prototype.match` / `Foo::bar` / `M:h` -> (scope, name)."""
    path = re.sub(r"\s+", "", _GENERICS.sub("", text)).replace("::", ".").replace(":", ".")
    scope, _, name = path.rpartition(".")
    return scope, name


def _c_function_name(declarator: Node) -> Node | None:
    """The name at the end of a C/C++ declarator chain (`**f(...)`, `&Foo::bar(...)`)."""
    node: Node | None = declarator
    for _ in range(10):
        if node is None:
            return None
        if node.type == "function_declarator":
            return node.child_by_field_name("declarator")
        nxt = node.child_by_field_name("declarator")
        if nxt is None:
            named = node.named_children
            nxt = named[-1] if named else None
        node = nxt
    return None


def _call_name(args: Node) -> tuple[str, str]:
    """register(obj, 'name', function name() {}) -> (name, scope)."""
    fn_name = string = scope = ""
    for arg in args.named_children:
        if arg.type in ("function_expression", "function") and not fn_name:
            name = arg.child_by_field_name("name")
            fn_name = node_text(name) if name is not None else ""
        elif arg.type == "string" and not string:
            string = node_text(arg)
        elif arg.type == "identifier" and not scope:
            scope = node_text(arg)
    return _clean(fn_name or string), scope


def _outer(node: Node, wrappers: dict[str, bool]) -> Node:
    """The node grown into its export/decorator/template/statement wrappers."""
    while (parent := node.parent) is not None and parent.type in wrappers:
        if wrappers[parent.type] and sum(c.type == node.type for c in parent.named_children) > 1:
            break
        node = parent
    return node


def _make(
    language: str, kind: str, captures: dict[str, list[Node]], wrappers: dict[str, bool]
) -> Definition | None:
    core = captures[f"definition.{kind}"][0]
    name, scope, member, is_call = "", "", False, False
    if name_node := next(iter(captures.get("name", ())), None):
        if name_node.type in _PATH_TYPES:
            scope, name = _split_path(node_text(name_node))
            member = True
        elif name_node.type in _SCOPED_TYPES:
            scope, name = _split_path(node_text(name_node))
        else:
            name = _clean(node_text(name_node))
            if name_node.type == "namespace_name":  # PHP: App\Models -> App.Models
                name = name.replace("\\", ".")
    elif call := captures.get("call"):
        name, scope = _call_name(call[0])
        member, is_call = bool(scope), True
    elif decl := captures.get("declarator"):
        fn = _c_function_name(decl[0])
        if fn is None:
            return None
        if fn.type in _SCOPED_TYPES:  # void Foo::bar() {} is a method of Foo
            scope, name = _split_path(node_text(fn))
            kind = "method"
        else:
            name = _clean(_GENERICS.sub("", node_text(fn)))
    else:
        name = _FALLBACK_NAMES.get(core.type, "")
        if core.type == "companion_object":
            named = [c for c in core.named_children if c.type == "type_identifier"]
            name = node_text(named[0]) if named else name
    if core.type == "TestDecl" and name_node is not None:  # Zig: `test "name"`, as written
        name = collapse(f"test {node_text(name_node)}", _NAME_CHARS)
    if core.type == "instance":  # Haskell: named by the type it is for, as Rust's impl
        name = _instance_type(core) or name
    if receiver := captures.get("receiver"):
        scope = _clean_type(node_text(receiver[0]))
    if kind == "impl":
        name = _clean_type(name)
    if not name:
        return None
    outer = _outer(core, wrappers)
    last = _last_accessor(outer) if core.type == "property_declaration" else outer
    start, end = outer.start_point.row + 1, end_row(last) + 1
    return Definition(
        kind=kind, name=name, core=core, start_byte=outer.start_byte, end_byte=last.end_byte,
        start_line=start, end_line=end, core_line=core.start_point.row + 1, scope=scope,
        member=member, call=is_call, lead_line=start,
    )  # fmt: skip


def _instance_type(instance: Node) -> str:
    """`instance Foldable (Map k v)` -> `Map`: the head of the type a Haskell instance is for
    ("" when it has none, as `instance Show [a]`)."""
    patterns = instance.child_by_field_name("patterns")
    head = _HASKELL_TYPE_HEAD.match(node_text(patterns)) if patterns is not None else None
    return head.group(1) if head else ""


def _last_accessor(node: Node) -> Node:
    """The last getter / setter right after a property declaration (itself when none)."""
    while (nxt := node.next_named_sibling) is not None and nxt.type in _SIBLING_ACCESSORS:
        node = nxt
    return node


def _python_overload(core: Node) -> bool:
    """An `@overload` / `@typing.overload` stub: a signature whose implementation follows."""
    parent = core.parent
    if parent is None or parent.type != "decorated_definition":
        return False
    return any(
        c.type == "decorator" and _PY_OVERLOAD.fullmatch(node_text(c).strip())
        for c in parent.named_children
    )


def _fold_overloads(items: list[Definition]) -> list[Definition]:
    """Overload signatures (TS, Python stubs) right before their implementation join its
    chunk; the implementation alone is the definition callers reach."""
    out: list[Definition] = []
    pending: list[Definition] = []
    for item in items:
        if item.kind == "overload":
            pending.append(item)
            continue
        first = len(pending)
        while first > 0 and pending[first - 1].name == item.name:
            first -= 1
        for lone in pending[:first]:
            lone.kind = "function"
            out.append(lone)
        if first < len(pending):
            item.lead_line = pending[first].start_line
        pending = []
        out.append(item)
    for lone in pending:
        lone.kind = "function"
        out.append(lone)
    return out


def _join_clauses(items: list[Definition], joined: set[int]) -> list[Definition]:
    """Consecutive function pieces of one name (no other definition between them) become
    the first piece, grown to the last one's end; the others' ids go into `joined`."""
    out: list[Definition] = []
    for item in items:
        prev = out[-1] if out else None
        if (
            prev is None
            or item.kind != "function"
            or (prev.kind, prev.name) != ("function", item.name)
        ):
            out.append(item)
            continue
        prev.end_byte, prev.end_line = item.end_byte, item.end_line
        prev.children.extend(item.children)
        for child in item.children:
            child.enclosing = prev
        joined.add(id(item))
    return out


def _prefix(d: Definition) -> str:
    """What the qualified name starts with: `Owner.` for a member. A namespace (C#, PHP, C++,
    Ruby module, Rust mod) stays apart, in the parent: its types read `Strong`, not
    `Vendor.Package.Strong`; its own functions `Node.helper` (its last part as the owner)."""
    enc = d.enclosing
    if enc is None:
        return ""
    if enc.kind != "module" or enc.call or d.kind == "module":
        return f"{enc.qualified}."
    if d.kind in CLASS_LIKE or d.scope:
        return ""
    return f"{enc.qualified.rpartition('.')[2]}."


def _name_constructor(d: Definition) -> None:
    """Java, C# and C++ constructors are named after their class: `Parser.constructor`, as
    JavaScript's read, not `Parser.Parser`."""
    enc = d.enclosing
    owner = d.scope.rpartition(".")[2] if d.scope else (enc.name if enc else "")
    in_class = bool(d.scope) or (enc is not None and enc.kind in CLASS_LIKE)
    if d.kind in ("function", "method") and d.name == owner and in_class:
        d.name = "constructor"


def zig_type_function(language: str, kind: str, name: str) -> bool:
    """A Zig function that returns a type (a generic struct), which Zig's style names in
    TitleCase (`fn ArrayList(comptime T: type) type`)."""
    return language == "zig" and kind == "function" and name[:1].isupper()


def _in_zig_type_function(d: Definition) -> bool:
    """A Zig function inside a function that returns a type (`fn Pool(comptime T: type)
    type { return struct { fn acquire(...) } }`): a method of the struct it returns."""
    enc = d.enclosing
    return (
        d.kind == "function"
        and enc is not None
        and zig_type_function("zig", enc.kind, enc.name)
        and not d.name.startswith("test ")
    )


_CONDITIONAL = frozenset({"preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef"})


def symbol_only(d: Definition) -> bool:
    """A one-line function-like macro (`#define LOG(s) LOG_IMPL(_##s)`): a symbol and a call
    target, whose line stays in the glue around it rather than a chunk of its own."""
    if d.core.type != "preproc_function_def":
        return False
    value = d.core.child_by_field_name("value")
    return value is None or "\n" not in node_text(value)


def one_platform_stand_in(d: Definition) -> bool:
    """A one-line macro inside an `#if` group, other than a header's include guard: one
    build's stand-in (libuv's `#else` / `#define uv__iou_fs_close(loop, req) 0` beside the
    Linux function), which no call should be resolved to over the function."""
    node = d.core.parent
    while node is not None:
        if node.type in _CONDITIONAL and not _include_guard(node):
            return True
        node = node.parent
    return False


def _include_guard(node: Node) -> bool:
    """`#ifndef X_H_` whose first line below is `#define X_H_`, at the top of the file."""
    if node.type != "preproc_ifdef" or node.parent is None or node.parent.parent is not None:
        return False
    name = node.child_by_field_name("name")
    first = next((c for c in node.named_children if c.type != "comment" and c != name), None)
    if name is None or first is None or first.type != "preproc_def":
        return False
    defined = first.child_by_field_name("name")
    return defined is not None and node_text(defined) == node_text(name)


def _resolve(d: Definition) -> None:
    """Kind, qualified name and parent, from the enclosing definition (already resolved)."""
    if d.core.type == "preproc_function_def":  # the preprocessor knows no namespace or class
        d.qualified, d.parent = d.name, ""
        return
    enc = d.enclosing
    prefix = _prefix(d)
    if d.kind in ("function", "method"):
        if enc is not None and enc.kind in CLASS_LIKE:
            d.kind = "method"
        elif d.member:
            object_path = d.scope.removesuffix(".prototype")
            is_method = d.scope != "this" and object_path not in EXPORT_SCOPES
            d.kind = "method" if is_method else "function"
        elif d.kind == "method" and not d.scope:
            d.kind = "function"
    if d.member and d.scope and d.scope != "this":
        d.qualified = f"{d.scope}.{d.name}"
        object_path = d.scope.removesuffix(".prototype")
        d.parent = enc.qualified if enc else ("" if object_path in EXPORT_SCOPES else object_path)
    elif d.scope and not d.member:  # a type's scope (`class Hashie::Mash`) is its namespace
        # A Kotlin member extension on its own class (`fun Table.array()` inside `Table`) is
        # `Table.array`, not `Table.Table.array`.
        own_type = enc is not None and enc.kind in CLASS_LIKE and enc.name == d.scope
        owner = "" if d.kind in CLASS_LIKE or own_type else f"{d.scope}."
        d.qualified = f"{prefix}{owner}{d.name}"
        d.parent = enc.qualified if own_type and enc else f"{prefix}{d.scope}"
    else:
        d.qualified = f"{prefix}{d.name}"
        d.parent = enc.qualified if enc else ""


def members_only(d: Definition) -> bool:
    """A Swift `extension`: it stores no fields, its head is the `extension X {` line, so what
    it holds is its members, however short it is."""
    if d.kind != "impl" or d.core.type != "class_declaration":
        return False
    declared = d.core.child_by_field_name("declaration_kind")
    return declared is not None and declared.type == "extension"


def _contains(outer: Definition, inner: Definition) -> bool:
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


def find_definitions(language: str, root: Node, src: bytes, starts: list[int]) -> Found:
    """Run the language's query over a parsed tree and nest what it finds."""
    wrappers = WRAPPERS.get(language, {})
    by_range: dict[tuple[int, int], tuple[int, Definition]] = {}
    comments: set[int] = set()
    attributes: set[int] = set()
    for pattern, captures in QueryCursor(_query(language)).matches(root):
        if "comment" in captures:
            comments.update(_own_lines(captures["comment"][0], src, starts))
            continue
        if "attribute" in captures:
            attributes.update(_own_lines(captures["attribute"][0], src, starts))
            continue
        kind = next((k[11:] for k in captures if k.startswith("definition.")), "")
        if not kind or (d := _make(language, kind, captures, wrappers)) is None:
            continue
        if language in DATA_LANGUAGES and d.end_line == d.start_line:
            continue  # one-line keys are plain values: glue
        if symbol_only(d) and one_platform_stand_in(d):
            continue
        if language == "python" and d.kind == "function" and _python_overload(d.core):
            d.kind = "overload"
        key = (d.start_byte, d.end_byte)
        if key not in by_range or pattern < by_range[key][0]:  # earlier patterns are specific
            by_range[key] = (pattern, d)
    defs = sorted((d for _, d in by_range.values()), key=lambda d: (d.start_byte, -d.end_byte))
    scoped = [d for d in defs if d.kind == "filemodule"]
    for i, d in enumerate(scoped):  # `namespace X;` reaches the next one or the end of file
        d.kind = "module"
        nxt = scoped[i + 1] if i + 1 < len(scoped) else None
        d.end_byte = nxt.start_byte - 1 if nxt else len(src)
        last_line = len(starts) - (1 if src.endswith(b"\n") else 0)
        d.end_line = nxt.start_line - 1 if nxt else max(last_line, d.start_line)
    roots: list[Definition] = []
    stack: list[Definition] = []
    for d in defs:
        while stack and not _contains(stack[-1], d):
            stack.pop()
        d.enclosing = stack[-1] if stack else None
        (d.enclosing.children if d.enclosing else roots).append(d)
        stack.append(d)
    if alone := {id(d) for d in defs if symbol_only(d)}:  # symbols, not laid out as chunks
        roots = [d for d in roots if id(d) not in alone]
        for d in defs:
            d.children = [child for child in d.children if id(child) not in alone]
    if language in CLAUSE_LANGUAGES:
        joined: set[int] = set()
        roots = _join_clauses(roots, joined)
        for d in defs:
            d.children = _join_clauses(d.children, joined)
        defs = [d for d in defs if id(d) not in joined]
    roots = _fold_overloads(roots)
    for d in defs:
        d.children = _fold_overloads(d.children)
    defs = [d for d in defs if d.kind != "overload"]
    for d in defs:
        if language in CONSTRUCTOR_NAMED:
            _name_constructor(d)
        if d.call and any(child.call for child in d.children):
            d.kind = "module"  # describe("suite", () => { test(...) }): a group, cut per member
        _resolve(d)
        if language == "zig" and _in_zig_type_function(d):
            d.kind = "method"  # a method of the struct the function returns
    if language == "ruby":
        for d in defs:
            _ruby_class_methods_apart(d)
    return Found(defs, roots, comments, attributes)


# What a Ruby class method's qualified name holds between its owner and its name when the
# owner also has an instance method of that name: `def self.call` beside `def call` in
# `Greeter` are `Greeter.self.call` and `Greeter.call`, two methods, as Ruby keeps them.
RUBY_CLASS_SIDE = ".self."


def _ruby_class_method(d: Definition) -> bool:
    """A Ruby class method: `def self.x`, or a `def` inside `class << self`."""
    if d.core.type == "singleton_method":
        return True
    node = d.core.parent
    while node is not None and node.type not in ("class", "module"):
        if node.type == "singleton_class":
            return True
        node = node.parent
    return False


def _ruby_class_methods_apart(owner: Definition) -> None:
    """Name a class method apart from an instance method of the same name in one class or
    module (`Greeter.self.call`): one name would merge their calls and callers."""
    if owner.kind not in CONTAINERS:
        return
    methods = [c for c in owner.children if c.kind in ("function", "method")]
    instance = {c.name for c in methods if not _ruby_class_method(c)}
    for c in methods:
        if c.name in instance and _ruby_class_method(c):
            c.qualified = f"{owner.qualified}{RUBY_CLASS_SIDE}{c.name}"


def find_body(core: Node) -> Node | None:
    """The first body-like node under a definition, breadth first (deep for wrapped calls)."""
    queue = deque([core])
    seen = 0
    while queue and seen < 256:
        node = queue.popleft()
        seen += 1
        body = node.child_by_field_name("body")
        if body is not None:
            return body
        for child in node.named_children:
            if child.type in _BODY_TYPES:
                return child
            queue.append(child)
    return None


def signature(d: Definition, language: str, src: bytes, starts: list[int], skip: set[int]) -> str:
    """Header text from the first non-decorator line up to (and with) the body's opening;
    comment and attribute lines in between are left out."""
    row = d.start_line
    while row in skip and row < d.end_line:
        row += 1
    begin = max(d.start_byte, starts[row - 1])
    body = find_body(d.core) if language not in _FIRST_LINE_SIGNATURE else None
    if body is not None and body.start_byte > begin:
        stop, last = body.start_byte, body.start_point.row + 1
        brace = src[stop : stop + 1] == b"{"
    else:
        stop, last, brace = min(d.end_byte, _line_end(row, src, starts)), row, False
    pieces = []
    for line in range(row, last + 1):
        if line in skip and line != row:
            continue
        piece = src[max(begin, starts[line - 1]) : min(stop, _line_end(line, src, starts))]
        pieces.append(piece.decode("utf-8", "replace"))
        if sum(map(len, pieces)) > SIGNATURE_CHARS * 4:
            break
    text = " ".join(pieces) + ("{" if brace else "")
    if d.core.type == "preproc_function_def":  # `#define f(x) \`: the line goes on
        text = text.rstrip().removesuffix("\\").rstrip()
    return collapse(text, SIGNATURE_CHARS)


def _line_end(line: int, src: bytes, starts: list[int]) -> int:
    """Byte offset of the newline ending a 1-based line (or the end of the source)."""
    return starts[line] - 1 if line < len(starts) else len(src)


def docstring(d: Definition, language: str) -> str:
    """Python's docstring: the first string statement of the body."""
    if language != "python":
        return ""
    body = d.core.child_by_field_name("body")
    if body is None or not body.named_children:
        return ""
    string = body.named_children[0]
    if string.type == "expression_statement" and string.named_children:
        string = string.named_children[0]  # older grammars wrap the docstring in a statement
    if string.type != "string":
        return ""
    text = node_text(string)[: DOC_CHARS * 4]
    if m := _STRING_PREFIX.match(text):
        quote = m.group(1)
        text = text[m.end() :]
        text = text[: -len(quote)] if text.endswith(quote) else text
    return clip_doc(inspect.cleandoc(text))


def break_lines(core: Node, lo: int, hi: int, limit: int, comments: set[int]) -> dict[int, int]:
    """Statement starts inside a definition, by depth: where a too-long one may be cut.

    Only nodes longer than `limit` are opened; a cut moves up over the comments above it.
    """
    breaks: dict[int, int] = {}
    stack = [(core, 0)]
    while stack:
        node, depth = stack.pop()
        for child in node.named_children:
            line = child.start_point.row + 1
            while line - 1 in comments and line - 1 > lo:
                line -= 1
            if lo < line <= hi and depth < breaks.get(line, 1 << 30):
                breaks[line] = depth
            if end_row(child) - child.start_point.row + 1 > limit:
                stack.append((child, depth + 1))
    return breaks
