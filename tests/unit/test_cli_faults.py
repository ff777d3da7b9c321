"""Faults a person meets at the command line, each answered in one line with the right exit
code: bad settings, counts below one, a call graph still being built, a reader that stops
reading, and vectors a killed run stored."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.cli import main
from app.core.settings import Settings
from app.main import main as launcher
from app.service import Service
from app.store.manifest import read_manifest

ROOT = Path(__file__).resolve().parents[2]


def _one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("repolens-tui: error: "), err
    return lines[0].removeprefix("repolens-tui: error: ")


def _make_repo(root: Path, files: int = 20, functions: int = 40) -> None:
    root.mkdir()
    for f in range(files):
        lines = [f"def compute_{f}_{n}(value):\n    return value * {n}\n" for n in range(functions)]
        (root / f"module_{f}.py").write_text("\n\n".join(lines))


# -- settings --------------------------------------------------------------------------------
BAD_SETTINGS = {
    "env-not-a-number": ({"REPOLENS_SEARCH_K": "abc"}, "", "REPOLENS_SEARCH_K: "),
    "env-out-of-range": ({"REPOLENS_SEARCH_K": "0"}, "", "REPOLENS_SEARCH_K: "),
    "env-list-not-json": ({"REPOLENS_EXTRA_IGNORES": "build"}, "", "REPOLENS_EXTRA_IGNORES: "),
    "toml-syntax": ({}, "search_k = [\n", "{config}: not valid TOML: "),
    "toml-value": ({}, "embedding_batch_size = 0\n", "{config}: embedding_batch_size: "),
    "toml-not-utf8": ({}, b"search_k = '\xff'\n", "{config}: not UTF-8 text"),
}


@pytest.mark.parametrize("case", BAD_SETTINGS, ids=list(BAD_SETTINGS))
def test_a_bad_setting_is_one_line_naming_its_variable_or_file(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env, toml, start = BAD_SETTINGS[case]
    config = tmp_path / "config.toml"
    if toml:
        config.write_bytes(toml if isinstance(toml, bytes) else toml.encode())
    monkeypatch.setenv("REPOLENS_CONFIG", str(config))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    expected = start.format(config=config)

    assert main(["stats", str(tmp_path)]) == 1
    assert _one_error_line(capsys.readouterr().err).startswith(expected)
    assert launcher([str(tmp_path)]) == 1  # the TUI launcher, before any screen opens
    assert _one_error_line(capsys.readouterr().err).startswith(expected)


def test_a_bad_setting_stops_the_console_script_without_a_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "REPOLENS_CONFIG": str(tmp_path / "none.toml"), "REPOLENS_SEARCH_K": "x"}
    for words in ([str(tmp_path)], ["search", str(tmp_path), "question"]):
        done = subprocess.run(
            [sys.executable, "-m", "app.main", *words],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 1
        assert "valid integer" in _one_error_line(done.stderr)


# -- counts ----------------------------------------------------------------------------------
COUNT_FLAGS = {
    "search -k": (["search", "{repo}", "question", "-k", "0"], "argument -k: must be 1 or more"),
    "search --budget": (["search", "{repo}", "question", "--budget", "0"], "must be 1 or more"),
    "ask --budget": (["ask", "{repo}", "question", "--budget", "0"], "must be 1 or more"),
    "ask --max-tokens": (["ask", "{repo}", "question", "--max-tokens", "0"], "must be 1 or more"),
    "hotspots -n": (["hotspots", "{repo}", "-n", "0"], "argument -n: must be 1 or more"),
    "symbols -n": (["symbols", "{repo}", "name", "-n", "-3"], "argument -n: must be 1 or more"),
    "search -k word": (["search", "{repo}", "question", "-k", "ten"], "'ten' is not a whole"),
    "stats --skipped": (["stats", "{repo}", "--skipped", "-1"], "must be 0 or more"),
}


@pytest.mark.parametrize("case", COUNT_FLAGS, ids=list(COUNT_FLAGS))
def test_counts_below_one_are_refused_at_the_parser(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words, message = COUNT_FLAGS[case]
    repo = str(tmp_path / "nowhere")  # never reached: the parser refuses first
    with pytest.raises(SystemExit) as exit_info:
        main([word.format(repo=repo) for word in words])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


# -- the call graph --------------------------------------------------------------------------
def test_callers_while_the_graph_is_pending_says_it_is_being_built(
    tmp_path: Path, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    _make_repo(repo, files=2, functions=2)
    service = Service(repo, settings)
    service.index(with_vectors=False)
    (repo / "fresh.py").write_text("def fresh_helper():\n    return compute_0_1(2)\n")
    service.index(changed=["fresh.py"], with_vectors=False, with_graph=False)  # as `watch` does
    index_dir = ["--index-dir", str(settings.index_dir)]

    assert main(["callers", str(repo), "fresh_helper", *index_dir]) == 1
    message = _one_error_line(capsys.readouterr().err)
    assert "the call graph is still being built (1 file pending)" in message
    assert f"run `repolens-tui index {service.root}`" in message
    assert main(["callers", str(repo), "no_such_name", *index_dir]) == 1
    assert "still being built" in capsys.readouterr().err

    service.catch_up_graph()
    assert main(["callers", str(repo), "no_such_name", *index_dir]) == 1
    assert "no definition named 'no_such_name' in the index" in capsys.readouterr().err
    assert main(["callees", str(repo), "fresh_helper", *index_dir]) == 0


# -- a reader that stops early ---------------------------------------------------------------
def test_a_reader_that_stops_early_ends_the_command_quietly(
    tmp_path: Path, settings: Settings
) -> None:
    repo = tmp_path / "repo"
    _make_repo(repo)  # 800 symbols: far more output than a pipe holds
    Service(repo, settings).index(with_vectors=False)
    env = {**os.environ, "REPOLENS_CONFIG": str(tmp_path / "no-config.toml")}
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "symbols", str(repo), "compute", "-n", "5000",
         "--index-dir", str(settings.index_dir)],  # fmt: skip
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    assert b"compute_" in process.stdout.readline()  # as `| head -1` reads, then goes
    process.stdout.close()
    assert process.wait(60) == 141  # 128 + SIGPIPE: what a shell reports for such a tool
    assert process.stderr.read() == b""


# -- vectors a killed run stored -------------------------------------------------------------
@pytest.mark.slow
def test_stats_counts_the_vectors_a_killed_run_stored(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _make_repo(repo, files=40, functions=15)
    index_root = tmp_path / "indexes"
    env = {**os.environ, "REPOLENS_CONFIG": str(tmp_path / "no-config.toml")}
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "index", str(repo), "--index-dir", str(index_root),
         "-q"],  # fmt: skip
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not list(index_root.glob("vectors/vectors_*.lance/_versions/*.manifest")):
        assert process.poll() is None, "the run finished before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)  # after the first batch of vectors, mid-embedding
    process.wait()

    service = Service(repo, Settings(index_dir=index_root))
    manifest = read_manifest(service.index_dir)
    assert manifest is not None and manifest.embedding_model == ""  # the run never said
    stats = service.stats()
    in_search = service.searcher().corpus.vector_count
    assert 0 < in_search < stats["vectors_wanted"], "the kill did not land mid-embedding"
    assert stats["vectors"] == in_search
    assert stats["embedding_model"] == service.searcher().model_id


def test_a_wait_for_another_writer_is_logged_as_a_wait_not_an_error() -> None:
    import io

    from app.cli.watch import StatusPrinter, status_line
    from app.core.events import WorkerStatus

    out = io.StringIO()
    waiting = WorkerStatus(state="waiting", error="the index is being written by pid 42")
    StatusPrinter(quiet=True, out=out)(waiting)
    assert "waiting: the index is being written by pid 42" in out.getvalue()
    assert "error" not in out.getvalue() and "error" not in status_line(waiting)
    failed = WorkerStatus(state="failed", error="disk full")
    assert "error: disk full" in status_line(failed)


def test_symbols_says_when_nothing_matches(
    sample_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--index-dir", str(tmp_path / "indexes"), "-q"]
    assert main(["symbols", str(sample_repo), "kind:enum lang:go", *args]) == 0
    assert "no definitions match 'kind:enum lang:go'" in capsys.readouterr().out
