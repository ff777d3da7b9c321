"""Haskell's calls: a module's own functions, what its imports bring in through export lists,
and the methods of the classes it can see. Nothing is guessed by name."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.core.models import Attribute, CallSite
from app.graph.facts import FileFacts, symbol_id
from app.parse.calls import EXPORT_LIST, EXPORTED, EXPORTED_MODULE

if TYPE_CHECKING:
    from app.graph.resolve import Resolver, Result

EXPORT_KINDS = frozenset({EXPORT_LIST, EXPORTED, EXPORTED_MODULE})
MAX_EXPORT_HOPS = 4  # modules that pass a name on through their export lists, followed this far
# Why a Haskell name no import of the project brings in has no edge.
UNDEFINED = (
    "no function of the project: a local binding, a record field, the Prelude's or a package's"
)


@dataclass(slots=True)
class HaskellExports:
    """A Haskell module's export list: the module's own name, the names it exports and the
    modules whose names it passes on (`module M`)."""

    module: str = ""
    names: set[str] = field(default_factory=set)
    modules: set[str] = field(default_factory=set)

    def add(self, said: Attribute) -> None:
        if said.type_text == EXPORT_LIST:
            self.module = said.name
        elif said.type_text == EXPORTED:
            self.names.add(said.name)
        else:
            self.modules.add(said.name)


class HaskellRules:
    """The resolver's Haskell cascade, over its indexes (`hs_exports`, `scoped`, ...)."""

    def __init__(self, resolver: Resolver) -> None:
        self.r = resolver
        # What a file's imports bring in by a name, and the files it can see (every call of
        # that name in the file asks the same).
        self._imported: dict[tuple[str, str], Result] = {}
        self._visible: dict[str, set[str]] = {}

    def resolve(self, facts: FileFacts, call: CallSite) -> tuple[list[str], str, str]:
        """Haskell: a bare name is the module's own top-level function, else one its imports
        bring in (a list's names, every name of a project module imported whole, and what
        that module imports whole), else a method of a class the file can see; `X.f` is the
        function `f` of the module `X` binds. Nothing is guessed by name: a name no import
        of the project brings in is a local binding's, the Prelude's or a package's."""
        name, receiver = call.callee, call.receiver
        if receiver:
            for imp in facts.imports:
                if not imp.name and imp.alias == receiver:
                    target = self.r.module_files(facts, imp.module)
                    if target is None:
                        return [], "", f"external module {imp.module}"
                    if ids := self.r.top(target, name)[0]:
                        return ids, "module-attribute", ""
                    return [], "", f"no function {name} in {imp.module}"
            return [], "", f"{receiver} is no module the file imports"
        if ids := self.r.scoped[facts.path].get(("", name), []):
            return ids, "same-module", ""
        for imp in facts.imports:
            if imp.name == name and self.r.module_files(facts, imp.module) is None:
                return [], "", f"imported from outside the project ({imp.module})"
        ids, rule = self.imported(facts, name)
        if ids:
            return ids, rule, ""
        if ids := self.class_method(facts, name):
            return ids, "class-member", ""
        return [], "", UNDEFINED

    def imported(self, facts: FileFacts, name: str) -> Result:
        """`name` as the file's imports bring it in: what each module imported whole or by
        that name exports (`_haskell_exported`)."""
        key = (facts.path, name)
        if key not in self._imported:
            self._imported[key] = self._find_imported(facts, name)
        return self._imported[key]

    def _find_imported(self, facts: FileFacts, name: str) -> Result:
        found: list[tuple[str, bool]] = []
        for imp in facts.imports:
            if imp.name in ("*", name):
                for path in self.r.module_files(facts, imp.module) or []:
                    found += self.exported(path, name, 0)
        ids = list(dict.fromkeys(sid for sid, _ in found))
        passed_on = all(through for _, through in found)
        return ids, ("re-export" if passed_on else "import") if ids else ""

    def exported(self, path: str, name: str, hops: int) -> list[tuple[str, bool]]:
        """The definitions named `name` that the module at `path` exports, each with whether
        it passes them on from a module it imports: without an export list, its own
        top-level ones; with one, those the list names, its own or imported (`f`, or
        `Internal.f` through `import qualified ... as Internal`), and the names of the
        modules it lists (`module M`) as it imports them."""
        own = self.r.scoped[path].get(("", name), [])
        listed = self.r.hs_exports.get(path)
        if listed is None:
            return [(sid, hops > 0) for sid in own]
        if own and (name in listed.names or listed.module in listed.modules):
            return [(sid, hops > 0) for sid in own]
        if hops >= MAX_EXPORT_HOPS:
            return []
        facts = self.r.files[path]
        out: list[tuple[str, bool]] = []
        for imp in facts.imports:
            listed_too = imp.module in listed.modules or name in listed.names
            by_name = imp.name in ("*", name) and listed_too
            qualified = not imp.name and f"{imp.alias}.{name}" in listed.names  # `Internal.load`
            if by_name or qualified:
                for target in self.r.module_files(facts, imp.module) or []:
                    out += self.exported(target, name, hops + 1)
        return out

    def class_method(self, facts: FileFacts, name: str) -> list[str]:
        """The method `name` of a class declared in this file or a project module it imports
        (the call runs the instance the argument's type picks)."""
        visible = self._visible.get(facts.path)
        if visible is None:
            visible = {facts.path}
            for imp in facts.imports:
                visible.update(self.r.module_files(facts, imp.module) or ())
            self._visible[facts.path] = visible
        out = []
        for sid in self.r.methods.get(name, []):
            sym = self.r.symbols[sid]
            owner = self.r.symbols.get(symbol_id(sym.path, sym.parent)) if sym.parent else None
            if sym.path in visible and owner is not None and owner.kind == "interface":
                out.append(sid)
        return out
