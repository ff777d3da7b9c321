"""`repolens-tui-bench live-bench PATH`: the live index measured on a scratch copy of a repository,
each figure beside a baseline from the same run.

- save to search: a file is edited while the worker watches; the time until search returns
  the new content (and until it has a vector), p50/p95 over the edits; baseline: a plain
  `index` run after one edit.
- warm restart: a new process opens the unchanged index and, side by side as the TUI does,
  checks it against the files and answers a first search; baseline: reading and hashing
  every file, as a tool without the size-and-mtime check would.
- branch switch: `git checkout` of a branch that changes many files while the worker watches;
  how many batches it took, how long until settled (graph included), and whether the index
  then equals a fresh full index; baseline: that fresh full index's time.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.bench.report import latency_summary
from app.core.paths import is_test_path
from app.core.settings import Settings

CODE_LANGUAGES = {"python", "javascript", "typescript", "go", "rust", "java"}


@dataclass(slots=True)
class LiveReport:
    repository: str
    files: int = 0
    chunks: int = 0
    edits: int = 0
    save_to_search_ms: dict[str, float] = field(default_factory=dict)
    save_to_vector_ms: dict[str, float] = field(default_factory=dict)
    index_run_after_edit_ms: dict[str, float] = field(default_factory=dict)  # baseline
    warm_restart_s: float = 0.0
    warm_restart_parts_s: dict[str, float] = field(default_factory=dict)
    rehash_all_s: float = 0.0  # baseline
    library_floor_s: float = 0.0  # baseline: a process that only imports lancedb and fastembed
    branch_files: int = 0
    branch_batches: int = 0
    branch_settle_s: float = 0.0
    branch_equals_fresh: bool = False
    fresh_index_s: float = 0.0  # baseline

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def measure(
    root: Path, settings: Settings, edits: int, branch_files: int, seed: int = 1
) -> LiveReport:
    """Everything runs on a copy under a temporary folder; `root` is never modified. The
    copy's index lives under the configured index root, so vectors already computed for
    `root` are reused and only the copy's own index folder is written (and removed after)."""
    scratch = Path(tempfile.mkdtemp(prefix="repolens-live-"))
    copy = scratch / root.resolve().name
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    report = LiveReport(str(root.resolve()))
    try:
        _measure(copy, settings, report, edits, branch_files, random.Random(seed))
    finally:
        from app.core import paths

        shutil.rmtree(paths.index_dir_for(settings.resolved_index_root(), copy), True)
        shutil.rmtree(scratch, ignore_errors=True)
    return report


def _measure(
    copy: Path,
    settings: Settings,
    report: LiveReport,
    edits: int,
    branch_files: int,
    chance: random.Random,
) -> None:
    from app.indexer.worker import IndexWorker
    from app.service import Service

    service = Service(copy, settings)
    first = service.index()
    report.files, report.chunks = first.files_seen, first.chunks_total

    report.rehash_all_s = _rehash_all(service)
    report.warm_restart_s, report.warm_restart_parts_s = _warm_restart(copy, settings)
    report.library_floor_s = _library_floor()
    report.index_run_after_edit_ms = _index_after_edit(service, chance)

    _git(copy, "init", "-q", "-b", "main")
    _git(copy, "add", "-A")
    _git(copy, "commit", "-qm", "base")
    branch = _make_branch(copy, service, branch_files, chance)
    report.branch_files = branch

    worker = IndexWorker(service)
    worker.start()
    try:
        _wait(lambda: worker.idle.is_set() and worker.status.updates >= 1, 3_600)
        _save_to_search(service, worker, report, edits, chance)
        _branch_switch(copy, service, worker, report)
    finally:
        worker.stop()

    fresh = Settings(**{**settings.model_dump(), "index_dir": copy.parent / "fresh-index"})
    started = time.perf_counter()
    fresh_service = Service(copy, fresh)
    fresh_service.index(with_vectors=False)
    report.fresh_index_s = round(time.perf_counter() - started, 2)
    from app.store.check import index_fingerprint

    report.branch_equals_fresh = index_fingerprint(service.index_dir) == index_fingerprint(
        fresh_service.index_dir
    )


def _wait(condition: Any, timeout: float, step: float = 0.01) -> float:
    """Seconds until `condition()` holds (raises past `timeout`)."""
    started = time.perf_counter()
    while not condition():
        if time.perf_counter() - started > timeout:
            raise TimeoutError(f"not reached within {timeout} s")
        time.sleep(step)
    return time.perf_counter() - started


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", *args],
        cwd=cwd,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def code_files(service: Any) -> list[str]:
    from app.store.store import Store

    files = Store.open(service.index_dir).files()
    return sorted(p for p, f in files.items() if f.language in CODE_LANGUAGES)


def append_function(path: Path, name: str) -> None:
    """Append a small definition in the file's language, with a unique name."""
    suffix = path.suffix
    if suffix == ".py":
        body = f"\n\ndef {name}(value):\n    return value\n"
    elif suffix == ".go":
        body = f"\n\nfunc {name}(value int) int {{\n\treturn value\n}}\n"
    elif suffix == ".rs":
        body = f"\n\npub fn {name}(value: i32) -> i32 {{\n    value\n}}\n"
    else:
        body = f"\n\nfunction {name}(value) {{\n  return value;\n}}\n"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(body)


def unique_name(chance: random.Random, n: int) -> str:
    """A made-up identifier (`kadimoru_7`): no earlier edit shares a word with it."""
    word = "".join(chance.choice("bdfgklmnprstvz") + chance.choice("aeiou") for _ in range(4))
    return f"{word}_{n}"


def _rehash_all(service: Any) -> float:
    from app.store.store import Store

    started = time.perf_counter()
    for path in Store.open(service.index_dir).files():
        hashlib.sha256((service.root / path).read_bytes()).hexdigest()
    return round(time.perf_counter() - started, 2)


_RESTART = """
import json, sys, threading, time
started = time.perf_counter()
from pathlib import Path
from app.core.settings import Settings
from app.service import Service
service = Service(Path(sys.argv[1]), Settings(index_dir=Path(sys.argv[2])))
imported = time.perf_counter()
checked = {}
def check():  # as the TUI does: the index is checked in one thread while search loads
    service.index()
    checked["at"] = time.perf_counter()
checking = threading.Thread(target=check)
checking.start()
service.search("where is the configuration loaded")
searched = time.perf_counter()
checking.join()
print(json.dumps({"ready_at": time.time(), "imports": imported - started,
                  "index check": checked["at"] - imported, "first search": searched - imported}))
"""


RESTARTS = 5  # a restart is timed this many times; the median is reported


def _warm_restart(copy: Path, settings: Settings) -> tuple[float, dict[str, float]]:
    """The median of RESTARTS restarts, with the parts of the median one and the spread."""
    runs = sorted((_restart_once(copy, settings) for _ in range(RESTARTS)), key=lambda r: r[0])
    seconds, parts = runs[len(runs) // 2]
    parts["fastest"], parts["slowest"] = runs[0][0], runs[-1][0]
    return seconds, parts


_FLOOR = "import time; import lancedb, fastembed; print(time.time())"


def _library_floor() -> float:
    """Median seconds for a new process that only imports the two libraries every search
    needs (no index is opened): the floor any restart on them pays, on this machine now."""
    runs = []
    for _ in range(RESTARTS):
        launched = time.time()
        done = subprocess.run(
            [sys.executable, "-c", _FLOOR], capture_output=True, text=True, check=True
        )
        runs.append(float(done.stdout.strip().splitlines()[-1]) - launched)
    return round(sorted(runs)[len(runs) // 2], 2)


def _restart_once(copy: Path, settings: Settings) -> tuple[float, dict[str, float]]:
    """Seconds from launching a new process until its first search is answered and its
    index checked (the process's exit, which frees everything, is not part of it)."""
    launched = time.time()
    result = subprocess.run(
        [sys.executable, "-c", _RESTART, str(copy), str(settings.resolved_index_root())],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    if result.returncode != 0 or not result.stdout.strip():
        raise RuntimeError(f"the restart process failed: {result.stderr.strip()[-2000:]}")
    parts = json.loads(result.stdout.strip().splitlines()[-1])
    ready = parts.pop("ready_at") - launched
    # The check and the first search run side by side: the slower one decides.
    slower = max(parts["index check"], parts["first search"])
    parts["interpreter start"] = ready - parts["imports"] - slower
    return round(ready, 2), {k: round(v, 2) for k, v in parts.items()}


def _index_after_edit(service: Any, chance: random.Random, runs: int = 5) -> dict[str, float]:
    """Baseline: a plain `index` run (walk and compare everything) after each of a few edits."""
    files = code_files(service)
    service.searcher()  # the embedding model loaded once, as in a long-lived process
    times = []
    for n in range(runs):
        append_function(service.root / chance.choice(files), f"baseline_edit_{n}")
        started = time.perf_counter()
        service.index()
        times.append((time.perf_counter() - started) * 1000)
    return latency_summary(times)


def _save_to_search(
    service: Any, worker: Any, report: LiveReport, edits: int, chance: random.Random
) -> None:
    files = code_files(service)
    to_search, to_vector = [], []
    for n in range(edits):
        path = chance.choice(files)
        name = unique_name(chance, n)
        append_function(service.root / path, name)
        saved = time.perf_counter()

        def hit(name: str = name, path: str = path) -> Any:
            for h in service.search(name).hits:
                if h.path == path and name in h.text:
                    return h
            return None

        try:
            to_search.append(_wait(hit, 60) * 1000)
        except TimeoutError:
            top = [(h.path, h.symbol, h.score) for h in service.search(name).hits[:3]]
            raise TimeoutError(
                f"{name} added to {path} was not found within 60 s; worker: {worker.status}; "
                f"search returned {top}"
            ) from None
        if service.settings.embed_tests or not is_test_path(path):  # tests get no vector
            _wait(
                lambda: (h := hit()) is not None and service.searcher().has_vector(h.chunk_id), 60
            )
            to_vector.append((time.perf_counter() - saved) * 1000)
        time.sleep(chance.uniform(0.1, 1.5))  # a person between saves
    report.edits = edits
    report.save_to_search_ms = latency_summary(to_search)
    report.save_to_vector_ms = latency_summary(to_vector)


def _make_branch(copy: Path, service: Any, count: int, chance: random.Random) -> int:
    """A branch `other` changing `count` files (edits, some deletions, some new files);
    the working tree is back on `main` afterwards."""
    files = code_files(service)
    picked = chance.sample(files, min(count, len(files)))
    _git(copy, "checkout", "-qb", "other")
    for n, path in enumerate(picked):
        target = copy / path
        if n % 20 == 0:
            target.unlink()
        else:
            append_function(target, f"branch_change_{n}")
    for n in range(max(1, len(picked) // 20)):
        (copy / f"branch_new_{n}.py").write_text(f"def branch_new_{n}(value):\n    return value\n")
    _git(copy, "add", "-A")
    _git(copy, "commit", "-qm", "other")
    _git(copy, "checkout", "-q", "main")
    service.index()
    return len(picked) + max(1, len(picked) // 20)


def _branch_switch(copy: Path, service: Any, worker: Any, report: LiveReport) -> None:
    _git(copy, "add", "-A")  # keep the timed edits on main, so the checkout is clean
    _git(copy, "commit", "-qm", "edits")
    _wait(lambda: worker.idle.is_set() and not worker.status.graph_pending, 600)
    before = worker.status.updates
    started = time.perf_counter()
    _git(copy, "checkout", "-q", "other")
    _wait(lambda: worker.status.updates > before, 600)
    _wait(lambda: worker.idle.is_set() and not worker.status.graph_pending, 3_600)
    report.branch_settle_s = round(time.perf_counter() - started, 2)
    report.branch_batches = worker.status.updates - before


def format_report(r: LiveReport) -> str:
    s, v, b = r.save_to_search_ms, r.save_to_vector_ms, r.index_run_after_edit_ms
    parts = ", ".join(f"{k} {v} s" for k, v in r.warm_restart_parts_s.items())
    floor_ratio = r.warm_restart_s / r.library_floor_s if r.library_floor_s else 0.0
    return "\n".join(
        [
            f"repository      {r.repository} ({r.files} files, {r.chunks} chunks)",
            f"save to search  p50 {s['median']} ms, p95 {s['p95']} ms, max {s['max']} ms "
            f"over {r.edits} edits (with its vector: p50 {v['median']} ms, p95 {v['p95']} ms)",
            f"  baseline      a plain `index` run after one edit: p50 {b['median']} ms, "
            f"p95 {b['p95']} ms (save-to-search/index p50 {s['median'] / b['median']:.2f})",
            f"warm restart    {r.warm_restart_s} s from process start to a first answer, median "
            f"of {RESTARTS} ({parts})",
            f"  baseline      a process that only imports lancedb and fastembed: "
            f"{r.library_floor_s} s (restart/floor {floor_ratio:.2f}); "
            f"reading and hashing every indexed file: {r.rehash_all_s} s",
            f"branch switch   {r.branch_files} files changed by `git checkout`: "
            f"{r.branch_batches} batch(es), settled (graph included) in {r.branch_settle_s} s; "
            f"equals a fresh full index: {'yes' if r.branch_equals_fresh else 'NO'}",
            f"  baseline      that fresh full index (no vectors): {r.fresh_index_s} s",
        ]
    )
