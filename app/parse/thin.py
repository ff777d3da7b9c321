"""Thin definitions: a function whose whole body forwards to one call (a wrapper) or only
reads or sets fields (an accessor), a class with no body (empty). Search ranks the code that
does the work above them."""

from __future__ import annotations

import re
from collections import deque

from tree_sitter import Node

from app.parse.definitions import Definition, find_body

WRAPPER = "wrapper"
ACCESSOR = "accessor"
EMPTY = "empty"
FUNCTION_KINDS = frozenset({"function", "method"})
CLASS_KINDS = frozenset({"class", "struct"})
MAX_ACCESSOR_STATEMENTS = 8  # a constructor that stores its arguments, or a setter
_CALLS = frozenset(
    {
        "call_expression",
        "new_expression",
        "call",
        "method_invocation",
        "invocation_expression",
        "object_creation_expression",
        "function_call_expression",
        "member_call_expression",
        "scoped_call_expression",
        "macro_invocation",
    }
)
# Nodes that only decorate the value they hold: `(x)`, `x as T`, `await x`, `return x`.
_TRANSPARENT = frozenset(
    {
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
        "await_expression",
        "await",
        "type_assertion",
        "expression_statement",
        "return_statement",
        "return",
    }
)
# Statement lists: a wrapper's holds exactly one statement (Kotlin and Swift: `statements`).
_BLOCK_LISTS = frozenset({"statement_list", "body_statement", "statements"})
_LISTS = _BLOCK_LISTS | {"expression_list"}
_COMMENTS = frozenset({"comment", "line_comment", "block_comment"})
_RETURNS = frozenset({"return_statement", "return"})
# Kotlin's and Swift's return share a node type with throw, break and continue.
_JUMPS = frozenset({"jump_expression", "control_transfer_statement"})
# Children that are no value: comments, Swift's `try` keyword, Kotlin's `return@label`.
_SKIPPED = _COMMENTS | {"try_operator", "label"}
_HANDLERS = frozenset({"catch_clause", "except_clause"})
_THROWS = frozenset({"throw_statement", "raise_statement"})
# Statements and calls that only check their arguments, per language's spelling.
_ASSERTS = frozenset({"assert_statement"})
_CHECK_CALLS = frozenset(
    {b"precondition", b"dispatchPrecondition", b"assert", b"debug_assert", b"assert_eq",
     b"assert_ne", b"debug_assert_eq", b"debug_assert_ne", b"require", b"requireNotNull",
     b"check", b"checkNotNull", b"requireNonNull", b"ThrowIfNull", b"ThrowIfNullOrEmpty"}
)  # fmt: skip
_THEN_BLOCKS = frozenset({"block", "statement_block", "compound_statement"})
_GIVE_UP = frozenset({"raise_statement", "throw_statement", "pass_statement"})
_ASSIGNMENTS = frozenset({"assignment", "assignment_expression", "assignment_statement"})
# `self.x`, `this.x`, `r.x`: a field of an object.
_FIELDS = frozenset(
    {"attribute", "member_expression", "selector_expression", "field_expression", "field_access",
     "member_access_expression", "navigation_expression"}
)  # fmt: skip
# Bare names: in a method, a member reached without `this`.
_NAMES = frozenset({"identifier", "field_identifier", "simple_identifier"})
# Kotlin's and Swift's assignment target; a bare name in it is the receiver's property (a
# local would need a declaration, which is no assignment).
_ASSIGNABLE = "directly_assignable_expression"
# Function literals passed as arguments, and the bodies that hold their statements.
_LAMBDAS = frozenset(
    {"lambda_literal", "arrow_function", "function_expression", "function", "closure_expression",
     "lambda_expression", "func_literal", "do_block", "anonymous_function"}
)  # fmt: skip
_LAMBDA_BODIES = frozenset(
    {"statements", "statement_block", "block", "compound_statement", "body_statement"}
)
_MOST_NODES = 256
# Statements that branch, loop or guard: a lambda of one of them still runs work of its own
# (`synchronized(this) { if (...) { ... } }`, `queue.sync { for x in xs { ... } }`).
_CONTROL = frozenset(
    {"if_statement", "if_expression", "if", "unless", "guard_statement", "for_statement",
     "for_in_statement", "enhanced_for_statement", "foreach_statement", "for_expression",
     "for_range_loop", "for", "while_statement", "while_expression", "while", "until",
     "loop_expression", "do_statement", "switch_statement", "switch_expression",
     "expression_switch_statement", "type_switch_statement", "select_statement",
     "when_expression", "match_expression", "case", "try_statement", "begin"}
)  # fmt: skip
# Operators that compute a value from others (`max(0, a - b)`, `bool(a and not b)`): a call
# whose arguments hold one does work of its own. Not `??` / `?:` (a default), nor `+` on a
# string literal (a message built for an error).
_OPERATORS = frozenset(
    {"binary_expression", "binary_operator", "boolean_operator", "comparison_operator",
     "not_operator", "additive_expression", "multiplicative_expression",
     "comparison_expression", "equality_expression", "conjunction_expression",
     "disjunction_expression"}
)  # fmt: skip
_DEFAULTS = frozenset({b"??", b"?:"})
_STRINGS = frozenset(
    {"string", "string_literal", "interpreted_string_literal", "raw_string_literal",
     "line_string_literal", "template_string", "encapsed_string", "concatenated_string"}
)  # fmt: skip
# A fluent method's last statement hands its receiver back (`return this;`, `return *this;`,
# `return $this;`, Swift's `return self`, Ruby's and Rust's bare `self`): no work of its own.
_RETURNS_SELF = re.compile(rb"(?:return\s*)?\*?\s*(?:this|self|\$this)\s*;?")
_SWIFT_ACCESSORS = frozenset({"computed_getter", "computed_setter", "computed_modify"})
_KOTLIN_ACCESSORS = frozenset({"getter", "setter"})
# What a setter stores: a name, `self`/`this`, a literal (or a field, or one call's result).
_PLAIN_VALUES = frozenset(
    {"identifier", "this", "self", "true", "false", "none", "null", "nil", "undefined",
     "integer", "float", "number", "string", "interpreted_string_literal", "int_literal",
     "simple_identifier", "this_expression", "self_expression", "boolean_literal",
     "integer_literal", "string_literal", "line_string_literal", "null_literal"}
)  # fmt: skip


def thinness(d: Definition) -> str:
    """WRAPPER, ACCESSOR, EMPTY, or "" for a definition that does work of its own."""
    if d.kind in CLASS_KINDS:
        return EMPTY if _bodiless(d.core) else ""
    if d.kind not in FUNCTION_KINDS:
        return ""
    if d.core.type == "property_declaration":
        # Every accessor thin makes the property thin; a bare name in one is a member.
        members = frozenset[bytes]() if d.kind == "method" else None
        kinds = {_thin_body(body, members) for body in _accessor_bodies(d.core)}
    else:
        whole = find_body(d.core)
        members = _outside_names(d.core, whole) if d.kind == "method" and whole else None
        kinds = {_thin_body(whole, members)} if whole is not None else set()
    if not kinds or "" in kinds:
        return ""
    return kinds.pop() if len(kinds) == 1 else ACCESSOR


def _thin_body(whole: Node, members: frozenset[bytes] | None) -> str:
    body = _unguarded(whole)
    if _forwards(body):
        return WRAPPER
    if _accesses(body, members):
        return ACCESSOR
    return ""


def _accessor_bodies(core: Node) -> list[Node]:
    """The bodies of a property's accessors: C#'s `get { }` / `=> x`, Swift's computed
    value (or its `get` / `set`), Kotlin's getter and setter (siblings of the declaration).
    Observers and delegates do work of their own: no body is returned for them."""
    if (accessors := core.child_by_field_name("accessors")) is not None:
        found = (a.child_by_field_name("body") for a in accessors.named_children)
        return [body for body in found if body is not None]
    value = core.child_by_field_name("value")
    if value is not None and value.type == "arrow_expression_clause":
        return [value]
    if (computed := core.child_by_field_name("computed_value")) is not None:
        parts = [c for c in computed.named_children if c.type in _SWIFT_ACCESSORS]
        if not parts:
            return [computed]
        lists = (next((s for s in p.named_children if s.type == "statements"), None) for p in parts)
        return [body for body in lists if body is not None]
    bodies: list[Node] = []
    node = core.next_named_sibling
    while node is not None and node.type in _KOTLIN_ACCESSORS:
        bodies.extend(c for c in node.named_children if c.type == "function_body")
        node = node.next_named_sibling
    return bodies


def _bodiless(core: Node) -> bool:
    """A class that declares only its name, fields in its header and a base
    (`class MissingPropertyException(msg: String) : Exception(msg)`, `record Point(int X);`)
    or whose body holds nothing."""
    body = find_body(core)  # breadth first: Go's fields sit under its struct_type
    return body is None or not any(c.type not in _COMMENTS for c in body.named_children)


def _unguarded(body: Node) -> Node:
    """The block a body runs under `try`, when the body is only that `try` and its handlers
    only give up (`return None`, `raise`, `pass`): the guard adds no work of its own."""
    statements = _statements(body)
    if len(statements) != 1 or statements[0].type != "try_statement":
        return body
    guarded = statements[0].child_by_field_name("body")
    handlers = [c for c in statements[0].named_children if c != guarded]
    if guarded is None or not all(_gives_up(handler) for handler in handlers):
        return body
    return guarded


def _gives_up(handler: Node) -> bool:
    """A catch / except clause whose block returns nothing or a plain value, or re-raises."""
    if handler.type not in _HANDLERS:
        return False  # `finally`, `else`: work of their own
    blocks = [c for c in handler.named_children if c.type in ("block", "statement_block")]
    if len(blocks) != 1:
        return False
    statements = _statements(blocks[0])
    if not statements:
        return True
    if len(statements) > 1:
        return False
    statement = statements[0]
    if statement.type in _GIVE_UP:
        return True
    value = [c for c in statement.named_children if c.type not in _COMMENTS]
    return statement.type in _RETURNS and (not value or value[0].type in _PLAIN_VALUES)


def _statements(node: Node) -> list[Node]:
    found = [c for c in node.named_children if c.type not in _COMMENTS]
    if found and found[0].type in ("string", "expression_statement"):
        first = found[0] if found[0].type == "string" else found[0].named_children[0]
        if first.type == "string" and len(found) > 1:  # a Python docstring
            found = found[1:]
    return found


def _unchecked(statements: list[Node]) -> list[Node]:
    """The statements after the leading argument checks (`if (x == null) throw ...;`, no
    else), as long as some remain: a check only refuses bad input, the rest does the work."""
    first = 0
    while first < len(statements) - 1 and _is_check(statements[first]):
        first += 1
    return statements[first:]


def _is_check(statement: Node) -> bool:
    if statement.type in _ASSERTS or _asserts(_single(statement)):
        return True
    if statement.type != "if_statement" or statement.child_by_field_name("alternative"):
        return False
    then = statement.child_by_field_name("consequence")
    if then is not None and then.type in _THEN_BLOCKS:
        inner = _statements(then)
        then = inner[0] if len(inner) == 1 else None
    return then is not None and then.type in _THROWS


def _asserts(node: Node) -> bool:
    """A call of the language's argument check (`precondition(k >= 0)`, `require(x)`,
    `assert!(n > 0)`, `Objects.requireNonNull(x)`): it only refuses bad input."""
    if node.type not in _CALLS:
        return False
    callee = re.split(rb"[(!<{\s]", node.text or b"", maxsplit=1)[0]
    return callee.rsplit(b".", 1)[-1].rsplit(b"::", 1)[-1] in _CHECK_CALLS


def _forwards(body: Node) -> bool:
    """The body is a single statement (or an arrow function's expression) that returns or
    makes a call, or makes a call and hands the receiver back; the call's arguments compute
    nothing of their own."""
    node = body
    for _ in range(8):
        if node.type in _CALLS:
            return not _runs_block(node) and not _computes(node)
        held = _held(node)
        if held is not None:
            node = held
        elif node is body or node.type in _LISTS:
            statements = _unchecked(_statements(node))
            if len(statements) == 2 and _RETURNS_SELF.fullmatch(statements[1].text or b""):
                statements = statements[:1]  # `bind(clazz = S::class); return this`
            if len(statements) != 1:
                return False
            node = statements[0]
        else:
            return False
    return False


def _runs_block(call: Node) -> bool:
    """Whether a call hands over a block of its own work: a lambda or closure argument of
    two or more statements, or of one branch, loop or `try` (`synchronized(this) { ... }`,
    `forEach { ... }`, `new Promise((resolve) => { ... })`). A one-expression lambda is no
    block: it forwards unless it computes (`_computes`)."""
    queue = deque([call])
    seen = 0
    while queue and seen < _MOST_NODES:
        node = queue.popleft()
        seen += 1
        if node.type in _LAMBDAS:
            bodies = [c for c in node.named_children if c.type in _LAMBDA_BODIES]
            statements = _statements(bodies[0]) if bodies else []
            if len(statements) == 1 and statements[0].type in _BLOCK_LISTS:  # Go
                statements = _statements(statements[0])
            if len(statements) >= 2 or (statements and _single(statements[0]).type in _CONTROL):
                return True
        queue.extend(node.named_children)
    return False


def _computes(call: Node) -> bool:
    """Whether a call's arguments compute with an operator, in a lambda they hand over too
    (`Conditions.All(c => c.Guard == null || c.Guard(args))`: the predicate is the work)."""
    arguments = call.child_by_field_name("arguments")
    queue = deque([arguments] if arguments is not None else call.named_children[1:])
    seen = 0
    while queue and seen < _MOST_NODES:
        node = queue.popleft()
        seen += 1
        if node.type in _OPERATORS and _computing(node):
            return True
        queue.extend(node.named_children)
    return False


def _computing(operation: Node) -> bool:
    operator = operation.child_by_field_name("operator")
    if operator is not None and operator.text in _DEFAULTS:
        return False
    operands = [c for c in operation.named_children if c != operator]
    return not any(c.type in _STRINGS for c in operands)


def _accesses(body: Node, members: frozenset[bytes] | None) -> bool:
    """The body only sets fields (to a name, a literal, a field or one call's result) and
    returns nothing, a field, or a name (`r.x = value; return r`,
    `self._username = to_bytes(username)`); at least one field is read or set. In a method
    (`members` given: its parameters' names) a bare name that is no parameter, assigned or
    returned alone, is a member (C++, C#, Java need no `this`)."""

    def member(node: Node) -> bool:
        return members is not None and node.type in _NAMES and node.text not in members

    statements = _unchecked(_statements(body))
    if len(statements) == 1 and statements[0].type in _BLOCK_LISTS:  # Go, Ruby
        statements = _unchecked(_statements(statements[0]))
    if _held(body) is not None or body.type in _FIELDS:  # `get x = () => this._x`
        statements = [body]
    if not 0 < len(statements) <= MAX_ACCESSOR_STATEMENTS:
        return False
    sets = returns_field = returns_name = 0
    for statement in statements:
        node = _single(statement)
        if node.type in _ASSIGNMENTS:
            left, right = _sides(node)
            if left is None or right is None:
                return False
            if not (_is_field(left) or member(_single(left))):
                return False
            if _single(right).type not in _PLAIN_VALUES | _FIELDS | _CALLS:
                return False
            sets += 1
        elif _is_return(statement):
            value = [c for c in statement.named_children if c.type not in _SKIPPED]
            kind = _single(value[0]).type if value else ""
            if kind in _FIELDS or (len(statements) == 1 and value and member(_single(value[0]))):
                returns_field += 1
            elif kind in _PLAIN_VALUES:
                returns_name += 1
            elif kind:
                return False
        elif node.type in _FIELDS or (len(statements) == 1 and member(node)):
            returns_field += 1  # an arrow function's expression body; `int Get() => _v;`
        else:
            return False
    return bool(sets or returns_field) and not (returns_name and not sets)


def _outside_names(core: Node, body: Node) -> frozenset[bytes]:
    """The names a function's signature holds (its parameters, their types, its own name):
    a bare name among them is no member."""
    names: set[bytes] = set()
    stack = [c for c in core.named_children if c != body]
    while stack:
        node = stack.pop()
        if node.type in _NAMES and node.text:
            names.add(node.text)
        elif node != body:
            stack.extend(node.named_children)
    return frozenset(names)


def _is_return(node: Node) -> bool:
    if node.type in _JUMPS:
        return (node.text or b"").startswith(b"return")
    return node.type in _RETURNS


def _held(node: Node) -> Node | None:
    """What a node that only decorates a value holds (`return x`, `(x)`, Swift's `try x`),
    or None when the node does something of its own (`throw x`, a Kotlin `try` block)."""
    if node.type in _JUMPS:
        if not _is_return(node):
            return None
    elif node.type == "try_expression":
        if not any(c.type == "try_operator" for c in node.named_children):
            return None
    elif node.type not in _TRANSPARENT:
        return None
    held = [c for c in node.named_children if c.type not in _SKIPPED]
    return held[0] if held else None


def _sides(node: Node) -> tuple[Node | None, Node | None]:
    """An assignment's target and value: `left`/`right`, Swift's `target`/`result`, or
    Kotlin's first and last child (its grammar names neither)."""
    for left, right in (("left", "right"), ("target", "result")):
        if (target := node.child_by_field_name(left)) is not None:
            return target, node.child_by_field_name(right)
    named = [c for c in node.named_children if c.type not in _COMMENTS]
    return (named[0], named[-1]) if len(named) >= 2 else (None, None)


def _is_field(target: Node) -> bool:
    """`self.x`, `this.x`; in Kotlin and Swift also `this.x` as an assignable expression and a
    bare property name."""
    if target.type != _ASSIGNABLE:
        return _single(target).type in _FIELDS
    named = [c.type for c in target.named_children if c.type not in _COMMENTS]
    return named in (["simple_identifier"], ["navigation_expression"]) or (
        "navigation_suffix" in named
    )


def _single(node: Node) -> Node:
    """The one expression inside `x;`, `(x)` or a one-item expression list."""
    for _ in range(4):
        named = [c for c in node.named_children if c.type not in _COMMENTS]
        if node.type in ("expression_statement", "expression_list", "parenthesized_expression"):
            if len(named) != 1:
                return node
            node = named[0]
        else:
            return node
    return node
