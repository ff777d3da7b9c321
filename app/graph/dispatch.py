"""Methods that override or implement another: a call the graph resolved to an interface's
or a base class's method (`IOrderService.CreateOrderAsync`, what a type-aware compiler names
too) may run any project class's method that implements it (`OrderService.CreateOrderAsync`).
Read from the classes' bases the graph's facts hold, by name, at navigation time; the stored
edges keep naming what the call names."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from app.graph.facts import CLASS_KINDS, symbol_id

# Kinds whose methods are declarations only: a call of one runs an implementation.
ABSTRACT_KINDS = frozenset({"interface", "trait"})
MAX_DEPTH = 6  # levels of bases walked up or down
# What a base's text names: its last part (`Ardalis.Specification.Specification`,
# `models::Base`, `\App\Contracts\Service`).
_LAST_PART = re.compile(r"[\w$]+$")

Rows = dict[str, dict[str, Any]]
ONLY_IMPLEMENTATION = 0.75  # a call's confidence that it runs the one method it may run
ONE_OF_SEVERAL = 0.35  # ... one of several
DISPATCH_RULES = ("implementation", "override")  # `implementing`'s rules
THROUGH = "through "  # `dispatched_callers`' rules: `through IOrderService.CreateOrderAsync`


def is_dispatch(rule: str) -> bool:
    """Whether an entry's rule says it was reached by dispatch, not named by the call."""
    return rule in DISPATCH_RULES or rule.startswith(THROUGH)


class Hierarchy:
    """Project classes and their project bases, both ways, read once from the facts."""

    def __init__(
        self, symbols: Rows, by_name: dict[str, list[str]], facts: Iterable[tuple[str, str]]
    ) -> None:
        self.symbols = symbols
        self.bases: dict[str, list[str]] = defaultdict(list)  # class id -> base class ids
        self.subclasses: dict[str, list[str]] = defaultdict(list)
        for path, text in facts:
            for child, base, _line in json.loads(text).get("bases", []):
                child_id = symbol_id(path, child)
                for base_id in self._classes_named(by_name, base):
                    if base_id != child_id and base_id not in self.bases[child_id]:
                        self.bases[child_id].append(base_id)
                        self.subclasses[base_id].append(child_id)

    def _classes_named(self, by_name: dict[str, list[str]], text: str) -> list[str]:
        match = _LAST_PART.search(text)
        if not match:
            return []
        return [
            sid for sid in by_name.get(match.group(0), [])
            if self.symbols[sid]["kind"] in CLASS_KINDS and self.symbols[sid]["kind"] != "impl"
        ]  # fmt: skip

    def overridden(self, method: str) -> list[str]:
        """The methods of the project bases of `method`'s class that it overrides or
        implements (same name), nearest first."""
        return self._walk(method, self.bases)

    def implementations(self, method: str) -> list[str]:
        """The methods of the project subclasses of `method`'s class that override or
        implement it, nearest first."""
        return self._walk(method, self.subclasses)

    def _walk(self, method: str, links: dict[str, list[str]]) -> list[str]:
        row = self.symbols.get(method)
        if row is None or row["kind"] != "method" or not row["parent"]:
            return []
        start = symbol_id(row["path"], row["parent"])
        found: list[str] = []
        seen, level = {start}, [start]
        for _ in range(MAX_DEPTH):
            level = [c for key in level for c in links.get(key, []) if c not in seen]
            seen.update(level)
            for key in level:
                path, _, qualified = key.partition("::")
                sid = symbol_id(path, f"{qualified}.{row['name']}")
                if sid in self.symbols and sid not in found:
                    found.append(sid)
        return found

    def runs(self, base_method: str) -> int:
        """How many methods a call of `base_method` may run: its implementations, and itself
        unless its class only declares it (an interface, a trait)."""
        return len(self.implementations(base_method)) + (
            0 if self.declared_only(base_method) else 1
        )

    def declared_only(self, method: str) -> bool:
        """Whether `method`'s class only declares it (an interface, a trait)."""
        row = self.symbols[method]
        owner = self.symbols.get(symbol_id(row["path"], row["parent"]))
        return owner is not None and owner["kind"] in ABSTRACT_KINDS


def dispatched_callers(
    hierarchy: Hierarchy, method: str, incoming: Callable[[str], list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Edges, shaped as stored ones, from the callers of each method `method` overrides or
    implements: probable (0.75) when `method` is the only one such a call may run, else
    uncertain (0.35); never above the call's own confidence."""
    direct = {(e["path"], e["line"]) for e in incoming(method)}
    found: list[dict[str, Any]] = []
    for base in hierarchy.overridden(method):
        confidence = ONLY_IMPLEMENTATION if hierarchy.runs(base) == 1 else ONE_OF_SEVERAL
        rule = f"{THROUGH}{hierarchy.symbols[base]['qualified_name']}"
        for edge in incoming(base):
            if (edge["path"], edge["line"]) in direct:
                continue
            direct.add((edge["path"], edge["line"]))
            found.append(
                edge | {"callee": method, "confidence": min(edge["confidence"], confidence),
                        "rule": rule}
            )  # fmt: skip
    return found


def implementing(hierarchy: Hierarchy, method: str) -> list[dict[str, Any]]:
    """Edges, shaped as stored ones, from `method` to each project method that overrides or
    implements it, at that method's first line: what a call of `method` may run. Probable
    when it is the only one, else uncertain."""
    found = hierarchy.implementations(method)
    if not found:
        return []
    declared_only = hierarchy.declared_only(method)
    runs = len(found) + (0 if declared_only else 1)  # `Hierarchy.runs`, its walk done here
    confidence = ONLY_IMPLEMENTATION if runs == 1 else ONE_OF_SEVERAL
    rule = DISPATCH_RULES[0] if declared_only else DISPATCH_RULES[1]
    rows = hierarchy.symbols
    return [
        {"path": rows[sid]["path"], "caller": method, "callee": sid, "callee_text": "",
         "line": rows[sid]["start_line"], "confidence": confidence, "rule": rule}
        for sid in found
    ]  # fmt: skip
