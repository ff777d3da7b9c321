"""`tui-bench`'s first answer: new TUI processes, with the answer model's preload on and
off, each typing a question and timing Enter to the first answer token."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.bench.tui import TuiReport, _first_answers, format_report
from app.core.settings import Settings
from app.service import Service

pytestmark = pytest.mark.slow  # each run is a new process with the real models


def test_first_answers_alternate_preload_on_and_off_in_new_processes(
    sample_repo: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPOLENS_ANSWER_MAX_TOKENS", "16")  # the processes read it too
    Service(sample_repo, settings).index()
    report = TuiReport(str(sample_repo))
    _first_answers(report, sample_repo, settings, "exponential backoff with jitter", 1)
    assert [run["variant"] for run in report.first_answer_runs] == ["preload", "no preload"]
    preloaded, cold = report.first_answer_runs
    assert preloaded["model_at_enter"] in {"loading", "ready"}  # it had the typing's time
    assert cold["model_at_enter"] == "cold"
    for run in (preloaded, cold):
        assert run["enter_to_first_token_ms"] > 0 and run["finish"] in {"stop", "length"}
        assert run["reused_tokens"] > 0  # the fixed prefix, read before the question's part
        assert 0 < run["model_text_ms"] <= run["enter_to_first_token_ms"]
    assert cold["read_ahead_before_enter"] == 0  # no preload: nothing is read ahead
    assert set(report.first_answer_ms) == {"preload", "no preload"}
    shown = format_report(report)
    assert "Enter to the first answer token, a new process, preload: mean" in shown
    assert "before Enter), the model's first text" in shown


def test_first_results_time_a_question_typed_from_launch_in_a_new_process(
    sample_repo: Path, settings: Settings
) -> None:
    from app.bench.tui import _first_results

    Service(sample_repo, settings).index()
    run = _first_results(sample_repo, settings, "exponential backoff with jitter")
    assert run["typed"] == "exponential backoff with jitter"  # no key lost at start-up
    assert 0 < run["first_frame"] <= run["last_key"] < run["results"]
    report = TuiReport(str(sample_repo), first_results_runs=[run])
    assert "first results, a question typed at once: frame" in format_report(report)


def test_cold_results_time_a_question_typed_while_the_first_index_is_built(
    sample_repo: Path,
) -> None:
    from app.bench.tui_cold import format_cold, measure_cold

    report = measure_cold(sample_repo, "exponential backoff with jitter", 1)
    (run,) = report.runs
    assert run["tree"] == "this tree" and run["typed"] == "exponential backoff with jitter"
    assert 0 < run["first_frame"] <= run["last_key"] < run["results"]
    assert run["chunks_published"] < run["results"] and run["chunks_published"] <= run["run_done"]
    assert "graph_published" in run
    shown = format_cold(report)
    assert "last key to results, this tree:" in shown
