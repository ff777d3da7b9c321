"""The TUI driven with Pilot over a real index of the sample repository."""

from __future__ import annotations

import dataclasses
import gc
import time
from pathlib import Path

from textual.widgets import Input

from app.core.models import Explanation
from app.core.settings import Settings
from app.service import Service
from app.tui.app import PREVIEW_SETTLE_S, RepolensApp
from app.tui.messages import AnswerFinished, AnswerShown, HitsReady, IndexStatusChanged
from tests.tui.conftest import wait_for
from widgets.answer_pane import AnswerPane
from widgets.code_preview import CodePreview, safe_code
from widgets.hit_list import HitList, hit_prompt


async def test_type_a_question_and_read_the_code(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    seen: list[object] = []
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(140, 40), message_hook=seen.append) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        # Ready once the first run has published its chunks (its call graph may follow).
        assert any(isinstance(m, IndexStatusChanged) and m.status.published for m in seen)
        await pilot.press(*"exponential backoff with jitter")
        hits = app.query_one("#hits", HitList)
        await wait_for(pilot, lambda: bool(hits.hits))
        assert any(isinstance(m, HitsReady) for m in seen)
        assert hits.hits[0].symbol == "retry_backoff"
        preview = app.query_one("#preview", CodePreview)
        await wait_for(pilot, lambda: "retry.py" in str(preview.border_title))
        assert preview.border_subtitle == hits.hits[0].explanation.summary()  # why it ranks
        assert str(preview.border_subtitle).startswith("bm25 #")
        await pilot.press("ctrl+r", "j")
        assert hits.highlighted == 1
        await wait_for(pilot, lambda: f":{hits.hits[1].start_line}-" in str(preview.border_title))


async def test_typing_runs_one_search_at_a_time_and_ends_on_the_last_query(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    searched: list[str] = []
    search = app.service.search

    def counted(query: str, **options: object) -> object:
        searched.append(query)
        return search(query, **options)  # type: ignore[arg-type]

    app.service.search = counted
    shown: list[str] = []
    async with app.run_test(size=(140, 40), message_hook=lambda m: _shown(m, shown)) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        searched.clear()
        query = "set a cookie on the response"
        field = app.query_one("#search", Input)
        for end in range(1, len(query) + 1):  # keys arriving faster than searches end
            field.value = query[:end]
        await wait_for(pilot, lambda: bool(shown) and shown[-1] == "set a cookie on the response")
        await wait_for(pilot, lambda: _searches_idle(app) and app.listed_query == query)
        # The first key's search, then (as searches end) only the newest text: no storm.
        assert searched[0] == query[:1] and searched[-1] == query
        assert len(searched) <= 4, searched
        assert app.query_one("#hits", HitList).hits[0].path == "web/cookies.js"
        field.value = ""
        await wait_for(pilot, lambda: not app.query_one("#hits", HitList).hits)


def _shown(message: object, shown: list[str]) -> None:
    if isinstance(message, HitsReady):
        shown.append(message.query)


async def test_theme_switch_is_remembered(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(120, 30)) as pilot:
        first = app.theme
        await pilot.press("ctrl+t")
        assert app.theme != first
        chosen = app.theme
    assert chosen in tui_state.read_text()
    again = RepolensApp(Service(sample_repo, settings))
    async with again.run_test(size=(120, 30)):
        assert again.theme == chosen


async def test_maximize_and_small_terminals(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press("ctrl+r", "f11")
        assert app.screen.maximized is app.query_one("#hits", HitList)
        await pilot.press("f11")
        assert app.screen.maximized is None
        for pane in (app.query_one("#preview", CodePreview), app.query_one("#answer-pane")):
            pane.focus()
            await pilot.press("f11")  # the Code and Answer panes too, the two that need it
            assert app.screen.maximized is pane
            await pilot.press("f11")
            assert app.screen.maximized is None
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.press("ctrl+f", *"cookie")
        hits = app.query_one("#hits", HitList)
        await wait_for(pilot, lambda: bool(hits.hits))


def answering_app(repo: Path, settings: Settings, max_tokens: int) -> RepolensApp:
    """The app with the real local model, answers cut short to keep the test quick."""
    return RepolensApp(Service(repo, settings.model_copy(update={"answer_max_tokens": max_tokens})))


async def test_enter_streams_a_local_answer(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    seen: list[object] = []
    app = answering_app(sample_repo, settings, max_tokens=24)
    async with app.run_test(size=(120, 30), message_hook=seen.append) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press(*"how long to wait between retries", "enter")
        await wait_for(pilot, lambda: any(isinstance(m, AnswerFinished) for m in seen), 120)
        finished = next(m for m in seen if isinstance(m, AnswerFinished))
        assert finished.answer is not None, finished.error
        assert any(isinstance(m, AnswerShown) for m in seen)
        from textual.widgets import Markdown

        assert app.query_one("#answer", Markdown).source.strip()


def test_code_and_names_render_literally() -> None:
    assert safe_code("print('\x1b[31mred')") == "print('\\x1b[31mred')"
    assert safe_code("x" * 2000).endswith(" …")
    from app.core.models import Hit

    hit = Hit("id", "a.py", 1, 2, "[bold]x", "[bold]x", "function", "python", 1.0, "", "body")
    assert "[bold]x" in hit_prompt(hit, 1.0).plain


async def test_the_heap_is_frozen_once_when_the_index_is_ready(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    gc.unfreeze()
    app = RepolensApp(Service(sample_repo, settings))
    try:
        async with app.run_test(size=(140, 40)) as pilot:
            assert gc.get_freeze_count() == 0
            await wait_for(pilot, lambda: app.index_ready)
            frozen = gc.get_freeze_count()
            assert frozen > 0
            # Later updates freeze nothing more: the renderer's cycles in flight would stay.
            with open(sample_repo / "src" / "retry.py", "a") as source:
                source.write("\n\ndef settle_probe():\n    return 1\n")
            updates = app.index_updates
            await wait_for(pilot, lambda: app.index_updates > updates)
            assert gc.get_freeze_count() <= frozen
    finally:
        gc.unfreeze()


async def test_a_new_question_cancels_the_answer_in_flight(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    seen: list[object] = []
    app = answering_app(sample_repo, settings, max_tokens=64)

    def hook(message: object) -> None:
        seen.append(message)
        first_token = isinstance(message, AnswerShown) and message.generation == 1
        if first_token and app.answer_generation == 1:  # ask again while the answer streams
            field = app.query_one("#search", Input)
            field.value = "where is the cookie set"
            field.post_message(Input.Submitted(field, field.value))

    def finished(generation: int) -> list[AnswerFinished]:
        return [m for m in seen if isinstance(m, AnswerFinished) and m.generation == generation]

    async with app.run_test(size=(120, 30), message_hook=hook) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press(*"how long to wait between retries", "enter")
        await wait_for(pilot, lambda: bool(finished(1)) and bool(finished(2)), 180)
        stopped = finished(1)[0].answer
        assert stopped is None or stopped.finish == "cancelled", stopped
        assert finished(2)[0].answer is not None and finished(2)[0].answer.finish != "cancelled"
        assert app.answer_generation == 2


def _searches_idle(app: RepolensApp) -> bool:
    return not app.searches.searching and app.searches.waiting is None


def _shows_top_hit(app: RepolensApp) -> bool:
    hits = app.query_one("#hits", HitList).hits
    top = (hits[0].path, hits[0].start_line, hits[0].end_line) if hits else None
    return app.shown is not None and app.shown[:3] == top


async def test_re_ranked_results_with_the_same_top_hit_show_its_new_reason_at_once(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press(*"exponential backoff with jitter")
        # Every search the typing started has answered and its preview has settled: a late
        # one would otherwise repaint the old reason after the re-ranked results below.
        await wait_for(pilot, lambda: _searches_idle(app) and _shows_top_hit(app))
        await pilot.pause(PREVIEW_SETTLE_S * 3)
        await wait_for(pilot, lambda: _searches_idle(app) and _shows_top_hit(app))
        hits = app.query_one("#hits", HitList).hits
        moved = dataclasses.replace(hits[0], explanation=Explanation(7, 9, 0.01))
        app.post_message(
            HitsReady("vectors arrived", [moved, *hits[1:]], {}, app.searches.generation)
        )
        await pilot.pause()  # well within the preview's settle time
        preview = app.query_one("#preview", CodePreview)
        assert preview.border_subtitle == "bm25 #7 · vector #9"


async def test_quitting_while_an_answer_streams_stops_it_at_once(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = answering_app(sample_repo, settings, max_tokens=256)
    ask = app.service.ask
    returned: list[float] = []

    def observed_ask(question: str, **options: object) -> object:  # the real answer, timed
        try:
            return ask(question, **options)  # type: ignore[arg-type]
        finally:
            returned.append(time.perf_counter())

    app.service.ask = observed_ask  # type: ignore[method-assign]
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press(*"how long to wait between retries", "enter")
        pane = app.query_one("#answer-pane", AnswerPane)
        await wait_for(pilot, lambda: bool(getattr(pane, "streamed", "")), 120)
        quit_at = time.perf_counter()
        await pilot.press("ctrl+q")
    closed = time.perf_counter() - quit_at
    for _ in range(50):  # the answer's thread ends on its own; wait for it, boundedly
        if returned:
            break
        time.sleep(0.1)
    assert closed < 1.0, f"the app took {closed:.2f} s to close"
    assert returned and returned[0] - quit_at < 1.0, "the answer kept generating after quit"


async def test_a_worker_message_that_arrives_after_the_screens_closed_is_dropped(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    """The indexer, a search or the preview may post just before the app closes; the message
    is handled after its screens are gone (seen in CI: "No screens on stack")."""
    seen: list[object] = []
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(80, 24), message_hook=seen.append) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press(*"exponential backoff with jitter")
        await wait_for(pilot, lambda: any(isinstance(m, HitsReady) for m in seen))
    assert not app.screen_stack
    late = [m for m in seen if isinstance(m, IndexStatusChanged | HitsReady)]
    assert {type(m) for m in late} == {IndexStatusChanged, HitsReady}
    for message in late:
        if isinstance(message, IndexStatusChanged):
            app._index_status_changed(message)
        else:
            app._show_hits(message)
