"""The class a Python annotation names beside None (app/parse/python_types.py)."""

from __future__ import annotations

import pytest

from app.parse.python_types import allows_none, python_annotation


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
    assert python_annotation(written) == named
    assert allows_none(written) is none
