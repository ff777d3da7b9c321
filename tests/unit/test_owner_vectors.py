"""A member also scores its owner's cosine less OWNER_DISCOUNT: a class head's doc comment
often says what its members do together, which the members' own code does not."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from app.core.models import Explanation
from app.search import corpus
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

CLASH = '''class Clash(dict):
    """A chainable lazy hash: chained method calls such as .conditions(...).order(...)
    become its keys, and a name ending in a bang dives into a sub-hash."""

    def method_missing(self, name, *args):
        key = name.rstrip("!")
        if name.endswith("!"):
            child = Clash()
            self[key] = child
            return child
        self[key] = args[0] if len(args) == 1 else list(args)
        return self

    def end(self):
        return self.parent

    def merge(self, other):
        for key, value in other.items():
            if isinstance(value, dict) and isinstance(self.get(key), Clash):
                self[key].merge(value)
            else:
                self[key] = value
        return self

    def to_dict(self):
        plain = {}
        for key, value in self.items():
            if isinstance(value, Clash):
                value = value.to_dict()
            plain[key] = value
        return plain

    def copy(self):
        twin = Clash()
        twin.merge(self)
        return twin

    def keys_sorted(self):
        return sorted(self.keys())

    def __repr__(self):
        inner = ", ".join(f"{key}={value!r}" for key, value in self.items())
        return f"Clash({inner})"
'''
HELPERS = '''def clamp(value, low, high):
    """Keep a number between two bounds."""
    return max(low, min(high, value))
'''


def _rows(service: Service) -> dict[str, int]:
    found = service.searcher().corpus
    return {row["qualified_name"]: found.position[row["id"]] for row in found.live_rows()}


def _head_vector(service: Service, row: int) -> np.ndarray:
    for matrix, rows in service.searcher().corpus.dense:
        where = np.flatnonzero(rows == row)
        if len(where):
            return np.asarray(matrix[where[0]], dtype=np.float32)
    raise AssertionError(f"row {row} has no vector")


def test_members_know_their_owner_in_the_same_file(indexed: Indexed) -> None:
    service = indexed({"lib/clash.py": CLASH, "lib/helpers.py": HELPERS})
    rows, owner_of = _rows(service), service.searcher().corpus.owner_of
    assert owner_of[rows["Clash.method_missing"]] == rows["Clash"]
    assert owner_of[rows["Clash.end"]] == rows["Clash"]
    assert owner_of[rows["Clash"]] == -1 and owner_of[rows["clamp"]] == -1


def test_a_member_ranks_by_its_owner_when_the_owner_is_nearer(indexed: Indexed) -> None:
    service = indexed({"lib/clash.py": CLASH, "lib/helpers.py": HELPERS})
    found, rows = service.searcher().corpus, _rows(service)
    ids = {name: found.columns["id"][row] for name, row in rows.items()}
    members = {chunk_id for name, chunk_id in ids.items() if name.startswith("Clash.")}
    ranked, _, owned = found.nearest(_head_vector(service, rows["Clash"]), 10)
    # The head itself is nearest (cosine 1); its 7 members follow at 1 - OWNER_DISCOUNT, above
    # the unrelated helper, and say that their owner placed them.
    assert len(members) == 7 and ranked[0] == ids["Clash"]
    assert set(ranked[1:8]) == members == owned
    assert ranked.index(ids["clamp"]) == 8


def test_without_the_owner_the_members_keep_their_own_cosine(
    indexed: Indexed, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = indexed({"lib/clash.py": CLASH, "lib/helpers.py": HELPERS})
    monkeypatch.setattr(corpus, "OWNER_DISCOUNT", float("inf"))
    rows = _rows(service)
    _, _, owned = service.searcher().corpus.nearest(_head_vector(service, rows["Clash"]), 10)
    assert owned == set()


def test_an_edited_file_points_its_members_at_the_new_head(indexed: Indexed) -> None:
    service = indexed({"lib/clash.py": CLASH, "lib/helpers.py": HELPERS})
    (service.root / "lib/clash.py").write_text(CLASH.replace("def end(self)", "def finish(self)"))
    service.index()
    found, rows = service.searcher().corpus, _rows(service)
    assert "Clash.end" not in rows
    head = rows["Clash"]
    assert found.alive[head] and found.owner_of[rows["Clash.finish"]] == head
    assert found.owner_of[rows["Clash.method_missing"]] == head
    assert found.heads[("lib/clash.py", "Clash")] == head


def test_explain_says_the_owner_placed_it() -> None:
    placed = Explanation(None, 3, 0.01, vector_by_owner=True)
    assert placed.vector == "vector #3 (owner)"
    assert Explanation(None, 3, 0.01, vector_by_words=True).vector == "vector #3 (words)"
