"""The call graph's Kotlin rules (checked against kotlinc's bytecode: `graph-oracle --language
kotlin`).

Multiplatform source sets (`src/commonMain/`, `src/jvmMain/`, `src/iosTest/`, ...): which of
several definitions of one name a call can reach. Common code sees only common code (an
`expect` declaration, never a platform's `actual`); a platform's code sees its own source set
and the common one, its own first (its `actual` before the `expect`); a test source set sees
its platform's main one. A path outside that layout sees everything.

KotlinRules: members before extension functions of the same name, extension functions called
like methods (on project types and on Kotlin's own), companion objects, smart casts."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.core.models import CallSite
from app.graph.facts import CLASS_KINDS, FileFacts, symbol_id
from app.parse.calls import BOUND

if TYPE_CHECKING:
    from app.graph.resolve import ClassKey, Resolver

# What Kotlin's own types are too, for the extension functions a project declares on those:
# `fun Iterable<T>.appendTo()` is called on a List.
_COLLECTIONS = ("Collection", "MutableCollection", "Iterable", "MutableIterable")
_BUILTIN_SUPERTYPES = {
    "List": _COLLECTIONS,
    "MutableList": ("List", *_COLLECTIONS),
    "ArrayList": ("MutableList", "List", *_COLLECTIONS),
    "Set": _COLLECTIONS,
    "MutableSet": ("Set", *_COLLECTIONS),
    "HashSet": ("MutableSet", "Set", *_COLLECTIONS),
    "LinkedHashSet": ("MutableSet", "Set", *_COLLECTIONS),
    "MutableMap": ("Map",),
    "HashMap": ("MutableMap", "Map"),
    "LinkedHashMap": ("MutableMap", "Map"),
    "String": ("CharSequence", "Comparable"),
}
# The rule of a call that a type's member and an extension function of the same name both
# answer: Kotlin takes the member when the arguments fit it, the extension otherwise.
MEMBER_OR_EXTENSION = "member-or-extension"
_SOURCE_SET = re.compile(r"(?:^|/)src/([a-z]\w*?)(Main|Test)/")
# Intermediate source sets the default hierarchy puts above several platforms, and the
# platforms' source-set names (by prefix) below each.
_APPLE = ("ios", "macos", "tvos", "watchos")
_NATIVE = (*_APPLE, "linux", "mingw", "androidNative", "apple", "darwin", "posix", "unix")
_BELOW = {
    "native": _NATIVE,
    "apple": _APPLE,
    "darwin": _APPLE,
    "posix": ("linux", "macos", "ios", "tvos", "watchos", "apple", "darwin"),
    "jvmAndroid": ("jvm", "android"),
    "jvmCommon": ("jvm", "android"),
    "nonJvm": ("js", "wasm", *_NATIVE),
    "web": ("js", "wasm"),
}


def source_set(path: str) -> tuple[str, str] | None:
    """(`jvm`, `Main`) for `src/jvmMain/kotlin/...`; None outside the multiplatform layout."""
    found = _SOURCE_SET.search(path)
    return (found.group(1), found.group(2)) if found else None


def sees(caller_path: str, target_path: str) -> bool:
    """Whether code in `caller_path` can call a definition in `target_path`."""
    caller, target = source_set(caller_path), source_set(target_path)
    if caller is None or target is None:
        return True
    (mine, my_kind), (theirs, their_kind) = caller, target
    if their_kind == "Test" and my_kind != "Test":
        return False  # main code never sees tests
    if theirs == "common":
        return True
    if theirs == mine:
        return True
    return mine.startswith(_BELOW.get(theirs, ())) and mine != "common"


def nearest(caller_path: str, ids: list[str], path_of: Callable[[str], str]) -> list[str]:
    """Of several definitions, those the caller's source set sees, its own set's first; all
    of them when it sees none (the layout is not what this module reads)."""
    visible = [sid for sid in ids if sees(caller_path, path_of(sid))]
    if not visible:
        return ids
    mine = source_set(caller_path)
    own = [sid for sid in visible if mine is not None and source_set(path_of(sid)) == mine]
    own = own or [
        sid
        for sid in visible
        if mine is not None and (s := source_set(path_of(sid))) and s[0] == mine[0]
    ]
    return own or visible


class KotlinRules:
    """The resolver's Kotlin rules over its indexes: a type's own member comes before an
    extension function of the same name (Kotlin picks the member when both apply), and an
    extension function is called like a method (`x.onOptions()`)."""

    def __init__(self, resolver: Resolver) -> None:
        self.r = resolver
        self._by_name: dict[str, list[str]] | None = None
        self._on_types: dict[tuple[str, str], list[str]] | None = None

    def member_first(
        self, facts: FileFacts, key: ClassKey, call: CallSite
    ) -> tuple[list[str], str]:
        """In an extension function of a type defined elsewhere (`fun Module.includes()` in
        ModuleExt.kt, whose `this` is a Module): that type's own member of the call's name,
        as a self-call when no extension of that name competes with it (else the arguments,
        which the graph does not read, decide: MEMBER_OR_EXTENSION)."""
        if key in self.r.class_kinds:
            return [], ""
        # `fun <T : KoinScopeComponent> T.createScope()`: `this` is at least the bound. Kotlin's
        # class keys are per file, the bound's attribute is the function's.
        said = self.r.attributes.get((facts.path, call.caller), {}).get(BOUND + key[1])
        extended = said[0][1] if said else key[1]
        real = [k for k in self.r.type_keys(facts, extended, call.caller) if k != key]
        ids = self._own_members(real, call.callee)
        rivals = self._extensions_on().get((key[1], call.callee))  # anywhere: conservative
        return ids, MEMBER_OR_EXTENSION if rivals else "self-method"

    def extended_member(self, facts: FileFacts, ids: list[str], call: CallSite) -> list[str]:
        """A bare call whose definitions are all extension functions of one type (`modules(x)`
        in a lambda whose receiver is a KoinApplication): that type's own member of the
        name, when it has one (MEMBER_OR_EXTENSION: the arguments decide)."""
        receivers = {self.receiver(sid) for sid in ids}
        if not ids or len(receivers) != 1 or "" in receivers:
            return []
        real = self.r.type_keys(facts, receivers.pop(), call.caller)
        return self._own_members(real, call.callee)

    def _own_members(self, keys: list[ClassKey], name: str) -> list[str]:
        """The members named `name` the classes (and their bases) declare in their bodies:
        not the extension functions of theirs that the index keeps beside them."""
        found = self.r._members_of(keys, name)[0] if keys else []
        return [sid for sid in found if not self.receiver(sid)]

    def receiver(self, sid: str) -> str:
        """The type an extension function extends (`Module` of `fun Module.x()`), or ""."""
        sym = self.r.symbols[sid]
        if sym.language != "kotlin" or sym.kind != "function" or not sym.parent:
            return ""
        owner = self.r.symbols.get(symbol_id(sym.path, sym.parent))
        return sym.parent if owner is None or owner.kind in CLASS_KINDS else ""

    def on_builtin(self, type_name: str, name: str) -> list[str]:
        """The project's extension functions named `name` on a type Kotlin gives (`fun
        String.unquoted()`, at the top level or inside a class)."""
        types = (type_name, *_BUILTIN_SUPERTYPES.get(type_name, ()), "Any")
        on_types = self._extensions_on()
        return [sid for held in types for sid in on_types.get((held, name), [])]

    def on_type(self, keys: list[ClassKey], name: str) -> list[str]:
        """The project's extension functions named `name` on one of these project types."""
        return [
            sid
            for held in dict.fromkeys(key[1].rpartition(".")[2] for key in keys)
            for sid in self._extensions_on().get((held, name), [])
        ]

    def companions(self, keys: list[ClassKey]) -> list[ClassKey]:
        """The companion objects of these classes (`App.init()` calls `App.Companion.init`)."""
        found = [(scope, f"{name}.Companion") for scope, name in keys]
        return [key for key in found if key in self.r.class_kinds]

    @staticmethod
    def smart_cast(type_text: str, name: str) -> bool:
        """A call on a value declared `Any` of a method `Any` does not have: only a smart cast
        (`if (state is Finishing) state.addExceptionLocked()`) lets it compile."""
        return type_text == "Any" and name not in ("equals", "hashCode", "toString")

    def _extensions_on(self) -> dict[tuple[str, str], list[str]]:
        """(the type extended, the name) -> every extension function of the project, at the
        top level or inside a class (`fun String.unquoted()` in `Table`)."""
        if self._on_types is None:
            self._on_types = {}
            for sid, sym in self.r.symbols.items():
                if sym.language != "kotlin" or sym.kind not in ("function", "method"):
                    continue
                held = self.receiver(sid)
                if not held and sym.kind == "method" and "." in sym.parent:
                    owner = self.r.symbols.get(symbol_id(sym.path, sym.parent))
                    held = "" if owner is not None else sym.parent.rpartition(".")[2]
                if held:
                    self._on_types.setdefault((held, sym.name), []).append(sid)
        return self._on_types

    def extensions_named(self, name: str) -> list[str]:
        """Every extension function of the project with that name."""
        if self._by_name is None:
            self._by_name = {}
            for sid, sym in self.r.symbols.items():
                if self.receiver(sid):
                    self._by_name.setdefault(sym.name, []).append(sid)
        return list(self._by_name.get(name, []))
