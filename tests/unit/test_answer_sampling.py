"""The answer's own decoding loop (app.answer.sampling, LocalModel.generate): the text
llama-cpp-python's grammar-constrained completion writes, for a fraction of the grammar's work."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.answer.engine import _abstention_bias, _excerpt_bias, _fitted_prompt
from app.answer.grammar import OPENING_NAME, answer_grammar
from app.answer.llm import REPEAT_PENALTY, LocalModel, _StopCut, never
from app.answer.prompt import ABSTAIN_ANSWER
from app.core.settings import Settings
from app.service import Service

QUESTION = "How long does RetryPolicy wait before the next attempt?"
STOPS = ["<|im_end|>", "<|endoftext|>"]


@pytest.fixture
def service(sample_repo: Path, settings: Settings) -> Service:
    service = Service(sample_repo, settings)
    service.index(with_vectors=False)
    return service


def _llama_cpp_writes(
    model: LocalModel,
    tokens: list[int],
    grammar: str,
    bias: dict[int, float],
    limit: int,
    every: dict[int, float] | None = None,
) -> tuple[str, str]:
    """What llama-cpp-python's create_completion writes with the grammar over every token:
    how generate wrote answers before it had its own loop (`every`: a bias at every token)."""
    from llama_cpp import LlamaGrammar, LogitsProcessorList

    ids, values = list(bias), list(bias.values())
    steady = every or {}

    def first(input_ids: Any, scores: Any) -> Any:
        if len(input_ids) == len(tokens):
            scores[ids] += values
        scores[list(steady)] += list(steady.values())
        return scores

    out: Any = model.llm.create_completion(
        prompt=tokens,
        max_tokens=limit,
        temperature=0.0,
        repeat_penalty=REPEAT_PENALTY,
        stop=STOPS,
        grammar=LlamaGrammar.from_string(grammar, verbose=False),
        logits_processor=LogitsProcessorList([first]),
    )
    choice = out["choices"][0]
    return str(choice["text"]), str(choice["finish_reason"])


def _prompt(service: Service, model: LocalModel, question: str) -> tuple[list[int], str]:
    hits = service.search(question, k=4, budget_tokens=300).hits
    prompt, tokens, _ = _fitted_prompt(model, question, hits, 32)
    return tokens, answer_grammar(prompt.excerpts, prompt.question)


def test_the_answer_is_the_one_the_grammar_over_every_token_writes(service: Service) -> None:
    model = service.answerer().model()
    tokens, grammar = _prompt(service, model, QUESTION)
    bias = _abstention_bias(model)
    expected = _llama_cpp_writes(model, tokens, grammar, bias, 32)
    pieces: list[str] = []
    written = model.generate(
        tokens,
        max_tokens=32,
        stop=STOPS,
        on_text=pieces.append,
        cancelled=never,
        grammar=grammar,
        first_bias=bias,
    )
    assert (written.text, written.finish) == expected and "".join(pieces) == written.text
    # The model's own best token broke the grammar at few steps; only there did the grammar
    # rule over the whole vocabulary.
    assert written.tokens > 10 and written.full_grammar_checks <= written.tokens // 4


def test_a_token_the_grammar_forbids_is_replaced_by_the_best_it_allows(service: Service) -> None:
    model = service.answerer().model()
    tokens, grammar = _prompt(service, model, QUESTION)
    drift = model.llm.tokenize("通过".encode(), add_bos=False, special=False)[0]
    pushed = {drift: 40.0}  # the first token's best by far, and outside the grammar
    expected = _llama_cpp_writes(model, tokens, grammar, pushed, 8)
    written = model.generate(
        tokens,
        max_tokens=8,
        stop=STOPS,
        on_text=lambda _piece: None,
        cancelled=never,
        grammar=grammar,
        first_bias=pushed,
    )
    assert (written.text, written.finish) == expected and written.full_grammar_checks >= 1
    assert written.text == ABSTAIN_ANSWER or OPENING_NAME.match(written.text)


def test_text_is_shown_in_whole_characters_and_never_as_part_of_a_stop() -> None:
    cut = _StopCut(["<|im_end|>"])
    assert cut.feed(b"`f()` ends") == "`f()` ends"
    assert cut.feed(b"`f()` ends <|im") == " "  # "<|im" may become the stop
    assert cut.feed(b"`f()` ends <|i am") == "<|i am"
    halves = "`f()` ends <|i am 通".encode()
    assert cut.feed(halves[:-1]) == " "  # two of the character's three bytes
    assert cut.feed(halves) == "通"
    assert cut.feed(halves + b" [1].<|im_end|> more") == "" and cut.stopped
    assert cut.rest() == " [1]." and cut.shown == "`f()` ends <|i am 通 [1]."


def test_the_excerpt_bias_raises_the_excerpts_words_at_every_token(service: Service) -> None:
    model = service.answerer().model()
    hits = service.search(QUESTION, k=4, budget_tokens=300).hits
    prompt, tokens, _ = _fitted_prompt(model, QUESTION, hits, 32)
    grammar = answer_grammar(prompt.excerpts, prompt.question)
    assert _excerpt_bias(model, prompt.excerpts, 0.0) is None  # answer_excerpt_bias=0: off
    bias = _excerpt_bias(model, prompt.excerpts, 3.0)
    assert bias is not None and set(bias.values()) == {3.0}
    words = " ".join(e.hit.text for e in prompt.excerpts).lower()
    assert "attempt" in words and "banana" not in words
    assert model.word_tokens(["attempt"]) <= set(bias)
    assert not model.word_tokens(["banana"]) & set(bias)
    first = _abstention_bias(model)
    expected = _llama_cpp_writes(model, tokens, grammar, first, 32, every=bias)
    written = model.generate(
        tokens, max_tokens=32, stop=STOPS, on_text=lambda _: None, cancelled=never,
        grammar=grammar, first_bias=first, bias=bias,
    )  # fmt: skip
    assert (written.text, written.finish) == expected
