"""An answer that restates the question as a fact about the name it opens with is not
supported (issue 17): the words check, its agreement with the hand labels, the engine's use."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.answer.checks import ALL_LEFT_OUT, WORDS_FOUND, check_sentences, words_found
from app.answer.engine import Answerer
from app.answer.prompt import Excerpt
from app.bench.answers import judge
from app.bench.support_labels import agreement, leave_one_corpus_out, load
from app.core.models import Hit
from app.core.settings import Settings
from app.search.searcher import SearchResult
from app.search.tokenize import tokens
from app.service import Service
from tests.unit.test_answer_shown import PiecewiseModel

# Excerpts and sentences as the 0.5B wrote them in the 48-question eval on main 726e270.
FRESH = """\
/**
 * Check if the request is fresh, aka
 * Last-Modified and/or the ETag
 * still match.
 *
 * @return {Boolean}
 * @public
 */

defineGetter(req, 'fresh', function(){
  var method = this.method;
  var res = this.res
  var status = res.statusCode

  // GET or HEAD for weak freshness validation only
  if ('GET' !== method && 'HEAD' !== method) return false;

  // 2xx or 304 as per rfc2616 14.26
  if ((status >= 200 && status < 300) || 304 === status) {
    return fresh(this.headers, {
      'etag': res.get('ETag'),
      'last-modified': res.get('Last-Modified')
    })
  }

  return false;
});"""
VALIDATE = """\
    validate: (value: unknown) => {
      try {
        const r = safeParse(inst, value);
        return r.success ? { value: r.data } : { issues: r.error?.issues };
      } catch (_) {
        return safeParseAsync(inst, value).then(
          (r) => (r.success ? { value: r.data } : { issues: r.error?.issues }));
      }
    },"""
QUEUED = """\
        /// <summary>
        /// Queue events and then fire in order.
        /// </summary>
        private void InternalFireQueued(TTrigger trigger, params object[] args)
        {
            // If a trigger is already being handled then the trigger will be queued (FIFO)
            // and processed later.
            if (_firing)
            {
                return;
            }"""
USE = """\
// Use appends a MiddlewareFunc to the chain. Middleware can be used to intercept or otherwise \
modify requests and/or responses, and are executed in the order that they are applied to the Router.
func (r *Router) Use(mwf ...MiddlewareFunc) {
\tfor _, fn := range mwf {
\t\tr.middlewares = append(r.middlewares, fn)
\t}
}"""
REGEXP = (
    "func newRouteRegexp(tpl string, typ regexpType, options routeRegexpOptions) "
    "(*routeRegexp, error) {"
)

RATE_LIMIT = "`req.fresh` rejects clients sending too many requests per minute [1]."
TELEMETRY = "`validate` sends validation failures to a remote telemetry server [1]."
QUEUED_SAID = (
    "`InternalFireQueued()` fires a trigger in order, but if another trigger is already being "
    "handled then it will be queued (FIFO) and processed later [1]."
)
USE_SAID = (
    "`Router.Use()` wraps middlewares around the matched handler in the order they are applied "
    "to the Router [1]."
)
TEMPLATE = (
    "`newRouteRegexp()` turns a path template with placeholders into a regular expression [1]."
)


def _hit(path: str, symbol: str, text: str, packed: str = "body") -> Hit:
    return Hit(f"{path}:1", path, 1, 30, symbol.rsplit(".", 1)[-1], symbol, "function", "", 1.0,
               text, packed)  # fmt: skip


def _one(sentence: str, hit: Hit) -> Any:
    return check_sentences(sentence, [Excerpt(1, hit)])[0]


def test_a_question_restated_about_the_opening_name_is_unsupported() -> None:
    # Every key term of these is in the excerpt: the check before let both through.
    fresh = _one(RATE_LIMIT, _hit("lib/request.js", "req.fresh", FRESH))
    telemetry = _one(TELEMETRY, _hit("v4/core/schemas.ts", "$ZodType.validate", VALIDATE))
    for check in (fresh, telemetry):
        assert check.terms_supported and not check.supported
        assert check.problem.startswith("[1] does not say this:")
    assert "(not rejects, clients, sending, too, …)" in fresh.problem


def test_a_sentence_the_excerpt_says_in_its_own_words_stays_supported() -> None:
    check = _one(
        QUEUED_SAID, _hit("src/StateMachine.cs", "StateMachine.InternalFireQueued", QUEUED)
    )
    assert check.supported and check.problem == ""


def test_a_function_word_the_excerpt_lacks_is_no_evidence_against_a_paraphrase() -> None:
    # As the 0.5B wrote it on main 784154d (gorilla-mux-08, labelled supported): "around" is
    # no word code spells; without it 4 of its 7 words are the excerpt's.
    check = _one(USE_SAID, _hit("middleware.go", "Router.Use", USE))
    assert check.supported and check.problem == ""
    said, unsaid = words_found(USE_SAID, set(tokens(USE + " middleware.go Router.Use")))
    assert "around" not in said + unsaid and "wraps" in unsaid


def test_a_negation_stays_a_word_the_excerpt_must_say() -> None:
    said, unsaid = words_found("`x` does not drop keys [1].", set(tokens("drop keys")))
    assert said == ["drop", "keys"] and unsaid == ["not"]


def test_the_eval_reports_the_key_terms_and_the_strict_share_side_by_side() -> None:
    context = [_hit("lib/request.js", "req.fresh", FRESH)]
    verdict = judge(RATE_LIMIT, context, "stop", ())
    assert (verdict.sentences, verdict.supported, verdict.supported_strict) == (1, 1, 0)
    assert "does not say this" in verdict.unsupported[0]


def test_the_words_check_agrees_with_the_hand_labels_out_of_sample() -> None:
    # 1,635 sentences: 232 from the no-identifier questions the cut was fitted on (129) and
    # labelled after it, 652 from every dev and dev2 question of every kind (2026-12-04, the
    # excerpt bias tried at 0, 2 and 3), then 422 more (the 1.5B over every question, the
    # 0.5B with longer sentences and with no token run twice), then 148 written under a guide
    # that kept each sentence to its excerpt's words (2026-12-05, not kept): sentences made
    # to pass this check, 36 of them supported; then 181 with the prompt's reminder before
    # the excerpts. On them the check at 0.52 flags 52 % of the unsupported sentences, 87 %
    # of its flags right; fitted per held-out corpus (0.866-0.882) it agrees more often
    # (1,160 against 1,079) by leaving out far more supported sentences (247 against 78).
    rows = load()
    assert len(rows) == 1635 and sum(r.supported for r in rows) == 639
    before, now = agreement(rows, None), agreement(rows, WORDS_FOUND)
    assert before.recall < 0.11  # the key terms alone flag 105 of the 996
    assert now.precision >= 0.86 and now.recall >= 0.51 and now.missed <= 478
    held_out, _ = leave_one_corpus_out(rows)
    assert held_out.precision >= 0.75 and held_out.recall >= 0.77 and held_out.missed <= 228


def _ask(tmp_path: Path, text: str, hits: list[Hit], unsaid_too: bool = True) -> Any:
    settings = Settings(index_dir=tmp_path, answer_leave_out_unsaid=unsaid_too)
    answerer = Answerer(settings)
    answerer.model = lambda: PiecewiseModel(text)  # type: ignore[method-assign]
    return answerer.ask("Where is the rate limiter?", lambda q, b: SearchResult(q, list(hits)))


def test_an_answer_whose_only_claim_echoes_the_question_is_left_out_and_says_so(
    tmp_path: Path,
) -> None:
    # Not "No excerpt answers this": the excerpts were not found wanting, the sentence was.
    answer = _ask(tmp_path, RATE_LIMIT, [_hit("lib/request.js", "req.fresh", FRESH)])
    assert answer.text == ALL_LEFT_OUT and answer.abstained and not answer.grounded
    assert [c.text for c in answer.dropped] == [RATE_LIMIT]
    assert "does not say this" in answer.dropped[0].problem


def test_without_leaving_out_for_the_words_the_echo_is_kept_and_flagged(tmp_path: Path) -> None:
    answer = _ask(tmp_path, RATE_LIMIT, [_hit("lib/request.js", "req.fresh", FRESH)], False)
    assert answer.text == RATE_LIMIT and answer.dropped == () and not answer.abstained
    assert [c.text for c in answer.unsupported] == [RATE_LIMIT]


def test_a_claim_about_a_signature_alone_is_kept_and_flagged(tmp_path: Path) -> None:
    # The packer kept only newRouteRegexp's first line (its 120 lines did not fit): the body
    # may well say it, so the sentence stays, marked unsupported, rather than an abstention.
    hit = replace(_hit("regexp.go", "newRouteRegexp", REGEXP), packed="signature")
    answer = _ask(tmp_path, TEMPLATE, [hit])
    assert answer.text == TEMPLATE and answer.dropped == () and not answer.abstained
    assert answer.sentences[0].elided and [c.text for c in answer.unsupported] == [TEMPLATE]
    assert answer.unsupported[0].problem.startswith("[1] shows only a signature, which does not")


@pytest.fixture
def service(sample_repo: Path, settings: Settings) -> Service:
    service = Service(sample_repo, settings.model_copy(update={"answer_leave_out_unsaid": True}))
    service.index(with_vectors=False)
    return service


def test_the_real_models_claim_on_a_question_the_gate_lets_through_is_left_out(
    service: Service,
) -> None:
    # Nothing here limits a client's rate, and the question names nothing the gate could
    # find absent: the 0.5B writes of `RetryPolicy` (as it wrote of express's `req.fresh`),
    # and the checks leave it out: what it says is not in the excerpt.
    answer = service.ask(
        "Where is the rate limiter that rejects clients sending too many requests per minute?",
        max_tokens=60,
    )
    assert answer.finish == "stop" and answer.abstained
    assert answer.text == ALL_LEFT_OUT and answer.citations == []
    assert answer.dropped and all("RetryPolicy" in c.text and c.problem for c in answer.dropped)
