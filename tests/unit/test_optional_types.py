"""The one type an annotation names beside None, null or undefined (app/parse/optional_types.py)."""

from __future__ import annotations

import pytest

from app.parse.optional_types import allows_none, one_type


@pytest.mark.parametrize(
    ("written", "named", "none"),
    [
        ("Conn", "Conn", False),
        ('"Conn"', "Conn", False),  # a forward reference
        ('"Conn | None"', "Conn", True),
        ("Optional[Conn]", "Conn", True),
        ('typing.Optional["Conn"]', "Conn", True),
        ("None | mod.Conn", "mod.Conn", True),
        ("Union[Conn, None]", "Conn", True),
        ("\"Optional['Conn']\"", "Conn", True),
        ("A | B", "A | B", False),  # two classes: no single one
        ("Union[A, B]", "Union[A, B]", False),
        ("List[Conn]", "List[Conn]", False),  # a container, not a Conn
        ("dict[str, A | None] | None", "dict[str, A | None]", True),  # the inner None stays
    ],
)
def test_an_annotation_names_its_one_class_beside_none(
    written: str, named: str, none: bool
) -> None:
    assert one_type(written, "python") == named
    assert allows_none(written, "python") is none


@pytest.mark.parametrize(
    ("written", "named", "none"),
    [
        ("Conn", "Conn", False),
        ("Conn | null", "Conn", True),
        ("undefined | ns.Conn", "ns.Conn", True),
        ("| Conn | null | undefined", "Conn", True),  # a union may open with `|`
        ("Promise<Conn>", "Conn", False),  # what `await` hands over
        ("Promise<Conn | undefined>", "Conn", True),
        ("A | B", "A | B", False),
        ("Map<string, A | null>", "Map<string, A | null>", False),
        ('"a" | "b"', '"a" | "b"', False),  # string literals, no type
    ],
)
def test_a_typescript_type_names_its_one_type_beside_null(
    written: str, named: str, none: bool
) -> None:
    assert one_type(written, "typescript") == named
    assert allows_none(written, "typescript") is none
