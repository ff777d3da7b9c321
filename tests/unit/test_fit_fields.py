"""How fit-fields chooses BM25F weights: the best mean over sets among those that keep every
set within 0.01 of plain BM25, and out of sample, without the held-out repository."""

from __future__ import annotations

from app.bench.fields import best_weights, leave_one_out, set_score

PLAIN = (0.0,)


def test_the_best_mean_is_chosen_only_where_no_set_loses_past_the_rule() -> None:
    by_weights = {
        PLAIN: {"dev": {"a": [0.5, 0.5]}, "semble": {"x": [0.5]}},
        (1.0,): {"dev": {"a": [0.48, 0.5]}, "semble": {"x": [0.6]}},  # dev -0.01: allowed
        (2.0,): {"dev": {"a": [0.4, 0.5]}, "semble": {"x": [0.9]}},  # best mean, dev -0.05
    }
    assert best_weights(by_weights, PLAIN) == (1.0,)


def test_each_held_out_repository_gets_the_weights_the_others_chose() -> None:
    by_weights = {
        PLAIN: {"dev": {"a": [0.5], "b": [0.5]}, "semble": {"x": [0.5]}},
        (1.0,): {"dev": {"a": [1.0], "b": [0.5]}, "semble": {"x": [0.5]}},
        (2.0,): {"dev": {"a": [0.5], "b": [1.0]}, "semble": {"x": [0.5]}},
    }
    held, chosen = leave_one_out(by_weights, PLAIN)
    assert chosen == {"a": (2.0,), "b": (1.0,), "x": (1.0,)}  # x: a tie, the smaller weights
    assert held["dev"] == {"a": [0.5], "b": [0.5]}  # neither gain is seen out of sample
    assert set_score({"a": [1.0, 0.0], "b": [0.5]}, "dev") == 0.5  # pooled over questions
    assert set_score({"a": [1.0, 0.0], "b": [0.0]}, "semble") == 0.25  # per repo first
