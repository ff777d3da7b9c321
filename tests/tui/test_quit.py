"""Quitting the TUI while an answer streams: the process ends cleanly and leaves nothing on the
terminal after it (asyncio's "exception was never retrieved" went to stderr there)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A new process, as a person runs it: tokens arrive faster than the pane renders them, then
# ctrl+q. The tokens are posted as the answer worker posts them, not generated: the model
# streams them at its own pace, so whether one is still rendering at ctrl+q would be luck.
PROBE = """
import sys
from pathlib import Path
from app.core.settings import Settings
from app.service import Service
from app.tui.app import RepolensApp
from app.tui.messages import AnswerShown
from textual import events
from tests.tui.conftest import wait_for

settings = Settings(index_dir=Path(sys.argv[2]), answer_preload=False, watch=False)
app = RepolensApp(Service(Path(sys.argv[1]), settings))

async def quit_mid_answer(pilot):
    await wait_for(pilot, lambda: bool(app.query("#answer-pane")))
    for n in range(30):
        words = " ".join(f"word{k}" for k in range(n + 1))
        app.post_message(AnswerShown(words, app.answer_generation))
    await pilot.pause(0.05)
    app.post_message(events.Key("ctrl+q", None))  # as the terminal's driver delivers a key

app.run(headless=True, size=(140, 40), auto_pilot=quit_mid_answer)
print("closed")
"""


def test_quitting_mid_answer_prints_nothing_after_the_app(
    sample_repo: Path, tmp_path: Path
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(sample_repo), str(tmp_path / "idx")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={
            **os.environ,
            "REPOLENS_STATE_FILE": str(tmp_path / "tui.json"),
            "REPOLENS_CONFIG": str(tmp_path / "no-config.toml"),
        },
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("closed"), result.stdout
    assert "never retrieved" not in result.stderr, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
