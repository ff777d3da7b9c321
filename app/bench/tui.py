"""`repolens-tui-bench tui-bench PATH`: how quickly the TUI answers keys, measured on a scratch copy
of PATH with the real app, index, model and live indexer, driven headless.

- keystroke to results: each question is typed into the search field a key at a time, one
  key every TYPING_MS. For every key, the time from its delivery until the hit list has been
  repainted with results for its text, or for a longer text typed after it (keys typed while
  a search runs are searched together); also for each question's last key alone. Baseline:
  `Service.search` on the same questions alone, in the same run. `--word-pause S` waits S
  seconds before each space, as a person between words: pauses longer than
  `answer_read_ahead_after_s` start read-aheads that the next key stops (counted).
- event-loop lag: a task asks to wake every LAG_TICK_S; how late it wakes is how long a key
  or a repaint would have waited. Reported while typing with the indexer kept busy (a thread
  appends a function to a random source file of the copy every `--edit-every` seconds, so
  the watcher, the index updates and their vectors run throughout), and while an answer
  streams.
- first frame: a new process until the TUI has painted its first frame on the indexed copy.
  Baseline: a bare Textual app's first frame, in the same run.
- first results: a new process on the indexed (warm) copy; the first question is typed a key
  every TYPING_MS from the moment the app runs, before the search field has focus, while the
  start-up scan checks the files; the time from launch until results for the whole question
  are painted, and when the scan ended.
- first answer: a new process opens the TUI, a person types the first question (a key every
  TYPING_MS), waits `--pause-before-enter` seconds and presses Enter; the time from Enter
  to the answer's first token. Runs with the answer model's preload on and off alternate
  (`--first-answers N` of each), so both see the same machine. Each run says how much of
  the prompt was read ahead by Enter, and when the model's first text came (the pane shows
  it once the answer screen releases it).
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.bench.live import append_function, code_files, unique_name
from app.bench.report import latency_summary
from app.core.settings import Settings

TYPING_MS = 60  # a quick typist: about 100 words a minute
LAG_TICK_S = 0.01
EDIT_EVERY_S = 0.5  # the default: a save every half second keeps the indexer always busy
RESULT_TIMEOUT_S = 30.0
FIRST_ANSWERS = 2  # fresh processes per variant (preload on, preload off)
FIRST_RESULTS = 3  # fresh processes timing launch to the first results


@dataclass(slots=True)
class TuiReport:
    repository: str
    questions: int = 0
    keys: int = 0
    edits: int = 0
    edit_every_s: float = EDIT_EVERY_S
    word_pause_s: float = 0.0
    read_aheads: int = 0  # read-aheads that ended while typing (stopped by a key, or whole)
    read_ahead_tokens: int = 0  # the prompt tokens they read
    index_updates: int = 0
    key_to_results_ms: dict[str, float] = field(default_factory=dict)  # every key typed
    last_key_to_results_ms: dict[str, float] = field(default_factory=dict)  # then a pause
    search_alone_ms: dict[str, float] = field(default_factory=dict)  # baseline
    lag_typing_ms: dict[str, float] = field(default_factory=dict)
    lag_answering_ms: dict[str, float] = field(default_factory=dict)
    answer_note: str = ""
    full_collections_ms: dict[str, float] = field(default_factory=dict)  # while typing
    search_stages_ms: dict[str, dict[str, float]] = field(default_factory=dict)  # in the app
    first_frame_s: float = 0.0
    bare_textual_first_frame_s: float = 0.0  # baseline
    # Launch to results for a question typed at once, each run: when the first frame was
    # painted, the last key typed, the results painted and the start-up scan ended (seconds).
    first_results_runs: list[dict[str, Any]] = field(default_factory=list)
    # Enter to the first answer token in a new process, by variant ("preload", "no preload":
    # the baseline), and each run as measured (in the order they ran).
    first_answer_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    first_answer_runs: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def measure(
    root: Path,
    settings: Settings,
    questions: list[str],
    answer: bool,
    edit_every_s: float = EDIT_EVERY_S,
    first_answers: int = FIRST_ANSWERS,
    pause_before_enter: float = 0.0,
    word_pause: float = 0.0,
) -> TuiReport:
    """Runs on a copy under a temporary folder; `root` is never modified. The copy's index
    lives under the configured index root, so vectors already computed for `root` are reused."""
    scratch = Path(tempfile.mkdtemp(prefix="repolens-tui-bench-"))
    copy = scratch / root.resolve().name
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    report = TuiReport(
        str(root.resolve()), questions=len(questions), edit_every_s=edit_every_s,
        word_pause_s=word_pause,
    )  # fmt: skip
    try:
        from app.service import Service

        service = Service(copy, settings)
        service.index()
        report.search_alone_ms = latency_summary(_search_alone(service, questions))
        report.first_frame_s = _first_frame(_PROBE_REPOLENS, copy, settings)
        report.bare_textual_first_frame_s = _first_frame(_PROBE_BARE, copy, settings)
        report.first_results_runs = [
            _first_results(copy, settings, questions[0]) for _ in range(FIRST_RESULTS)
        ]
        if answer and first_answers:
            _first_answers(report, copy, settings, questions[0], first_answers, pause_before_enter)
        asyncio.run(_drive(Service(copy, settings), questions, answer, report))
    finally:
        from app.core import paths

        shutil.rmtree(paths.index_dir_for(settings.resolved_index_root(), copy), True)
        shutil.rmtree(scratch, ignore_errors=True)
    return report


def _search_alone(service: Any, questions: list[str]) -> list[float]:
    service.search(questions[0])  # load the searcher and the model first
    timings = []
    for question in questions:
        started = time.perf_counter()
        service.search(question)
        timings.append((time.perf_counter() - started) * 1000)
    return timings


async def _drive(service: Any, questions: list[str], answer: bool, report: TuiReport) -> None:
    from textual import events
    from textual.widgets import Input

    from app.tui.app import RepolensApp
    from app.tui.messages import AnswerFinished, AnswerPrepared, AnswerShown, HitsReady

    app = RepolensApp(service)
    shown: dict[str, float] = {}
    stages: dict[str, list[float]] = {}  # each search's timings, as the app received them
    tokens: list[float] = []
    answered = asyncio.Event()
    typing = [True]  # read-aheads are counted while the questions are typed

    def hook(message: Any) -> None:
        if isinstance(message, HitsReady):
            query = message.query
            for stage, ms in message.timings_ms.items():
                stages.setdefault(stage, []).append(ms)
            app.call_after_refresh(lambda: shown.setdefault(query, time.perf_counter()))
        elif isinstance(message, AnswerShown):
            tokens.append(time.perf_counter())
        elif isinstance(message, AnswerPrepared) and typing:
            report.read_aheads += 1
            report.read_ahead_tokens += message.tokens
        elif isinstance(message, AnswerFinished):
            report.answer_note = message.error or f"{len(tokens)} updates shown"
            answered.set()

    async with app.run_test(size=(140, 40), message_hook=hook) as pilot:
        deadline = time.monotonic() + 600
        while not app.index_ready and time.monotonic() < deadline:
            await pilot.pause(0.1)
        field_ = app.query_one("#search", Input)
        stop = threading.Event()
        editing = threading.Thread(target=_keep_editing, args=(service, stop, report))
        lags: list[float] = []
        sampling = asyncio.create_task(_sample_lag(lags))
        editing.start()
        collections = _FullCollections()
        gc.callbacks.append(collections.observe)
        try:
            every_key: list[float] = []
            last_key: list[float] = []
            for question in questions:
                field_.value = ""
                await asyncio.sleep(0.3)
                shown.clear()
                posted = []
                for key in question:
                    if key == " " and report.word_pause_s:
                        await asyncio.sleep(report.word_pause_s)
                    posted.append(time.perf_counter())
                    app.post_message(events.Key(key_name(key), key))
                    report.keys += 1
                    await asyncio.sleep(TYPING_MS / 1000)
                waited = time.monotonic() + RESULT_TIMEOUT_S
                while question not in shown and time.monotonic() < waited:
                    await asyncio.sleep(0.002)
                if question not in shown:
                    continue
                # A key's results are on screen once results for its text, or for any
                # longer text typed after it, are painted.
                painted = sorted((len(q), t) for q, t in shown.items() if question.startswith(q))
                for typed, at in enumerate(posted, 1):
                    after = [t - at for length, t in painted if length >= typed and t >= at]
                    if after:
                        every_key.append(min(after) * 1000)
                last_key.append((shown[question] - posted[-1]) * 1000)
            typing.clear()
            report.key_to_results_ms = latency_summary(every_key)
            report.last_key_to_results_ms = latency_summary(last_key)
            report.last_key_to_results_ms["missed"] = len(questions) - len(last_key)
        finally:
            gc.callbacks.remove(collections.observe)
            stop.set()
            sampling.cancel()
            editing.join()
        report.search_stages_ms = {
            stage: latency_summary(stages.get(stage, []))
            for stage in ("total", "bm25", "embed_query", "rerank")
        }
        durations = collections.durations_ms
        report.full_collections_ms = {"count": len(durations), **latency_summary(durations)}
        report.lag_typing_ms = latency_summary(lags)
        report.index_updates = app.index_updates
        if answer:
            lags.clear()
            sampling = asyncio.create_task(_sample_lag(lags))
            field_.value = questions[0]
            await pilot.press("enter")
            try:
                await asyncio.wait_for(answered.wait(), 600)
            except TimeoutError:
                report.answer_note = "no answer within 10 minutes"
            sampling.cancel()
            report.lag_answering_ms = latency_summary(lags)


class _FullCollections:
    """How long each full (oldest-generation) collection of the cycle collector took."""

    def __init__(self) -> None:
        self.durations_ms: list[float] = []
        self._started = 0.0

    def observe(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.durations_ms.append((time.perf_counter() - self._started) * 1000)


async def _sample_lag(lags: list[float]) -> None:
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(LAG_TICK_S)
        lags.append(max(0.0, (time.perf_counter() - asked - LAG_TICK_S) * 1000))


def _keep_editing(service: Any, stop: threading.Event, report: TuiReport) -> None:
    chance = random.Random(1)
    files = code_files(service)
    while not stop.wait(report.edit_every_s):
        report.edits += 1
        append_function(service.root / chance.choice(files), unique_name(chance, report.edits))


def key_name(character: str) -> str:
    """The key Textual names for typing `character`."""
    from textual.keys import _character_to_key

    return _character_to_key(character) if not character.isalnum() else character


_PROBE_REPOLENS = """
import sys, time
from pathlib import Path
from app.core.settings import Settings
from app.service import Service
from app.tui.app import RepolensApp
app = RepolensApp(Service(Path(sys.argv[1]), Settings(index_dir=Path(sys.argv[2]))))
"""

_PROBE_BARE = """
import sys, time
from textual.app import App
from textual.widgets import Footer, Input, Static
class Bare(App):
    def compose(self):
        yield Input()
        yield Static("bare")
        yield Footer()
app = Bare()
"""

_PROBE_RUN = """
async def first_frame(pilot):
    def painted():
        print(json.dumps({"painted_at": time.time()}), flush=True)
        app.exit()
    app.call_after_refresh(painted)
import json
app.run(headless=True, size=(140, 40), auto_pilot=first_frame)
from app.tui.app import leave
leave(app)  # as the TUI ends: see its docstring
"""


def _first_frame(probe: str, copy: Path, settings: Settings) -> float:
    """Seconds from launching a process until the app's first frame is painted."""
    launched = time.time()
    result = subprocess.run(
        [sys.executable, "-c", probe + _PROBE_RUN, str(copy), str(settings.resolved_index_root())],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=120,
    )
    painted = json.loads(result.stdout.strip().splitlines()[-1])["painted_at"]
    return round(painted - launched, 2)


_PROBE_FIRST_RESULTS = """
import asyncio, json
from textual import events
from app.bench.tui import TYPING_MS, key_name
from app.tui.messages import HitsReady, IndexStatusChanged
launched, question = float(sys.argv[3]), sys.argv[4]
marks = {}
posted = app.post_message
def post(message):
    if isinstance(message, HitsReady) and message.query == question and message.hits:
        app.call_after_refresh(lambda: marks.setdefault("results", time.time()))
    if isinstance(message, IndexStatusChanged) and message.status.updates:
        marks.setdefault("scan_done", time.time())
    return posted(message)
app.post_message = post
async def ask(pilot):
    marks["first_frame"] = time.time()
    for key in question:  # posted as a terminal delivers them, focus or not
        app.post_message(events.Key(key_name(key), key))
        marks["last_key"] = time.time()  # before the pause: results may come during it
        await asyncio.sleep(TYPING_MS / 1000)
    while "results" not in marks and time.time() - launched < 120:
        await pilot.pause(0.02)
    from textual.widgets import Input
    typed = app.query_one("#search", Input).value
    print(json.dumps({
        **{name: round(at - launched, 2) for name, at in marks.items()},
        "typed": typed,
    }), flush=True)
    app.exit()
app.run(headless=True, size=(140, 40), auto_pilot=ask)
from app.tui.app import leave
leave(app)  # as the TUI ends: see its docstring
"""


def _first_results(copy: Path, settings: Settings, question: str) -> dict[str, Any]:
    """One new process: type `question` from the start, time launch to its results."""
    launched = time.time()
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            _PROBE_REPOLENS + _PROBE_FIRST_RESULTS,
            str(copy),
            str(settings.resolved_index_root()),
            str(launched),
            question,
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=180,
    )
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


_PROBE_FIRST_ANSWER = """
import asyncio, json, os
from app.bench.tui import TYPING_MS, key_name
from app.tui.messages import AnswerFinished, AnswerShown
question, pause = sys.argv[3], float(sys.argv[4])
marks = {}
posted = app.post_message
def post(message):
    if isinstance(message, (AnswerShown, AnswerFinished)):
        marks.setdefault(type(message).__name__, time.perf_counter())
        if isinstance(message, AnswerFinished):
            marks["answer"] = message.answer
    return posted(message)
app.post_message = post
async def ask(pilot):
    while not app.index_ready:
        await pilot.pause(0.05)
    for key in question:
        await pilot.press(key_name(key))
        await asyncio.sleep(TYPING_MS / 1000)
    await asyncio.sleep(pause)
    state = app.service.answer_model_state()
    # Whether the read-ahead had ended by Enter: an Enter during it waits for the rest.
    read_before = app.prepared[1] if app.prepared[0] == question else 0
    marks["enter"] = time.perf_counter()
    await pilot.press("enter")
    while "AnswerFinished" not in marks:
        await pilot.pause(0.02)
    answer = marks["answer"]
    token = marks.get("AnswerShown")
    print(json.dumps({
        "model_at_enter": state,
        "read_ahead_tokens": app.prepared[1] if app.prepared[0] == question else 0,
        "read_ahead_before_enter": read_before,
        "model_text_ms": getattr(answer, "timings_ms", {}).get("first_token"),
        "enter_to_first_token_ms": round((token - marks["enter"]) * 1000) if token else None,
        "enter_to_end_ms": round((marks["AnswerFinished"] - marks["enter"]) * 1000),
        "prompt_tokens": getattr(answer, "prompt_tokens", 0),
        "reused_tokens": getattr(answer, "reused_tokens", 0),
        "finish": getattr(answer, "finish", "error"),
        "load_average": round(os.getloadavg()[0], 1),
    }), flush=True)
    app.exit()
app.run(headless=True, size=(140, 40), auto_pilot=ask)
from app.tui.app import leave
leave(app)  # as the TUI ends: see its docstring
"""


def _first_answers(
    report: TuiReport, copy: Path, settings: Settings, question: str, runs: int, pause: float = 0.0
) -> None:
    """`runs` fresh processes with the preload on and as many with it off, alternated; each
    waits `pause` seconds between the question's last key and Enter."""
    timings: dict[str, list[float]] = {"preload": [], "no preload": []}
    for _ in range(runs):
        for variant in timings:
            run = _first_answer(copy, settings, question, variant == "preload", pause)
            report.first_answer_runs.append({"variant": variant, **run})
            if run["enter_to_first_token_ms"] is not None:
                timings[variant].append(run["enter_to_first_token_ms"])
    report.first_answer_ms = {variant: latency_summary(ms) for variant, ms in timings.items()}


def _first_answer(
    copy: Path, settings: Settings, question: str, preload: bool, pause: float
) -> dict[str, Any]:
    """One new process: type `question`, wait `pause` s, press Enter, time the first token."""
    import os

    result = subprocess.run(
        [
            sys.executable,
            "-c",
            _PROBE_REPOLENS + _PROBE_FIRST_ANSWER,
            str(copy),
            str(settings.resolved_index_root()),
            question,
            str(pause),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=900,
        env={**os.environ, "REPOLENS_ANSWER_PRELOAD": "true" if preload else "false"},
    )
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def format_report(r: TuiReport) -> str:
    def line(summary: dict[str, float]) -> str:
        if not summary:
            return "not measured"
        return ", ".join(f"{k} {v}" for k, v in summary.items())

    return "\n".join(
        [
            f"repository          {r.repository}",
            f"keystroke to results ({r.questions} questions, {r.keys} keys typed "
            f"{TYPING_MS} ms apart, {r.edits} edits made meanwhile (one every "
            f"{r.edit_every_s} s), "
            f"{r.index_updates} index updates; {r.word_pause_s} s before each space, "
            f"{r.read_aheads} read-aheads ended, {r.read_ahead_tokens} tokens read)",
            f"  every key         {line(r.key_to_results_ms)} ms",
            f"  a question's last key (then a pause)  {line(r.last_key_to_results_ms)} ms",
            f"  baseline          Service.search alone: {line(r.search_alone_ms)} ms",
            *(
                f"  search in the app, {stage:11} {line(summary)} ms"
                for stage, summary in r.search_stages_ms.items()
            ),
            f"event-loop lag while typing and indexing: {line(r.lag_typing_ms)} ms",
            f"event-loop lag while answering: {line(r.lag_answering_ms)} ms ({r.answer_note})",
            f"full collections of Python's cycle collector while typing: "
            f"{line(r.full_collections_ms)} ms",
            f"first frame         {r.first_frame_s} s from process start",
            f"  baseline          a bare Textual app: {r.bare_textual_first_frame_s} s",
            *(
                f"first results, a question typed at once: frame {run.get('first_frame')} s, "
                f"last key {run.get('last_key')} s, results {run.get('results', 'none')} s, "
                f"start-up scan done {run.get('scan_done', 'later')} s, typed {run['typed']!r}"
                for run in r.first_results_runs
            ),
            *(
                f"Enter to the first answer token, a new process, {variant}: {line(summary)} ms"
                for variant, summary in r.first_answer_ms.items()
            ),
            *(
                f"  {run['variant']:10}  first token {run['enter_to_first_token_ms']} ms, "
                f"model {run['model_at_enter']} at Enter, {run['read_ahead_tokens']} read "
                f"ahead ({run['read_ahead_before_enter']} before Enter), the model's first "
                f"text {run['model_text_ms']} ms into the answer, {run['reused_tokens']} of "
                f"{run['prompt_tokens']} prompt tokens warm, load {run['load_average']}"
                for run in r.first_answer_runs
            ),
        ]
    )
