"""The TUI in a real terminal (tmux), as a person starts it: the answer model preloads while
the person types, the status line says so, and the first Enter finds it ready."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """`repolens-tui PATH` in a 200x50 tmux session on a tmux server of its own (no
    configuration file, no other session shares it)."""

    def __init__(self, name: str, repo: Path, tmp: Path, **env: str) -> None:
        self.name = name
        self.tmux = ["tmux", "-L", name, "-f", "/dev/null"]
        variables = {"REPOLENS_CONFIG": str(tmp / "no-config.toml"), "PYTHONPATH": str(ROOT)}
        variables |= {
            "REPOLENS_STATE_FILE": str(tmp / "tui.json"),
            "REPOLENS_ANSWER_PRELOAD": "true",
        }
        variables |= env
        command = " ".join(
            [
                "env -u COLUMNS -u LINES",  # the test runner's width would win over tmux's
                *(f"{key}={shlex.quote(value)}" for key, value in variables.items()),
                shlex.quote(sys.executable),
                "-m app.main --index-dir",
                shlex.quote(str(tmp / "idx")),
                shlex.quote(str(repo)),
            ]
        )
        subprocess.run(
            [*self.tmux, "new-session", "-d", "-s", name, "-x", "200", "-y", "50", "-c", str(ROOT)]
            + [command],
            check=True,
        )

    def screen(self) -> str:
        return subprocess.run(
            [*self.tmux, "capture-pane", "-p", "-t", self.name],
            capture_output=True,
            text=True,
            check=False,
        ).stdout

    def send(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, seen: Callable[[str], bool], timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = self.screen()
            if seen(shown):
                return shown
            time.sleep(0.1)
        raise AssertionError(f"the terminal did not get there in {timeout} s:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False, capture_output=True)


@pytest.fixture
def terminal(sample_repo: Path, tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    opened: list[Terminal] = []

    def open_(**env: str) -> Terminal:
        opened.append(Terminal(f"repolens-test-{tmp_path.name}", sample_repo, tmp_path, **env))
        return opened[-1]

    yield open_
    for session in opened:
        session.close()


def test_the_model_preloads_while_the_person_types(terminal: Callable[..., Terminal]) -> None:
    tui = terminal(REPOLENS_ANSWER_MAX_TOKENS="16")
    tui.wait_for(lambda shown: "answer model loading" in shown, 60)
    tui.send(*"exponential backoff with jitter")  # search answers while the model loads
    tui.wait_for(lambda shown: "retry_backoff" in shown, 60)
    tui.wait_for(lambda shown: "answer model ready" in shown, 120)
    tui.send("Enter")
    tui.wait_for(lambda shown: "Top hits" in shown, 10)
    tui.wait_for(lambda shown: "src/retry.py:" in shown and "Reading" not in shown, 120)
    tui.send("C-q")
    tui.wait_for(lambda shown: "answer model" not in shown, 10)


def test_with_preload_off_nothing_loads_before_the_first_question(
    terminal: Callable[..., Terminal],
) -> None:
    tui = terminal(REPOLENS_ANSWER_PRELOAD="false", REPOLENS_ANSWER_MAX_TOKENS="16")
    tui.wait_for(lambda shown: " ready " in shown, 60)  # the start-up scan has ended
    tui.send(*"exponential backoff with jitter")
    tui.wait_for(lambda shown: "retry_backoff" in shown, 60)
    time.sleep(2.0)
    assert "answer model" not in tui.screen()
    tui.send("Enter")
    tui.wait_for(lambda shown: "answer model ready" in shown, 120)
