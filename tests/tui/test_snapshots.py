"""Pictures of each screen state and theme (pytest-textual-snapshot); update with
`pytest tests/tui --snapshot-update` after a deliberate change, and look at the SVGs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.core.settings import Settings
from app.service import Service
from app.tui.app import RepolensApp
from app.tui.graph_rows import symbol_ref
from app.tui.index_screen import where_text
from app.tui.symbol_screen import SYMBOL_LIMIT
from tests.tui.conftest import wait_for
from widgets.code_preview import CodePreview
from widgets.hit_list import HitList


@pytest.fixture
def make_app(sample_repo: Path, settings: Settings, tmp_path: Path, monkeypatch: Any) -> Any:
    monkeypatch.setenv("REPOLENS_STATE_FILE", str(tmp_path / "tui.json"))

    # The sample repository is copied to a temporary path; the UI shows paths relative to it
    # except the sub-title, which the snapshot must not depend on.
    def make(theme: str) -> RepolensApp:
        app = RepolensApp(Service(sample_repo, settings), theme_name=theme)
        app.sub_title = ""
        return app

    return make


async def _settled(pilot: Any) -> None:
    """The first index run published and the live index has nothing left to do."""
    app = pilot.app
    while not (app.index_ready and app.indexer.idle.is_set()):
        await pilot.pause(0.1)
    await wait_for(pilot, lambda: app.index_status == app.indexer.status)


def _shows_top_hit(app: RepolensApp) -> bool:
    hits = app.query_one("#hits", HitList).hits
    top = (hits[0].path, hits[0].start_line, hits[0].end_line) if hits else None
    return app.shown is not None and app.shown[:3] == top


async def _searched(pilot: Any) -> None:
    app = pilot.app
    await _settled(pilot)
    query = "exponential backoff with jitter"
    await pilot.press(*query)
    hits = app.query_one("#hits", HitList)
    while not hits.hits:
        await pilot.pause(0.1)
    await wait_for(pilot, lambda: app.listed_query == query and _shows_top_hit(app))
    app.query_one("#search").blur()
    await pilot.pause()


SIZES = [(80, 24), (160, 45)]  # a small terminal (stacked panes) and a large one (columns)


@pytest.mark.parametrize("theme", ["repolens-dark", "repolens-light"])
def test_main_screen_after_a_search(snap_compare: Any, make_app: Any, theme: str) -> None:
    assert snap_compare(make_app(theme), terminal_size=(130, 32), run_before=_searched)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_main_screen_per_size(snap_compare: Any, make_app: Any, size: tuple[int, int]) -> None:
    assert snap_compare(make_app("repolens-dark"), terminal_size=size, run_before=_searched)


async def _symbols_typed(pilot: Any) -> None:
    from widgets.symbol_list import SymbolList

    app = pilot.app
    await _settled(pilot)
    await pilot.press("ctrl+o", *"retry")
    found = app.screen.query_one("#symbol-list", SymbolList)
    while not found.symbols:
        await pilot.pause(0.1)
    retry = [symbol_ref(row) for row in app.service.symbol("retry", SYMBOL_LIMIT)]
    await wait_for(pilot, lambda: found.symbols == retry)


async def _graph_opened(pilot: Any) -> None:
    from widgets.call_list import CallList
    from widgets.symbol_list import SymbolList

    await _symbols_typed(pilot)
    await pilot.press(*"policy.wait")
    found = pilot.app.screen.query_one("#symbol-list", SymbolList)
    while not found.symbols or found.symbols[0].symbol != "RetryPolicy.wait":
        await pilot.pause(0.1)
    await pilot.press("enter")
    while not pilot.app.screen.query("#callees"):
        await pilot.pause(0.1)
    callees = pilot.app.screen.query_one("#callees", CallList)
    while not callees.resolved_count:
        await pilot.pause(0.1)
    preview = pilot.app.screen.query_one("#graph-preview", CodePreview)
    await wait_for(pilot, lambda: bool(preview.location))  # the highlighted call's code
    # ... scrolled to it, once the text is laid out
    await wait_for(
        pilot, lambda: preview.scroll_offset.y == min(preview.chunk_y, preview.max_scroll_y)
    )


def test_symbol_browser(snap_compare: Any, make_app: Any) -> None:
    assert snap_compare(
        make_app("repolens-dark"), terminal_size=(110, 30), run_before=_symbols_typed
    )


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_graph_navigator(snap_compare: Any, make_app: Any, size: tuple[int, int]) -> None:
    assert snap_compare(make_app("repolens-dark"), terminal_size=size, run_before=_graph_opened)


async def _index_details_opened(pilot: Any) -> None:
    from dataclasses import replace

    from textual.widgets import DataTable

    app = pilot.app
    await _settled(pilot)
    # The last update's line carries its duration, which differs from run to run: later
    # reports are held back, and the one shown gets a fixed line.
    app.indexer.on_status = lambda _status: None
    app.query_one("#search").blur()  # its blinking cursor would show behind the modal
    await pilot.pause(0.3)
    await pilot.press("f6")
    table = app.screen.query_one("#skipped", DataTable)
    while not table.row_count:
        await pilot.pause(0.1)
    app.screen.update_status(replace(app.index_status, last_update="update: 6 files re-read"))
    # The index lives under a temporary folder that differs per run: the picture names a
    # fixed one.
    where = app.screen.query_one("#index-where")
    while "call graph:" not in str(where.render()):
        await pilot.pause(0.1)
    details = {**app.service.details(), "index_dir": "/tmp/indexes/sample_repo-0123456789ab"}
    where.update(where_text(details))
    await pilot.pause(0.3)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_index_details(
    snap_compare: Any, make_app: Any, sample_repo: Path, size: tuple[int, int]
) -> None:
    (sample_repo / "assets").mkdir()
    (sample_repo / "assets" / "logo.png").write_bytes(b"\x89PNG\x00\x00")
    (sample_repo / "assets" / "blob.dat").write_bytes(b"data\x00\x01\x02")
    assert snap_compare(
        make_app("repolens-dark"), terminal_size=size, run_before=_index_details_opened
    )
