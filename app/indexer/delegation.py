"""Thin wrappers: a function whose whole body is one call to something else. Search ranks
the implementation above the wrapper that only forwards to it."""

from __future__ import annotations

from tree_sitter import Node

from app.indexer.chunk_defs import Definition, find_body

FUNCTION_KINDS = frozenset({"function", "method"})
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
# Statement lists: a wrapper's holds exactly one statement.
_LISTS = frozenset({"statement_list", "body_statement", "expression_list"})
_COMMENTS = frozenset({"comment", "line_comment", "block_comment"})


def _statements(node: Node) -> list[Node]:
    found = [c for c in node.named_children if c.type not in _COMMENTS]
    if found and found[0].type in ("string", "expression_statement"):
        first = found[0] if found[0].type == "string" else found[0].named_children[0]
        if first.type == "string" and len(found) > 1:  # a Python docstring
            found = found[1:]
    return found


def delegates(d: Definition) -> bool:
    """True when the definition's body is a single statement that returns or makes a call."""
    if d.kind not in FUNCTION_KINDS:
        return False
    body = find_body(d.core)
    if body is None:
        return False
    node = body
    for _ in range(8):
        if node.type in _CALLS:
            return True
        if node is body or node.type in _LISTS:
            statements = _statements(node)
            if len(statements) != 1:
                return False
            node = statements[0]
        elif node.type in _TRANSPARENT and node.named_children:
            node = node.named_children[0]
        else:
            return False
    return False
