"""Zig's names: a TitleCase function makes a type (`fn Pool(comptime T: type) type`), a file
sees only what it declares or imports, and `const Request = request.Request;` names a type."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.models import Symbol
from app.graph.facts import CLASS_KINDS, FileFacts
from app.parse.calls import ALIAS
from app.parse.definitions import zig_type_function

if TYPE_CHECKING:
    from app.graph.resolve import ClassKey, Resolver


def type_function(sym: Symbol) -> bool:
    """A Zig function that returns a type (`parse.definitions.zig_type_function`)."""
    return zig_type_function(sym.language, sym.kind, sym.name)


class ZigRules:
    """The resolver's Zig rules, over its indexes (`members`, `attributes`, ...)."""

    def __init__(self, resolver: Resolver) -> None:
        self.r = resolver
        self._aliasing: set[str] = set()

    def nested(self, files: list[str], parts: list[str], name: str) -> list[str]:
        """`posix.Address.initIp4()`: a type the imported file declares (a struct, or what a
        TitleCase function returns), then types nested in it, the last one holding the called
        function. A part that is no type (`t.arena`, a variable) names none."""
        r = self.r
        owners = [
            sid
            for sid in r.top(files, parts[0])[0]
            if r.symbols[sid].kind in CLASS_KINDS or type_function(r.symbols[sid])
        ]
        for part in [*parts[1:], name]:
            found = [
                member for sid in owners for member in r.members.get(r._key(sid), {}).get(part, [])
            ]
            if part == name:
                return found
            owners = [sid for sid in found if r.symbols[sid].kind in CLASS_KINDS]
        return []

    def aliased(self, facts: FileFacts, scope: str, name: str, caller: str) -> list[ClassKey]:
        """`pub const Request = request.Request;` (in `scope`, the file's): the type the name
        stands for."""
        for _, said in self.r.attributes.get((scope, ""), {}).get(name, []):
            target = said[len(ALIAS) :]
            if said.startswith(ALIAS) and "." in target and name not in self._aliasing:
                self._aliasing.add(name)
                try:
                    return self.r.type_keys(facts, target, caller)
                finally:
                    self._aliasing.discard(name)
        return []
