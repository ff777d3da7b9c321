"""What the TUI remembers between runs (the chosen theme), in the user state directory."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import platformdirs

from app.core.paths import APP_NAME


def state_file() -> Path:
    override = os.environ.get("REPOLENS_STATE_FILE")
    if override:
        return Path(override)
    return Path(platformdirs.user_state_dir(APP_NAME)) / "tui.json"


def load() -> dict[str, Any]:
    try:
        data = json.loads(state_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save(values: dict[str, Any]) -> None:
    path = state_file()
    merged = {**load(), **values}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        staging = path.with_suffix(".tmp")
        staging.write_text(json.dumps(merged, indent=2), encoding="utf-8")
        staging.replace(path)
    except OSError:
        pass  # remembering a theme is a convenience; a read-only home must not break the app
