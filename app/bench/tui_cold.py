"""`repolens-tui-bench tui-bench PATH --cold N`: the TUI's first results on a repository never
indexed. Each run is a new process on a scratch copy of PATH with an empty index folder; the
question is typed a key every TYPING_MS from launch, while the first index is built. Marks,
in seconds from launch: the first frame, the last key, the chunks published (searchable),
the call graph published, the first run's end, and the results for the whole question
painted. `--against TREE` alternates each run with the same run on TREE's code (a checkout
of another commit, the baseline), so both see the same machine."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.bench.tui import _PROBE_REPOLENS, TYPING_MS

THIS_TREE = Path(__file__).resolve().parents[2]
RUN_TIMEOUT_S = 300
MARKS = ("first_frame", "last_key", "chunks_published", "results", "graph_published", "run_done")

_PROBE_COLD = """
import asyncio, json
from textual import events
from app.bench.tui import key_name
from app.tui.messages import HitsReady, IndexStatusChanged
launched, question, typing_s = float(sys.argv[3]), sys.argv[4], float(sys.argv[5])
marks = {}
heard = app.service._published
def published(paths):
    marks.setdefault("graph_published" if paths == set() else "chunks_published", time.time())
    return heard(paths)
app.service._published = published
posted = app.post_message
def post(message):
    if isinstance(message, HitsReady) and message.query == question and message.hits:
        app.call_after_refresh(lambda: marks.setdefault("results", time.time()))
    if isinstance(message, IndexStatusChanged) and message.status.updates:
        marks.setdefault("run_done", time.time())
    return posted(message)
app.post_message = post
async def ask(pilot):
    marks["first_frame"] = time.time()
    for key in question:
        app.post_message(events.Key(key_name(key), key))
        marks["last_key"] = time.time()  # before the pause: results may come during it
        await asyncio.sleep(typing_s)
    while not {"results", "run_done"} <= set(marks) and time.time() - launched < 240:
        await pilot.pause(0.02)
    from textual.widgets import Input
    print(json.dumps({
        **{name: round(at - launched, 2) for name, at in marks.items()},
        "typed": app.query_one("#search", Input).value,
    }), flush=True)
    app.exit()
app.run(headless=True, size=(140, 40), auto_pilot=ask)
from app.tui.app import leave
leave(app)  # as the TUI ends: see its docstring
"""


@dataclass(slots=True)
class ColdReport:
    repository: str
    question: str
    trees: dict[str, str] = field(default_factory=dict)  # label: the code's folder
    runs: list[dict[str, Any]] = field(default_factory=list)  # in the order they ran

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def measure_cold(root: Path, question: str, runs: int, against: Path | None = None) -> ColdReport:
    """`runs` new processes on a cold index of a copy of `root` (never modified), each
    followed by one on `against`'s code when given."""
    scratch = Path(tempfile.mkdtemp(prefix="repolens-tui-cold-"))
    copy = scratch / root.resolve().name
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    trees = {"this tree": THIS_TREE}
    if against is not None:
        trees["baseline"] = against.resolve()
    report = ColdReport(str(root.resolve()), question, {k: str(v) for k, v in trees.items()})
    try:
        for number in range(runs):
            for label, tree in trees.items():
                index_root = scratch / f"idx-{number}-{len(report.runs)}"
                run = _cold_run(tree, copy, index_root, question)
                report.runs.append({"tree": label, **run})
                shutil.rmtree(index_root, ignore_errors=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return report


def _cold_run(tree: Path, copy: Path, index_root: Path, question: str) -> dict[str, Any]:
    launched = time.time()
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            _PROBE_REPOLENS + _PROBE_COLD,
            str(copy),
            str(index_root),
            str(launched),
            question,
            str(TYPING_MS / 1000),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
        timeout=RUN_TIMEOUT_S,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )
    # The probe's marks are its one JSON line; native code may write other lines to the
    # same stdout (llama.cpp once printed a gdb backtrace's last line after it).
    printed = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if not printed:
        raise RuntimeError(f"the cold run printed no marks: {result.stdout[-2000:]!r}")
    run = dict(json.loads(printed[-1]))
    run["load_average"] = round(os.getloadavg()[0], 1)
    return run


def format_cold(report: ColdReport) -> str:
    lines = [
        f"repository          {report.repository} (a cold index each run)",
        f"question            {report.question!r}, a key every {TYPING_MS} ms from launch",
        *(f"tree {label:14} {tree}" for label, tree in report.trees.items()),
        "seconds from launch: " + " / ".join(MARKS),
    ]
    for run in report.runs:
        marks = " / ".join(str(run.get(mark, "-")) for mark in MARKS)
        typed = "" if run.get("typed") == report.question else f", typed {run.get('typed')!r}"
        lines.append(f"  {run['tree']:11} {marks}  (load {run['load_average']}){typed}")
    for label in report.trees:
        waits = [
            run["results"] - run["last_key"]
            for run in report.runs
            if run["tree"] == label and "results" in run
        ]
        if waits:
            shown = ", ".join(f"{wait:.2f}" for wait in waits)
            lines.append(f"last key to results, {label}: {shown} s")
    return "\n".join(lines)
