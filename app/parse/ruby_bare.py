"""Ruby's method calls written as a bare name: `authorize`, `save`, `pull_spec && find` (no
receiver, no parentheses, no arguments), Ruby's own style for a call of `self`'s method. To
the grammar such a name is an `identifier`, as a local variable is; Ruby tells them apart by
whether the scope assigned the name before. Here a name in a value position that its method,
class or module never binds (an assignment, a parameter, a block's parameter, a rescue
variable, a pattern) is a call; a name bound anywhere in that scope is a variable throughout
(Ruby reads a use before the assignment as a call: rare, and left out)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

# Where a method's own names stop being seen: `def`, `class`, `module` (a block sees them).
_SCOPES = frozenset({"program", "method", "singleton_method", "class", "module", "singleton_class"})
# Parents whose identifiers bind a name.
_BINDING_PARENTS = frozenset(
    {
        "method_parameters",
        "lambda_parameters",
        "block_parameters",
        "optional_parameter",
        "keyword_parameter",
        "splat_parameter",
        "hash_splat_parameter",
        "block_parameter",
        "destructured_parameter",
        "left_assignment_list",
        "rest_assignment",
        "destructured_left_assignment",
        "exception_variable",
    }
)
_BINDING_FIELDS = frozenset(
    {("assignment", "left"), ("operator_assignment", "left"), ("for", "pattern")}
)
# Where an identifier names something other than a value: a method's own name, a call's
# method (already a call), an alias.
_NAME_FIELDS = frozenset(
    {
        ("call", "method"),
        ("method", "name"),
        ("singleton_method", "name"),
        ("setter", "name"),
        ("scope_resolution", "name"),
    }
)
_NAME_PARENTS = frozenset({"alias", "undef"})


def bare_calls(root: Node) -> list[Node]:
    """The identifiers under `root` that are calls of a method: in a value position and
    never bound in their scope."""
    bound: dict[int, set[str]] = {}  # scope node id -> names bound in it
    values: list[tuple[Node, Node]] = []  # (identifier, its scope)
    for node, scope, place in _identifiers(root):
        if _binds(place):
            bound.setdefault(scope.id, set()).add(_text(node))
        elif place not in _NAME_FIELDS and place[0] not in _NAME_PARENTS:
            values.append((node, scope))
    return [node for node, scope in values if _text(node) not in bound.get(scope.id, ())]


def _identifiers(root: Node) -> Iterator[tuple[Node, Node, tuple[str, str | None]]]:
    """Every identifier with the scope it is in and its place: (its parent's type, the field
    it fills there), read on the way down (asking a node for its field costs its siblings)."""
    stack: list[tuple[Node, Node, tuple[str, str | None]]] = [(root, root, ("", None))]
    while stack:
        node, scope, place = stack.pop()
        if node.type == "identifier":
            yield node, scope, place
            continue
        inner = node if node.type in _SCOPES else scope
        children = node.children
        for i in reversed(range(len(children))):
            stack.append((children[i], inner, (node.type, node.field_name_for_child(i))))


def _binds(place: tuple[str, str | None]) -> bool:
    parent_type, field = place
    return (
        parent_type in _BINDING_PARENTS
        or place in _BINDING_FIELDS
        or "pattern" in parent_type  # `in {key: val}`, `in [a, *rest]`
        or (parent_type == "in_clause" and field == "pattern")
    )


def _text(node: Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text else ""
