"""`repolens-tui-bench graph-replay`: step a working folder through real commits while the live
index keeps up, and compare its call graph with a clean rebuild at every step."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core.literal import literal

STEP_TIMEOUT_S = 600.0
IGNORED_ONLY_S = 10.0  # no update this long after a commit: it changed no indexed file
STABLE_S = 1.0  # the live index must stay idle this long before a step counts as caught up
FIRST_DIFFERENCES = 6  # differences shown per step
PAGERANK_TOLERANCE = 1e-6  # the power iteration's sums depend on the order of the symbols
_SUBMODULE = "160000"
_SYMLINK = "120000"


class ReplayError(Exception):
    """The git history cannot be replayed (bad folder, revision, too short); for people."""


@dataclass(slots=True)
class Step:
    commit: str
    subject: str
    files_changed: int
    equal: bool
    live_seconds: float
    differences: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # what differs, by table


@dataclass(slots=True)
class ReplayReport:
    gitdir: str
    start: str
    steps: list[Step] = field(default_factory=list)

    @property
    def exact(self) -> int:
        return sum(step.equal for step in self.steps)

    def as_dict(self) -> dict[str, Any]:
        return {
            "gitdir": self.gitdir,
            "start": self.start,
            "exact": self.exact,
            "steps": [
                {name: getattr(s, name) for name in s.__dataclass_fields__} for s in self.steps
            ],
        }


# -- git ------------------------------------------------------------------------------------
def _git(gitdir: Path, *args: str) -> bytes:
    done = subprocess.run(
        ["git", "--git-dir", str(gitdir), *args], capture_output=True, check=False
    )
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"]
        raise ReplayError(f"git {' '.join(args[:2])} in {gitdir}: {literal(message[-1])}")
    return done.stdout


def commits_to_replay(gitdir: Path, count: int, start: str | None) -> list[str]:
    """The start commit and the `count` commits after it on HEAD's first-parent line."""
    line = _git(gitdir, "rev-list", "--first-parent", "--reverse", "HEAD").decode().split()
    if start is None:
        if len(line) < count + 1:
            raise ReplayError(f"{gitdir} has {len(line)} commits; {count + 1} are needed")
        return line[-(count + 1) :]
    first = _git(gitdir, "rev-parse", "--verify", f"{start}^{{commit}}").decode().strip()
    if first not in line:
        raise ReplayError(f"{literal(start)} is not on the first-parent line of HEAD in {gitdir}")
    at = line.index(first)
    picked = line[at : at + count + 1]
    if len(picked) < count + 1:
        raise ReplayError(f"only {len(picked) - 1} commits follow {literal(start)} in {gitdir}")
    return picked


def materialise(gitdir: Path, commit: str, folder: Path) -> None:
    """The commit's tree written into an empty folder (`git archive`), as a checkout writes it:
    nothing outside the folder, but a symlink kept as committed even when it points outside
    (os-lib commits `broken-abs-symlink`; the index skips such links, as `apply_commit`'s
    checkouts leave them)."""
    data = _git(gitdir, "archive", "--format=tar", commit)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(folder, filter="tar")


def apply_commit(gitdir: Path, parent: str, commit: str, folder: Path) -> int:
    """Change the folder from `parent`'s tree to `commit`'s, file by file, as a checkout
    would (renames as a removal and an addition); the number of paths changed."""
    raw = _git(gitdir, "diff", "--raw", "--no-abbrev", "--no-renames", "-z", parent, commit).split(
        b"\0"
    )
    changed = 0
    for meta, name in zip(raw[0::2], raw[1::2], strict=False):
        if not meta.startswith(b":"):
            continue
        _, new_mode, _, blob, status = meta[1:].decode().split()
        path = folder / name.decode("utf-8", "surrogateescape")
        if new_mode == _SUBMODULE:  # another repository's commit: nothing to write
            continue
        changed += 1
        if path.is_symlink() or path.exists():
            path.unlink()
        if status == "D":
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        content = _git(gitdir, "cat-file", "blob", blob)
        if new_mode == _SYMLINK:
            path.symlink_to(content.decode("utf-8", "surrogateescape"))
        else:
            path.write_bytes(content)
            if new_mode == "100755":
                path.chmod(0o755)
    return changed


def subject(gitdir: Path, commit: str) -> str:
    return _git(gitdir, "log", "-1", "--format=%s", commit).decode("utf-8", "replace").strip()


# -- the graph as published -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class GraphSnapshot:
    edges: Counter[tuple[Any, ...]]  # resolved calls and unresolved records alike
    symbols: dict[str, tuple[Any, ...]]
    pagerank: dict[str, float]
    facts: dict[str, str]  # path -> the stored facts of the file


def snapshot(index_dir: Path) -> GraphSnapshot:
    from app.store.graph_tables import GRAPH_EDGES, GRAPH_FILES, GRAPH_SYMBOLS
    from app.store.store import Store

    store = Store.open(index_dir)
    edges: Counter[tuple[Any, ...]] = Counter(
        (r["path"], r["caller"], r["callee"] or "-", r["callee_text"], r["line"],
         round(float(r["confidence"]), 3), r["rule"])
        for r in store.read_table(GRAPH_EDGES).to_pylist()
    )  # fmt: skip
    symbols, pagerank = {}, {}
    for r in store.read_table(GRAPH_SYMBOLS).to_pylist():
        symbols[r["id"]] = (r["kind"], r["start_line"], r["end_line"], r["fan_in"], r["fan_out"])
        pagerank[r["id"]] = float(r["pagerank"])
    facts = {r["path"]: r["facts"] for r in store.read_table(GRAPH_FILES).to_pylist()}
    return GraphSnapshot(edges, symbols, pagerank, facts)


def differences(live: GraphSnapshot, rebuilt: GraphSnapshot) -> tuple[list[str], dict[str, int]]:
    """What the live graph has that a rebuild does not (`+`) and the reverse (`-`)."""
    lines: list[str] = []
    counts: dict[str, int] = {}

    def edge_text(e: tuple[Any, ...]) -> str:
        path, caller, callee, text, line, confidence, rule = e
        to = "unresolved" if callee == "-" else callee
        return f"{path}:{line} {caller} -> {to} [{text}] {confidence} {rule}"

    extra, missing = live.edges - rebuilt.edges, rebuilt.edges - live.edges
    counts["edges"] = sum(extra.values()) + sum(missing.values())
    lines += [f"+ edge {edge_text(e)}" for e in sorted(extra)]
    lines += [f"- edge {edge_text(e)}" for e in sorted(missing)]
    ids = set(live.symbols) | set(rebuilt.symbols)
    symbols = sorted(s for s in ids if live.symbols.get(s) != rebuilt.symbols.get(s))
    counts["symbols"] = len(symbols)
    for sid in symbols:
        lines.append(
            f"~ symbol {sid}: live {live.symbols.get(sid)}, rebuilt {rebuilt.symbols.get(sid)}"
        )
    drift = [
        s for s in ids & set(live.pagerank) & set(rebuilt.pagerank)
        if abs(live.pagerank[s] - rebuilt.pagerank[s]) > PAGERANK_TOLERANCE
    ]  # fmt: skip
    counts["pagerank"] = len(drift)
    lines += [f"~ pagerank {sid}" for sid in sorted(drift)]
    paths = set(live.facts) | set(rebuilt.facts)
    stale = sorted(p for p in paths if live.facts.get(p) != rebuilt.facts.get(p))
    counts["facts"] = len(stale)
    lines += [
        f"~ facts {p}: " + ("missing live" if p not in live.facts else
                            "missing rebuilt" if p not in rebuilt.facts else "differ")
        for p in stale
    ]  # fmt: skip
    return [literal(line) for line in lines], counts


# -- the replay -----------------------------------------------------------------------------
def _wait_caught_up(worker: Any, updates_before: int, timeout: float) -> float:
    """Seconds until the live index has run since `updates_before` and then stayed idle with
    its graph up to date for STABLE_S; a ReplayError past `timeout`."""
    started = time.monotonic()
    quiet_since: float | None = None
    while True:
        now = time.monotonic()
        status = worker.status
        settled = (
            # a commit that only touches ignored files costs no update
            (status.updates > updates_before or now - started > IGNORED_ONLY_S)
            and worker.idle.is_set()
            and not status.graph_pending
            and len(worker.queue) == 0
        )
        quiet_since = (quiet_since or now) if settled else None
        if quiet_since is not None and now - quiet_since >= STABLE_S:
            return round(quiet_since - started, 2)
        if now - started > timeout:
            raise ReplayError(
                f"the live index did not catch up within {timeout:.0f} s "
                f"(state {status.state}: {literal(status.message)})"
            )
        time.sleep(0.05)


def replay(
    gitdir: Path,
    count: int,
    settings: Any,
    start: str | None = None,
    progress: Callable[[str], None] = lambda _: None,
) -> ReplayReport:
    """Replay `count` commits through the live index (no vectors), comparing after each."""
    from app.service import Service

    gitdir = gitdir.expanduser().resolve()
    if not gitdir.is_dir():
        raise ReplayError(f"{gitdir} is not a folder; give a git directory (a bare mirror)")
    commits = commits_to_replay(gitdir, count, start)
    scratch = Path(tempfile.mkdtemp(prefix="repolens-graph-replay-"))
    report = ReplayReport(str(gitdir), commits[0])
    try:
        work = scratch / "work"
        work.mkdir()
        materialise(gitdir, commits[0], work)
        live = Service(work, settings.model_copy(update={"index_dir": scratch / "live"}))
        worker = live.live(with_vectors=False)
        try:
            _wait_caught_up(worker, 0, STEP_TIMEOUT_S)
            pairs = zip(commits, commits[1:], strict=False)
            for number, (parent, commit) in enumerate(pairs, start=1):
                before = worker.status.updates
                changed = apply_commit(gitdir, parent, commit, work)
                seconds = _wait_caught_up(worker, before, STEP_TIMEOUT_S) if changed else 0.0
                fresh_root = scratch / f"rebuild-{number}"
                fresh = Service(work, settings.model_copy(update={"index_dir": fresh_root}))
                fresh.index(with_vectors=False)
                lines, counts = differences(snapshot(live.index_dir), snapshot(fresh.index_dir))
                step = Step(
                    commit[:12], subject(gitdir, commit), changed, not lines, seconds,
                    lines[:FIRST_DIFFERENCES], counts,
                )  # fmt: skip
                report.steps.append(step)
                progress(format_step(number, step))
                shutil.rmtree(fresh_root, ignore_errors=True)
        finally:
            worker.stop()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return report


def format_step(number: int, step: Step) -> str:
    verdict = (
        "same as a rebuild"
        if step.equal
        else "DIFFERS: " + ", ".join(f"{k} {v}" for k, v in step.counts.items() if v)
    )
    lines = [
        f"{number:>3} {step.commit} {step.files_changed:>3} files, live {step.live_seconds} s: "
        f"{verdict}  ({literal(step.subject[:60])})"
    ]
    lines += [f"      {line}" for line in step.differences]
    return "\n".join(lines)


def format_report(report: ReplayReport) -> str:
    lines = [format_step(i, s) for i, s in enumerate(report.steps, start=1)]
    lines.append(
        f"{report.exact} of {len(report.steps)} commits: the live graph equals a clean rebuild "
        f"(from {report.start[:12]} in {literal(report.gitdir)})"
    )
    return "\n".join(lines)
