"""The main screen's layout per width, and the ranked list's rows, driven with Pilot."""

from __future__ import annotations

from pathlib import Path

from textual.widgets._footer import FooterKey

from app.core.models import Hit
from app.core.settings import Settings
from app.service import Service
from app.tui.app import RepolensApp
from app.tui.graph_screen import GraphScreen
from tests.tui.conftest import searched, wait_for
from widgets.answer_pane import AnswerPane
from widgets.code_preview import CodePreview
from widgets.hit_list import hit_prompt


async def test_at_80x24_results_code_and_the_help_key_are_all_visible(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(80, 24)) as pilot:
        hits = await searched(pilot, app, "exponential backoff with jitter")
        preview = app.query_one("#preview", CodePreview)
        answer = app.query_one("#answer-pane", AnswerPane)
        await wait_for(pilot, lambda: "retry.py" in str(preview.border_title))
        # Stacked: the results above the code, each the terminal's width.
        assert hits.region.bottom <= preview.region.y
        assert preview.region.width >= 76 and hits.region.width >= 76
        assert hits.region.height >= 6 and preview.region.height >= 8
        assert not answer.display
        keys = {key.key: key for key in app.screen.query(FooterKey)}
        assert "f1" in keys and keys["f1"].region.right <= 80 and keys["f1"].region.width
        # f2 shows the answer in the code's place and back; a question shows it at once.
        await pilot.press("f2")
        assert answer.display and not preview.display
        await pilot.press("f2")
        assert preview.display and not answer.display
        await pilot.press("enter")
        assert answer.display and not preview.display
        await pilot.press("ctrl+r", "j")  # a move in the results asks for its code
        assert preview.display and not answer.display
        await pilot.press("ctrl+f", "enter")
        assert answer.display
        await pilot.press("ctrl+u")  # the question cleared: its answer went, the code is back
        assert preview.display and not answer.display
        await pilot.press(*"exponential backoff with jitter")
        await wait_for(pilot, lambda: app.listed_query == "exponential backoff with jitter")
        await pilot.press("ctrl+r", "j")  # the second hit again, for what follows

        await pilot.resize_terminal(160, 45)
        await wait_for(pilot, lambda: not app.screen.has_class("-narrow"))
        await pilot.pause()
        # Wide: three columns side by side, f2 is not offered.
        assert hits.region.right <= preview.region.x < answer.region.x
        assert answer.display and preview.display
        assert "f2" not in {key.key for key in app.screen.query(FooterKey)}
        # Back to narrow: the chunk's first line is in view in the shorter pane.
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: app.screen.has_class("-narrow"))
        # The hit shown (the second, RetryPolicy) starts on line 15, its window on line 3:
        # the view keeps two lines of context above it, which the tall pane could not.
        await wait_for(pilot, lambda: int(preview.scroll_y) == 15 - 3 - 2)
        assert hits.hits[1].start_line == 15
        assert int(preview.scroll_y) == 15 - 3 - 2


async def test_long_names_end_in_an_ellipsis_instead_of_wrapping(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(130, 32)) as pilot:
        hits = await searched(pilot, app, "exponential backoff with jitter")
        await pilot.pause()
        assert hits.region.width < 40  # names such as "Sample > Retries" do not fit
        assert hits.virtual_size.height == 2 * len(hits.hits)  # two lines a hit, none folded


def _hit(score: float) -> Hit:
    return Hit("id", "pkg/a.py", 3, 9, "load", "Loader.load", "method", "python", score, "", "body")


def test_code_between_definitions_is_named_by_its_file() -> None:
    glue = Hit("id", "src/Stateless/Guard.cs", 1, 9, "", "", "glue", "csharp", 1.0, "", "body")
    assert hit_prompt(glue, 1.0).plain.startswith(" 1 Guard.cs  code\n")
    # A text file's lines are text to a reader, not a "window".
    notes = Hit("id", "doc/tags/verbatim.rst", 1, 16, "", "", "window", "text", 1.0, "", "body")
    assert hit_prompt(notes, 1.0).plain.startswith(" 1 verbatim.rst  text\n")


def test_each_hit_shows_its_rank_and_a_score_that_reads_apart() -> None:
    first = hit_prompt(_hit(0.031), 0.031, 1).plain
    second = hit_prompt(_hit(0.029), 0.031, 2).plain
    third = hit_prompt(_hit(0.0285), 0.031, 3).plain
    assert first.startswith(" 1 Loader.load  method") and second.startswith(" 2 Loader.load")
    # Against the best hit's score: 0.94 and 0.92 read apart (8-cell bars drew both alike).
    assert first.endswith("\n   1.00 pkg/a.py:3-9")
    assert second.endswith("\n   0.94 pkg/a.py:3-9") and " 0.92 " in third


async def test_the_narrow_footer_ends_with_the_palette_key_and_nothing_after_it(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.screen.has_class("-narrow"))
        # Textual's compact footer gives the docked palette key a one-cell right margin, and
        # the key list under it shows through there ("^p palettem": the m of "^o Symbols").
        await wait_for(pilot, lambda: _footer(app).rstrip().endswith("▏^p palette"))
        footer = _footer(app)
        assert footer.rstrip().endswith("▏^p palette"), footer


def _footer(app: RepolensApp) -> str:
    """The footer row as the compositor draws it: what the terminal is sent, the docked
    key over the others."""
    strips = app.screen._compositor.render_strips()
    return strips[-1].text if strips else ""


def _whole_keys(app: RepolensApp) -> bool:
    """What shows left of the palette key ends with a key's whole description (not `^t T`
    of `^t Theme`)."""
    left = _footer(app).split("▏")[0].rstrip()
    described = [*app.BINDINGS, *app.screen.BINDINGS]
    return any(left.endswith(f" {b.description}") for b in described)  # type: ignore[union-attr]


def _new_keys_drawn(app: RepolensApp, old: set[FooterKey]) -> bool:
    """The footer's keys were composed again (none is one of `old`) and laid out."""
    keys = set(app.screen.query(FooterKey))
    return bool(keys) and keys.isdisjoint(old) and any(key.region for key in keys)


def _whole_keys_only(app: RepolensApp) -> str:
    """The footer row as drawn, checked: it shows no half key."""
    footer = _footer(app)
    assert _whole_keys(app), footer
    return footer


async def test_the_narrow_footer_shows_no_half_key_on_any_screen(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.index_ready and app.screen.has_class("-narrow"))
        await wait_for(pilot, lambda: _whole_keys(app))
        _whole_keys_only(app)
        await pilot.resize_terminal(160, 45)  # wide, then narrow again: the keys are refitted
        await wait_for(pilot, lambda: not app.screen.has_class("-narrow"))
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: app.screen.has_class("-narrow"))
        await wait_for(pilot, lambda: _whole_keys(app))
        _whole_keys_only(app)
        await pilot.press("ctrl+g")  # the hotspots: the graph screen's own keys first
        await wait_for(pilot, lambda: isinstance(app.screen, GraphScreen))
        await wait_for(pilot, lambda: _whole_keys(app) and "Forward" in _footer(app))
        assert "Forward" in _whole_keys_only(app)


async def test_keys_that_change_while_the_answer_renders_are_refitted(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.index_ready and app.screen.has_class("-narrow"))
        await wait_for(pilot, lambda: _whole_keys(app))
        keys = set(app.screen.query(FooterKey))
        # The answer's Markdown holds the app's batch while it mounts its blocks, which is most
        # of the time an answer streams: the screen idles without a layout, many times over.
        with app.batch_update():
            app.screen.refresh_bindings()  # as a finished answer's citation keys do
            await pilot.pause(0.5)
        await wait_for(pilot, lambda: _new_keys_drawn(app, keys) and _whole_keys(app))
        _whole_keys_only(app)


async def test_the_results_maximized_at_80x24_fill_the_screen(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(80, 24)) as pilot:
        hits = await searched(pilot, app, "exponential backoff with jitter")
        await pilot.press("ctrl+r", "f11")
        await wait_for(pilot, lambda: hits.has_class("-maximized"))
        await pilot.pause()
        # All but the footer row: the narrow layout's 16-row cap is for sharing the screen.
        assert hits.region.height == 23, hits.region
