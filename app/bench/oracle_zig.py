"""The Zig oracle: the Zig compiler's own code for the repository's tests. `zig build test
--verbose` names each test compilation the repository's build.zig makes (its modules and
options included); each is compiled again, not run, with its LLVM IR written out, and every
call in that IR, with the debug location it was written at, names the function the compiler
chose: methods, generic instances and imports resolved. An `inline fn` leaves no call, but
the code inlined from it says where it was called from, so those count too.

It runs on a copy of the repository (the build writes `.zig-cache/` into the tree) with the
Zig version the repository is written for on PATH. What it cannot say: a function no test
reaches (Zig compiles only what is referenced), a call through a function pointer and a call
made at compile time; such sites count as unresolved by the oracle and are not judged."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from app.bench.oracle import OracleUnavailable, Site, Target

BUILD_TIMEOUT_S = 1_800  # `zig build test` compiles the build runner, then each test
QUIET_S = 60  # after a test compilation was named, silence this long: the tests are running
UNIT_TIMEOUT_S = 900
_METADATA = re.compile(r"^!(\d+) = (?:distinct )?!(\w+)\((.*)\)\s*$")
_FIELD = re.compile(r'(\w+): (?:"((?:[^"\\]|\\.)*)"|(!\d+)|(-?\d+))')
_INSTANCE = re.compile(r"__(?:anon|func)_\d+$")  # `frameText__anon_47808`: a generic instance
_DEFINE = re.compile(r'^define [^@]*@("(?:[^"\\]|\\.)*"|[\w.$]+)\(.*!dbg !(\d+) \{\s*$')
_DECLARE = re.compile(r'^declare [^@]*@("(?:[^"\\]|\\.)*"|[\w.$]+)\(')
_CALL = re.compile(r'\b(?:call|invoke) [^@%]*@("(?:[^"\\]|\\.)*"|[\w.$]+)\(.*!dbg !(\d+)')
_SCOPES = frozenset({"DISubprogram", "DILexicalBlock", "DILexicalBlockFile"})
_NOT_THE_PROJECT = ("zig-pkg/", ".zig-cache/")  # fetched packages, generated files


def zig_setup() -> tuple[str, str]:
    """`zig`'s path and version (`zig` on PATH first, else the `ziglang` package's), or a
    clear reason why the oracle cannot run."""
    zig = shutil.which("zig") or _packaged_zig()
    if zig is None:
        raise OracleUnavailable(
            "the Zig oracle compiles the repository's tests: it needs the Zig version the "
            "repository is written for, as `zig` on PATH or from PyPI (for example "
            "`.venv/bin/pip install ziglang==0.16.0`)"
        )
    done = subprocess.run([zig, "version"], capture_output=True, text=True, check=False)
    return zig, f"zig {done.stdout.strip() or '?'}"


def _packaged_zig() -> str | None:
    spec = importlib.util.find_spec("ziglang")
    if spec is None or spec.origin is None:
        return None
    binary = Path(spec.origin).with_name("zig.exe" if os.name == "nt" else "zig")
    return str(binary) if binary.is_file() else None


@dataclass(slots=True)
class ZigCalls:
    """The calls the compiled tests make, by (path relative to the root, line)."""

    calls: dict[tuple[str, int], set[tuple[str, Target]]] = field(
        default_factory=lambda: defaultdict(set)
    )
    compiled: set[str] = field(default_factory=set)  # files some function was compiled from
    units: int = 0
    failed: int = 0


def test_commands(zig: str, tree: Path) -> list[list[str]]:
    """The `zig test` commands `zig build test --verbose` runs in `tree`, in order. The build
    prints each before compiling it, then runs the tests, which may take long or hang (a
    server test waiting on a socket): once a command was seen and nothing more is printed
    for QUIET_S seconds, or after BUILD_TIMEOUT_S in all, the build is stopped."""
    build = subprocess.Popen(
        [zig, "build", "test", "--verbose", "--summary", "none"],
        cwd=tree,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    lines: queue.Queue[bytes | None] = queue.Queue()

    def read() -> None:
        assert build.stderr is not None
        for raw in build.stderr:
            lines.put(raw)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    commands: list[list[str]] = []
    deadline = time.monotonic() + BUILD_TIMEOUT_S
    try:
        while (left := deadline - time.monotonic()) > 0:
            try:
                raw = lines.get(timeout=min(left, QUIET_S) if commands else left)
            except queue.Empty:
                break  # quiet since the last command: the tests are running
            if raw is None:
                break
            if words := _test_command(raw.decode("utf-8", "replace")):
                commands.append(words)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(build.pid, signal.SIGKILL)
        build.wait()
    return commands


def _test_command(line: str) -> list[str] | None:
    if " test " not in line or "zig" not in line.split(" ", 1)[0]:
        return None
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    if len(words) > 1 and words[1] == "test" and Path(words[0]).name.startswith("zig"):
        return words
    return None


def emit_ir(command: list[str], tree: Path, out: Path) -> bool:
    """Compile one test command again, not run, its LLVM IR written to `out`."""
    words = [w for w in command if w != "--listen=-"]
    words += ["--test-no-exec", "-fno-emit-bin", f"-femit-llvm-ir={out}"]
    try:
        done = subprocess.run(
            words, cwd=tree, capture_output=True, timeout=UNIT_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0 and out.is_file()


def _name(symbol: str) -> str:
    return symbol[1:-1] if symbol.startswith('"') else symbol


def read_ir(lines: list[str], tree: Path, calls: ZigCalls) -> None:
    """Add one compilation's calls: each `call` with its debug location, and each place
    code was inlined from an `inline fn` (its `inlinedAt`)."""
    meta: dict[int, tuple[str, dict[str, str]]] = {}
    defined: dict[str, int] = {}  # function -> its DISubprogram
    declared: set[str] = set()
    raw_calls: list[tuple[str, int]] = []
    for line in lines:
        if line.startswith("!"):
            if m := _METADATA.match(line):
                fields = {
                    f.group(1): f.group(2) if f.group(2) is not None else f.group(3) or f.group(4)
                    for f in _FIELD.finditer(m.group(3))
                }
                meta[int(m.group(1))] = (m.group(2), fields)
        elif line.startswith("define "):
            if m := _DEFINE.match(line):
                defined[_name(m.group(1))] = int(m.group(2))
        elif line.startswith("declare "):
            if m := _DECLARE.match(line):
                declared.add(_name(m.group(1)))
        elif ("call " in line or "invoke " in line) and (m := _CALL.search(line)):
            raw_calls.append((_name(m.group(1)), int(m.group(2))))
    root = str(tree.resolve())

    def ref(value: str) -> int:
        return int(value[1:]) if value.startswith("!") else -1

    def file_of(scope: int) -> str:
        """The repository path a scope is in ("" outside the repository)."""
        for _ in range(64):
            kind, fields = meta.get(scope, ("", {}))
            if kind not in _SCOPES:
                return ""
            if "file" in fields:
                _, f = meta.get(ref(fields["file"]), ("", {}))
                where = os.path.join(f.get("directory", ""), f.get("filename", ""))
                where = os.path.normpath(os.path.join(root, where))  # an absolute one stays
                inside = where.startswith(root + os.sep)
                relative = os.path.relpath(where, root) if inside else ""
                # Zig 0.16 unpacks the packages a build fetches into the tree's `zig-pkg/`.
                return "" if relative.startswith(_NOT_THE_PROJECT) else relative
            scope = ref(fields.get("scope", ""))
        return ""

    def subprogram_of(scope: int) -> int:
        for _ in range(64):
            kind, fields = meta.get(scope, ("", {}))
            if kind == "DISubprogram":
                return scope
            if kind not in _SCOPES:
                return -1
            scope = ref(fields.get("scope", ""))
        return -1

    def target(subprogram: int) -> Target | None:
        kind, fields = meta.get(subprogram, ("", {}))
        if kind != "DISubprogram":
            return None
        path = file_of(subprogram)
        line = int(fields.get("line", "0") or 0)
        return Target(path, line if path else 0, _INSTANCE.sub("", fields.get("name", "")))

    def location(loc: int) -> tuple[str, int] | None:
        kind, fields = meta.get(loc, ("", {}))
        if kind != "DILocation":
            return None
        path = file_of(ref(fields.get("scope", "")))
        return (path, int(fields.get("line", "0") or 0)) if path else None

    for subprogram in defined.values():
        if path := file_of(subprogram):
            calls.compiled.add(path)
    for callee, loc in raw_calls:
        where = location(loc)
        if where is None:
            continue
        found = target(defined[callee]) if callee in defined else None
        if found is None and callee in declared:  # an extern function: libc, the OS
            found = Target("", 0, callee.rsplit(".", 1)[-1])
        if found is not None:
            calls.calls[where].add((found.name, found))
    for kind, fields in meta.values():  # inlined calls: the site, and what was inlined
        if kind != "DILocation" or "inlinedAt" not in fields:
            continue
        where = location(ref(fields["inlinedAt"]))
        found = target(subprogram_of(ref(fields.get("scope", ""))))
        if where is not None and found is not None:
            calls.calls[where].add((found.name, found))


def compile_tests(root: Path) -> tuple[ZigCalls, str]:
    zig, version = zig_setup()
    calls = ZigCalls()
    with tempfile.TemporaryDirectory(prefix="repolens-zig-oracle-") as work:
        tree = Path(work) / "tree"
        shutil.copytree(root, tree, symlinks=True, ignore=shutil.ignore_patterns(".zig-cache"))
        commands = test_commands(zig, tree)
        if not commands:
            raise OracleUnavailable(
                f"the Zig oracle found no test compilation in `zig build test` of {root} "
                "(no build.zig with a test step, or the build failed with this Zig)"
            )
        for number, command in enumerate(commands):
            out = Path(work) / f"unit{number}.ll"
            calls.units += 1
            if not emit_ir(command, tree, out):
                calls.failed += 1
                continue
            with out.open(encoding="utf-8", errors="replace") as handle:
                read_ir(handle.read().splitlines(), tree, calls)
            out.unlink()
    return calls, f"{version} LLVM IR of the tests ({calls.units - calls.failed} of {calls.units})"


def zig_answers(root: Path, sites: list[Site]) -> tuple[list[list[Target] | None], str]:
    """One answer per site, in order (None: no function of its file was compiled)."""
    calls, name = compile_tests(root.resolve())
    answers: list[list[Target] | None] = []
    for site in sites:
        if site.path not in calls.compiled:
            answers.append(None)
            continue
        made = calls.calls.get((site.path, site.name_line), set())
        answers.append(sorted({t for n, t in made if n == site.name}, key=repr))
    return answers, name
