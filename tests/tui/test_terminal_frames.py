"""The TUI in a real terminal (tmux): what reaches the screen, not what the widgets hold. Pilot
renders in memory, so output lost on its way to the terminal shows only here."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.core.settings import Settings
from app.service import Service

ROOT = Path(__file__).resolve().parents[2]
TMUX = shutil.which("tmux")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(TMUX is None, reason="needs tmux, the terminal these tests read"),
]
QUESTION = "exponential backoff with jitter"


class Terminal:
    """One command in a tmux server of its own (its socket in the test's folder, no user
    configuration)."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        command = [str(TMUX), "-S", str(self.socket), "-f", "/dev/null", *args]
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout

    def start(self, command: list[str], width: int, height: int) -> None:
        line = f"cd {shlex.quote(str(ROOT))} && {shlex.join(command)}"
        self.tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), line)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def wait_for(self, seen: Callable[[str], bool], timeout: float, what: str) -> str:
        deadline = time.monotonic() + timeout
        while not seen(screen := self.screen()):
            assert time.monotonic() < deadline, f"no {what} after {timeout:.0f} s:\n{screen}"
            time.sleep(0.2)
        return screen

    def close(self) -> None:
        subprocess.run([str(TMUX), "-S", str(self.socket), "kill-server"], capture_output=True)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    shown = Terminal(tmp_path / "tmux")
    try:
        yield shown
    finally:
        shown.close()


def _open(
    terminal: Terminal, repo: Path, settings: Settings, tmp: Path, size: tuple[int, int]
) -> None:
    Service(repo, settings).index()  # indexed before: the first search loads it, as on a warm start
    environment = [f"REPOLENS_STATE_FILE={tmp / 'tui.json'}", f"REPOLENS_CONFIG={tmp / 'no.toml'}"]
    app = [sys.executable, "-m", "app.main", str(repo), "--index-dir", str(settings.index_dir)]
    # The test runner's COLUMNS and LINES would win over the terminal's size.
    terminal.start(["env", "-u", "COLUMNS", "-u", "LINES", *environment, *app], *size)
    terminal.wait_for(lambda screen: " ready " in screen, 60, "live index")


def _asked_at_once(terminal: Terminal) -> None:
    """The question and Enter in one write, as a fast typist or a paste sends them, as the
    session's first search; then the wait until the answer model has loaded and reads."""
    terminal.tmux("send-keys", "-t", "t", QUESTION, "Enter")
    terminal.wait_for(lambda screen: "Reading the excerpts:" in screen, 180, "model reading")


def _rows(screen: str, top: int, bottom: int) -> list[str]:
    return screen.splitlines()[top:bottom]


def test_the_first_question_asked_at_once_shows_its_hits_at_80x24(
    terminal: Terminal, sample_repo: Path, settings: Settings, tmp_path: Path
) -> None:
    _open(terminal, sample_repo, settings, tmp_path, (80, 24))
    _asked_at_once(terminal)
    # The results sit above the answer: their first rows name the best hit and its place.
    screen = terminal.wait_for(
        lambda screen: "retry_backoff" in "".join(_rows(screen, 3, 10)), 3, "hits on screen"
    )
    assert "src/retry.py:9-12" in "".join(_rows(screen, 3, 10)), screen


def test_the_first_question_asked_at_once_shows_the_top_hits_code_at_160x45(
    terminal: Terminal, sample_repo: Path, settings: Settings, tmp_path: Path
) -> None:
    _open(terminal, sample_repo, settings, tmp_path, (160, 45))
    _asked_at_once(terminal)
    # Three columns: the results, the top hit's code in its file, the answer.
    screen = terminal.wait_for(
        lambda screen: "def retry_backoff" in screen, 3, "the top hit's code on screen"
    )
    assert "Select a hit to see its code." not in screen
    assert "retry_backoff  function" in screen, screen
