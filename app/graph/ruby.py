"""Ruby's calls: methods looked up in Ruby's own order (a class, the modules it mixes in, then
its superclass), what a module's `included` hook mixes into whatever includes it, and the
classes `Foo.new`, `self.class.new`, a class method's bare `new` and `Foo.new(x).bar` make,
and `Foo.x`: Foo's class method, or one of the modules it extends. A class method and an
instance method of one name are two definitions (`Foo.self.x` and `Foo.x`): a class method's
own `self.x` and bare `x` call the class's, an instance method's the instance's."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from app.core.models import CallSite
from app.graph.facts import FileFacts, symbol_id
from app.parse.calls import SINGLETON, SINGLETON_BASE
from app.parse.definitions import RUBY_CLASS_SIDE

if TYPE_CHECKING:
    from app.graph.resolve import ClassKey, Resolver

# A module's methods that run when it is mixed in (`def self.included(base)`).
HOOKS = frozenset({"included", "extended", "prepended"})
# A module reopened in every file of a library (`module Liquid`) is one key per file, and a
# class that includes it still reaches its superclass after all of them.
MAX_ANCESTORS = 512
# Ruby's core classes a project class may inherit from; only `::Hash` is sure to mean the core
# one (a bare `Hash` inside `module Hashie` may be the project's own).
RUBY_CORE_CLASSES = frozenset(
    {"Array", "BasicObject", "Exception", "Hash", "IO", "Module", "Object", "Set"}
    | {"StandardError", "String", "Struct"}
)
_MADE = re.compile(r"((?:::)?\w+(?:::\w+)*)\.new(?:\(\))?")  # `Crate.new(items)`, `::A::B.new`


class RubyRules:
    """The resolver's Ruby lookups, over its indexes (`bases`, `members`, `named_scopes`)."""

    def __init__(self, resolver: Resolver) -> None:
        self.r = resolver
        # The bases written as a class's superclass (`class Trash < Dash`), not mixed in, and
        # those a module's `included` hook mixes into whatever includes it.
        self.superclasses: set[tuple[ClassKey, str, str]] = set()
        self.hooked: set[tuple[ClassKey, str, str]] = set()
        # Class methods (`def self.parse`) by class, and the modules a class's own methods
        # come from (`extend ClassMethods`, `class << self; include X; end`), as written.
        self.singletons: set[tuple[ClassKey, str]] = set()
        self.singleton_bases: dict[ClassKey, list[tuple[str, str]]] = {}
        # Class methods named apart from an instance method of their name (`Foo.self.x`).
        self.apart: set[str] = set()

    def index_bases(self, path: str, facts: FileFacts) -> None:
        """Which of a file's bases are superclasses, and which an `included` hook mixes in;
        its class methods and the modules they come from."""
        for a in facts.attributes:
            if a.type_text == SINGLETON:
                self.singletons.add(((path, a.owner), a.name))
            elif a.name == SINGLETON_BASE:
                self.singleton_bases.setdefault((path, a.owner), []).append((path, a.type_text))
        side = {
            s.qualified_name
            for s in facts.symbols
            if s.qualified_name.endswith(f"{RUBY_CLASS_SIDE}{s.name}")
        }
        self.apart.update(symbol_id(path, name) for name in side)
        starts = {s.qualified_name: s.start_line for s in facts.symbols}
        hooks = [s for s in facts.symbols if s.name in HOOKS]
        for b in facts.bases:
            key = (path, b.child)
            if starts.get(b.child) == b.line:  # on the `class X < Base` line
                self.superclasses.add((key, path, b.base))
            elif any(h.parent == b.child and h.start_line <= b.line <= h.end_line for h in hooks):
                self.hooked.add((key, path, b.base))

    def class_method(self, key: ClassKey, name: str) -> list[str]:
        """`Foo.name`: Foo's own class method, else the one the modules its class methods come
        from define (the last extended first), else its superclass's, which a subclass
        inherits; [] when none has it, and then Foo's instance methods are read
        (`module_function`, `extend self` make those class methods too)."""
        seen: set[ClassKey] = set()
        current: ClassKey | None = key
        while current is not None and current not in seen and len(seen) < MAX_ANCESTORS:
            seen.add(current)
            own = self.r.members.get(current, {}).get(name, [])
            if own and (current, name) in self.singletons:
                return self.side(own, class_side=True)
            for path, text in reversed(self.singleton_bases.get(current, [])):
                for base in self.r._base_keys(current, path, text):
                    if ids := self.r.member(self.ancestors(base)[0], name):
                        return ids
            current = self._superclass(current)
        return []

    def own_class(self, facts: FileFacts, call: CallSite) -> list[str]:
        """`self.class.x` in an instance method: the class method `x` of the caller's class."""
        key = self.r.class_of(facts, call.caller)
        return self.class_method(key, call.callee) if key is not None else []

    def _superclass(self, key: ClassKey) -> ClassKey | None:
        """The project class written as `key`'s superclass (`class Trash < Dash`), if any."""
        for path, text in self.r.bases.get(key, []):
            if (key, path, text) in self.superclasses:
                found = self.r._base_keys(key, path, text)
                return found[0] if found else None
        return None

    def class_side(self, symbol: str) -> bool:
        """Whether a symbol is a class method named apart from an instance method (`Foo.self.x`)."""
        return symbol in self.apart

    def side(self, ids: list[str], *, class_side: bool) -> list[str]:
        """Of a class's methods of one name, the class method or the instance method; both
        where the name has only one of them (Ruby's `module_function`, `extend self`)."""
        if not self.apart:
            return ids
        return [i for i in ids if (i in self.apart) == class_side] or ids

    def in_class_method(self, path: str, caller: str) -> bool:
        """Whether `caller` is a class method, whose `self` is the class."""
        sid = symbol_id(path, caller)
        sym = self.r.symbols.get(sid)
        if sym is None or not sym.parent:
            return False
        if sid in self.apart:
            return True
        key = (path, sym.parent)
        named = self.r.members.get(key, {}).get(sym.name, [])
        return (key, sym.name) in self.singletons and not any(i in self.apart for i in named)

    def ancestors(self, key: ClassKey) -> tuple[list[ClassKey], bool]:
        """The class and its ancestors in Ruby's lookup order; True when a base is outside."""
        order: list[ClassKey] = []
        self._walk(key, order, set())
        outside = any(
            not self.r._base_keys(current, path, text)
            for current in order
            for path, text in self.r.bases.get(current, [])
        )
        return order, outside

    def _walk(self, key: ClassKey, order: list[ClassKey], seen: set[ClassKey]) -> None:
        """Depth first: the modules a class mixes in (the last one first, each followed by its
        own), then its superclass and that one's. What a module's `included` hook mixes in
        comes before the module: it is included after it."""
        if key in seen or len(order) >= MAX_ANCESTORS:
            return
        seen.add(key)
        bases = self.r.bases.get(key, [])
        hooked = [b for b in bases if (key, *b) in self.hooked]
        for path, text in reversed(hooked):
            for base in self.r._base_keys(key, path, text):
                self._walk(base, order, seen)
        order.append(key)
        supers = [b for b in bases if (key, *b) in self.superclasses]
        mixed = [b for b in bases if b not in supers and b not in hooked]
        for path, text in [*reversed(mixed), *supers]:
            for base in self.r._base_keys(key, path, text):
                self._walk(base, order, seen)

    def classes(self, facts: FileFacts, call: CallSite, written: str) -> list[ClassKey]:
        """The classes a constant path (`Hashie.Mash`, `.Hashie.Mash` from the top) names from
        where the call is written: in a class's own body (`MethodLiteral.new` in `class
        Condition`), from inside that class."""
        r = self.r
        caller = r.symbols.get(symbol_id(facts.path, call.caller)) if call.caller else None
        inside = caller is not None and caller.kind in ("class", "module")
        nesting = r.nested_name(facts.path, call.caller) if inside else ""
        return [
            k
            for k in r._scope_keys(nesting or r.nesting(facts.path, call.caller), written)
            if (sym := r.symbols.get(symbol_id(*k))) is not None and sym.kind == "class"
        ]

    def new(self, facts: FileFacts, call: CallSite, written: str) -> list[str]:
        """`Hashie::Mash.new(...)`: the class's `initialize` (its own or inherited), else the
        class itself."""
        keys = self.classes(facts, call, written)
        if not keys:
            return []
        return self.r._members_of(keys, "initialize")[0] or [symbol_id(*keys[0])]

    def own_new(self, facts: FileFacts, call: CallSite) -> list[str]:
        """`self.class.new(...)` in a class's method, or a bare `new(...)` (in a class method,
        `def self.load ... new(data)`): the class's `initialize` (its own or inherited), else
        the class itself. (Other calls on `self.class` are class methods, which the facts do
        not tell from instance methods of the same name.)"""
        if call.callee != "new":
            return []
        key = self.r.class_of(facts, call.caller)
        sym = self.r.symbols.get(symbol_id(*key)) if key is not None else None
        if key is None or sym is None or sym.kind != "class":
            return []  # in a module: whatever class includes it
        return self.r.member(self.r.hierarchy(key)[0], "initialize") or [symbol_id(*key)]

    def made_in_place(self, facts: FileFacts, call: CallSite) -> list[str]:
        """`Crate.new(items).size`: the method of the class the receiver makes."""
        made = _MADE.fullmatch(call.receiver)
        if made is None:
            return []
        keys = self.classes(facts, call, made.group(1).replace("::", "."))
        return self.r._members_of(keys, call.callee)[0]
