"""A hostile repository cannot reach the terminal through the command line: every path,
heading, symbol, skip detail and call text is printed as visible escapes."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.cli.watch import StatusPrinter
from app.core.events import WorkerStatus
from tests.hostile import HOSTILE_FILES, OSC52


def _terminal_safe(text: str) -> bool:
    """No ESC, no C1 control (U+009B is CSI on its own), no bidi override or isolate."""
    return not any(
        ord(c) == 0x1B or 0x80 <= ord(c) <= 0x9F or 0x202A <= ord(c) <= 0x202E
        or 0x2066 <= ord(c) <= 0x2069
        for c in text
    )  # fmt: skip


@pytest.fixture
def hostile_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REPOLENS_CONFIG", str(tmp_path / "no-config.toml"))
    repo = tmp_path / "repo"
    repo.mkdir()
    for name, text in HOSTILE_FILES.items():
        (repo / name).write_text(text)
    return repo


def _captured(
    words: list[str], repo: Path, capsys: pytest.CaptureFixture[str]
) -> pytest.CaptureResult[str]:
    index_dir = str(repo.parent / "indexes")
    assert main([words[0], str(repo), *words[1:], "--index-dir", index_dir]) == 0
    captured = capsys.readouterr()
    assert _terminal_safe(captured.out), captured.out
    assert _terminal_safe(captured.err), captured.err
    return captured


def _run(words: list[str], repo: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """What a command printed, stdout then stderr, checked to be terminal-safe."""
    captured = _captured(words, repo, capsys)
    return captured.out + captured.err


def _run_json(words: list[str], repo: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    return json.loads(_captured([*words, "--json"], repo, capsys).out)


def test_index_search_symbols_and_stats_print_hostile_names_literally(
    hostile_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(["index"], hostile_repo, capsys)  # progress names each file it parses
    assert "1 binary" in out

    out = _run(["search", "clipboard osc", "--explain"], hostile_repo, capsys)
    assert "CLIP.md:1-3  Clipboard \\x1b]52;c;cHduZWQ=\\x1b\\ heading" in out
    out = _run(["search", "title osc words", "--show-text"], hostile_repo, capsys)
    assert "Title \\x1b]0;pwned\\x07 and \\x9b2J csi \\u202eflipped" in out
    out = _run(["search", "guide rst words"], hostile_repo, capsys)  # titles of other formats
    assert "GUIDE.rst:1-4  Guide \\x1b]52;c;cHduZWQ=\\x1b\\ title  [section]" in out
    out = _run(["search", "notes adoc words"], hostile_repo, capsys)
    assert "NOTES.adoc:1-3  Notes \\x1b[2J here  [section]" in out
    out = _run(["search", "clear screen words", "--show-text"], hostile_repo, capsys)
    assert "\\x1b[2J.py:1-2  clear_screen_helper" in out
    assert 'return "\\x1b[31m".join' in out

    out = _run(["symbols", "clear_screen"], hostile_repo, capsys)
    assert "\\x1b[2J.py:1" in out
    out = _run(["hotspots"], hostile_repo, capsys)
    assert "\\x1b[2J.py:" in out

    (hostile_repo / "\x9b2J pending.py").write_text("x = 1\n")
    out = _run(["stats"], hostile_repo, capsys)
    assert "binary           \\x1b]0;bin\\x07.py" in out
    assert "added    \\x9b2J pending.py" in out


def test_callers_and_callees_print_hostile_paths_and_call_texts_literally(
    hostile_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(["callers", "clear_screen_helper", "-q"], hostile_repo, capsys)
    assert "caller_of_helper" in out and "\\x1b[2J.py" in out
    out = _run(["callees", "clear_screen_helper", "-q"], hostile_repo, capsys)
    # An unresolved call is printed as its elided text (the string literal left out), at the
    # hostile path's line: the escape inside the literal never becomes part of a call's name.
    assert '"".join' in out and "\\x1b[2J.py:2" in out


def test_json_output_carries_the_names_as_data_and_no_raw_control(
    hostile_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hits = _run_json(["search", "title osc words"], hostile_repo, capsys)["hits"]
    symbols = {hit["symbol"] for hit in hits}
    assert "Title \x1b]0;pwned\x07 and \x9b2J csi \u202eflipped" in symbols
    (hostile_repo / "\x9b2J pending.py").write_text("x = 1\n")
    stats = _run_json(["stats"], hostile_repo, capsys)
    assert "\x9b2J pending.py" in stats["pending"]["added"]
    for words in (["symbols", "clear"], ["hotspots"], ["callees", "clear_screen_helper"]):
        dumped = json.dumps(_run_json(words, hostile_repo, capsys), ensure_ascii=False)
        assert "\\u001b[2J.py" in dumped  # the name, ESC included, is in the data


def test_watch_log_lines_show_hostile_names_literally() -> None:
    out = io.StringIO()
    printer = StatusPrinter(quiet=False, out=out)
    printer(WorkerStatus(state="watching", updates=1, last_update=f"updated {OSC52}.py"))
    printer(WorkerStatus(state="failed", updates=1, error="cannot read \x1b[2J.py"))
    assert _terminal_safe(out.getvalue())
    assert "updated \\x1b]52;c;cHduZWQ=\\x1b\\.py" in out.getvalue()
    assert "error: cannot read \\x1b[2J.py" in out.getvalue()
