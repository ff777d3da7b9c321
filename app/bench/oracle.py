"""`repolens-tui-bench graph-oracle`: sample call sites of a real repository, ask a type-aware
resolver (jedi, the TypeScript language service, javac, go/types, GCC, rustc, kotlinc, the Zig
compiler) where each goes, or for Ruby and PHP the repository's own tests under a tracer, and
score our edges by tier."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core.literal import literal
from app.core.models import TIERS, tier_of

# Our index's languages each oracle reads.
ORACLE_LANGUAGES = {
    "python": frozenset({"python"}),
    "typescript": frozenset({"typescript", "tsx"}),
    "javascript": frozenset({"javascript"}),
    "java": frozenset({"java"}),
    "go": frozenset({"go"}),
    "c": frozenset({"c"}),
    "cpp": frozenset({"cpp"}),
    "rust": frozenset({"rust"}),
    "kotlin": frozenset({"kotlin"}),
    "ruby": frozenset({"ruby"}),
    "php": frozenset({"php"}),
    "zig": frozenset({"zig"}),
}
_TS_UNNAMED = "(Anonymous function)"  # what TypeScript calls an arrow function's definition
# tree-sitter call nodes and the child naming what is called.
_CALL_NODES = {
    "python": {"call": "function"},
    "js": {
        "call_expression": "function",
        "new_expression": "constructor",
        "jsx_opening_element": "name",  # `<Editor post={p}>` renders the component
        "jsx_self_closing_element": "name",
    },
    "java": {"method_invocation": "name", "object_creation_expression": "type"},
    "go": {"call_expression": "function"},
    "c": {"call_expression": "function"},
    "cpp": {"call_expression": "function"},
    "rust": {"call_expression": "function"},
    "kotlin": {"call_expression": ""},  # no field names: see _kotlin_called
    "ruby": {"call": "method"},  # `f(x)`, `a.f`, `A::B.new`; a bare `f` reads as a variable
    "php": {
        "function_call_expression": "function",
        "member_call_expression": "name",
        "nullsafe_member_call_expression": "name",
        "scoped_call_expression": "name",  # `Foo::make()`, `parent::__construct()`
        "object_creation_expression": "",  # no field names: see _php_created
    },
}
_MEMBER_NAME = {
    "attribute": "attribute",
    "member_expression": "property",
    "selector_expression": "field",
    "field_expression": "field",  # C and C++: `a.f()`, `a->f()`
}
_NAMES = (
    "identifier",
    "simple_identifier",  # Kotlin
    "property_identifier",
    "private_property_identifier",
    "type_identifier",
    "field_identifier",
    "constant",  # Ruby's `Integer(x)`
    "name",  # PHP's
)
# C++'s names made of parts: the part that names the function.
_NAMED_BY_PART = (
    "qualified_identifier",
    "template_function",
    "template_method",
    "scoped_identifier",  # Rust's `Graph::new`
    "generic_function",  # Rust's `toposort::<G>`
)
# A constructor stands for its class: an edge to either one is the same target.
_CONSTRUCTORS = ("__init__", "constructor", "__new__", "initialize", "__construct")
EXAMPLES = 8  # wrong edges and false reasons shown per kind


class OracleUnavailable(Exception):
    """The oracle's tools are missing (node and its package, a JDK, a Go toolchain); the
    message says how to get them."""


@dataclass(frozen=True, slots=True)
class Site:
    """One call: the line our graph records it on (the call's first line) and where its
    called name stands (1-based line, 0-based column), which is what the oracle is asked."""

    path: str
    line: int
    name_line: int
    name_column: int
    name: str
    receiver: str = ""  # what the call is made on, as the graph writes it (`StringUtils`)


@dataclass(frozen=True, slots=True)
class Target:
    """A definition the oracle names: `path` relative to the root, "" outside the project."""

    path: str
    line: int
    name: str
    qualified: str = ""  # set instead of a line when known by name only (from a stub)


@dataclass(frozen=True, slots=True)
class OurCall:
    """What our graph says of one site: its edges (callee id, confidence, rule) or why none."""

    edges: tuple[tuple[str, float, str], ...] = ()
    reason: str = ""  # the unresolved reason; "" with no edges: the call was never extracted


# -- sampling ---------------------------------------------------------------------------------
def call_sites(path: str, text: str, language: str) -> list[Site]:
    """Every call in a file whose callee is a name (`f()`, `a.b.f()`, `new F()`), found with
    tree-sitter independently of our own queries, so calls those miss count as misses."""
    from tree_sitter_language_pack import get_parser

    from app.parse.call_text import receiver_text
    from app.parse.languages import grammar_for
    from app.parse.ruby_bare import bare_calls

    grammar = grammar_for(language)
    if grammar is None:
        return []
    data = text.encode("utf-8", "surrogateescape")
    tree = get_parser(grammar).parse(data)  # type: ignore[arg-type]
    lines = data.split(b"\n")
    wanted = _CALL_NODES.get(language) or _CALL_NODES["js"]
    out: list[Site] = []
    for node in _walk(tree.root_node):
        if language == "zig":
            if node.type == "SuffixExpr":
                out += [_site(path, node, called, made_on, lines) for called, made_on in
                        _zig_calls(node, data)]  # fmt: skip
            continue
        field_name = wanted.get(node.type)
        if language == "kotlin":
            called, made_on = _kotlin_called(node) if field_name is not None else (None, None)
        elif language == "php" and field_name == "":
            called, made_on = _php_created(node), None
        else:
            called = node.child_by_field_name(field_name) if field_name else None
            made_on = (
                node.child_by_field_name("object")  # Java's `a.f()`
                or node.child_by_field_name("receiver")  # Ruby's
                or node.child_by_field_name("scope")  # PHP's `Foo::make()`
            )
        if called is None:
            continue
        if called.type in _MEMBER_NAME:
            made_on = (
                called.child_by_field_name("object")
                or called.child_by_field_name("operand")  # Go's `a.f()`
                or called.child_by_field_name("argument")  # C's `a->f()`
                or called.child_by_field_name("value")  # Rust's `a.f()`
            )
            called = called.child_by_field_name(_MEMBER_NAME[called.type])
        elif called.type == "generic_type":  # Java's `new Box<T>()`
            called = called.named_children[0] if called.named_children else None
        while called is not None and called.type in _NAMED_BY_PART:  # `ns::f`, `f<int>`
            if called.type in ("qualified_identifier", "scoped_identifier") and made_on is None:
                made_on = called.child_by_field_name("scope") or called.child_by_field_name("path")
            called = called.child_by_field_name("name") or called.child_by_field_name("function")
        if called is not None and called.type == "qualified_name":  # PHP's `\\Foo\\bar()`
            called = _last_named(called, "name")
        if called is not None and called.type == "scoped_type_identifier":  # `new Outer.In()`
            called = called.named_children[-1] if called.named_children else None
        if called is None or called.type not in _NAMES:
            continue
        if node.type.startswith("jsx_") and made_on is None and not called.text[:1].isupper():
            continue  # `<div>`: an element of HTML's, no call
        receiver = (
            receiver_text(made_on.text.decode("utf-8", "replace"), language) if made_on else ""
        )
        out.append(_site(path, node, called, receiver, lines))
    if language == "ruby":  # `authorize`, `save`: a bare name no scope binds is a call
        out += [_site(path, name, name, "", lines) for name in bare_calls(tree.root_node)]
    return out


def _site(path: str, node: Any, called: Any, receiver: str, lines: list[bytes]) -> Site:
    name = (called.text or b"").decode("utf-8", "replace")
    row, column = called.start_point
    # Columns are counted in characters by both oracles, tree-sitter counts bytes.
    character = len(lines[row][:column].decode("utf-8", "replace"))
    return Site(path, node.start_point.row + 1, row + 1, character, name, receiver)


def _zig_calls(node: Any, data: bytes) -> list[tuple[Any, str]]:
    """A Zig SuffixExpr's calls, each with what it is made on: `f(x)` (its first name, then
    arguments) and each `.name(args)` step (`self.list.append(x)`: `self.list`)."""
    children = node.children
    out: list[tuple[Any, str]] = []
    if len(children) > 1 and (children[0].type, children[1].type) == (
        "IDENTIFIER",
        "FnCallArguments",
    ):
        out.append((children[0], ""))
    for child in children:
        if child.type != "FieldOrFnCall":
            continue
        called = child.child_by_field_name("function_call")
        if called is not None and called.type == "IDENTIFIER":
            made_on = data[node.start_byte : child.start_byte].decode("utf-8", "replace")
            out.append((called, "".join(made_on.split())))
    return out


def _kotlin_called(node: Any) -> tuple[Any, Any]:
    """A Kotlin call's name and what it is made on: `f()` (a simple_identifier first), or
    `a.b.f()` (a navigation_expression: `a.b`, then the suffix `.f`); others (`f()()`,
    `(x)()`) name nothing."""
    head = node.named_children[0] if node.named_children else None
    if head is not None and head.type == "simple_identifier":
        return head, None
    if head is None or head.type != "navigation_expression" or len(head.named_children) < 2:
        return None, None
    suffix = head.named_children[-1]
    names = [c for c in suffix.named_children if c.type == "simple_identifier"]
    return (names[0] if names else None), head.named_children[0]


def _php_created(node: Any) -> Any:
    """The class a PHP `new Foo(...)` / `new \\A\\Foo` names (None: `new $class`)."""
    named = [c for c in node.named_children if c.type in ("name", "qualified_name")]
    if not named:
        return None
    return named[0] if named[0].type == "name" else _last_named(named[0], "name")


def _last_named(node: Any, kind: str) -> Any:
    found = [c for c in node.named_children if c.type == kind]
    return found[-1] if found else None


def _walk(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def sample_sites(sites: list[Site], n: int, seed: int) -> list[Site]:
    """`n` sites drawn with a fixed seed (the same repository and seed: the same sample)."""
    ordered = sorted(set(sites), key=lambda s: (s.path, s.name_line, s.name_column, s.line))
    if n >= len(ordered):
        return ordered
    picked = random.Random(seed).sample(ordered, n)
    return sorted(picked, key=lambda s: (s.path, s.name_line, s.name_column))


# -- our graph --------------------------------------------------------------------------------
class OurGraph:
    """The published graph tables, indexed by where each call is."""

    def __init__(
        self,
        symbols: list[dict[str, Any]],
        edges: list[dict[str, Any]],
        sites: Iterable[Site] = (),
        root: Path | None = None,
    ) -> None:
        self.root = root  # the repository, to read an oracle target's line
        self.symbols = {row["id"]: row for row in symbols}
        self.by_path: dict[str, list[dict[str, Any]]] = {}
        for row in symbols:
            self.by_path.setdefault(row["path"], []).append(row)
        self.at: dict[tuple[str, int, str], list[dict[str, Any]]] = {}
        self.recorded: dict[tuple[str, int], set[str]] = {}  # the names our calls carry
        for row in edges:
            name = row["callee_text"].rsplit(".", 1)[-1]
            self.at.setdefault((row["path"], row["line"], name), []).append(row)
            self.recorded.setdefault((row["path"], row["line"]), set()).add(name)
        # The names written at each call line (every site of the repository, not the sample).
        self.written: dict[tuple[str, int], set[str]] = {}
        for site in sites:
            self.written.setdefault((site.path, site.line), set()).add(site.name)

    @classmethod
    def from_store(
        cls, store: Any, sites: Iterable[Site] = (), root: Path | None = None
    ) -> OurGraph:
        from app.store.graph_tables import GRAPH_EDGES, GRAPH_SYMBOLS

        symbols = store.read_table(GRAPH_SYMBOLS).to_pylist()
        return cls(symbols, store.read_table(GRAPH_EDGES).to_pylist(), sites, root)

    def call(self, site: Site) -> OurCall:
        rows = self.at.get((site.path, site.line, site.name), []) or self._renamed(site)
        # Two calls of one name on a line (`StringUtils.isEmpty(a) || ArrayUtils.isEmpty(b)`):
        # the one made on what the site's call is made on.
        if site.receiver and len({r["callee_text"] for r in rows}) > 1:
            written = f"{site.receiver}.{site.name}"
            rows = [r for r in rows if r["callee_text"] == written] or rows
        edges = {
            (r["callee"], round(float(r["confidence"]), 3), r["rule"]) for r in rows if r["callee"]
        }
        if edges:
            return OurCall(tuple(sorted(edges)))
        reasons = sorted({r["rule"] for r in rows if not r["callee"]})
        return OurCall((), reasons[0] if reasons else "")

    def _line(self, target: Target) -> str:
        if self.root is None:
            return ""
        try:
            with (self.root / target.path).open(encoding="utf-8", errors="replace") as handle:
                return next((t for i, t in enumerate(handle, 1) if i == target.line), "")
        except OSError:
            return ""

    def _names_function(self, target: Target) -> bool:
        """The target is a function expression on its line: `function NAME` written there,
        or TypeScript's name for an arrow or an unnamed function (`static create = (...) =>`,
        `addIssue = (sub) => {...}`: the service goes to the arrow, not to the field)."""
        if target.name == _TS_UNNAMED:
            return True
        text = self._line(target)
        return re.search(rf"\bfunction\s+{re.escape(target.name)}\b", text) is not None

    def _names_class(self, target: Target) -> bool:
        """The target is a class expression on its line (`module.exports = class NAME`)."""
        text = self._line(target)
        return re.search(rf"=\s*class\s+{re.escape(target.name)}\b", text) is not None

    def _alias_of(self, target: Target) -> str:
        """The definition a module-level alias on the target's line names (zod's `const
        stringType = ZodString.create;`, where the TS service stops): a call of the alias
        runs it."""
        name = re.escape(target.name)
        written = re.fullmatch(
            rf"\s*(?:export\s+)?(?:(?:const|let|var)\s+)?{name}\s*=\s*([\w$.]+)\s*;?\s*",
            self._line(target),
        )
        sid = f"{target.path}::{written.group(1)}" if written else ""
        return sid if sid in self.symbols else ""

    def _renamed(self, site: Site) -> list[dict[str, Any]]:
        """Our record of a call of a local alias (`qn = self.quote_name` ... `qn(x)`), which
        carries the name it stands for: on the site's line, the one name we record that is
        not written there, when the site is the one written name we record nothing under."""
        where = (site.path, site.line)
        recorded = self.recorded.get(where, set())
        written = self.written.get(where, {site.name})
        unwritten = recorded - written
        if len(unwritten) != 1 or len(written - recorded) != 1:
            return []
        return self.at[(site.path, site.line, unwritten.pop())]

    def symbol_at(self, target: Target) -> str:
        """The id of our innermost definition holding the oracle's target line, named as it
        ("" when none: a variable, a parameter, a definition we do not keep)."""
        if target.qualified:
            sid = f"{target.path}::{target.qualified}"
            return sid if sid in self.symbols else ""
        holding = [
            row
            for row in self.by_path.get(target.path, [])
            if row["start_line"] <= target.line <= row["end_line"]
        ]
        named = [row for row in holding if row["name"] == target.name]
        if not named and target.name in _CONSTRUCTORS:  # a constructor: its class
            named = [row for row in holding if row["kind"] != "method"]
        if not named and self._names_function(target):
            # `module.exports = function query(...)`: our definition is named by where it is
            # assigned, the oracle's by the function expression (a parameter on that line
            # is no such target: the line must say `function NAME`).
            named = [
                row
                for row in holding
                if row["start_line"] == target.line and row["kind"] in ("function", "method")
            ]
        if not named and self._names_class(target):  # `module.exports = class Application`
            named = [
                row
                for row in holding
                if row["start_line"] == target.line and row["kind"] == "class"
            ]
        if named:
            return str(min(named, key=_span)["id"])
        if aliased := self._alias_of(target):  # `const stringType = ZodString.create;`
            return aliased
        # C++ and Kotlin overloads, and a Rust type's methods of one name in several impl
        # blocks (its own and a trait's), share one id and one row, which holds the first
        # one's lines only (a reopened namespace's row its first block): the file's one
        # definition of that name is the one the compiler picked.
        named_here = {
            row["id"]
            for row in self.by_path.get(target.path, [])
            if row["name"] == target.name and row.get("language") in ("c", "cpp", "rust", "kotlin")
        }
        if len(named_here) == 1:
            return named_here.pop()
        # An overload signature the oracle picked for this call (`write(line: string): void;`
        # above `write(arg: any) {...}`): the same function as its implementation.
        container = min(holding, key=_span)["qualified_name"] if holding else ""
        siblings = [
            row
            for row in self.by_path.get(target.path, [])
            if row["name"] == target.name and row["parent"] == container
        ]
        if not siblings:
            return ""
        after = [row for row in siblings if row["start_line"] > target.line] or siblings
        return str(min(after, key=lambda row: abs(row["start_line"] - target.line))["id"])


def _span(row: dict[str, Any]) -> int:
    return int(row["end_line"] - row["start_line"])


def same_target(ours: str, oracle: Iterable[str]) -> bool:
    """Our callee is the oracle's definition (a class and its constructor count as one)."""
    for theirs in oracle:
        if ours == theirs or any(
            ours == f"{theirs}.{c}" or theirs == f"{ours}.{c}" for c in _CONSTRUCTORS
        ):
            return True
    return False


# -- scoring ----------------------------------------------------------------------------------
@dataclass(slots=True)
class OracleReport:
    repository: str
    language: str
    oracle: str
    sites: int = 0
    oracle_in_project: int = 0  # sites the oracle sends to a project definition we keep
    oracle_project_other: int = 0  # ... to a project line that is no definition of ours
    oracle_external: int = 0  # ... outside the project (library, builtins)
    oracle_unresolved: int = 0  # sites the oracle gives no definition for
    edges_by_tier: dict[str, int] = field(default_factory=dict)  # judged edges, per tier
    correct_by_tier: dict[str, int] = field(default_factory=dict)
    precision: dict[str, float | None] = field(default_factory=dict)
    recall_certain_probable: float | None = None
    recall_all: float | None = None
    ours_unresolved: int = 0  # sites with no edge of ours and a reason
    ours_not_extracted: int = 0  # sites our graph holds nothing for
    reasons: dict[str, int] = field(default_factory=dict)  # our unresolved, by kind of reason
    false_reasons: dict[str, int] = field(default_factory=dict)  # those that are a project def
    false_reason_share: float | None = None
    wrong_lines: int = 0  # right id, but the oracle's line is outside our symbol (an overload)
    by_rule: dict[str, list[int]] = field(default_factory=dict)  # rule -> [judged edges, right]
    examples: dict[str, list[str]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def reason_kind(reason: str) -> str:
    """An unresolved reason without the names in it: `no method get on Client` -> `no method`."""
    for kind in (
        "external import",
        "external module",
        "the language's own",
        "no definition",
        "no method",
        "inherited from a class outside the project",
        "dynamic call",
        "ambiguous",
        "not extracted",
    ):
        if kind in reason:
            return kind
    if "a type outside the project" in reason:
        return "method of a type outside the project"
    if "is not a type defined in the project" in reason:
        return "not a type defined in the project"
    return " ".join(reason.split()[:3])


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def _where(site: Site) -> str:
    return literal(f"{site.path}:{site.name_line} {site.name}")


def score(
    report: OracleReport,
    graph: OurGraph,
    sites: list[Site],
    answers: list[list[Target]] | list[list[Target] | None],
    examples_kept: int = EXAMPLES,
) -> OracleReport:
    """Fill the report from each site's oracle answer (None: the oracle failed on that
    site, which counts as unresolved by the oracle) and our graph's record of it; keep
    `examples_kept` disagreements of each kind."""
    edges_by_tier: Counter[str] = Counter()
    correct_by_tier: Counter[str] = Counter()
    by_rule: dict[str, list[int]] = {}
    reasons: Counter[str] = Counter()
    false_reasons: Counter[str] = Counter()
    kinds = ("wrong certain", "wrong probable", "false reason", "missed", "oracle elsewhere")
    examples: dict[str, list[str]] = {kind: [] for kind in kinds}
    recall_cp = recall_all = 0
    for site, answer in zip(sites, answers, strict=True):
        ours = graph.call(site)
        targets = answer or []
        project = [t for t in targets if t.path]
        ids = {sid for t in project if (sid := graph.symbol_at(t))}
        report.sites += 1
        if not targets:
            report.oracle_unresolved += 1
        elif ids:
            report.oracle_in_project += 1
        elif project:
            report.oracle_project_other += 1
            examples["oracle elsewhere"].append(
                f"{_where(site)}: oracle {literal(_elsewhere(project))} {literal(project[0].name)}"
            )
        else:
            report.oracle_external += 1
        if ours.edges and targets:  # judged only where the oracle knows
            for callee, confidence, rule in ours.edges:
                tier = tier_of(confidence)
                edges_by_tier[tier] += 1
                right = same_target(callee, ids)
                correct_by_tier[tier] += right
                counts = by_rule.setdefault(rule, [0, 0])
                counts[0] += 1
                counts[1] += right
                if not right and tier != "uncertain":
                    said = ", ".join(sorted(ids)) or _elsewhere(project)
                    examples[f"wrong {tier}"].append(
                        f"{_where(site)}: ours {literal(callee)} ({rule}), oracle {literal(said)}"
                    )
                if right and tier == "certain":
                    report.wrong_lines += _outside_symbol(graph, callee, project)
        if ids:
            found = [e for e in ours.edges if same_target(e[0], ids)]
            recall_all += bool(found)
            recall_cp += any(e[1] >= 0.7 for e in found)
            if not any(e[1] >= 0.7 for e in found):
                examples["missed"].append(
                    f"{_where(site)}: oracle {literal(', '.join(sorted(ids)))}, "
                    f"ours {literal(_ours(ours))}"
                )
        if not ours.edges:
            if not ours.reason:
                report.ours_not_extracted += 1
                continue
            report.ours_unresolved += 1
            kind = reason_kind(ours.reason)
            reasons[kind] += 1
            if ids:
                false_reasons[kind] += 1
                examples["false reason"].append(
                    f"{_where(site)}: ours {literal(ours.reason)!r}, oracle "
                    f"{literal(', '.join(sorted(ids)))}"
                )
    report.edges_by_tier = {t: edges_by_tier[t] for t in TIERS}
    report.correct_by_tier = {t: correct_by_tier[t] for t in TIERS}
    report.precision = {t: _ratio(correct_by_tier[t], edges_by_tier[t]) for t in TIERS}
    report.by_rule = dict(sorted(by_rule.items(), key=lambda item: -item[1][0]))
    report.recall_certain_probable = _ratio(recall_cp, report.oracle_in_project)
    report.recall_all = _ratio(recall_all, report.oracle_in_project)
    report.reasons = dict(reasons.most_common())
    report.false_reasons = dict(false_reasons.most_common())
    report.false_reason_share = _ratio(sum(false_reasons.values()), report.ours_unresolved)
    report.examples = {kind: lines[:examples_kept] for kind, lines in examples.items()}
    return report


def _ours(ours: OurCall) -> str:
    """Our answer in a few words: the edges (callee, confidence, rule) or the reason."""
    if not ours.edges:
        return ours.reason or "not extracted"
    shown = ", ".join(f"{callee} {conf} {rule}" for callee, conf, rule in ours.edges[:3])
    more = len(ours.edges) - 3
    return shown + (f" and {more} more" if more > 0 else "")


def _elsewhere(project: list[Target]) -> str:
    if not project:
        return "outside the project"
    first = project[0]
    if first.qualified:
        return f"{first.path}::{first.qualified} (a stub's name we hold no symbol for)"
    return f"{first.path}:{first.line}"


def _outside_symbol(graph: OurGraph, callee: str, project: list[Target]) -> int:
    row = graph.symbols.get(callee)
    if row is None or not project:
        return 0
    # A stub's target has no line to check; another file's (an `actual` beside our `expect`)
    # says nothing of our row's lines.
    lined = [t for t in project if not t.qualified and t.path == row["path"]]
    return int(
        bool(lined) and not any(row["start_line"] <= t.line <= row["end_line"] for t in lined)
    )


def format_report(r: OracleReport) -> str:
    def pct(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.3f}"

    tiers = "  ".join(
        f"{t} {pct(r.precision.get(t))} ({r.correct_by_tier.get(t, 0)}/{r.edges_by_tier.get(t, 0)})"
        for t in TIERS
    )
    lines = [
        f"{literal(r.repository)} ({r.language}, oracle {r.oracle}): {r.sites} call sites",
        f"  oracle: {r.oracle_in_project} to a project definition, {r.oracle_external} outside, "
        f"{r.oracle_project_other} to a project line that is no definition, "
        f"{r.oracle_unresolved} unresolved",
        f"  precision per edge: {tiers}",
        f"  precision per rule: {_per_rule(r.by_rule)}",
        f"  recall of the oracle's project targets: certain+probable "
        f"{pct(r.recall_certain_probable)}, all tiers {pct(r.recall_all)}",
        f"  ours: {r.ours_unresolved} unresolved, {r.ours_not_extracted} not extracted; "
        f"false reasons {sum(r.false_reasons.values())} of {r.ours_unresolved} "
        f"({pct(r.false_reason_share)})",
        f"  reasons: {literal(_counts(r.reasons))}",
        f"  false:   {literal(_counts(r.false_reasons))}",
        f"  certain edges to the right id whose lines hold another definition: {r.wrong_lines}",
        f"  seconds: {', '.join(f'{k} {v}' for k, v in r.seconds.items())}",
    ]
    for kind, examples in r.examples.items():
        if examples:
            lines.append(f"  {kind}:")
            lines.extend(f"    {line}" for line in examples)
    return "\n".join(lines)


def _per_rule(by_rule: dict[str, list[int]]) -> str:
    return (
        ", ".join(f"{rule} {right}/{edges}" for rule, (edges, right) in by_rule.items()) or "none"
    )


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items()) or "none"


# -- the command ------------------------------------------------------------------------------
def run_oracle(
    root: Path,
    settings: Any,
    language: str,
    sample: int,
    seed: int,
    node_dir: Path | None = None,
    examples: int = EXAMPLES,
) -> OracleReport:
    """Index `root` (no vectors), sample its call sites, ask the oracle, score our graph."""
    import time

    from app.service import Service
    from app.store.graph_tables import GRAPH_FILES
    from app.store.store import Store

    # Before minutes of indexing: is the oracle there at all?
    if language == "java":
        from app.bench.oracle_java import java_setup

        java_setup()
    elif language == "go":
        from app.bench.oracle_go import go_setup

        go_setup()
    elif language in ("c", "cpp"):
        from app.bench.oracle_gcc import gcc_setup

        gcc_setup(language)
    elif language == "rust":
        from app.bench.oracle_rust import rust_setup

        rust_setup()
    elif language == "kotlin":
        from app.bench.oracle_kotlin import kotlin_setup

        kotlin_setup()
    elif language == "ruby":
        from app.bench.oracle_ruby import ruby_setup

        ruby_setup()
    elif language == "php":
        from app.bench.oracle_php import php_setup

        php_setup()
    elif language == "zig":
        from app.bench.oracle_zig import zig_setup

        zig_setup()
    elif language != "python":
        from app.bench.oracle_ts import node_setup

        node_setup(node_dir)
    started = time.perf_counter()
    service = Service(root, settings)
    service.index(with_vectors=False)
    store = Store.open(service.index_dir)
    seconds = {"index": round(time.perf_counter() - started, 1)}
    languages = ORACLE_LANGUAGES[language]
    files = sorted(
        (row["path"], row["language"])
        for row in store.read_table(GRAPH_FILES, ["path", "language"]).to_pylist()
        if row["language"] in languages
    )
    sites: list[Site] = []
    for path, lang in files:
        text = (service.root / path).read_text(encoding="utf-8", errors="surrogateescape")
        sites.extend(call_sites(path, text, lang))
    picked = sample_sites(sites, sample, seed)
    started = time.perf_counter()
    if language == "python":
        from app.bench.oracle_python import jedi_answers

        answers = jedi_answers(service.root, picked)
        name = "jedi"
    elif language == "java":
        from app.bench.oracle_java import java_answers

        answers, name = java_answers(service.root, picked)
    elif language == "go":
        from app.bench.oracle_go import go_answers

        answers, name = go_answers(service.root, picked)
    elif language in ("c", "cpp"):
        from app.bench.oracle_gcc import gcc_answers

        answers, name = gcc_answers(service.root, picked, language, [p for p, _ in files])
    elif language == "rust":
        from app.bench.oracle_rust import rust_answers

        answers, name = rust_answers(service.root, picked)
    elif language == "kotlin":
        from app.bench.oracle_kotlin import kotlin_answers

        answers, name = kotlin_answers(service.root, picked)
    elif language == "ruby":
        from app.bench.oracle_ruby import ruby_answers

        answers, name = ruby_answers(service.root, picked)
    elif language == "php":
        from app.bench.oracle_php import php_answers

        answers, name = php_answers(service.root, picked)
    elif language == "zig":
        from app.bench.oracle_zig import zig_answers

        answers, name = zig_answers(service.root, picked)
    else:
        from app.bench.oracle_ts import ts_answers

        answers, name = ts_answers(service.root, picked, node_dir)
    seconds["oracle"] = round(time.perf_counter() - started, 1)
    report = OracleReport(str(service.root), language, name)
    report.seconds = seconds
    return score(report, OurGraph.from_store(store, sites, service.root), picked, answers, examples)
