"""A repository never indexed: a question typed while the first index is built gets its
results once the chunks are published, before the call graph; the graph's views say it is
being built, and fill once it is (Pilot, the real index, the real graph step held back)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable

from app.core.settings import Settings
from app.service import Service
from app.tui.app import RepolensApp
from app.tui.graph_rows import GRAPH_BUILDING
from app.tui.graph_screen import GraphScreen
from app.tui.index_screen import IndexScreen
from app.tui.symbol_screen import SymbolScreen
from tests.tui.conftest import wait_for
from widgets.call_list import CallList
from widgets.hit_list import HitList
from widgets.symbol_list import SymbolList


def _screen(app: RepolensApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def _hold(monkeypatch: pytest.MonkeyPatch, name: str) -> threading.Event:
    """The index run's real `name` step waits until the event is set (on a repository this
    small the whole run would end before a question could be typed)."""
    import app.indexer.pipeline as pipeline

    release = threading.Event()
    real = getattr(pipeline, name)

    def held(*args: Any, **kwargs: Any) -> Any:
        assert release.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, name, held)
    return release


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event, threading.Event]]:
    """The walk (so the question is typed before anything is published), and the graph."""
    steps = _hold(monkeypatch, "walk"), _hold(monkeypatch, "catch_up_graph")
    yield steps
    for step in steps:
        step.set()


async def test_results_come_before_the_call_graph_and_its_views_say_it_is_building(
    sample_repo: Path,
    settings: Settings,
    tui_state: Path,
    held: tuple[threading.Event, threading.Event],
) -> None:
    walk, held_graph = held
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press(*"exponential backoff")  # typed at once, before any publish
        await wait_for(pilot, lambda: "The index is still being built" in _screen(app))
        walk.set()
        hits = app.query_one("#hits", HitList)
        await wait_for(pilot, lambda: bool(hits.hits))  # no key typed since
        assert hits.hits[0].path == "src/retry.py"
        assert not held_graph.is_set()  # the calls are not resolved yet
        assert "resolving calls · search works" in _screen(app)

        await pilot.press("ctrl+o")  # the symbol browser: building, not an empty graph
        assert isinstance(app.screen, SymbolScreen)
        found = app.screen.query_one("#symbol-list", SymbolList)
        await wait_for(pilot, lambda: GRAPH_BUILDING in str(found.get_option_at_index(0).prompt))
        await pilot.press("escape", "ctrl+g")  # the hotspots too
        assert isinstance(app.screen, GraphScreen)
        hotspots = app.screen.query_one("#hotspots", SymbolList)
        await wait_for(pilot, lambda: GRAPH_BUILDING in str(hotspots.get_option_at_index(0).prompt))
        await pilot.press("f6")  # the index details, over the hotspots
        assert isinstance(app.screen, IndexScreen)
        await wait_for(pilot, lambda: "call graph: building" in _screen(app))

        held_graph.set()  # the graph is published: the open views fill by themselves
        await wait_for(pilot, lambda: "call graph: built" in _screen(app))
        table = app.screen.query_one("#skipped", DataTable)  # read again, listed once
        assert len(table.columns) == 3 and table.row_count == len(app.service.skipped())
        await pilot.press("escape")
        assert isinstance(app.screen, GraphScreen)
        await wait_for(pilot, lambda: bool(hotspots.symbols))
        listed = [symbol.symbol for symbol in hotspots.symbols]
        for _ in range(listed.index("retry_backoff")):  # called from code: calls show
            await pilot.press("down")
        await pilot.press("enter")
        callers = app.screen.query_one("#callers", CallList)
        await wait_for(pilot, lambda: callers.resolved_count > 0)
