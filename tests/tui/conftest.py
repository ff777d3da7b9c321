"""Shared by the TUI tests: an isolated state file and a bounded wait for the app."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


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
