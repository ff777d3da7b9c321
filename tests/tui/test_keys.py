"""Help, copy, edit and the command palette, driven with Pilot over a real index."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from app.core.settings import Settings
from app.service import Service
from app.tui.app import PALETTE, RepolensApp
from app.tui.help_screen import HelpScreen
from app.tui.index_screen import IndexScreen
from tests.tui.conftest import searched, wait_for
from widgets.answer_pane import AnswerPane
from widgets.hit_list import HitList


async def _search_and_select(pilot: object, app: RepolensApp) -> None:
    hits = await searched(pilot, app, "exponential backoff with jitter")
    # The preview settles on the final query's top hit (earlier prefixes had their own).
    await wait_for(
        pilot,
        lambda: (
            app.shown is not None
            and app.shown[:3] == (hits.hits[0].path, hits.hits[0].start_line, hits.hits[0].end_line)
        ),
    )


async def test_help_lists_every_key_of_every_screen(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        keys = {(where, key) for where, key, _ in app.screen.rows}
        assert {("Main screen", "f7"), ("Main screen", "f4"), ("Main screen", "ctrl+y")} <= keys
        assert ("Call graph", "backspace / alt+left") in keys
        assert {("Main screen", "f2"), ("Main screen", "ctrl+l"), ("Call graph", "t")} <= keys
        assert ("Symbol browser", "escape") in keys
        # The keys that follow a citation and walk the graph, shown only in their own pane.
        assert {("Answer pane", "n"), ("Answer pane", "p"), ("Call graph", "enter")} <= keys
        assert ("Call graph", "j") not in keys  # the Lists row says j / k once
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_copy_takes_the_previewed_chunk(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+y")  # nothing selected yet: a warning, no crash
        assert app.clipboard == ""
        await _search_and_select(pilot, app)
        await pilot.press("ctrl+y")
        assert app.clipboard.startswith("def retry_backoff(")
        assert "jitter" in app.clipboard


async def test_edit_opens_the_editor_at_the_chunk_line(
    sample_repo: Path, settings: Settings, tui_state: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    called = tmp_path / "editor-args.txt"
    editor = tmp_path / "fake-editor.sh"  # a real program, recording how it was called
    editor.write_text(f'#!/bin/sh\necho "$@" > {called}\n')
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.delenv("VISUAL", raising=False)
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(120, 40)) as pilot:
        await _search_and_select(pilot, app)
        path, start, _, _ = app.shown or ("", 0, 0, "")
        await pilot.press("f4")
        await wait_for(pilot, called.exists)
    assert called.read_text().split() == [f"+{start}", str(Service(sample_repo).root / path)]
    assert os.environ["EDITOR"] == str(editor)


async def test_the_command_palette_offers_our_actions(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(120, 40)):
        listed = [command.title for command in app.get_system_commands(app.screen)]
        titles = set(listed)
        assert {title for title, _, _ in PALETTE} <= titles
        assert len(listed) == len(titles), "an entry is listed twice"  # Keys, Maximize
        for _, _, action in PALETTE:
            assert callable(getattr(app, f"action_{action}"))


async def test_index_details_list_skipped_files_literally_and_pending_changes(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    (sample_repo / "assets").mkdir()
    (sample_repo / "assets" / "[red]logo.bin").write_bytes(b"\x89PNG\x00\x00\x01binary")
    settings = settings.model_copy(update={"watch": False})  # so the edit below stays pending
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        (sample_repo / "src" / "retry.py").write_text("def changed():\n    return 1\n")
        await pilot.press("f6")
        assert isinstance(app.screen, IndexScreen)
        table = app.screen.query_one("#skipped", DataTable)
        await wait_for(pilot, lambda: table.row_count > 0)
        rows = [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]
        assert ["assets/[red]logo.bin", "binary", "binary extension .bin"] in rows
        summary = str(app.screen.query_one("#skipped-summary", Static).render())
        assert f"{table.row_count} files skipped" in summary and "binary 1" in summary
        pending = str(app.screen.query_one("#index-pending", Static).render())
        assert "1 changed: src/retry.py" in pending
        await pilot.press("escape")
        assert not isinstance(app.screen, IndexScreen)


async def test_a_copied_answer_reads_as_written(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one("#answer-pane", AnswerPane)
        pane.show_text("")
        pane.show_answer("`retry_backoff` doubles the wait [1].")
        pane.finish(lambda width: ["\\[1\\] `src/retry.py:1-9` `retry_backoff`"], True)
        await pilot.pause()
        copied = pane.plain_text()
        assert "wait [1]." in copied and "- [1] `src/retry.py:1-9`" in copied
        assert "\\[" not in copied


async def test_after_an_edit_in_f4_the_selection_stays_on_the_chosen_hit(
    sample_repo: Path, settings: Settings, tui_state: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    from app.tui.messages import HitsReady

    editor = tmp_path / "saving-editor.sh"  # a real program that saves an edit, as a person would
    editor.write_text('#!/bin/sh\nfor last; do :; done\nprintf "\\n# edited\\n" >> "$last"\n')
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.delenv("VISUAL", raising=False)
    listed: list[HitsReady] = []
    app = RepolensApp(Service(sample_repo, settings))
    hook = lambda m: listed.append(m) if isinstance(m, HitsReady) else None  # noqa: E731
    async with app.run_test(size=(140, 40), message_hook=hook) as pilot:
        await _search_and_select(pilot, app)
        hits = app.query_one("#hits", HitList)
        await pilot.press("ctrl+r", "j")
        chosen = hits.hits[1]
        await wait_for(pilot, lambda: app.shown is not None and app.shown[1] == chosen.start_line)
        before, updates = len(listed), app.index_updates
        await pilot.press("f4")
        # The saved file is re-indexed and the same query searched again.
        await wait_for(pilot, lambda: app.index_updates > updates and len(listed) > before)
        await wait_for(pilot, lambda: app.shown is not None and "# edited" in app.shown[3])
        assert hits.highlighted is not None
        assert hits.hits[hits.highlighted].chunk_id == chosen.chunk_id
        assert app.shown is not None and app.shown[:2] == (chosen.path, chosen.start_line)


async def test_ctrl_l_copies_just_the_path_and_line_of_the_selected_hit(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+l")  # nothing selected yet: a warning, no crash
        assert app.clipboard == ""
        await _search_and_select(pilot, app)
        hits = app.query_one("#hits", HitList)
        await pilot.press("ctrl+r", "j")
        second = hits.hits[1]
        await wait_for(pilot, lambda: app.shown is not None and app.shown[1] == second.start_line)
        await pilot.press("ctrl+l")
        assert app.clipboard == f"{second.path}:{second.start_line}"
    assert "copy_location" in {action for _, _, action in PALETTE}


async def test_index_details_say_where_the_index_lives_its_models_and_the_graph(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.index_ready and app.indexer.idle.is_set())
        await pilot.press("f6")
        where = app.screen.query_one("#index-where", Static)
        await wait_for(pilot, lambda: "call graph:" in str(where.render()))
        shown = str(where.render())
        graph = app.service.graph()
        edges = sum(len(rows) for rows in graph.outgoing.values())
        assert f"index: {app.service.index_dir}" in shown
        assert f"embedding model: {settings.embedding_model} (384 wordpieces)" in shown
        assert f"answer model: {settings.answer_model}" in shown
        assert f"call graph: built · {len(graph.symbols)} definitions · {edges} resolved" in shown
        assert edges > 0 and "unresolved" in shown
