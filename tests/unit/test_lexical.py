"""BM25 over in-memory postings, checked against the formula written out plainly."""

from __future__ import annotations

import math

import numpy as np

from app.search.lexical import K1, MAX_BLOCKS, B, Postings, count_tokens

TEXTS = [
    "parse cooki header parse",  # 0: "parse" twice
    "parse url",  # 1: short
    "set cooki respons header header valu expir",  # 2: long
    "render templat",  # 3: shares nothing with the queries
    "cooki",  # 4: one token
]


def reference(texts: list[str], alive: list[bool], query: list[str]) -> dict[int, float]:
    """BM25 as textbooks write it, over the live rows; each query word counts as often as it
    is asked."""
    live = [i for i, ok in enumerate(alive) if ok]
    lengths = {i: len(texts[i].split()) for i in live}
    average = sum(lengths.values()) / len(live)
    scores: dict[int, float] = {}
    for word in query:
        holding = [i for i in live if word in texts[i].split()]
        idf = math.log(1 + (len(live) - len(holding) + 0.5) / (len(holding) + 0.5))
        for i in holding:
            tf = texts[i].split().count(word)
            norm = K1 * (1 - B + B * lengths[i] / average)
            scores[i] = scores.get(i, 0.0) + idf * tf * (K1 + 1) / (tf + norm)
    return scores


def ranked(scores: dict[int, float]) -> list[int]:
    return sorted(scores, key=lambda row: (-scores[row], row))


def test_scores_follow_the_formula_and_only_live_rows_count() -> None:
    postings = Postings()
    postings.add(0, count_tokens(TEXTS[:2]))
    postings.add(2, count_tokens(TEXTS[2:]))  # rows arrive in batches, as files change
    for alive in ([True] * 5, [True, False, True, True, True]):
        mask = np.array(alive)
        for query in (["parse", "cooki"], ["header", "cooki", "cooki"], ["url"], ["absent"]):
            expected = ranked(reference(TEXTS, alive, query))
            assert postings.search(query, mask, 10) == expected, (alive, query)
    best_two = ranked(reference(TEXTS, [True] * 5, ["parse", "cooki"]))[:2]
    assert postings.search(["parse", "cooki"], np.ones(5, dtype=bool), 2) == best_two == [0, 1]


def test_a_word_asked_twice_weighs_twice() -> None:
    postings = Postings()
    postings.add(0, count_tokens(["alpha filler filler", "beta"]))
    everything = np.ones(2, dtype=bool)
    assert postings.search(["alpha", "beta"], everything, 2) == [1, 0]  # beta: shorter row
    assert postings.search(["alpha", "alpha", "alpha", "beta"], everything, 2) == [0, 1]


def test_nothing_live_finds_nothing() -> None:
    postings = Postings()
    assert postings.search(["parse"], np.zeros(0, dtype=bool), 5) == []
    postings.add(0, count_tokens(["parse"]))
    assert postings.search(["parse"], np.zeros(1, dtype=bool), 5) == []


def test_many_small_changes_are_merged_and_score_the_same() -> None:
    texts = [f"tok{n % 7} tok{n % 3} shared" + " pad" * (n % 5) for n in range(3 * MAX_BLOCKS)]
    postings = Postings()
    for row, text in enumerate(texts):  # one block per change, as the watcher makes them
        postings.add(row, count_tokens([text]))
    assert len(postings.blocks) <= MAX_BLOCKS + 1
    alive = [n % 4 != 0 for n in range(len(texts))]
    for query in (["tok1", "shared"], ["tok2", "tok2", "pad"], ["tok6"]):
        expected = ranked(reference(texts, alive, query))
        assert postings.search(query, np.array(alive), 200) == expected, query
