"""Rust's own rules: a type's own methods before its traits', `super::` and `self::` paths
from the importing module, modules written inline in a file, and type aliases (`type X = Y;`)."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from app.graph.facts import FileFacts, symbol_id
from app.parse.calls import ALIAS

if TYPE_CHECKING:
    from app.graph.resolve import ClassKey, Resolver


_FUNCTION_KINDS = frozenset({"function", "method"})
# The inherent methods of `Option` and `Result` (Rust 1.95): a project trait implemented for
# them (`impl Nullable for Option<T>` with its own `as_ref`) never wins over these, as the
# compiler looks up a type's inherent methods before any trait's.
_OPTION_OR_RESULT = frozenset(
    {"and", "and_then", "as_deref", "as_deref_mut", "as_mut", "as_pin_mut", "as_pin_ref",
     "as_ref", "as_slice", "as_mut_slice", "cloned", "copied", "expect", "filter", "flatten",
     "get_or_insert", "get_or_insert_default", "get_or_insert_with", "insert", "inspect",
     "is_none", "is_none_or", "is_some", "is_some_and", "iter", "iter_mut", "map", "map_or",
     "map_or_else", "ok_or", "ok_or_else", "or", "or_else", "replace", "take", "take_if",
     "transpose", "unwrap", "unwrap_or", "unwrap_or_default", "unwrap_or_else",
     "unwrap_unchecked", "unzip", "xor", "zip", "err", "expect_err", "inspect_err",
     "into_err", "into_ok", "is_err", "is_err_and", "is_ok", "is_ok_and", "map_err", "ok",
     "unwrap_err", "unwrap_err_unchecked"}
)  # fmt: skip
STD_INHERENT = {"Option": _OPTION_OR_RESULT, "Result": _OPTION_OR_RESULT}


def _dir(path: str) -> str:
    return posixpath.dirname(path)


def trait_impl_methods(path: str, facts: FileFacts) -> list[str]:
    """The ids of the methods a Rust file defines in an `impl Trait for Type` block: the
    blocks whose first lines name a trait for their type."""
    traits = [(b.child, b.line) for b in facts.bases]
    blocks = [
        s
        for s in facts.symbols
        if s.kind == "impl"
        and any(
            c == s.qualified_name and s.start_line <= at <= s.start_line + 3 for c, at in traits
        )
    ]
    return [
        symbol_id(path, m.qualified_name)
        for m in facts.symbols
        if m.kind in _FUNCTION_KINDS
        and any(b.start_line < m.start_line and m.end_line <= b.end_line for b in blocks)
    ]


class RustRules:
    """The resolver's Rust rules, over its indexes (`files`, `symbols`, `scoped`)."""

    def __init__(self, resolver: Resolver) -> None:
        self.r = resolver
        self.trait_methods: set[str] = set()  # methods of an `impl Trait for Type` block
        # `type X = Y<T>;`: the alias's (folder, name) -> (its file, `Y`); a chain of them
        # is followed once per alias.
        self.aliases: dict[ClassKey, tuple[str, str]] = {}
        self._aliasing: set[ClassKey] = set()

    def index_file(self, path: str, facts: FileFacts, scope: str) -> None:
        """A file's trait-impl methods and its type aliases."""
        self.trait_methods.update(trait_impl_methods(path, facts))
        said_of = {a.name: a.type_text for a in facts.attributes if not a.owner}
        for s in facts.symbols:
            said = said_of.get(s.name, "") if s.kind == "type" and not s.parent else ""
            if said.startswith(ALIAS):
                self.aliases[(scope, s.qualified_name)] = (path, said[len(ALIAS) :])

    def in_crate(self, facts: FileFacts, parts: list[str]) -> list[str] | None:
        """The file a `crate::` path names from this file: the root of its crate (the nearest
        `lib.rs` or `main.rs` in its folder or above) for `crate` alone, the module file below
        that root for `crate::a::b`; None when no file is that module (an inline `mod a { }`
        or a re-export in the root: the caller reads the path by its last name)."""
        folder = _dir(facts.path)
        while True:
            for name in ("lib.rs", "main.rs"):
                root = f"{folder}/{name}" if folder else name
                if root in self.r.files:
                    return self.relative(root, ["self", *parts]) if parts else [root]
            if not folder:
                return None
            folder = _dir(folder)

    def relative(self, path: str, parts: list[str]) -> list[str] | None:
        """The file of a Rust path that starts from the importing module (`super::x`,
        `self::a::b`): `src/graph_impl/stable_graph/mod.rs`'s `super` is
        `src/graph_impl/mod.rs`, `src/algo/mod.rs`'s is `src/lib.rs`; None when no file is
        that module (an inline `mod x { ... }`, a name the parent module imports)."""
        stem = posixpath.basename(path).removesuffix(".rs")
        folder = _dir(path) if stem in ("mod", "lib", "main") else path.removesuffix(".rs")
        for part in parts:
            if part == "super":
                folder = _dir(folder)
            elif part != "self":
                folder = f"{folder}/{part}" if folder else part
        for candidate in (
            f"{folder}/mod.rs",
            f"{folder}.rs",
            f"{folder}/lib.rs",
            f"{folder}/main.rs",
        ):
            if candidate in self.r.files:
                return [candidate]
        return None

    def inline_module(self, facts: FileFacts, receiver: str, name: str) -> list[str]:
        """`matching::try_match()` or `self::matching::try_match()` where the calling file
        itself holds `mod matching { ... }`: that module's function, before any file named
        after the module elsewhere in the crate."""
        parts = receiver.split("::")
        if parts[0] == "self":
            parts = parts[1:]
        if len(parts) != 1:
            return []
        module = self.r.symbols.get(symbol_id(facts.path, parts[0]))
        if module is None or module.kind != "module":
            return []
        return self.r.scoped[facts.path].get((parts[0], name), [])

    def aliased(self, keys: list[ClassKey]) -> list[ClassKey]:
        """Rust's `type NodeIndex<Ix> = GraphNodeIndex<Ix>;`: the type the alias names (through
        at most a few aliases), where it names one."""
        out: list[ClassKey] = []
        for key in keys:
            path, written = self.aliases.get(key, ("", ""))
            if not written:
                out.append(key)
                continue
            if key in self._aliasing:  # back at the alias: a type of that name in its
                out.append(key)  # folder (Rust's folder-wide keys), or a cycle of aliases
                continue
            self._aliasing.add(key)
            try:
                out.extend(k for k in self.r.type_keys(self.r.files[path], written) if k not in out)
            finally:
                self._aliasing.discard(key)
        return out
