"""`repolens-tui-bench fault-bench PATH`: what faults cost a user, each beside a baseline from
the same run.

- resume after kill: `index PATH` with vectors, killed (SIGKILL) once a share of the vectors is
  committed, then run again: the time of that second run. Baseline: a fresh full index.
- many tiny files: `index --no-vectors` of a generated tree of `--tiny-files` one-line files,
  wall time and peak memory of that process. Baseline: reading every file of the same tree
  in plain Python (walk + read), in the same run.
Every index goes to a temporary index root, so nothing is cached between the measurements."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KILL_AFTER_SHARE = 0.4  # kill once about this share of the fresh run's embed time has passed
POLL_S = 0.05


@dataclass(slots=True)
class FaultReport:
    repository: str
    fresh_s: float = 0.0
    killed_after_s: float = 0.0
    resumed_s: float = 0.0
    tiny_files: int = 0
    tiny_index_s: float = 0.0
    tiny_peak_mb: float = 0.0
    tiny_read_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def _index_command(repo: Path, index_root: Path, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "app.cli", "index", str(repo),
        "--index-dir", str(index_root), "-q", *extra,
    ]  # fmt: skip


def _timed_run(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one child process (its own rusage, from wait4)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise subprocess.CalledProcessError(process.returncode, command)
    return seconds, usage.ru_maxrss / 1024


def _vectors_committed(index_root: Path) -> bool:
    return any(index_root.glob("vectors/vectors_*.lance/_versions/*.manifest"))


def measure_resume(repo: Path, scratch: Path, report: FaultReport) -> None:
    fresh_root, killed_root = scratch / "fresh", scratch / "killed"
    report.fresh_s, _ = _timed_run(_index_command(repo, fresh_root))
    process = subprocess.Popen(_index_command(repo, killed_root), stdout=subprocess.DEVNULL)
    started = time.perf_counter()
    deadline = started + report.fresh_s * 2
    while not _vectors_committed(killed_root) and time.perf_counter() < deadline:
        time.sleep(POLL_S)
    time.sleep(max(0.0, report.fresh_s * KILL_AFTER_SHARE - (time.perf_counter() - started)))
    if process.poll() is None:
        os.kill(process.pid, signal.SIGKILL)
    process.wait()
    report.killed_after_s = time.perf_counter() - started
    report.resumed_s, _ = _timed_run(_index_command(repo, killed_root))


def measure_tiny_files(count: int, scratch: Path, report: FaultReport) -> None:
    tree = scratch / "tiny"
    for n in range(count):
        folder = tree / f"d{n // 500:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{n}.py").write_text(f"def f{n}():\n    return {n}\n")
    started = time.perf_counter()
    for walked, _, names in os.walk(tree):
        for name in names:
            Path(walked, name).read_bytes()
    report.tiny_read_s = time.perf_counter() - started
    report.tiny_files = count
    report.tiny_index_s, report.tiny_peak_mb = _timed_run(
        _index_command(tree, scratch / "tiny-index", "--no-vectors")
    )


def measure(repo: Path, tiny_files: int) -> FaultReport:
    report = FaultReport(str(repo.resolve()))
    scratch = Path(tempfile.mkdtemp(prefix="repolens-faults-"))
    try:
        measure_resume(repo, scratch, report)
        if tiny_files:
            measure_tiny_files(tiny_files, scratch, report)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return report


def format_report(r: FaultReport) -> str:
    lines = [
        f"fault bench: {r.repository}",
        f"resume after kill -9 {r.resumed_s:8.1f} s  (killed {r.killed_after_s:.1f} s into "
        f"a run with vectors)",
        f"  baseline: fresh   {r.fresh_s:8.1f} s  (full index with vectors, new index root)",
    ]
    if r.tiny_files:
        lines += [
            f"{r.tiny_files:,} tiny files {r.tiny_index_s:8.1f} s  peak {r.tiny_peak_mb:.0f} MB"
            "  (index --no-vectors)",
            f"  baseline: read    {r.tiny_read_s:8.1f} s  (walk and read every file, Python)",
        ]
    return "\n".join(lines)
