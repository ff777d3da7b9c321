"""The answer model loads in the background when the TUI opens: the status line says so,
search and the brief never wait for it, and a model that cannot load is said in one line."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual import events
from textual.notifications import Notification, Notify

from app.answer import engine
from app.answer.engine import fixed_prefix
from app.answer.llm import _LOADED
from app.core.settings import Settings
from app.service import Service
from app.tui.app import RepolensApp
from app.tui.messages import AnswerFinished, AnswerModelChanged
from tests.tui.conftest import searched, wait_for
from widgets.answer_pane import AnswerPane
from widgets.index_status import IndexStatus

QUESTION = "exponential backoff with jitter"


@pytest.fixture(autouse=True)
def prefix_only_afterwards() -> Iterator[None]:
    """The loaded model is shared by every test of the process: each test here leaves its
    cache holding the fixed prefix only, as a fresh load does, so that a later test asking
    the same question reads its prompt again."""
    yield
    for model in list(_LOADED.values()):
        if model.warm_ms is not None:
            model.forget_from(len(fixed_prefix(model)))


def _status(app: RepolensApp) -> str:
    return str(app.query_one("#status", IndexStatus).render())


def _preloading(settings: Settings, **update: object) -> Settings:
    return settings.model_copy(update={"answer_preload": True, "answer_max_tokens": 16, **update})


async def test_the_model_loads_when_the_app_opens_and_the_status_says_so(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    states: list[str] = []

    def hook(message: object) -> None:
        if isinstance(message, AnswerModelChanged):
            states.append(message.state)

    service = Service(sample_repo, _preloading(settings))
    app = RepolensApp(service)
    async with app.run_test(size=(200, 40), message_hook=hook) as pilot:
        await wait_for(pilot, lambda: "answer model ready" in _status(app), 120)
        assert states[0] == engine.MODEL_LOADING and states[-1] == engine.MODEL_READY
        assert service.answer_model_state() == engine.MODEL_READY  # before any question
        hits = await searched(pilot, app, QUESTION)
        assert hits.hits[0].symbol == "retry_backoff"


async def test_enter_while_the_model_loads_shows_the_brief_at_once_then_the_answer(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    seen: list[object] = []
    at: dict[str, float] = {}

    def hook(message: object) -> None:
        seen.append(message)
        if isinstance(message, events.Key) and message.key == "enter":
            at.setdefault("enter", time.perf_counter())

    service = Service(sample_repo, _preloading(settings))
    app = RepolensApp(service)
    # Holding the lock the loading thread reads the fixed prefix under keeps the preload in
    # flight (the model is loaded, its prefix not yet read) for as long as the test needs.
    engine._WARMING.acquire()
    try:
        async with app.run_test(size=(200, 40), message_hook=hook) as pilot:
            await wait_for(pilot, lambda: "answer model loading" in _status(app), 60)
            await searched(pilot, app, QUESTION)
            await wait_for(pilot, lambda: app.listed_query == QUESTION)
            pane = app.query_one("#answer-pane", AnswerPane)
            show_brief = pane.show_brief

            def timed(markdown: str, status: str) -> None:
                show_brief(markdown, status)
                at.setdefault("brief", time.perf_counter())

            pane.show_brief = timed  # type: ignore[method-assign]
            await pilot.press("enter")
            assert at["brief"] - at["enter"] < 0.1, f"{at['brief'] - at['enter']:.3f} s"
            assert service.answer_model_state() == engine.MODEL_LOADING
            await pilot.pause(0.5)
            assert not any(isinstance(m, AnswerFinished) for m in seen)  # it waits for the model
            engine._WARMING.release()
            await wait_for(pilot, lambda: any(isinstance(m, AnswerFinished) for m in seen), 180)
            [finished] = [m for m in seen if isinstance(m, AnswerFinished)]
            assert finished.error == "" and finished.answer is not None
            assert "answer model ready" in _status(app)
    finally:
        if engine._WARMING.locked():
            engine._WARMING.release()


async def test_a_model_that_cannot_load_is_said_in_one_line_and_search_works(
    sample_repo: Path, settings: Settings, tui_state: Path, tmp_path: Path
) -> None:
    toasts: list[Notification] = []

    def hook(message: object) -> None:
        if isinstance(message, Notify):
            toasts.append(message.notification)

    missing = tmp_path / "no-such-model.gguf"
    app = RepolensApp(Service(sample_repo, _preloading(settings, answer_model=str(missing))))
    async with app.run_test(size=(200, 40), message_hook=hook) as pilot:
        # The status line is set at once; the toast is a message the app handles after it.
        await wait_for(
            pilot, lambda: "answer model failed to load" in _status(app) and bool(toasts), 60
        )
        [toast] = toasts
        assert str(missing) in toast.message and "\n" not in toast.message
        assert toast.title.startswith("The answer model did not load")
        hits = await searched(pilot, app, QUESTION)
        assert hits.hits[0].symbol == "retry_backoff"


async def test_with_preload_off_the_model_loads_at_the_first_question(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    service = Service(sample_repo, settings.model_copy(update={"answer_max_tokens": 16}))
    assert service.settings.answer_preload is False  # the TUI tests' default (conftest)
    app = RepolensApp(service)
    async with app.run_test(size=(200, 40)) as pilot:
        await searched(pilot, app, QUESTION)
        await pilot.pause(1.0)
        assert service.answer_model_state() == engine.MODEL_COLD
        assert "answer model" not in _status(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "answer model ready" in _status(app), 180)


async def test_a_question_left_typed_is_read_ahead_so_enter_finds_its_prompt_read(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    finished: list[AnswerFinished] = []

    def hook(message: object) -> None:
        if isinstance(message, AnswerFinished):
            finished.append(message)

    app = RepolensApp(Service(sample_repo, _preloading(settings)))
    async with app.run_test(size=(200, 40), message_hook=hook) as pilot:
        await wait_for(pilot, lambda: "answer model ready" in _status(app), 120)
        await searched(pilot, app, QUESTION)
        await wait_for(pilot, lambda: app.prepared[0] == QUESTION, 120)  # typing paused
        assert app.prepared[1] > 0
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(finished), 180)
        answer = finished[0].answer
        assert answer is not None and answer.prompt_tokens > 0  # type: ignore[attr-defined]
        # Enter read nothing: the prompt was in the cache but for its last token.
        assert answer.reused_tokens == answer.prompt_tokens - 1  # type: ignore[attr-defined]


async def test_the_read_ahead_waits_for_the_pause_its_setting_names(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, _preloading(settings, answer_read_ahead_after_s=3.0)))
    async with app.run_test(size=(200, 40)) as pilot:
        await searched(pilot, app, QUESTION)
        await wait_for(pilot, lambda: app.listed_query == QUESTION)
        await pilot.pause(1.5)  # past the old fixed 0.8 s
        assert app.preparing == ""
        await wait_for(pilot, lambda: app.preparing == QUESTION, 10)
