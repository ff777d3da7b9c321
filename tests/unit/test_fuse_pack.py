from __future__ import annotations

from app.search.fuse import RRF_K, reciprocal_rank_fusion
from app.search.pack import Packable, estimate_tokens, pack


def test_rrf_rewards_agreement() -> None:
    scores = reciprocal_rank_fusion([["a", "b", "c"], ["b", "d"]])
    assert max(scores, key=scores.__getitem__) == "b"
    assert scores["a"] == 1 / (RRF_K + 1)
    assert scores["b"] == 1 / (RRF_K + 2) + 1 / (RRF_K + 1)


def test_rrf_empty_list_is_harmless() -> None:
    assert reciprocal_rank_fusion([["x"], []]) == {"x": 1 / (RRF_K + 1)}


def _item(name: str, lines: int, signature: str = "", parent: str = "") -> Packable:
    body = "\n".join(f"line {i} of {name} with some words" for i in range(lines))
    return Packable(name, body, signature or f"def {name}():", parent)


def test_pack_keeps_order_and_budget() -> None:
    items = [_item("a", 5), _item("b", 5), _item("c", 5)]
    packed = pack(items, budget_tokens=10_000, limit=2)
    assert [p.chunk_id for p in packed] == ["a", "b"]
    assert all(p.form == "body" for p in packed)


def test_pack_degrades_to_signature_then_omits() -> None:
    big = _item("big", 400)
    small = _item("small", 3)
    budget = estimate_tokens(small.body) + 10
    packed = pack([big, small], budget_tokens=budget, limit=5)
    assert [(p.chunk_id, p.form) for p in packed] == [("big", "signature"), ("small", "body")]
    total = sum(estimate_tokens(p.text) for p in packed)
    assert total <= budget
    assert pack([big], budget_tokens=1, limit=5) == []


def test_lone_method_brings_parent_signature() -> None:
    method = _item("send", 2, "def send(self, request):", parent="class Client:")
    (packed,) = pack([method], budget_tokens=1000, limit=1)
    assert packed.text.startswith("class Client:\n")
    assert "def send" not in packed.text.split("\n")[0]
