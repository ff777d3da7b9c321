from __future__ import annotations

from app.search.fuse import RRF_K, reciprocal_rank_fusion
from app.search.pack import CUT_MIN_TOKENS, Packable, cut_body, estimate_tokens, pack


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


def test_cut_tokens_fill_what_is_left_with_first_lines() -> None:
    big = _item("big", 400)
    small = _item("small", 3)
    budget = estimate_tokens(small.body) + 200
    plain = pack([big, small], budget_tokens=budget, limit=5)
    packed = pack([big, small], budget_tokens=budget, limit=5, cut_tokens=1000)
    assert [(p.chunk_id, p.form) for p in plain] == [("big", "signature"), ("small", "body")]
    assert [(p.chunk_id, p.form) for p in packed] == [("big", "cut"), ("small", "body")]
    head = packed[0].text.split("\n")
    assert head[:-1] == big.body.split("\n")[: len(head) - 1]  # the first lines, in order
    assert head[-1] == f"... ({400 - (len(head) - 1)} more lines)"
    assert 0.9 * budget <= sum(estimate_tokens(p.text) for p in packed) <= budget


def test_a_cut_takes_at_most_cut_tokens_beyond_the_signature() -> None:
    big = _item("big", 400)
    (packed,) = pack([big], budget_tokens=2000, limit=1, cut_tokens=CUT_MIN_TOKENS + 20)
    assert packed.form == "cut"
    extra = estimate_tokens(packed.text) - estimate_tokens(big.signature)
    assert CUT_MIN_TOKENS <= extra <= CUT_MIN_TOKENS + 20


def test_a_cut_too_short_to_say_more_than_the_signature_stays_a_signature() -> None:
    big = _item("big", 400)
    small = _item("small", 3)
    budget = estimate_tokens(small.body) + estimate_tokens(big.signature) + CUT_MIN_TOKENS // 2
    packed = pack([big, small], budget_tokens=budget, limit=5, cut_tokens=1000)
    assert [(p.chunk_id, p.form) for p in packed] == [("big", "signature"), ("small", "body")]
    (alone,) = pack([big], budget_tokens=2000, limit=1, cut_tokens=CUT_MIN_TOKENS - 1)
    assert alone.form == "signature"


def test_cut_body_counts_the_lines_it_leaves_out() -> None:
    body = "\n".join(["def f():", "    one()", "    two()", "    three()"])
    assert cut_body(body, estimate_tokens("def f():\n    one()\n... (2 more lines)") + 1) == (
        "def f():\n    one()\n... (2 more lines)"
    )
    assert cut_body(body, 1) == ""
    assert cut_body(body, 10_000) == body
