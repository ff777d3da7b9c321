"""Shared by the TUI tests: an isolated state file, a bounded wait for the app, a search
typed as a user types it, and no model preloaded unless a test asks for it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from widgets.hit_list import HitList


@pytest.fixture(autouse=True)
def no_preload(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app preloads the answer model when it opens: the status line (and so every
    picture) would depend on when loading ends, and each app would spend seconds of the
    shared cores on it. The preload's own tests (test_answer_preload) turn it on."""
    monkeypatch.setenv("REPOLENS_ANSWER_PRELOAD", "false")


@pytest.fixture
def tui_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "tui.json"
    monkeypatch.setenv("REPOLENS_STATE_FILE", str(path))
    return path


async def wait_for(pilot: Any, condition: Callable[[], bool], timeout: float = 30.0) -> None:
    waited = 0.0
    while not condition():
        await pilot.pause(0.1)
        waited += 0.1
        assert waited < timeout, "the app did not get there in time"


async def searched(
    pilot: Any, app: Any, query: str, ready: Callable[[list[Any]], bool] = bool
) -> HitList:
    """Type `query` once the index is ready; return the hit list once its hits are `ready`."""
    await wait_for(pilot, lambda: app.index_ready)
    await pilot.press(*query)
    hits = app.query_one("#hits", HitList)
    await wait_for(pilot, lambda: ready(hits.hits))
    return hits
