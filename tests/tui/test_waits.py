"""Waits say what they wait for: the status line (what the live index holds and does) and
the answer pane (how long the model has been reading)."""

from __future__ import annotations

import time
from pathlib import Path

from app.core.events import WorkerStatus
from app.core.settings import Settings
from app.service import Service
from app.tui.app import RepolensApp
from app.tui.messages import AnswerFinished
from tests.tui.conftest import wait_for
from widgets.answer_pane import AnswerPane
from widgets.index_status import status_text


def test_watching_is_said_once() -> None:
    line = status_text(WorkerStatus(state="watching", watching=True, files=6, chunks=14)).plain
    assert line.startswith(" ready "), line
    assert "watching" not in line
    assert "6 files · 14 chunks" in line
    paused = status_text(WorkerStatus(state="paused", watching=True, files=1, chunks=1)).plain
    assert "paused" in paused and "1 file · 1 chunk" in paused
    assert "not watching" in status_text(WorkerStatus(state="watching", watching=False)).plain


def test_while_embedding_the_line_says_so_and_that_search_works() -> None:
    embedding = WorkerStatus(
        state="indexing", phase="embed", done=40, total=100, watching=True, files=6, chunks=14,
        vectors_share=0.4, pending=1,
    )  # fmt: skip
    line = status_text(embedding).plain
    assert "adding vectors 40% · search works" in line
    assert "1 queued" in line
    # The first run, before anything is published: progress only, and no promise yet.
    first = WorkerStatus(state="indexing", phase="parse", done=3, total=9, watching=True)
    assert "0 files" not in status_text(first).plain
    assert "building the index 33%" in status_text(first).plain
    assert "search works" not in status_text(first).plain
    # A warm index's start-up scan, before its first phase: search works meanwhile.
    opening = WorkerStatus(state="indexing", watching=True, files=92, message="start-up scan")
    assert "checking files · search works" in status_text(opening).plain


def test_the_status_line_says_one_thing_and_fits_80_columns() -> None:
    """Each state of a run, with the answer model's note after it as the app adds it: one
    activity, no progress bar, no contradiction, and at most 80 cells."""
    statuses = [
        WorkerStatus(state="indexing", phase=phase, done=1, total=1, files=92, chunks=1538,
                     vectors_share=share, watching=True, pending=3, eta_seconds=12.0)
        for phase in ("", "walk", "parse", "write", "graph", "embed")
        for share in (None, 0.5, 1.0)
    ] + [
        WorkerStatus(state="watching", files=92, chunks=1538, vectors_share=0.5, watching=True,
                     pending=12, graph_pending=True),
        WorkerStatus(state="indexing", phase="parse", done=10, total=4000, watching=True),
    ]  # fmt: skip
    for status in statuses:
        line = status_text(status).plain + " · answer model loading"
        assert len(line) <= 80, line
        assert "━" not in line and "meanwhile" not in line
        assert not ("vectors 100%" in line and "vectors" in line.replace("vectors 100%", ""))
        assert line.count("·") <= 4, line


async def test_the_answer_pane_counts_the_wait_for_the_first_words(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings.model_copy(update={"answer_max_tokens": 8})))
    ask = app.service.ask

    def slow_to_start(question: str, **options: object) -> object:
        time.sleep(2.5)  # a model slow to read its prompt, as on a busy machine
        return ask(question, **options)  # type: ignore[arg-type]

    app.service.ask = slow_to_start  # type: ignore[method-assign]
    seen: list[object] = []
    async with app.run_test(size=(160, 45), message_hook=seen.append) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press(*"how long to wait between retries", "enter")
        pane = app.query_one("#answer-pane", AnswerPane)
        # The clock starts at 0 s; a loaded machine may have ticked it once by now.
        assert str(pane.border_subtitle) in {
            "waiting for its first words · 0 s",
            "waiting for its first words · 1 s",
        }
        await wait_for(pilot, lambda: str(pane.border_subtitle).endswith(" 2 s"), 10)
        await wait_for(pilot, lambda: any(isinstance(m, AnswerFinished) for m in seen), 120)
        await pilot.pause()
        assert pane.border_subtitle == ""  # the words came: nothing waits any more
