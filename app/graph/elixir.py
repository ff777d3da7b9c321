"""Elixir's calls: a module's own functions, an imported module's, and `Mod.f()` through the
file's aliases and the modules nested in the caller's. Functions are told apart by name, not
by arity."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.models import CallSite
from app.graph.facts import FileFacts, symbol_id

if TYPE_CHECKING:
    from app.graph.resolve import Resolver


class ElixirRules:
    """The resolver's Elixir cascade, over its indexes (`named_scopes`, `private`, ...)."""

    def __init__(self, resolver: Resolver) -> None:
        self.r = resolver

    def resolve(self, facts: FileFacts, call: CallSite) -> tuple[list[str], str, str]:
        """Elixir: a bare call is a function of the caller's module, else of a module the file
        imports (else Kernel's, or a macro's that `use` brought in: not read); `Mod.f()` is
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
