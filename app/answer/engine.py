"""Answer a question: retrieve and pack, prompt, stream from the warm local model, check
citations. A newer question on the same answerer cancels the one in flight."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from app.answer.checks import (
    ALL_LEFT_OUT,
    LoopGuard,
    SentenceCheck,
    abstains,
    check_sentences,
    degeneration,
)
from app.answer.citations import Citation, CitationStream, check_citations
from app.answer.directives import LEFT_OUT, AnswerScreen, RepositoryInstructions
from app.answer.gate import absent_names, abstention_note
from app.answer.grammar import answer_grammar, closed_stops
from app.answer.llm import LocalModel, ReadingCallback, default_threads, load_model, never
from app.answer.model import resolve_model_file
from app.answer.prompt import (
    ABSTAIN_ANSWER,
    EXAMPLE_MARKERS,
    Excerpt,
    Prompt,
    build_prompt,
    clip_question,
)
from app.answer.shown import ShownAnswer
from app.core.models import Hit
from app.core.settings import Settings
from app.search.searcher import SearchResult
from app.search.tokenize import name_words

TokenCallback = Callable[[str], None]
ShownCallback = Callable[[str], None]  # the whole answer the pane may show now
CitationCallback = Callable[[Citation], None]
ContextCallback = Callable[[list[Hit]], None]  # the excerpts, [1] first, before the model runs
ModelStateCallback = Callable[[str, str], None]  # an Answerer's model state, and why it failed
MODEL_COLD, MODEL_LOADING, MODEL_READY, MODEL_FAILED = "cold", "loading", "ready", "failed"
# Nats by which the model's first token must favour the abstention over an answer's opening:
# the 0.5B chose it for 8 of 36 answerable questions when it merely came first.
ABSTAIN_MARGIN = 2.0
_WARMING = threading.Lock()  # one thread reads a new model's prefix; the others wait for it
NO_CONTEXT = "Nothing in the index matches this question, so there is nothing to answer from."
EMPTY_QUESTION = "The question is empty: ask something about the repository."


@dataclass(frozen=True, slots=True)
class Answer:
    question: str
    text: str
    citations: list[Citation]
    context: list[Hit]  # the packed chunks, excerpt n is context[n - 1]
    grounded: bool  # at least one valid citation
    # "stop", "length", "loop", "repeat" (a sentence said again, cut: the rest is whole),
    # "cancelled", "no-context" or "abstained" (gate)
    finish: str
    prompt_tokens: int = 0
    tokens: int = 0
    tokens_per_s: float = 0.0
    question_cut: bool = False
    timings_ms: dict[str, float] = field(default_factory=dict)
    # Sentences the model wrote that repeated an instruction from the excerpts; `text` has a
    # note in their place.
    left_out: tuple[str, ...] = ()
    # Each sentence of `text` with the excerpts it cites and why it is unsupported, if it is.
    sentences: tuple[SentenceCheck, ...] = ()
    degenerate: tuple[str, ...] = ()  # why the answer is degenerate (a loop, the example, …)
    # Sentences the model wrote whose key terms the excerpt they cite lacks (or that cite
    # none): left out of `text` when answers are constrained, listed here with why.
    dropped: tuple[SentenceCheck, ...] = ()
    reused_tokens: int = 0  # prompt tokens the warm cache already held

    @property
    def all_citations_valid(self) -> bool:
        return all(c.valid for c in self.citations)

    @property
    def unsupported(self) -> list[SentenceCheck]:
        return [s for s in self.sentences if not s.supported]

    @property
    def abstained(self) -> bool:
        """The answer is the abstention: decided before the model, written by it, or left
        when every sentence it wrote was unsupported. It claims nothing, so cites nothing."""
        return self.finish in {"no-context", "abstained"} or abstains(self.text)


class Answerer:
    """Holds the warm model for one settings object and the question in flight."""

    def __init__(self, settings: Settings, model_file: Path | None = None) -> None:
        self.settings = settings
        self.model_file = model_file
        self._current: threading.Event | None = None
        self._guard = threading.Lock()
        self.state = MODEL_COLD
        self._watchers: list[ModelStateCallback] = []

    def watch(self, callback: ModelStateCallback) -> None:
        """`callback(state, error)` hears every change of `state` (from the thread that
        loads the model): loading, ready, failed (with the one-line reason), or cold again."""
        self._watchers.append(callback)

    def _announce(self, state: str, error: str = "") -> None:
        self.state = state
        for callback in list(self._watchers):
            callback(state, error)

    def model(self, cancelled: Callable[[], bool] = never) -> LocalModel:
        """The warm model: loaded once, its fixed prefix read into the cache at load, so that
        the first question reads only its own excerpts. A call while another thread loads
        or warms it waits for that one. `cancelled` stops the reading of the prefix (the
        model is then returned cold, and the next call reads it)."""
        if self.state != MODEL_READY:
            self._announce(MODEL_LOADING)
        try:
            path = self.model_file or resolve_model_file(self.settings.answer_model)
            self.model_file = path
            model = load_model(
                path,
                n_ctx=self.settings.answer_context_tokens,
                threads=self.settings.answer_threads or default_threads(),
                flash_attn=self.settings.answer_flash_attention,
            )
            with _WARMING:
                if model.warm_ms is None:
                    model.warm_ms = model.warm(fixed_prefix(model), cancelled)
        except Exception as error:  # any failure to load leaves answers unavailable
            self._announce(MODEL_FAILED, str(error))
            raise
        if self.state != MODEL_READY:
            self._announce(MODEL_READY if model.warm_ms is not None else MODEL_COLD)
        return model

    def preload(self, cancel: threading.Event | None = None) -> bool:
        """Load the model and read its fixed prefix now, before any question (the TUI when
        it opens, the MCP server when it offers `ask`); False when `cancel` stopped it.
        Raises AnswerModelUnavailable when the model cannot load."""
        self.model(cancel.is_set if cancel is not None else never)
        return self.state == MODEL_READY

    def prepare(
        self,
        question: str,
        search: Callable[[str, int], SearchResult],
        cancel: threading.Event,
        in_repository: Callable[[str], bool] | None = None,
    ) -> int:
        """Read the prompt that `ask(question)` would read, now (the TUI, once typing
        pauses), so that asking it finds the prompt in the cache; nothing when the gate
        would abstain. Stops when `cancel` is set. The prompt tokens read."""
        clipped, _ = clip_question(question)
        if not clipped:
            return 0
        result = search(clipped, self.settings.answer_budget_tokens)
        if not result.hits or cancel.is_set():
            return 0
        if in_repository is not None and absent_names(clipped, in_repository):
            return 0
        model = self.model(cancel.is_set)
        if model.warm_ms is None:
            return 0
        _, tokens, _ = _fitted_prompt(model, question, result.hits, self.settings.answer_max_tokens)
        return model.read_ahead(tokens, cancel.is_set)

    def _begin(self) -> threading.Event:
        with self._guard:
            if self._current is not None:
                self._current.set()
            self._current = threading.Event()
            return self._current

    def ask(
        self,
        question: str,
        search: Callable[[str, int], SearchResult],
        *,
        budget_tokens: int | None = None,
        max_tokens: int | None = None,
        on_token: TokenCallback | None = None,
        on_citation: CitationCallback | None = None,
        cancel: threading.Event | None = None,
        on_context: ContextCallback | None = None,
        on_progress: ReadingCallback | None = None,
        in_repository: Callable[[str], bool] | None = None,
        constrained: bool | None = None,
        on_shown: ShownCallback | None = None,
    ) -> Answer:
        """`in_repository` says whether a search token occurs anywhere in the index: a
        constrained answer abstains at once when the question names what it never does.
        `constrained` overrides the answer_constrained setting (the eval's baseline).
        `on_token` hears each piece as the answer screen releases it; `on_shown` the whole
        answer a pane may show so far, which takes back a sentence that fails its checks
        (app.answer.shown)."""
        superseded = self._begin()

        def cancelled() -> bool:
            return superseded.is_set() or (cancel is not None and cancel.is_set())

        started = time.perf_counter()
        clipped, cut = clip_question(question)
        if not clipped:
            return Answer(question, EMPTY_QUESTION, [], [], False, "no-context")
        budget = budget_tokens or self.settings.answer_budget_tokens
        result = search(clipped, budget)
        timings = {"retrieve": _ms(started)}
        if not result.hits:
            timings["total"] = _ms(started)
            return Answer(question, NO_CONTEXT, [], [], False, "no-context", timings_ms=timings)
        if on_context is not None:
            on_context(list(result.hits))
        if constrained is None:
            constrained = self.settings.answer_constrained
        absent = absent_names(clipped, in_repository) if constrained and in_repository else []
        if absent:
            timings["total"] = _ms(started)
            note = abstention_note(absent)
            return Answer(
                question, note, [], list(result.hits), False, "abstained", timings_ms=timings
            )
        model = self.model()
        limit = max_tokens or self.settings.answer_max_tokens
        prompt, tokens, stops = _fitted_prompt(model, question, result.hits, limit)
        timings["prompt"] = _ms(started) - timings["retrieve"]
        citations = CitationStream(prompt.excerpts)
        screen = AnswerScreen(
            RepositoryInstructions.from_excerpts(
                [e.hit.text for e in prompt.excerpts], prompt.question
            )
        )
        released: list[str] = []
        loop = LoopGuard()
        judge = ShownAnswer(prompt.excerpts, self.settings.answer_lead_with_top_hit)
        shown = [""]

        def show(finished: bool = False) -> None:
            text = "".join(released)
            now = judge.shown(text, finished) if constrained else text
            if on_shown is not None and now != shown[0]:
                shown[0] = now
                on_shown(now)

        def release(text: str) -> None:
            if not text or loop.cut is not None:
                return
            if loop.feed(text):  # the loop's text is not shown; generation stops at once
                before = len(loop.text) - len(text)
                text = text[: max(0, (loop.cut or 0) - before)]
                if not text:
                    return
            released.append(text)
            if on_token is not None:
                on_token(text)
            for citation in citations.feed(text):
                if on_citation is not None:
                    on_citation(citation)
            show()

        generation = model.generate(
            tokens,
            max_tokens=limit,
            stop=stops,
            on_text=lambda piece: release(screen.feed(piece)),
            cancelled=lambda: cancelled() or loop.cut is not None,
            on_progress=on_progress,
            grammar=answer_grammar(
                prompt.excerpts, prompt.question, self.settings.answer_lead_with_top_hit
            )
            if constrained
            else None,
            first_bias=_abstention_bias(model) if constrained else None,
            bias=_excerpt_bias(model, prompt.excerpts, self.settings.answer_excerpt_bias)
            if constrained
            else None,
        )
        finish = generation.finish
        if loop.cut is not None:
            finish = "repeat" if loop.repeat else "loop"
        release(screen.finish(cut=finish != "stop"))
        show(finished=True)
        text = loop.text[: loop.cut] if loop.cut is not None else "".join(released)
        if constrained:
            text = closed_stops(text)
        checks = check_sentences(text, prompt.excerpts, bounded=constrained)
        dropped: list[SentenceCheck] = []
        if constrained:
            text, checks, dropped = _leave_out_unsupported(
                text, checks, prompt.excerpts, self.settings.answer_leave_out_unsaid
            )
        checked = check_citations(text, prompt.excerpts)
        if _echoes_example(text, prompt):  # its citations point at the example
            checked = [replace(c, valid=False) for c in checked]
        before_model = timings["retrieve"] + timings["prompt"] + generation.wait_ms
        timings["wait"] = generation.wait_ms  # for the model: a read-ahead ending
        timings["prefill"] = generation.prefill_ms
        if generation.first_token_ms is not None:
            timings["first_token"] = round(before_model + generation.first_token_ms, 1)
        timings["decode"] = generation.decode_ms
        timings["total"] = _ms(started)
        return Answer(
            question=question,
            text=text.strip(),
            citations=checked,
            context=[e.hit for e in prompt.excerpts],
            grounded=any(c.valid for c in checked),
            finish=finish,
            prompt_tokens=generation.prompt_tokens,
            tokens=generation.tokens,
            tokens_per_s=round(generation.tokens_per_s, 2),
            question_cut=cut,
            timings_ms=timings,
            left_out=tuple(screen.left_out),
            sentences=tuple(checks),
            degenerate=tuple(degeneration(text, prompt.excerpts, finish)),
            dropped=tuple(dropped),
            reused_tokens=generation.reused,
        )


def _abstention_bias(model: LocalModel) -> dict[int, float]:
    """The grammar offers the abstention beside the answer; the model must prefer it by
    ABSTAIN_MARGIN, since the gate already abstains on what the repository never mentions."""
    return {token: -ABSTAIN_MARGIN for token in model.opening_tokens(ABSTAIN_ANSWER)}


def _excerpt_bias(
    model: LocalModel, excerpts: tuple[Excerpt, ...], strength: float
) -> dict[int, float] | None:
    """`strength` on the tokens that write the excerpts' words (answer_excerpt_bias)."""
    if strength <= 0:
        return None
    words = {
        word
        for e in excerpts
        for word in name_words(e.hit.text).split()
        if len(word) >= 3 and word.isalpha()
    }
    return dict.fromkeys(model.word_tokens(sorted(words)), strength)


def fixed_prefix(model: LocalModel) -> list[int]:
    """The prompt tokens every question shares (the instructions and the worked examples):
    two prompts for different questions over different excerpts, one and two, agree on these."""
    hits = [
        Hit(f"{n}", f"{n}.py", 1, 2, name, name, "function", "python", 0.0, body, "body")
        for n, name, body in ((1, "alpha", "def alpha(): pass"), (2, "beta", "x = 2"))
    ]
    one, _ = model.prompt_tokens(build_prompt("Where is alpha?", hits[:1]).messages)
    two, _ = model.prompt_tokens(build_prompt("How is beta set?", hits[::-1]).messages)
    shared = 0
    for a, b in zip(one, two, strict=False):
        if a != b:
            break
        shared += 1
    return one[:shared]


def _fitted_prompt(
    model: LocalModel, question: str, hits: list[Hit], max_tokens: int
) -> tuple[Prompt, list[int], list[str]]:
    """The prompt with as many excerpts as the context window holds beside the answer."""
    kept = list(hits)
    while True:
        prompt = build_prompt(question, kept)
        tokens, stops = model.prompt_tokens(prompt.messages)
        if len(tokens) + max_tokens <= model.n_ctx or len(kept) <= 1:
            break
        kept.pop()
    room = model.n_ctx - max_tokens
    if len(tokens) > room:  # one excerpt alone is too long: keep its beginning
        hit = kept[0]
        share = max(0.1, room / len(tokens) * 0.9)
        text = hit.text[: int(len(hit.text) * share)]
        kept = [replace(hit, text=text)]
        prompt = build_prompt(question, kept)
        tokens, stops = model.prompt_tokens(prompt.messages)
    return prompt, tokens, stops


def _leave_out_unsupported(
    text: str, checks: list[SentenceCheck], excerpts: tuple[Excerpt, ...], unsaid_too: bool
) -> tuple[str, list[SentenceCheck], list[SentenceCheck]]:
    """The answer without its unsupported sentences (ALL_LEFT_OUT if none is left), its
    checks, and the sentences left out. A sentence about excerpts packed as signatures only
    is kept and flagged: their bodies, left out for room, may well say what it says."""
    # The note in place of a repository instruction is the engine's own: it cites nothing
    # and is never left out.
    dropped = [c for c in checks if c.left_out(unsaid_too) and c.text != LEFT_OUT]
    if not dropped:
        return text, checks, []
    kept = [c.text for c in checks if not c.left_out(unsaid_too) or c.text == LEFT_OUT]
    text = " ".join(kept) if kept else ALL_LEFT_OUT
    return text, check_sentences(text, excerpts, bounded=True), dropped


def _echoes_example(text: str, prompt: Prompt) -> bool:
    given = " ".join(e.hit.text for e in prompt.excerpts)
    return any(marker in text and marker not in given for marker in EXAMPLE_MARKERS)


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
