"""Import statements read per language, from the text (or, for Haskell, the node) of the
statement calls.scm captures: what names each binds, from which module (app/parse/calls.py)."""

from __future__ import annotations

import re

from tree_sitter import Node

from app.core.models import Import
from app.parse.call_text import without_generics
from app.parse.definitions import node_text

_SPACE = re.compile(r"\s+")
JS_DEFAULT = "default"  # what `import x from "./m"` imports: the module's `export default`
# Comments inside an import's text: tree-sitter-kotlin's import node takes in a KDoc that
# follows it, a JS/TS specifier list may carry `/** @deprecated */` before a name.
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_LINE_COMMENT = re.compile(r"//[^\n]*")


# `Path = require("plenary.path")`, `J = require "job"`, `f = require('m').field`
_LUA_REQUIRE = re.compile(
    r"""(\w+)\s*=\s*require\s*\(?\s*["']([^"']+)["']\s*\)?(?:\s*\.\s*(\w+))?\s*$"""
)
_PY_FROM = re.compile(r"from\s+([.\w]+)\s+import\s+\(?([^)]*)\)?", re.S)
_JS_FROM = re.compile(r"""^\s*import\s+(?:type\s+)?(.*?)\s*from\s*['"]([^'"]+)['"]""", re.S)
# `export * from "m"`, `export * as ns from "m"`, `export { a, b as c } from "m"`.
_JS_REEXPORT = re.compile(r"""^\s*export\s+(?:type\s+)?(.*?)\s*from\s*['"]([^'"]+)['"]""", re.S)
_JS_REQUIRE = re.compile(
    r"""(?:const|let|var)\s+(.+?)\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)(?:\s*\.\s*(\w+))?""", re.S
)
_GO_SPEC = re.compile(r"""^\s*([\w.]+\s+)?"([^"]+)"$""")


def _names(text: str, sep: str) -> list[tuple[str, str]]:
    """`a as b, c` -> [(a, b), (c, c)]."""
    out = []
    for part in text.split(","):
        bits = part.strip().split(sep)
        name = bits[0].strip()
        if name:
            out.append((name, bits[-1].strip() if len(bits) > 1 else name))
    return out


# A C++ using-declaration of a standard library name (`using std::swap;`): the only ones the
# graph reads (a project's own names are found through their namespaces).
_CPP_USING_STD = re.compile(r"using\s+(?:::)?std::(\w+)\s*;")


def parse_import(language: str, node: Node) -> list[Import]:
    text = node_text(node)
    line = node.start_point.row + 1
    if language == "python":
        if m := _PY_FROM.match(text):
            module, names = m.group(1), re.sub(r"#.*", "", m.group(2))
            return [Import(module, n, a, line) for n, a in _names(names, " as ")]
        body = text.removeprefix("import").strip()
        return [
            Import(n, "", a if a != n else n, line) for n, a in _names(body, " as ")
        ]  # `import a.b` binds "a.b" as written, as its calls name it
    if language in ("javascript", "typescript", "tsx"):  # no `//` cut: a module may be a URL
        return _js_import(_BLOCK_COMMENT.sub(" ", text), line)
    if language == "go":
        if m := _GO_SPEC.match(text.strip()):
            path = m.group(2)
            alias = (m.group(1) or "").strip()
            last = [p for p in path.split("/") if not re.fullmatch(r"v\d+", p)] or [path]
            return [Import(path, "", alias or last[-1], line)]
        return []
    if language == "java":
        body = text.removeprefix("import").strip().rstrip(";").strip()
        body = body.removeprefix("static").strip()
        module, _, name = body.rpartition(".")
        return [Import(module, name, name, line)]
    if language == "kotlin":  # import a.b.C, import a.b.*, import a.b.C as D
        body = _LINE_COMMENT.sub(" ", _BLOCK_COMMENT.sub(" ", text.removeprefix("import")))
        body = _SPACE.sub(" ", body).strip()
        path, _, alias = body.partition(" as ")
        module, _, name = path.replace(" ", "").rpartition(".")
        return [Import(module, name, alias.strip() or name, line)]
    if language == "csharp":
        return _csharp_using(text, line)
    if language == "php":
        return _php_use(text, line)
    if language == "swift":  # `import Foundation`, `import struct Mod.Type`: a module, by name
        module = text.split()[-1].split(".")[0] if text.split() else ""
        return [Import(module, "", module, line)] if module else []
    if language == "elixir":
        return _elixir_directive(text, line)
    if language == "rust":
        body = re.sub(r"^(pub(\(\w+\))?\s+)?use\s+", "", text.strip()).rstrip(";")
        body = _SPACE.sub("", re.sub(r"\s+as\s+", "@", body))  # "@" marks ` as `
        return [Import(m, n, a, line) for m, n, a in _rust_paths(body, "")]
    if language == "zig" and (m := _ZIG_IMPORT.match(text)):
        return [Import(m.group(2), m.group(3) or "", m.group(1), line)]
    if language == "haskell":
        return _haskell_import(node, line)
    if language == "scala":
        return _scala_import(text, line)
    if language == "cpp" and (m := _CPP_USING_STD.match(text)):
        return [Import("std", m.group(1), m.group(1), line)]
    if language == "lua" and (m := _LUA_REQUIRE.match(text)):
        return [Import(m.group(2), m.group(3) or "", m.group(1), line)]
    return []


def _haskell_import(node: Node, line: int) -> list[Import]:
    """`import M` brings in every name of M (`*`), `import M (f, T(..))` those names, `import
    M hiding (f)` every name; `qualified` none unqualified. `M.f` (or `X.f` after `as X`)
    calls through the module's binding, which every form makes."""
    module_node = node.child_by_field_name("module")
    if module_node is None:
        return []
    module = node_text(module_node)
    alias = node.child_by_field_name("alias")
    words = {child.type for child in node.children}
    out = [Import(module, "", node_text(alias) if alias is not None else module, line)]
    names = node.child_by_field_name("names")
    if "qualified" in words:
        return out
    if names is None or "hiding" in words:
        return [*out, Import(module, "*", "*", line)]
    for item in names.named_children:
        named = item.child_by_field_name("variable") or item.child_by_field_name("type")
        if item.type == "import_name" and named is not None:
            out.append(Import(module, node_text(named), node_text(named), line))
    return out


# `const util = @import("util.zig");`, `const List = @import("list.zig").List;`
_ZIG_IMPORT = re.compile(
    r"""(?:pub\s+)?(?:const|var)\s+(\w+)\s*=\s*@import\(\s*"([^"]+)"\s*\)(?:\s*\.\s*(\w+))?\s*;?\s*$"""
)
_EX_DIRECTIVE = re.compile(
    r"(alias|import)[\s(]+([A-Z]\w*(?:\.[A-Z]\w*)*)(?:\.\{([^}]*)\})?(?:\s*,\s*as:\s*([A-Z]\w*))?"
)
_EX_USE = re.compile(r"use[\s(]+([A-Z]\w*(?:\.[A-Z]\w*)*)(?:\s*,\s*:(\w+))?")
# `use A` / `use A, :html` as an Import: module A, name USED + the function whose quoted
# code the using module receives (`__using__` when none is named).
EX_USED = "(use)"


_EX_ONLY = re.compile(r"only:\s*\[([^\]]*)\]")
_EX_ARITY = re.compile(r"([a-z_]\w*[?!]?):\s*\d")


def _scala_import(text: str, line: int) -> list[Import]:
    """`import a.b.C`, `a.b.{C, D => E, F => _, _}`, `a.b._` / `a.b.*` (every name), Scala
    3's `a.b.C as D`; several clauses split by commas. A name renamed to `_` is hidden."""
    body = _SPACE.sub(" ", text.removeprefix("import")).strip()
    out = []
    for clause in re.split(r",\s*(?![^{]*\})", body):
        path, brace, selectors = clause.partition("{")
        module = path.strip().rstrip(".").strip() if brace else ""
        names = selectors.rstrip("} ").split(",") if brace else [clause]
        for written in names:
            name, *renamed = re.split(r"\s*(?:=>|\bas\b)\s*", written.strip(), maxsplit=1)
            alias = renamed[0] if renamed else ""
            if not brace:
                module, _, name = name.rpartition(".")
            name, alias = name.strip(), alias.strip() or name.strip()
            if name in ("_", "*"):
                out.append(Import(module, "*", "*", line))
            elif name and alias != "_" and name != "given":
                out.append(Import(module, name, alias, line))
    return out


def _elixir_directive(text: str, line: int) -> list[Import]:
    """`alias A.B.C` binds `C` (`, as: D` binds `D`; `alias A.{B, C}` both); `import A`
    brings in every function of A (`*`)."""
    if used := _EX_USE.match(text.strip()):
        return [Import(used.group(1), EX_USED + (used.group(2) or "__using__"), "", line)]
    m = _EX_DIRECTIVE.match(text.strip())
    if m is None:
        return []
    directive, module, group, renamed = m.groups()
    if directive == "import":
        if only := _EX_ONLY.search(text):  # `only: [from: 2, join: 5]`: those names (any arity)
            names = dict.fromkeys(_EX_ARITY.findall(only.group(1)))
            return [Import(module, name, name, line) for name in names]
        return [Import(module, "*", "*", line)]
    if group is not None:
        modules = [f"{module}.{part.strip()}" for part in group.split(",") if part.strip()]
        return [Import(full, "", full.rpartition(".")[2], line) for full in modules]
    return [Import(module, "", renamed or module.rpartition(".")[2], line)]


def _csharp_using(text: str, line: int) -> list[Import]:
    """`using A.B;` brings in every name of A.B (`*`); `using W = A.B.Widget;` one, renamed."""
    body = re.sub(r"^\s*(global\s+)?using\s+(static\s+)?", "", text).rstrip().rstrip(";")
    alias, _, target = body.rpartition("=")
    target = _SPACE.sub("", without_generics(target))
    if not alias.strip():
        return [Import(target, "*", "*", line)]
    module, _, name = target.rpartition(".")
    return [Import(module, name, alias.strip(), line)]


def _php_use(text: str, line: int) -> list[Import]:
    """`use App\\Models\\Widget;`, `... as W`, `use App\\Models\\{A, B as C};` (dots for `\\`)."""
    body = re.sub(r"^\s*use\s+(function\s+|const\s+)?", "", text).rstrip().rstrip(";")
    body = body.replace("\\", ".").strip(".")
    prefix, _, group = body.partition("{")
    parts = group.rstrip("} ").split(",") if group else [body]
    out = []
    for part in parts:
        path, _, alias = part.strip().partition(" as ")
        full = (prefix + path.strip()).strip(".") if group else path.strip()
        module, _, name = full.rpartition(".")
        if name:
            out.append(Import(module, name, alias.strip() or name, line))
    return out


def _js_reexport(text: str, line: int) -> list[Import]:
    """A barrel's re-exports, as the imports the resolver follows through it (`*` for all)."""
    m = _JS_REEXPORT.match(text)
    if m is None:
        return []
    clause, module = m.group(1).strip(), m.group(2)
    if clause == "*":
        return [Import(module, "*", "*", line)]
    if clause.startswith("*"):  # export * as ns: the module under one name
        return [Import(module, "", clause.split(" as ")[-1].strip(), line)]
    inner = clause.strip("{} ").replace("type ", "")
    return [Import(module, name, alias, line) for name, alias in _names(inner, " as ")]


def _js_import(text: str, line: int) -> list[Import]:
    if text.lstrip().startswith("export"):
        return _js_reexport(text, line)
    if m := _JS_FROM.match(text):
        clause, module = m.group(1), m.group(2)
    elif m := _JS_REQUIRE.search(text):
        clause, module = m.group(1), m.group(2)
        if clause.startswith("{"):
            inner = clause.strip("{} ")
            return [Import(module, n, a, line) for n, a in _names(inner, ":")]
        if member := m.group(3):  # var f = require('./utils').f
            return [Import(module, member, clause.strip(), line)]
        return [Import(module, "", clause.strip(), line)]
    else:
        return []
    out: list[Import] = []
    if braces := re.search(r"\{([^}]*)\}", clause):
        for name, alias in _names(braces.group(1).replace("type ", ""), " as "):
            out.append(Import(module, name, alias, line))
        clause = clause[: braces.start()] + clause[braces.end() :]
    for part in clause.split(","):
        part = part.strip()
        if part.startswith("*"):
            out.append(Import(module, "", part.split(" as ")[-1].strip(), line))
        elif part:
            out.append(Import(module, JS_DEFAULT, part, line))
    return out


def _rust_paths(body: str, prefix: str) -> list[tuple[str, str, str]]:
    """`a::b::{c, d as e}` -> [(a::b, c, c), (a::b, d, e)] (nesting allowed)."""
    if "{" in body:
        head, _, rest = body.partition("{")
        inner = rest[: rest.rfind("}")]
        parts, depth, current = [], 0, ""
        for ch in inner:
            depth += (ch == "{") - (ch == "}")
            if ch == "," and depth == 0:
                parts.append(current)
                current = ""
            else:
                current += ch
        parts.append(current)
        base = prefix + head
        return [p for part in parts if part for p in _rust_paths(part, base)]
    path, _, alias = (prefix + body).partition("@")
    module, _, name = path.rstrip(":").rpartition("::")
    if name == "self":
        module, _, name = module.rpartition("::")
    return [(module, name, alias or name)]
