"""The answer flow in the TUI: a brief of the top hits the moment Enter is pressed, progress
while the model reads, the answer's sentences checked, and citations that select their chunk."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from textual import events
from textual.widgets import Markdown

from app.answer.checks import check_sentences, degeneration
from app.answer.citations import check_citations
from app.answer.engine import Answer
from app.answer.llm import Generation
from app.answer.prompt import Excerpt
from app.core.settings import Settings
from app.service import Service
from app.tui.app import RepolensApp
from app.tui.messages import AnswerContext, AnswerFinished, AnswerProgress, AnswerShown
from tests.tui.conftest import searched, wait_for
from widgets.answer_pane import AnswerPane
from widgets.code_preview import CodePreview


def _source(app: RepolensApp) -> str:
    return str(app.query_one("#answer", Markdown).source)


async def test_enter_shows_the_brief_before_the_model_then_progress_and_the_answer(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    seen: list[object] = []
    at: dict[str, float] = {}

    def hook(message: object) -> None:
        seen.append(message)
        if isinstance(message, events.Key) and message.key == "enter":
            at.setdefault("enter", time.perf_counter())

    service = Service(sample_repo, settings.model_copy(update={"answer_max_tokens": 24}))
    app = RepolensApp(service)
    async with app.run_test(size=(160, 40), message_hook=hook) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press(*"exponential backoff with jitter")
        await wait_for(pilot, lambda: app.listed_query == "exponential backoff with jitter")
        pane = app.query_one("#answer-pane", AnswerPane)
        show_brief = pane.show_brief

        def timed(markdown: str, status: str) -> None:
            show_brief(markdown, status)
            at.setdefault("brief", time.perf_counter())

        pane.show_brief = timed  # type: ignore[method-assign]
        await pilot.press("enter")
        source = _source(app)
        assert "Top hits" in source and "`retry_backoff`" in source, source
        assert "`src/retry.py:9`" in source and "exponential growth with full jitter." in source
        assert at["brief"] - at["enter"] < 0.1, f"the brief took {at['brief'] - at['enter']:.3f} s"
        assert not any(isinstance(m, AnswerFinished) for m in seen)
        await wait_for(pilot, lambda: any(isinstance(m, AnswerFinished) for m in seen), 180)
        assert any(isinstance(m, AnswerContext) for m in seen)
        assert any(isinstance(m, AnswerProgress) and m.total > 0 for m in seen)
        assert "[\\[1\\]](cite:1)" in _source(app)  # the brief now carries excerpt numbers


async def test_a_citation_selects_its_chunk_in_the_results_and_the_preview(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(160, 40)) as pilot:
        hits = await searched(
            pilot, app, "retry policy wait between attempts", lambda h: len(h) >= 2
        )
        # The answer's text is hand-written (the model's wording is not what is tested):
        # it cites the second and then the first of the real hits.
        context = hits.hits[:3]
        text = f"`{context[1].symbol}` is one [2]. `{context[0].symbol}` is another [1]."
        excerpts = [Excerpt(n, hit) for n, hit in enumerate(context, 1)]
        answer = Answer(
            "q",
            text,
            check_citations(text, excerpts),
            list(context),
            True,
            "stop",
            sentences=tuple(check_sentences(text, excerpts)),
            degenerate=tuple(degeneration(text, excerpts, "stop")),
        )
        app.post_message(AnswerFinished(answer, app.answer_generation))
        await wait_for(pilot, lambda: "cite:2" in _source(app))
        preview = app.query_one("#preview", CodePreview)
        app.query_one("#answer-pane").focus()
        await pilot.press("n")  # the first citation in the answer: [2]
        second = context[1]
        await wait_for(pilot, lambda: f":{second.start_line}-" in str(preview.border_title))
        assert hits.highlighted == 1
        await pilot.press("n")  # then [1]
        first = context[0]
        await wait_for(pilot, lambda: f":{first.start_line}-" in str(preview.border_title))
        assert hits.highlighted == 0


async def test_an_unsupported_sentence_is_flagged_in_the_pane(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        hit = app.service.search("retry backoff jitter").hits[0]
        excerpts = [Excerpt(1, hit)]
        text = "`retry_backoff` waits with jitter [1]. It retries `max_retries` times [1]."
        answer = Answer(
            "q",
            text,
            [],
            [hit],
            True,
            "stop",
            sentences=tuple(check_sentences(text, excerpts)),
        )
        app.post_message(AnswerFinished(answer, app.answer_generation))
        await wait_for(pilot, lambda: "unsupported" in _source(app))
        source = _source(app)
        assert "1 of 2 sentences unsupported" in source
        assert "`max_retries` is not in \\[1\\]" in source
        assert source.index("waits with jitter [1].") < source.index("⚠")


def _pane_text(app: RepolensApp) -> str:
    """The answer pane's rows as the compositor draws them: what is in view, not what the
    Markdown holds below the pane's bottom edge."""
    region = app.query_one("#answer-pane", AnswerPane).region
    rows = app.screen._compositor.render_strips()[region.y : region.bottom]
    return "\n".join(strip.text[region.x : region.right] for strip in rows)


DEEP = "src/commonMain/kotlin/org/koin/core/instance"
FACTORIES = {  # four definitions whose brief lines wrap at 80 columns, as koin's do
    f"{DEEP}/{kind}InstanceFactory.kt": (
        f"package org.koin.core.instance\n\n/**\n * {kind} instance holder: keeps the shared "
        f"instance that every later lookup of the definition returns.\n */\n"
        f'class {kind}InstanceFactory {{\n    fun sharedInstance(): String = "{kind}"\n}}\n'
    )
    for kind in ("Single", "Scoped", "Factory", "Eager")
}


def _finished(context: list[Any]) -> Answer:
    """The finished answer as the worker posts it: one hand-written sentence about the first
    hit (the model's wording is not what is tested), checked against the real hits."""
    text = f"`{context[0].symbol}` keeps the shared instance [1]."
    excerpts = [Excerpt(n, hit) for n, hit in enumerate(context, 1)]
    return Answer(
        "q",
        text,
        check_citations(text, excerpts),
        list(context),
        True,
        "stop",
        sentences=tuple(check_sentences(text, excerpts)),
    )


async def test_the_answer_scrolls_into_view_under_a_brief_taller_than_the_pane(
    indexed: Callable[[dict[str, str]], Service], tui_state: Path
) -> None:
    app = RepolensApp(indexed(FACTORIES))
    async with app.run_test(size=(80, 24)) as pilot:
        hits = await searched(pilot, app, "shared instance holder", lambda h: len(h) >= 4)
        await pilot.press("f2")  # the answer pane in the code's place
        # The answer as the worker posts it; its words are hand-written (the model's wording
        # is not what is tested), its excerpts the real hits.
        generation = app.answer_generation
        app.post_message(AnswerContext(hits.hits[:4], generation))
        await wait_for(pilot, lambda: "Top hits" in _pane_text(app))
        words = ["The", "single", "factory", "keeps", "one", "instance", "[1]."]
        for n in range(1, len(words) + 1):
            app.post_message(AnswerShown(" ".join(words[:n]), generation))
        await wait_for(pilot, lambda: "one instance" in _source(app))
        await wait_for(pilot, lambda: "The single factory keeps one instance" in _pane_text(app))
        assert "The single factory keeps one instance" in _pane_text(app), _pane_text(app)
        # Finished: its checked sentences replace the stream, and stay in view.
        context = hits.hits[:4]
        app.post_message(AnswerFinished(_finished(context), generation))
        await wait_for(
            pilot, lambda: "cite:1" in _source(app) and "keeps the shared" in _source(app)
        )
        said = f"{context[0].symbol} keeps the shared instance [1]."
        await wait_for(pilot, lambda: said in _pane_text(app))
        assert said in _pane_text(app)


async def test_a_brief_path_too_long_for_the_pane_loses_its_start_not_its_line(
    indexed: Callable[[dict[str, str]], Service], tui_state: Path
) -> None:
    app = RepolensApp(indexed(FACTORIES))
    async with app.run_test(size=(80, 24)) as pilot:
        hits = await searched(pilot, app, "shared instance holder", lambda h: len(h) >= 4)
        await pilot.press("f2")
        app.post_message(AnswerContext(hits.hits[:4], app.answer_generation))
        await wait_for(pilot, lambda: "Top hits" in _pane_text(app))
        # Each path is 72 cells, the pane's line 68: cut from its start, its file and line
        # whole on one row (not `SingleInstanceFactory.k` above `t:3`).
        whole = [f"{hit.path.rsplit('/', 1)[1]}:{hit.start_line}" for hit in hits.hits[:2]]
        await wait_for(pilot, lambda: all(line in _pane_text(app) for line in whole))
        rows = _pane_text(app).splitlines()
        for hit in hits.hits[:2]:
            name = hit.path.rsplit("/", 1)[1]
            assert any(f"{name}:{hit.start_line}" in row for row in rows), "\n".join(rows)
        assert any(row.strip(" │").startswith("…") for row in rows), "\n".join(rows)

        # At 160 columns the pane is 38 wide: the brief is cut again, to the new width.
        await pilot.resize_terminal(160, 45)
        cut = [f"│    …/{h.path.rsplit('/', 1)[1]}:{h.start_line}  " for h in hits.hits[:4]]
        await wait_for(pilot, lambda: all(row in _pane_text(app) for row in cut))


async def test_a_cited_path_too_long_for_the_pane_loses_its_start_not_its_line(
    indexed: Callable[[dict[str, str]], Service], tui_state: Path
) -> None:
    app = RepolensApp(indexed(FACTORIES))
    async with app.run_test(size=(80, 24)) as pilot:
        hits = await searched(pilot, app, "shared instance holder", lambda h: len(h) >= 4)
        await pilot.press("f2")
        generation = app.answer_generation
        context = hits.hits[:2]
        app.post_message(AnswerContext(context, generation))
        app.post_message(AnswerFinished(_finished(context), generation))
        hit = context[0]
        where = f"{hit.path.rsplit('/', 1)[1]}:{hit.start_line}-{hit.end_line}"
        # The 72-cell path and its lines, cut from the start to the pane's 68-cell line, so
        # that it wraps whole onto a row of its own (not `…InstanceFactory.k` above `t:3-9`).
        cut = re.compile(rf"`(…[^`]*/{re.escape(where)})`")
        await wait_for(pilot, lambda: cut.search(_source(app)) is not None)
        wide = cut.findall(_source(app))[-1]
        assert f"`{hit.path}:" not in _source(app) and 60 <= len(wide) <= 68, wide
        # At 160 columns the pane is 38 wide: the citation is cut again, to the new width.
        await pilot.resize_terminal(160, 45)
        await wait_for(pilot, lambda: len(cut.findall(_source(app))[-1]) <= 38)


class _PausingModel:
    """Writes a fixed answer a piece at a time and stops where the test looks at the pane:
    what the pane shows mid-answer is the point, and the real model's wording (or when it
    writes an unsupported sentence) cannot be chosen."""

    n_ctx = 4096

    def __init__(self, answer: Callable[[str], list[str]]) -> None:
        self.answer = answer  # the pieces, from the name the grammar gives excerpt [1]
        self.paused = threading.Event()
        self.go_on = threading.Event()

    def prompt_tokens(self, messages: list[dict[str, str]]) -> tuple[list[int], list[str]]:
        return [1] * 100, []

    def opening_tokens(self, text: str) -> list[int]:
        return [2]

    def word_tokens(self, words: Iterable[str]) -> set[int]:

        return set()

    def generate(self, tokens: list[int], **options: Any) -> Generation:
        name = re.search(r'^name1 ::= "`([^`"]+)`"', options["grammar"], re.M)
        assert name is not None
        written = ""
        for piece in self.answer(name.group(1)):
            if piece == "|":  # the test looks here
                self.go_on.clear()
                self.paused.set()
                assert self.go_on.wait(30)
                continue
            written += piece
            options["on_text"](piece)
        return Generation(written, 100, 20, 1.0, 1.0, 1.0, "stop")


def _good(name: str) -> str:
    """A sentence in the name's own words, which the excerpt defining the name holds."""
    plain = re.sub(r"([a-z])([A-Z])", r"\1 \2", name.strip("`")).lower()
    return f"{name} is the {' '.join(re.findall(r'[a-z]+', plain))} [1]."


def _again(name: str) -> str:
    """The first sentence said another way (not so alike that it is cut as said again)."""
    return _good(name).replace(" [1].", " as written [1].")


def _written(name: str) -> list[str]:
    """The name of excerpt [1]; a pause; a sentence its excerpt supports, one it does not
    (`phantom_total`) and the space after its citation; a pause; another supported one."""
    good = _good(f"`{name}`")
    bad = f" `{name}` returns `phantom_total` [1]."
    words = re.findall(r"\s*\S+", good[len(name) + 2 :] + bad)
    return ["`", name, "`", "|", *words, " ", "|", *re.findall(r"\s*\S+", _again(f"`{name}`"))]


async def test_the_pane_shows_the_opening_name_at_once_and_takes_back_a_failed_sentence(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    service = Service(sample_repo, settings)
    model = _PausingModel(_written)
    service.answerer().model = lambda *cancelled: model  # type: ignore[method-assign]
    app = RepolensApp(service)
    async with app.run_test(size=(160, 40)) as pilot:
        await searched(pilot, app, "how long to wait between retries")
        await pilot.press("enter")
        pane = app.query_one("#answer-pane", AnswerPane)
        await wait_for(pilot, model.paused.is_set)
        await wait_for(pilot, lambda: bool(pane.streamed))  # the name's backtick has closed
        name = pane.streamed
        assert re.fullmatch(r"`[\w.]+(?:\(\))?`", name), name
        assert _source(app).rstrip().endswith(name)
        model.paused.clear()
        model.go_on.set()
        await wait_for(pilot, model.paused.is_set)  # the unsupported sentence has its citation
        await wait_for(pilot, lambda: pane.streamed == _good(name))
        await wait_for(pilot, lambda: _source(app).rstrip().endswith(_good(name)))
        assert "phantom_total" not in _source(app) and "returns" not in _source(app)
        assert _source(app).rstrip().endswith(_good(name))
        model.go_on.set()
        await wait_for(pilot, lambda: "Left out, unsupported" in _source(app))
        assert f"{_good(name)} {_again(name)}" in _source(app)
