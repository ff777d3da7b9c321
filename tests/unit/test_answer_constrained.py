"""Answers supported by construction (issue 17): the per-question grammar, the abstention
decided before the model runs, unsupported sentences left out, the eval's baseline beside it."""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from app.answer import grammar
from app.answer.checks import ALL_LEFT_OUT, CUT_OFF, check_sentences
from app.answer.engine import Answerer, fixed_prefix
from app.answer.gate import absent_names, named_words
from app.answer.grammar import (
    MAX_SENTENCES,
    OPENING_NAME,
    SENTENCE_CHARS,
    answer_grammar,
    at_length_bound,
    closed_stops,
    excerpt_names,
)
from app.answer.llm import Generation
from app.answer.prompt import ABSTAIN_ANSWER, Excerpt
from app.bench.answers import (
    AnswerRecord,
    Verdict,
    _items,
    _model_summary,
    add_answer_eval_arguments,
    format_summary,
    judge,
    left_out_again,
    variant_settings,
)
from app.bench.devbench import GoldRange
from app.cli import main
from app.core.models import Hit
from app.core.settings import Settings
from app.search.searcher import SearchResult
from app.service import Service
from app.tui.answer_view import answer_body

REDIRECT = (
    "def _redirect_method(self, request, response):\n"
    '    method = request.method\n    if response.status_code == 303 and method != "HEAD":\n'
    '        method = "GET"\n    return method\n'
)
TEXT_DOC = (
    "@property\ndef text(self) -> str:\n"
    '    """Content of the response, decoded with ``charset_normalizer``."""\n'
    "    return self.content.decode(self.encoding)\n"
)


def _hit(path: str, text: str, qualified: str, kind: str = "method") -> Hit:
    return Hit(
        f"{path}:1", path, 1, 9, qualified.rsplit(".", 1)[-1], qualified, kind, "python", 1.0,
        text, "body",
    )  # fmt: skip


CONTEXT = [
    _hit("httpx/_client.py", REDIRECT, "BaseClient._redirect_method"),
    _hit("httpx/_models.py", TEXT_DOC, "Response.text", kind="property"),
]
EXCERPTS = [Excerpt(n, hit) for n, hit in enumerate(CONTEXT, 1)]


def test_the_grammar_ties_each_opening_name_to_its_excerpts_citation() -> None:
    grammar = answer_grammar(EXCERPTS)
    assert excerpt_names(EXCERPTS[0]) == [
        "BaseClient._redirect_method()",
        "_redirect_method()",
        "BaseClient._redirect_method",
        "_redirect_method",
    ]
    assert excerpt_names(EXCERPTS[1]) == ["Response.text", "text"]  # a property: no `()`
    assert (
        '( article? name1 words [.!?]? " [1]." ) | ( article? name2 words [.!?]? " [2]." )'
        in grammar
    )
    assert 'article ::= "The " | "A " | "An "' in grammar
    assert '"`_redirect_method()`"' in re.search(r"^name1 ::= .*$", grammar, re.M).group()  # type: ignore[union-attr]
    assert f'(" " sentence){{0,{MAX_SENTENCES - 1}}}' in grammar
    assert f'abstain ::= "{ABSTAIN_ANSWER}"' in grammar


def _grammar_accepts(llm: Any, grammar: str, text: str) -> bool:
    """Whether llama.cpp's own grammar sampler lets the model write `text`, token by token,
    and then end."""
    import ctypes

    import llama_cpp

    vocab = llama_cpp.llama_model_get_vocab(llm._model.model)
    sampler = llama_cpp.llama_sampler_init_grammar(vocab, grammar.encode(), b"root")
    try:
        tokens = llm.tokenize(text.encode(), add_bos=False, special=False)
        for token in [*tokens, llm.token_eos()]:
            data = (llama_cpp.llama_token_data * 1)(llama_cpp.llama_token_data(token, 0.0, 0.0))
            llama_cpp.llama_sampler_apply(
                sampler, ctypes.byref(llama_cpp.llama_token_data_array(data, 1, -1, False))
            )
            if data[0].logit == float("-inf"):
                return False
            llama_cpp.llama_sampler_accept(sampler, token)
        return True
    finally:
        llama_cpp.llama_sampler_free(sampler)


def test_a_sentence_may_stop_before_its_citation_and_never_runs_on_into_a_word(
    service: Service,
) -> None:
    llm = service.answerer().model().llm
    grammar = answer_grammar(EXCERPTS)
    opening = "`BaseClient._redirect_method()` turns a 303 into GET"
    assert _grammar_accepts(llm, grammar, f"{opening} [1].")
    assert _grammar_accepts(llm, grammar, f"{opening}. [1].")  # the model's own stop
    assert _grammar_accepts(
        llm, grammar, "`Response.text` decodes with charset.normalizer 1.5 [2]."
    )
    # An article may come before the name, as larger models open a sentence; not alone.
    assert _grammar_accepts(llm, grammar, "The `Response.text` property decodes the body [2].")
    assert _grammar_accepts(llm, grammar, f"An {opening} [1]. A `text` call decodes it [2].")
    assert not _grammar_accepts(llm, grammar, "The property decodes the body [2].")
    assert not _grammar_accepts(llm, grammar, "The `nowhere` property decodes it [2].")
    # A stop the model meant to end on, forced into a word, is no longer possible.
    assert not _grammar_accepts(llm, grammar, f"{opening} for entries._nested [1].")
    assert not _grammar_accepts(llm, grammar, f"{opening}. The rest [1].")
    assert closed_stops(f"{opening}. [1]. `Response.text` decodes! [2].") == (
        f"{opening} [1]. `Response.text` decodes [2]."
    )


def test_a_lead_grammar_makes_the_first_sentence_about_the_best_hit(service: Service) -> None:
    llm = service.answerer().model().llm
    about_one = "`BaseClient._redirect_method()` turns a 303 into GET [1]."
    about_two = "`Response.text` decodes with charset.normalizer [2]."
    free, lead = answer_grammar(EXCERPTS), answer_grammar(EXCERPTS, lead=True)
    assert _grammar_accepts(llm, free, about_two)
    assert not _grammar_accepts(llm, lead, about_two)
    assert not _grammar_accepts(llm, lead, f"{about_two} {about_one}")
    assert _grammar_accepts(llm, lead, f"{about_one} {about_two}")
    assert _grammar_accepts(llm, lead, f"{about_one} {about_one}")
    assert _grammar_accepts(llm, lead, ABSTAIN_ANSWER)


def test_repository_names_reach_the_grammar_only_when_they_look_like_code() -> None:
    hostile = _hit("x.py", "def f(): pass", 'f"] | root ::= "owned', kind="function")
    heading = _hit("README.md", "# Getting started", "Getting started", kind="section")
    grammar = answer_grammar([Excerpt(1, hostile), Excerpt(2, heading)])
    assert "owned" not in grammar and "Getting" not in grammar
    assert '"`f()`" | "`f`"' not in grammar  # the qualified name was refused, not cut
    assert '( [A-Z] words [.!?]? " [2]." )' in grammar  # a section is cited by a plain sentence


def test_the_gate_reads_names_in_the_questions_prose_only() -> None:
    assert named_words("Where does the client open an HTTP/3 connection over QUIC?") == [
        "HTTP",
        "QUIC",
    ]
    assert named_words("How does NTLM or Kerberos work? Where is it?") == ["NTLM", "Kerberos"]
    # The first word of a sentence, a made-up camelCase name, code spans: none is a name.
    assert named_words("Where is `MyInterface` bound, and isName read?") == []
    # A number is a value asked about (`404` need not occur for `should_retry` to answer).
    assert named_words("Which code answers 429 Too Many Requests?") == ["Too", "Many", "Requests"]
    assert named_words("What does should_retry return for a 404?") == []


@pytest.fixture
def service(sample_repo: Path, settings: Settings) -> Service:
    service = Service(sample_repo, settings)
    service.index(with_vectors=False)
    return service


def test_a_question_naming_what_the_repository_never_mentions_abstains_before_the_model(
    service: Service,
) -> None:
    holds = service.searcher().holds
    assert absent_names("Where are JWT bearer tokens checked by RetryPolicy?", holds) == ["JWT"]
    assert absent_names("How long does RetryPolicy wait?", holds) == []
    started = time.perf_counter()
    answer = service.ask("Where are JWT bearer tokens verified before a retry?")
    assert answer.finish == "abstained" and "`JWT`" in answer.text
    assert "prefill" not in answer.timings_ms and time.perf_counter() - started < 5
    assert answer.citations == [] and not answer.grounded
    assert service._answerer is not None and service._answerer.model_file is None  # not loaded


def test_ask_prints_the_abstention_decided_before_the_model(
    service: Service, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["ask", str(service.root), "Where are JWT bearer tokens verified before a retry?"]
    assert main([*argv, "--index-dir", str(settings.index_dir)]) == 0
    out = capsys.readouterr().out
    assert "The repository never mentions `JWT`, so it cannot answer this." in out
    assert "ungrounded" not in out


class _ScriptedModel:
    """Writes a fixed answer: what the engine does with a sentence its excerpt does not
    support is the point, and the real model's wording cannot be chosen."""

    n_ctx = 4096

    def __init__(self, text: str) -> None:
        self.text = text
        self.grammar: str | None = None

    def prompt_tokens(self, messages: list[dict[str, str]]) -> tuple[list[int], list[str]]:
        return [1] * 100, []

    def opening_tokens(self, text: str) -> list[int]:
        return [2]

    def word_tokens(self, words: Iterable[str]) -> set[int]:

        return set()

    def generate(self, tokens: list[int], **options: Any) -> Generation:
        self.grammar = options["grammar"]
        options["on_text"](self.text)
        return Generation(self.text, 100, 20, 1.0, 1.0, 1.0, "stop")


def _ask(tmp_path: Path, text: str, constrained: bool) -> tuple[Any, _ScriptedModel]:
    model = _ScriptedModel(text)
    answerer = Answerer(Settings(index_dir=tmp_path, answer_constrained=constrained))
    answerer.model = lambda: model  # type: ignore[method-assign]
    search = lambda query, budget: SearchResult(query, list(CONTEXT))  # noqa: E731
    return answerer.ask("How are redirects handled?", search), model


GOOD = "`_redirect_method()` turns a 303 into a GET [1]."
BAD = "`Response.text` guesses the charset with `utf_guess` [2]."


def test_unsupported_sentences_are_left_out_of_a_constrained_answer(tmp_path: Path) -> None:
    answer, model = _ask(tmp_path, f"{GOOD} {BAD}", constrained=True)
    assert model.grammar == answer_grammar(EXCERPTS, lead=True)
    assert answer.text == GOOD
    assert [c.text for c in answer.dropped] == [BAD]
    assert answer.dropped[0].problem == "`utf_guess` is not in [2]"
    assert all(c.supported for c in answer.sentences) and answer.all_citations_valid
    body, notes = answer_body(answer)
    assert body == GOOD and any("Left out, unsupported:" in n and "utf_guess" in n for n in notes)
    assert not answer.abstained


def test_an_answer_with_nothing_supported_says_it_was_left_out(tmp_path: Path) -> None:
    answer, _ = _ask(tmp_path, BAD, constrained=True)
    assert answer.text == ALL_LEFT_OUT and len(answer.dropped) == 1
    assert answer.abstained and not answer.grounded  # no "ungrounded" warning: it claims nothing
    assert check_sentences(answer.text, EXCERPTS)[0].claim is False


def test_by_default_the_first_sentence_is_about_the_best_hit(
    service: Service, tmp_path: Path
) -> None:
    _, model = _ask(tmp_path, GOOD, constrained=True)
    assert model.grammar is not None
    llm = service.answerer().model().llm
    assert _grammar_accepts(llm, model.grammar, f"{GOOD} `Response.text` decodes it [2].")
    assert not _grammar_accepts(llm, model.grammar, "`Response.text` decodes it [2].")


_STEPS = "\n".join(f"    wait = min(cap, wait * 2 + jitter({n}))  # attempt {n}" for n in range(24))
BACKOFF = f'''\
def backoff_delay(attempt, base, cap):
    """How long to wait before the next attempt: doubled each time, never above cap."""
    wait = base
{_STEPS}
    return wait


def jitter(n):
    """A small random spread so that clients do not retry together."""
    return n % 3


def parse_retry_after(header):
    """The Retry-After header's seconds."""
    return int(header)


def should_retry(status):
    """Retry server errors only."""
    return status >= 500


def reset_attempts(state):
    """Forget the attempts made so far."""
    state.clear()
'''


def test_the_answer_reads_the_function_asked_about_whole(
    indexed: Callable[[dict[str, str]], Service],
) -> None:
    # About 330 tokens: beside three other excerpts' signatures it did not fit the old 300.
    service = indexed({"retry.py": BACKOFF})
    service.answerer().model = lambda: _ScriptedModel(GOOD)  # type: ignore[method-assign]
    answer = service.ask("How does backoff_delay grow the wait between attempts?")
    best = answer.context[0]
    assert best.symbol == "backoff_delay" and best.packed == "body"
    assert best.text.rstrip().endswith("return wait")


def test_a_function_too_long_to_fit_is_read_as_its_first_lines_not_its_signature(
    indexed: Callable[[dict[str, str]], Service],
) -> None:
    step = "    wait = min(cap, wait * 2 + jitter({n}))  # attempt {n}"
    steps = "\n".join(step.format(n=n) for n in range(90))
    service = indexed({"retry.py": BACKOFF.replace(_STEPS, steps)})
    service.answerer().model = lambda: _ScriptedModel(GOOD)  # type: ignore[method-assign]
    answer = service.ask("How does backoff_delay grow the wait between attempts?")
    best = answer.context[0]
    assert best.symbol == "backoff_delay" and best.packed == "cut"
    lines = best.text.split("\n")
    assert lines[0] == "def backoff_delay(attempt, base, cap):"
    assert "doubled each time, never above cap" in lines[1]  # the docstring, shown whole
    assert re.fullmatch(r"\.\.\. \(\d+ more lines\)", lines[-1])


# A sentence its excerpt (BACKOFF's docstring) supports, and the question `ask` is given.
BACKOFF_KEPT = "`backoff_delay()` doubles the wait each time, never above cap [1]."
BACKOFF_QUESTION = "How does backoff_delay grow the wait between attempts?"


def _ask_argv(service: Service, settings: Settings) -> list[str]:
    return ["ask", str(service.root), BACKOFF_QUESTION, "--index-dir", str(settings.index_dir)]


def test_ask_prints_a_sentence_only_once_it_passed_the_checks(
    indexed: Callable[[dict[str, str]], Service],
    settings: Settings,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The terminal stream cannot take a sentence back, so one the checks leave out must
    # never reach it; before, the raw text streamed and a note said it was left out.
    service = indexed({"retry.py": BACKOFF})
    left_out = "`backoff_delay()` sleeps with `asyncio.sleep` between attempts [1]."
    scripted = _ScriptedModel(f"{BACKOFF_KEPT} {left_out}")
    monkeypatch.setattr(Answerer, "model", lambda self, *args: scripted)
    assert main(_ask_argv(service, settings)) == 0
    body, _, notes = capsys.readouterr().out.partition("\n\n")
    assert body.strip() == BACKOFF_KEPT
    assert "asyncio" not in body and "(left out, unsupported: `backoff_delay()` sleeps" in notes


def test_ask_prints_the_brief_on_stderr_before_the_model_runs(
    indexed: Callable[[dict[str, str]], Service],
    settings: Settings,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The model takes seconds to load and read; the top hits and their doc sentences are
    # there at once, on stderr, so stdout stays the answer alone. -q leaves them out.
    service = indexed({"retry.py": BACKOFF})
    briefs: list[str] = []

    def model(self: Answerer, *args: object) -> _ScriptedModel:
        briefs.append(capsys.readouterr().err)  # what stderr held when the model was asked for
        return _ScriptedModel(BACKOFF_KEPT)

    monkeypatch.setattr(Answerer, "model", model)
    argv = _ask_argv(service, settings)
    assert main(argv) == 0
    assert capsys.readouterr().out.split("\n\n")[0].strip() == BACKOFF_KEPT
    assert (
        "top hits (the answer follows):\n  [1] backoff_delay  retry.py:1  How long to wait"
        in (briefs[0])
    )
    assert main([*argv, "-q"]) == 0
    assert "top hits" not in briefs[1] + capsys.readouterr().err


# The grammar's words ran out mid-phrase: every word is the excerpt's, but it stops unfinished.
WORDS = (
    " reads the request method and, when the response status code is 303 and the method is"
    " not HEAD, sets the method to GET, then returns the method it set for the next request"
)
CUT = "`_redirect_method()`" + WORDS[: SENTENCE_CHARS - 1] + " [1]."


def test_a_sentence_is_at_the_length_bound_when_its_words_ran_out() -> None:
    assert at_length_bound(CUT)
    assert not at_length_bound(GOOD)
    assert at_length_bound("The " + CUT)  # after an article
    section = "Q" + ("uery strings are read in order" * 9)[:SENTENCE_CHARS] + " [2]."
    assert at_length_bound(section) and not at_length_bound("Query strings are read [2].")
    # A stop inside a word (`a.b`) is one of the grammar's characters with the one after it.
    joined = "`f()`" + " a.b" * (SENTENCE_CHARS // 4 + 1) + " [1]."
    assert len(joined) - len("`f()` [1].") >= SENTENCE_CHARS - 1 and not at_length_bound(joined)


def test_a_sentence_the_grammar_cut_off_is_left_out_though_its_words_are_the_excerpts(
    tmp_path: Path,
) -> None:
    answer, _ = _ask(tmp_path, f"{GOOD} {CUT}", constrained=True)
    assert answer.text == GOOD
    assert [(c.text, c.problem) for c in answer.dropped] == [(CUT, CUT_OFF)]
    (check,) = check_sentences(CUT, EXCERPTS)  # free text has no bound: the words decide
    assert check.supported and not check.cut
    free, _ = _ask(tmp_path, f"{GOOD} {CUT}", constrained=False)
    assert free.text == f"{GOOD} {CUT}" and not free.dropped
    # Results written before the rule are judged by it again.
    assert left_out_again(f"{GOOD} {CUT}", [], CONTEXT) == (GOOD, (f"{CUT} -> {CUT_OFF}",))
    assert left_out_again(f"{GOOD} {CUT}", [], CONTEXT, constrained=False)[0] == f"{GOOD} {CUT}"


def test_the_real_model_cut_off_by_the_grammar_shows_no_unfinished_sentence(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(grammar, "SENTENCE_CHARS", 24)  # shorter than any sentence it writes
    answer = service.ask("How long does RetryPolicy wait before the next attempt?")
    assert any(c.problem == CUT_OFF for c in answer.dropped), answer.dropped
    assert not any(at_length_bound(s.text) for s in answer.sentences)


def test_unconstrained_answers_keep_and_flag_unsupported_sentences(tmp_path: Path) -> None:
    answer, model = _ask(tmp_path, f"{GOOD} {BAD}", constrained=False)
    assert model.grammar is None and answer.dropped == ()
    assert answer.text == f"{GOOD} {BAD}" and len(answer.unsupported) == 1


def test_the_eval_baseline_answers_each_question_unconstrained_too() -> None:
    parser = argparse.ArgumentParser()
    add_answer_eval_arguments(parser)
    assert parser.parse_args(["--baseline"]).baseline is True

    def record(dropped: tuple[str, ...], sentences: int, gated: bool) -> AnswerRecord:
        verdict = Verdict(False, False, True, sentences, sentences, (), sentences == 0, ())
        return AnswerRecord(
            "q", "dev", "httpx", "m", 1.0, 1.0, 1, 1, 1, True, verdict, "", "stop", (),
            dropped, gated,
        )  # fmt: skip

    summary = _model_summary([record(("a -> b",), 0, False), record((), 1, True)])
    assert summary["dropped_sentences"] == 1 and summary["emptied_answers"] == 1
    assert summary["gated"] == 1 and summary["gated_answerable"] == 1
    assert summary["supported_as_written"] == 0.5


def test_an_eval_variant_changes_only_the_answer_settings_it_names(tmp_path: Path) -> None:
    base = Settings(index_dir=tmp_path)
    variant = variant_settings(base, "answer_k=2 answer_budget_tokens=450")
    assert (variant.answer_k, variant.answer_budget_tokens) == (2, 450)
    assert variant.model_dump() == {**base.model_dump(), "answer_k": 2, "answer_budget_tokens": 450}
    for spec in ("search_k=3", "answer_k", "answer_k=0", "answer_nothing=1"):
        with pytest.raises(ValueError, match="answer_|search_k"):
            variant_settings(base, spec)


def test_the_eval_says_which_excerpt_the_first_sentence_cites() -> None:
    text = "`Response.text` decodes it [2]. `BaseClient._redirect_method()` turns a 303 [1]."
    gold = [GoldRange("httpx/_client.py", "BaseClient._redirect_method", 1, 9)]
    verdict = judge(text, CONTEXT, "stop", gold)
    assert verdict.first_cited == 2 and verdict.names_gold

    def record(at: int | None, first: int | None, named: bool) -> AnswerRecord:
        v = Verdict(named, named, True, 1, 1, (), False, (), first)
        return AnswerRecord(
            "q", "dev", "httpx", "m", 1.0, 1.0, 1, 900, 4, at is not None, v, "", "stop", (),
            gold_at=at,
        )  # fmt: skip

    summary = _model_summary([record(1, 1, True), record(2, 1, False), record(None, 3, False)])
    assert summary["first_cites_gold"] == round(1 / 3, 4)
    assert summary["gold_in_not_named"] == 0.5  # of the two with the gold among the excerpts
    assert summary["first_cited"] == "[1] 2, [3] 1, none 0"


def test_the_eval_answers_only_the_questions_named(tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    (bench / "queries").mkdir(parents=True)
    (bench / "corpora.json").write_text('[{"name": "httpx", "root": "httpx"}]')
    rows = [
        {"id": f"httpx-0{n}", "corpus": "httpx", "question": f"q{n}?", "gold": []}
        for n in (1, 2, 3)
    ]
    (bench / "queries" / "httpx.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    parser = argparse.ArgumentParser()
    add_answer_eval_arguments(parser)
    parser.add_argument("--bench")
    parser.add_argument("--corpora")
    parser.add_argument("--corpus", action="append")
    argv = ["--bench", str(bench), "--corpora", str(tmp_path), "--question", "httpx-03"]
    args = parser.parse_args([*argv, "--question", "httpx-u1"])
    assert [(i.set, i.question.id) for i in _items(args)] == [
        ("dev", "httpx-03"),
        ("unanswerable", "httpx-u1"),
    ]


def test_the_eval_can_ask_the_first_questions_of_every_kind(tmp_path: Path) -> None:
    # A bench file lists its questions kind by kind: its first three are often all one kind.
    bench = tmp_path / "bench"
    (bench / "queries").mkdir(parents=True)
    (bench / "corpora.json").write_text('[{"name": "httpx", "root": "httpx"}]')
    kinds = ["no-identifier", "no-identifier", "api-name", "api-name", "conceptual"]
    rows = [
        {"id": f"httpx-0{n}", "corpus": "httpx", "question": "q?", "kind": kind, "gold": []}
        for n, kind in enumerate(kinds, 1)
    ]
    (bench / "queries" / "httpx.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    parser = argparse.ArgumentParser()
    add_answer_eval_arguments(parser)
    for flag in ("--bench", "--corpora"):
        parser.add_argument(flag)
    parser.add_argument("--corpus", action="append")
    args = parser.parse_args(["--bench", str(bench), "--corpora", str(tmp_path), "--per-kind", "1"])
    assert [(i.question.id, i.question.kind) for i in _items(args)][:3] == [
        ("httpx-01", "no-identifier"),
        ("httpx-03", "api-name"),
        ("httpx-05", "conceptual"),
    ]
    assert [i.question.kind for i in _items(args)][3:] == ["unanswerable"] * 3

    def record(kind: str, named: bool) -> AnswerRecord:
        v = Verdict(named, named, True, 1, 1, (), False, ())
        return AnswerRecord(
            "q", "dev", "httpx", "m", 1.0, 1.0, 1, 900, 2, named, v, "", "stop", (), kind=kind
        )

    summary = _model_summary([record("api-name", True), record("conceptual", False)])
    assert summary["by_kind"]["api-name"]["names_gold"] == 1.0
    assert summary["by_kind"]["conceptual"]["names_gold"] == 0.0
    assert "by kind" in format_summary({"max_tokens": 1, "budget_tokens": 1,
        "load_average": [0, 0], "wall_s": 0, "models": {"m": summary}})  # fmt: skip


def test_a_constrained_answer_from_the_real_model_follows_the_grammar(service: Service) -> None:
    answer = service.ask("How long does RetryPolicy wait before the next attempt?")
    excerpts = [Excerpt(n, hit) for n, hit in enumerate(answer.context, 1)]
    assert answer.finish == "stop" and answer.degenerate == ()
    if answer.text == ABSTAIN_ANSWER and not answer.dropped:
        return  # the grammar's other alternative
    kept = [] if answer.text == ALL_LEFT_OUT else [answer.text]  # or emptied by the check
    written = " ".join([*kept, *(c.text for c in answer.dropped)])
    for sentence in re.split(r"(?<=\]\.) ", written):
        opening = re.match(r"`([^`]+)`", sentence)
        cited = re.search(r" \[(\d+)\]\.$", sentence)
        assert opening and cited, sentence
        assert opening.group(1) in excerpt_names(excerpts[int(cited.group(1)) - 1]), sentence


def test_the_model_abstains_only_when_it_clearly_prefers_to(service: Service) -> None:
    # RetryPolicy.should_retry answers this; the 0.5B's first token favoured the abstention
    # by a hair (as for 8 of 36 answerable eval questions) and wrote it.
    answer = service.ask("Which failures are tried again?", max_tokens=60)
    assert answer.finish == "stop" and answer.text != ABSTAIN_ANSWER
    assert "RetryPolicy" in answer.text and answer.grounded and answer.dropped == ()


def test_the_first_question_after_the_model_loads_finds_the_prefix_warm(
    sample_repo: Path, settings: Settings
) -> None:
    # A context size no other test uses: this model is loaded here, not shared with them.
    fresh = Service(sample_repo, settings.model_copy(update={"answer_context_tokens": 2048}))
    fresh.index(with_vectors=False)
    model = fresh.answerer().model()
    prefix = len(fixed_prefix(model))
    assert prefix > 300 and model.warm_ms is not None and model.llm.n_tokens == prefix
    first = fresh.ask("How long does RetryPolicy wait before the next attempt?", max_tokens=16)
    assert first.reused_tokens >= prefix  # only the excerpts and the question were read


def test_the_fixed_prefix_stays_warm_between_questions(service: Service) -> None:
    service.ask("How long does RetryPolicy wait before the next attempt?", max_tokens=16)
    second = service.ask("Where are cookies parsed?", max_tokens=16)
    model = service.answerer().model()
    prefix = len(fixed_prefix(model))  # the instructions and the worked examples
    assert prefix > 300 and second.reused_tokens >= prefix
    assert second.reused_tokens < second.prompt_tokens
    model.forget_from(prefix)  # what the eval does between the variants of one question
    again = service.ask("Where are cookies parsed?", max_tokens=16)
    assert prefix <= again.reused_tokens < second.prompt_tokens - 20


def test_the_grammar_keeps_out_characters_neither_the_excerpts_nor_the_question_use(
    service: Service,
) -> None:
    # In tmux on hashie the 0.5B wrote "read keys as methods.通过 the macro module [1].":
    # pushing one such token up at every step shows what the grammar lets through.
    from llama_cpp import LlamaGrammar, LogitsProcessorList

    llm = service.answerer().model().llm
    drift = llm.tokenize("通过".encode(), add_bos=False, special=False)[0]

    def push(_ids: Any, logits: Any) -> Any:
        logits[drift] += 30.0
        return logits

    def write(excerpts: list[Excerpt], question: str) -> str:
        # Only the answer's alternative: the abstention's fixed words would hide the point.
        shape = answer_grammar(excerpts, question).replace("root ::= abstain | ", "root ::= ")
        grammar = LlamaGrammar.from_string(shape, verbose=False)
        out = llm.create_completion(
            prompt="Say where redirects are handled.",
            max_tokens=24,
            temperature=0.0,
            grammar=grammar,
            logits_processor=LogitsProcessorList([push]),
        )
        return str(out["choices"][0]["text"])  # type: ignore[index]

    written = write(EXCERPTS, "How are redirects handled?")
    assert OPENING_NAME.match(written) and "通" not in written
    assert "通" in write(EXCERPTS, "重定向是通过什么处理的?")  # the question's own script


def test_a_question_in_another_language_is_not_refused_for_its_capitalised_nouns(
    service: Service,
) -> None:
    holds = service.searcher().holds
    # German capitalises every noun: those are no names the repository must hold.
    german = "Wie lange wartet die Wiederholung, bevor sie erneut sendet?"
    assert named_words(german) == ["Wiederholung"]
    assert absent_names(german, holds) == []
    # An acronym is a name in any language, and in English a capital still marks one.
    assert absent_names("Wie werden JWT Schlüssel geprüft?", holds) == ["JWT"]
    assert absent_names("How does the retry policy handle Kerberos tickets?", holds) == ["Kerberos"]
