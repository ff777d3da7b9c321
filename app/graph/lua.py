"""Lua's calls: `require`d modules, the tables they return, and Lua's own global tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.graph.facts import FileFacts
from app.parse.calls import ALIAS, MODULE_EXPORTS

if TYPE_CHECKING:
    from app.graph.resolve import ClassKey, Resolver, Result3

# Where Lua looks for `require("a.b")`: `a/b.lua` or `a/b/init.lua` under the project's root,
# or under a folder of these names (Neovim's runtime path `lua/`, a rock's `src/`).
ROOTS = frozenset({"lua", "src", "lib"})
# Tables every Lua program has (the standard library, LuaJIT's, Neovim's `vim`): a call through
# one of them calls nothing of the project unless the file binds that name itself.
GLOBALS = frozenset(
    {"string", "table", "math", "os", "io", "coroutine", "debug", "utf8", "package", "bit",
     "bit32", "jit", "ffi", "vim"}
)  # fmt: skip


def module_names(path: str) -> list[str]:
    """The names `require` finds a Lua file by: `lua/plenary/path.lua` -> `plenary.path` (and
    `lua.plenary.path`); `a/b/init.lua` is also `a.b`."""
    parts = path.removesuffix(".lua").split("/")
    if parts[-1] == "init" and len(parts) > 1:
        parts.pop()
    names = [".".join(parts)]
    names += [".".join(parts[i + 1 :]) for i, p in enumerate(parts[:-1]) if p in ROOTS]
    return names


class LuaRules:
    """The resolver's Lua cascade, over its indexes (`members`, `attributes`, ...)."""

    def __init__(self, resolver: Resolver) -> None:
        self.r = resolver

    def tables(self, facts: FileFacts, name: str) -> list[ClassKey]:
        """The table a Lua name holds: the one the module it requires returns (`local Job =
        require("plenary.job")`), else the file's own table of that name."""
        for imp in facts.imports:
            if imp.alias == name and not imp.name:
                return [
                    (p, said[len(ALIAS) :])
                    for p in self.r.module_files(facts, imp.module) or []
                    for _, said in self.r.attributes.get((p, ""), {}).get(MODULE_EXPORTS, [])
                    if said.startswith(ALIAS)
                ]
        key = (facts.path, name)
        return [key] if key in self.r.members or key in self.r.attributes else []

    def field(self, key: ClassKey, name: str) -> list[str]:
        """`M.f` of a Lua table: the function defined as `M.f` (or `M:f`), or the one of the
        table's file a field is bound to (`M.iter = iter`)."""
        if ids := self.r.members.get(key, {}).get(name):
            return ids
        for path, said in self.r.attributes.get(key, {}).get(name, []):
            if said.startswith(ALIAS) and (ids := self.r.scoped[path].get(("", said[1:]))):
                return ids
        return []

    def member(self, facts: FileFacts, receiver: str, name: str) -> Result3 | None:
        """Lua: `X.f()` or `X:f()` where `local X = require("a.b")` is the function `f` of the
        table that module returns (`return M`; `M.f` or `M:f` defined there); nothing when
        the module lies outside the project or returns a table without `f` (filled at run
        time); probably its top-level `f` when what it returns is not read (`return { f = f
        }`); None when the receiver is no module. A standard table (`string`, `table`, `vim`)
        is no module of ours."""
        for imp in facts.imports:
            if imp.alias != receiver or imp.name:
                continue
            target = self.r.module_files(facts, imp.module)
            if target is None:
                return [], "", f"external module {imp.module}"
            tables = self.tables(facts, receiver)
            for key in tables:
                if ids := self.field(key, name):
                    return ids, "import", ""
            if tables:
                return [], "", f"no function {name} in the table {imp.module} returns"
            if ids := self.r.top(target, name)[0]:  # `return { f = f }`: probably that `f`
                return ids, "module-member", ""
            return [], "", f"{name}: what {imp.module} returns is built at run time (not read)"
        head = receiver.split(".", 1)[0]
        if head in GLOBALS and not self.r.members.get((facts.path, head)):
            where = "Neovim's API" if head == "vim" else "Lua's standard library"
            return [], "", f"{receiver}.{name}: {where}"
        return None
