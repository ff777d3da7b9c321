"""Quitting the TUI while an answer streams: the process ends cleanly and leaves nothing on the
terminal after it (asyncio's "exception was never retrieved" went to stderr there)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_probe(
    probe: str, repo: Path, tmp_path: Path, **env: str
) -> subprocess.CompletedProcess[str]:
    """`probe` in a new Python process, as a person starts the app: the repository and an
    index folder as its arguments, no config file or saved TUI state of the machine's."""
    return subprocess.run(
        [sys.executable, "-c", probe, str(repo), str(tmp_path / "idx")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=180,
        env={
            **os.environ,
            "REPOLENS_STATE_FILE": str(tmp_path / "tui.json"),
            "REPOLENS_CONFIG": str(tmp_path / "no-config.toml"),
            **env,
        },
    )


# A new process, as a person runs it: tokens arrive faster than the pane renders them, then
# ctrl+q. The tokens are posted as the answer worker posts them, not generated: the model
# streams them at its own pace, so whether one is still rendering at ctrl+q would be luck.
# The process ends as `run` ends it (`leave`): the indexer may still be embedding the sample
# repository at ctrl+q, and Python's own shutdown would abort inside onnxruntime then ("FATAL:
# exception not rethrown", exit -6: CI saw it once; six local runs in parallel did not).
PROBE = """
import sys
from pathlib import Path
from app.core.settings import Settings
from app.service import Service
from app.tui.app import RepolensApp, leave
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
print("closed", flush=True)
leave(app)
"""


def test_quitting_mid_answer_prints_nothing_after_the_app(
    sample_repo: Path, tmp_path: Path
) -> None:
    result = run_probe(PROBE, sample_repo, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("closed"), result.stdout
    assert "never retrieved" not in result.stderr, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]


# The real entry point (`run`, as `repolens-tui PATH` calls it), quit as the indexer starts
# embedding one batch of 320 long chunks, which outlasts the app's wait for it. The process
# must end at once (Python's own shutdown, which the atexit line below would show, aborted
# such processes now and then: "terminate called without an active exception", exit 134;
# tests/unit/test_leave.py shows that abort on the indexer alone).
PROBE_EMBEDDING = """
import atexit, sys
from pathlib import Path
from app.core.settings import Settings
from app.tui.app import run
from textual import events
from tests.tui.conftest import wait_for

atexit.register(lambda: print("python shut down", flush=True))

async def quit_while_embedding(pilot):
    app = pilot.app
    def embedding():
        status = app.index_status
        return status is not None and status.phase == "embed" and status.total > 1
    await wait_for(pilot, embedding, 120)
    print("embedding", flush=True)
    app.post_message(events.Key("ctrl+q", None))

settings = Settings(
    index_dir=Path(sys.argv[2]), answer_preload=False, watch=False, embedding_batch_size=320
)
run(Path(sys.argv[1]), settings, headless=True, size=(140, 40), auto_pilot=quit_while_embedding)
"""


def write_long_functions(repo: Path, files: int = 4, per_file: int = 40) -> None:
    """`files` × `per_file` functions of about 40 lines: chunks long enough that embedding
    them takes seconds on two cores."""
    repo.mkdir()
    for number in range(files):
        text = ""
        for n in range(per_file):
            body = "".join(
                f"    value = value * {k} + {n} - len(str(value)) // {k + 1}  # step {k}\n"
                for k in range(1, 40)
            )
            text += f"def step_{number}_{n}(value):\n{body}    return value\n\n\n"
        (repo / f"steps_{number}.py").write_text(text)


def test_quitting_while_the_indexer_embeds_ends_the_process_at_once(tmp_path: Path) -> None:
    write_long_functions(tmp_path / "repo")
    result = run_probe(PROBE_EMBEDDING, tmp_path / "repo", tmp_path)
    assert "embedding" in result.stdout, result.stderr[-3000:]
    assert result.returncode == 0, result.stderr[-3000:]
    assert "python shut down" not in result.stdout
    assert "terminate called" not in result.stderr, result.stderr[-3000:]


# The real entry point, quit while the answer model (the real default) loads: llama.cpp's
# load cannot be stopped, and when it ended after the app it printed its lines ("Using chat
# eos_token: ...") on the terminal the app had given back.
PROBE_LOADING = """
import atexit, sys
from pathlib import Path
from app.answer.engine import MODEL_LOADING
from app.core.settings import Settings
from app.tui.app import run
from textual import events
from tests.tui.conftest import wait_for

atexit.register(lambda: print("python shut down", flush=True))

async def quit_while_loading(pilot):
    app = pilot.app
    await wait_for(pilot, lambda: app.service.answer_model_state() == MODEL_LOADING, 60)
    print("loading", flush=True)
    app.post_message(events.Key("ctrl+q", None))

settings = Settings(index_dir=Path(sys.argv[2]), watch=False)
run(Path(sys.argv[1]), settings, headless=True, size=(140, 40), auto_pilot=quit_while_loading)
"""


def test_quitting_while_the_answer_model_loads_prints_nothing_after(
    sample_repo: Path, tmp_path: Path
) -> None:
    # preload on, as a person runs it (the TUI tests turn it off)
    result = run_probe(PROBE_LOADING, sample_repo, tmp_path, REPOLENS_ANSWER_PRELOAD="true")
    assert result.stdout.startswith("loading"), (result.stdout[-2000:], result.stderr[-2000:])
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stderr == "", result.stderr[-3000:]
