"""The first seconds: keys typed before the search field takes focus, the panes after a
question is cleared or replaced, and the status line while the index is checked."""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.widgets import Input

from app.core.settings import Settings
from app.service import Service
from app.tui.app import RepolensApp
from tests.tui.conftest import searched, wait_for
from widgets.answer_pane import PLACEHOLDER, AnswerPane
from widgets.code_preview import CodePreview
from widgets.hit_list import HitList


async def test_keys_typed_before_the_search_field_has_focus_are_kept(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    """A terminal delivers what was typed during start-up in one burst, before the screen's
    focus lands on the search field; those keys go into the field, in order."""
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(140, 40)) as pilot:
        field = app.query_one("#search", Input)
        app.screen.set_focus(None)  # as it is while the first frame is painted
        for character in "ret":
            app.post_message(events.Key(character, character))
        await pilot.pause()  # the app hands them to the screen: nothing has focus
        for character in "ry":
            app.post_message(events.Key(character, character))
        app.screen.set_focus(field)  # the field takes focus before the screen reads them
        await wait_for(pilot, lambda: field.value == "retry")
        assert field.value == "retry"
        assert app.focused is field


async def test_clearing_the_question_clears_the_code_and_the_answer(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(140, 40)) as pilot:
        hits = await searched(pilot, app, "exponential backoff with jitter")
        preview = app.query_one("#preview", CodePreview)
        await wait_for(pilot, lambda: app.shown is not None and "retry.py" in preview.location)
        await pilot.press("enter")  # the brief of the shown hits, at once
        pane = app.query_one("#answer-pane", AnswerPane)
        assert hits.hits[0].symbol in pane.wanted
        cancel = app._answer_cancel
        app.query_one("#search", Input).value = ""
        await wait_for(pilot, lambda: app.shown is None)
        assert cancel is not None and cancel.is_set()  # the answer in flight stops
        assert pane.wanted == PLACEHOLDER
        assert not pane.border_subtitle  # no clock counts the wait for a stopped answer
        assert preview.location == "" and app.shown is None
        assert "retry_backoff" not in str(preview.query_one("#code").render())


async def test_a_replaced_question_marks_the_answer_as_for_an_earlier_one(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(140, 40)) as pilot:
        await searched(pilot, app, "exponential backoff with jitter")
        await pilot.press("enter")
        pane = app.query_one("#answer-pane", AnswerPane)
        assert str(pane.border_title) == "Answer"
        await pilot.press("backspace")
        assert "earlier question" in str(pane.border_title)
        await pilot.press("r")  # the asked question again: its answer is current
        assert str(pane.border_title) == "Answer"


async def test_the_results_say_searching_while_a_search_runs(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    search = app.service.search
    subtitles: list[str] = []

    def observed(query: str, **options: object) -> object:
        subtitles.append(str(app.query_one("#hits", HitList).border_subtitle))
        return search(query, **options)  # type: ignore[arg-type]

    app.service.search = observed  # type: ignore[method-assign]
    async with app.run_test(size=(140, 40)) as pilot:
        hits = await searched(pilot, app, "retry")
        assert subtitles and set(subtitles) == {"searching…"}
        await wait_for(pilot, lambda: str(hits.border_subtitle).endswith("hits"))
