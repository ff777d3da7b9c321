"""The command line as a person or a script uses it: output contracts, messages, exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.core import paths
from app.core.models import Explanation, Signal
from app.core.settings import Settings
from app.service import open_repository
from app.store.manifest import SCHEMA_VERSION, WriteLock


@pytest.fixture
def index_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REPOLENS_CONFIG", str(tmp_path / "no-config.toml"))
    return tmp_path / "indexes"


def test_search_json_indexes_first_and_keeps_the_contract(
    sample_repo: Path, index_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "search",
            str(sample_repo),
            "set a cookie with an expiry",
            "--json",
            "--index-dir",
            str(index_root),
            "-k",
            "3",
            "--explain",
        ]
    )
    captured = capsys.readouterr()
    assert code == 0
    assert "not indexed yet" in captured.err
    payload = json.loads(captured.out)
    assert payload["query"] == "set a cookie with an expiry"
    assert 1 <= len(payload["hits"]) <= 3
    hit = next(h for h in payload["hits"] if h["symbol"] == "res.cookie")
    assert set(hit) == {
        "path",
        "start_line",
        "end_line",
        "symbol",
        "kind",
        "language",
        "score",
        "packed",
        "stale",
        "text",
        "explain",
    }
    assert hit["stale"] is False
    assert hit["path"] == "web/cookies.js" and hit["kind"] == "method"
    lines = (sample_repo / hit["path"]).read_text().split("\n")
    assert hit["text"].split("\n")[-1] == lines[hit["end_line"] - 1]
    assert {
        "bm25_rank",
        "bm25_fields",
        "vector_rank",
        "vector_by_words",
        "vector_by_owner",
        "fused_score",
        "signals",
        "final_score",
    } == set(hit["explain"])
    assert {"bm25", "total"} <= set(payload["timings_ms"])
    scores = [h["score"] for h in payload["hits"]]
    assert scores == sorted(scores, reverse=True)


def test_budget_limits_what_is_packed(
    sample_repo: Path, index_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["index", str(sample_repo), "--index-dir", str(index_root), "-q"])
    capsys.readouterr()
    main(
        [
            "search",
            str(sample_repo),
            "retry",
            "--json",
            "--budget",
            "60",
            "--index-dir",
            str(index_root),
        ]
    )
    hits = json.loads(capsys.readouterr().out)["hits"]
    assert sum(len(h["text"]) for h in hits) / 3.6 <= 60
    assert hits


def test_index_summary_and_stats_report_skipped_reasons(
    sample_repo: Path, index_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (sample_repo / "generated").mkdir()
    (sample_repo / "generated" / "big.py").write_text("x = 1\n")
    (sample_repo / "logo.py").write_bytes(b"\x89PNG\x00\x00\x00binary")
    assert main(["index", str(sample_repo), "--index-dir", str(index_root), "-q"]) == 0
    out = capsys.readouterr().out
    assert "files" in out and "chunks" in out and "skipped" in out and "time" in out
    assert main(["stats", str(sample_repo), "--index-dir", str(index_root), "--coverage"]) == 0
    out = capsys.readouterr().out
    assert "ignored" in out and "generated" in out
    assert "binary" in out and "logo.py" in out
    assert "coverage" in out


def test_errors_are_one_clear_line_and_exit_1(
    tmp_path: Path, index_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("hello\n")
    assert main(["index", str(a_file), "--index-dir", str(index_root)]) == 1
    assert capsys.readouterr().err.startswith("repolens-tui: error: ")
    assert main(["stats", str(tmp_path), "--index-dir", str(index_root)]) == 1
    assert "not indexed yet" in capsys.readouterr().err


def test_second_index_run_is_refused_while_one_runs(
    sample_repo: Path, index_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index_dir = paths.index_dir_for(index_root, sample_repo)
    with WriteLock(index_dir):
        assert main(["index", str(sample_repo), "--index-dir", str(index_root), "-q"]) == 1
    assert "is being written by pid" in capsys.readouterr().err


def test_index_from_a_newer_version_is_refused(
    sample_repo: Path, index_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index_dir = paths.index_dir_for(index_root, sample_repo)
    index_dir.mkdir(parents=True)
    (index_dir / "manifest.json").write_text(json.dumps({"schema_version": SCHEMA_VERSION + 1}))
    assert main(["search", str(sample_repo), "x", "--index-dir", str(index_root)]) == 1
    assert "newer repolens-tui" in capsys.readouterr().err


def test_index_from_an_older_version_is_rebuilt_by_search_and_named_by_stats(
    sample_repo: Path, index_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["index", str(sample_repo), "--index-dir", str(index_root), "-q"]) == 0
    manifest_file = paths.index_dir_for(index_root, sample_repo) / "manifest.json"
    manifest = json.loads(manifest_file.read_text())
    manifest["schema_version"] = SCHEMA_VERSION - 1
    manifest_file.write_text(json.dumps(manifest))
    capsys.readouterr()

    assert main(["stats", str(sample_repo), "--index-dir", str(index_root)]) == 1
    error = capsys.readouterr().err
    assert "written by an older repolens-tui" in error and "repolens-tui index" in error

    query = "set a cookie with an expiry"
    assert main(["search", str(sample_repo), query, "--index-dir", str(index_root), "-q"]) == 0
    captured = capsys.readouterr()
    assert "older repolens-tui" in captured.err and "indexing it first" in captured.err
    assert "res.cookie" in captured.out
    assert json.loads(manifest_file.read_text())["schema_version"] == SCHEMA_VERSION


def test_help_names_the_tui_and_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "terminal UI" in out
    for command in ("index", "search", "stats", "ask", "mcp"):
        assert command in out
    assert "`repolens-tui-bench --help` lists them" in " ".join(out.split())


def test_a_missing_path_does_not_open_the_tui(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.main import main as launcher
    from app.main import opens_tui

    assert opens_tui([]) and opens_tui(["some/repo"])
    assert not opens_tui(["search", "repo", "q"]) and not opens_tui(["--help"])
    assert launcher([str(tmp_path / "nowhere")]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert launcher([str(tmp_path / "nowhere"), "--index-dir", "idx"]) == 1  # options after
    assert "does not exist" in capsys.readouterr().err
    assert launcher(["--index-dir", "idx", str(tmp_path / "nowhere")]) == 1  # and before PATH
    assert "does not exist" in capsys.readouterr().err
    assert launcher([str(tmp_path), "--no-such-option"]) == 2
    assert "unrecognized arguments: --no-such-option" in capsys.readouterr().err


def test_the_tui_takes_the_common_options_before_or_after_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.main import main as launcher

    opened: list[tuple[Path, Path | None, str | None]] = []

    def run(path: Path, settings: Settings) -> None:  # stands in for the UI: what it was given
        opened.append((path, settings.index_dir, settings.embedding_model))

    monkeypatch.setattr("app.tui.app.run", run)
    model = "repolens/all-minilm-l6-v2-int8"
    assert launcher(["--index-dir", str(tmp_path / "a"), str(tmp_path)]) == 0
    assert launcher([str(tmp_path), "--index-dir", str(tmp_path / "b"), "--model", model]) == 0
    assert launcher([]) == 0
    assert opened[0][:2] == (tmp_path, tmp_path / "a")
    assert opened[1] == (tmp_path, tmp_path / "b", model)
    assert opened[2][0] == Path(".")
    assert launcher([str(tmp_path), "--help"]) == 0
    shown = capsys.readouterr().out
    assert "--index-dir" in shown and "[PATH]" in shown and "repolens-tui-bench" in shown


def test_common_options_before_a_command_reach_it(
    sample_repo: Path, index_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.main import main as launcher

    assert launcher(["--index-dir", str(index_root), "index", str(sample_repo), "-q"]) == 0
    assert str(index_root) in capsys.readouterr().out


def test_explain_prints_each_signal_with_its_reason(
    sample_repo: Path, index_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["index", str(sample_repo), "--index-dir", str(index_root), "-q"])
    capsys.readouterr()
    query = "how long does a retry wait between attempts"
    args = [str(sample_repo), query, "--index-dir", str(index_root), "-k", "10"]
    assert main(["search", *args, "--explain"]) == 0
    lines = capsys.readouterr().out.splitlines()
    readme = next(n for n, line in enumerate(lines) if "README.md:5-7" in line)
    assert lines[readme + 1].startswith("      why: bm25 #")
    assert lines[readme + 2] == "        x0.5 prose: chunk is documentation, not code"
    wrapper = next(n for n, line in enumerate(lines) if "exports.clearCookie" in line)
    assert lines[wrapper + 2] == "        x0.6 wrapper: its body only forwards to another call"


def test_an_explanation_sums_up_in_one_line() -> None:
    signals = (Signal("exact-name", 3.0, "named"), Signal("wrapper", 0.6, "forwards"))
    assert Explanation(4, None, 0.03, signals).summary() == (
        "bm25 #4 · vector #- · x3 exact-name · x0.6 wrapper"
    )
    assert Explanation(None, 2, 0.01).summary() == "bm25 #- · vector #2"
    lifted = (Signal("called-by", 6.396571, "called by `Client.send`"),)
    assert Explanation(9, 8, 0.02, lifted).summary() == "bm25 #9 · vector #8 · x6.4 called-by"


def test_stats_names_files_whose_call_facts_could_not_be_read(
    sample_repo: Path,
    index_root: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Reading call facts has no known failure left to reproduce on purpose (b07296e had one:
    # a closure in a `this.x` call's scope), so one is forced here, for one file only.
    from app.indexer import chunk

    real = chunk.extract

    def failing(language: str, root: Any, found: Any) -> Any:
        if b"failing_calls" in root.text:
            raise AttributeError("'Closure' object has no attribute 'name'")
        return real(language, root, found)

    monkeypatch.setattr(chunk, "extract", failing)
    (sample_repo / "bad.py").write_text("def failing_calls():\n    return helper()\n")
    assert main(["index", str(sample_repo), "--index-dir", str(index_root), "-q"]) == 0
    capsys.readouterr()
    assert main(["stats", str(sample_repo), "--index-dir", str(index_root)]) == 0
    out = capsys.readouterr().out
    assert "calls       unread in 1 file: reading their call facts failed" in out
    assert "\n  bad.py\n" in out
    assert main(["stats", str(sample_repo), "--index-dir", str(index_root), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["calls_unread"] == ["bad.py"]
    # MCP's index_status reads the same.
    assert open_repository(sample_repo, Settings(index_dir=index_root)).status()[
        "calls_unread"
    ] == ["bad.py"]
    # The file keeps its chunks and is found.
    search = ["search", str(sample_repo), "failing_calls", "--index-dir", str(index_root)]
    assert main([*search, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hits"][0]["path"] == "bad.py"
