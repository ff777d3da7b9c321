"""Elixir's calls: a module's own functions, an imported module's (also through a project
module's `use`), and `Mod.f()` through the file's aliases and the modules nested in the
caller's. Functions are told apart by name, not by arity."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.models import CallSite, Import
from app.graph.facts import FileFacts, symbol_id
from app.parse.imports import EX_USED

if TYPE_CHECKING:
    from app.graph.resolve import Resolver

MAX_USE_STEPS = 4  # `use` -> its function -> `unquote(helpers())` -> another `use` ...


class ElixirRules:
    """The resolver's Elixir cascade, over its indexes (`named_scopes`, `private`, ...)."""

    def __init__(self, resolver: Resolver) -> None:
        self.r = resolver
        self._used: dict[tuple[str, str], list[Import]] = {}  # (module, function) -> imports

    def resolve(self, facts: FileFacts, call: CallSite) -> tuple[list[str], str, str]:
        """Elixir: a bare call is a function of the caller's module, else of a module the file
        imports, or one a project module's `use` imports (`use MyAppWeb, :html`: the imports
        its `html` writes in quoted code; else Kernel's or a library's); `Mod.f()` is
        the public function of the module `Mod` names: through the file's aliases, or a
        module defined inside an enclosing one, else as written (module names are absolute:
        no guessing by name). Functions are told apart by name, not by arity."""
        name, receiver = call.callee, call.receiver
        module = self.module_of(facts, call.caller)
        if not receiver or receiver == "__MODULE__":
            if module and (ids := self.r.member([(facts.path, module)], name)):
                return ids, "same-module", ""
            if receiver:
                return [], "", f"no function {name} in {module or 'this module'}"
            for imp in facts.imports:  # `import Mod`, `import Mod, only: [name: 1]`
                if imp.name in ("*", name) and (ids := self.public(imp.module, name)):
                    return ids, "import", ""
            for imp in facts.imports:  # `use MyAppWeb, :html`: what its quoted code imports
                if imp.name.startswith(EX_USED):
                    for brought in self.used_imports(imp.module, imp.name[len(EX_USED) :]):
                        if brought.name in ("*", name) and (
                            ids := self.public(brought.module, name)
                        ):
                            return ids, "import", ""
            return [], "", f"{name}: not in this module or a module it imports (Kernel, `use`)"
        head, dot, rest = receiver.partition(".")
        if head[:1].islower():  # `adapter.send_chunked(payload)`: the module a value holds
            held = f"the module the value `{receiver}` holds"
            return [], "", f"{name}: a function of {held}, at run time"
        full = receiver  # module names are absolute: `Enum` inside `Ecto` is Elixir's Enum
        for imp in facts.imports:  # `alias Ecto.Changeset.Relation` (, as: R)
            if not imp.name and imp.alias == head:
                full = imp.module + dot + rest
                break
        else:  # a module defined inside an enclosing one is known by its last name there
            nesting = module
            while nesting:
                inner = self.r.symbols.get(symbol_id(facts.path, f"{nesting}.{head}"))
                if inner is not None and inner.kind == "module" and inner.parent == nesting:
                    full = f"{nesting}.{receiver}"
                    break
                sym = self.r.symbols.get(symbol_id(facts.path, nesting))
                nesting = sym.parent if sym is not None else ""
        if full not in self.r.named_scopes:
            return [], "", f"{full} is not a module defined in the project"
        if ids := self.public(full, name):
            return ids, "namespace-member", ""
        return [], "", f"no public function {name} in {full}"

    def used_imports(self, module: str, function: str) -> list[Import]:
        """What `use module, :function` imports into the module that writes it: the imports
        in the project module's `function` (`__using__` for a bare `use`), in what it calls
        there by a bare name (Phoenix's `unquote(html_helpers())`), and in what it `use`s in
        turn, a few steps deep."""
        key = (module, function)
        if key not in self._used:
            self._used[key] = []  # a cycle of `use`s reads as nothing more
            found: list[Import] = []
            self._read_used(module, function, found, set(), 0)
            self._used[key] = found
        return self._used[key]

    def _read_used(
        self,
        module: str,
        function: str,
        found: list[Import],
        seen: set[tuple[str, str]],
        depth: int,
    ) -> None:
        if (module, function) in seen or depth > MAX_USE_STEPS:
            return
        seen.add((module, function))
        for scope in self.r.named_scopes.get(module, []):
            facts = self.r.files.get(scope[0])
            if facts is None:
                continue
            for sid in self.r.member([scope], function):
                sym = self.r.symbols[sid]
                for imp in facts.imports:
                    if not sym.start_line <= imp.line <= sym.end_line:
                        continue
                    if imp.name.startswith(EX_USED):
                        self._read_used(
                            imp.module, imp.name[len(EX_USED) :], found, seen, depth + 1
                        )
                    else:
                        found.append(imp)
                for call in facts.calls:
                    if call.caller == sym.qualified_name and not call.receiver:
                        self._read_used(module, call.callee, found, seen, depth + 1)

    def public(self, module: str, name: str) -> list[str]:
        """The functions `name` of the Elixir module named `module` that it does not keep
        private (`defp`)."""
        for key in self.r.named_scopes.get(module, []):
            if (key, name) not in self.r.private and (ids := self.r.member([key], name)):
                return ids
        return []

    def module_of(self, facts: FileFacts, caller: str) -> str:
        """The qualified name of the module a caller is written in ("" at the top level)."""
        qualified = caller
        for _ in range(16):
            sym = self.r.symbols.get(symbol_id(facts.path, qualified))
            if sym is None:
                return ""
            if sym.kind in ("module", "impl", "interface"):  # defmodule, defimpl, defprotocol
                return sym.qualified_name
            qualified = sym.parent
        return ""
