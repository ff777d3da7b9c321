"""The C and C++ oracle: GCC's own call graph (`-fcallgraph-info`), which records, for every
call the compiler emits, the function it calls (overloads, templates and namespaces resolved)
and where the call is written. Each translation unit is compiled at -O0, so no call is
inlined away; a header holding a sampled call is compiled as a unit of its own with
`-fkeep-inline-functions`, so its inline functions are emitted even when nothing uses them.

What it cannot say: a call through a pointer or a virtual method (GCC records an indirect
call, no target) and a call in a template nobody instantiates; such sites count as
unresolved by the oracle and are not judged."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from app.bench.oracle import OracleUnavailable, Site, Target

SOURCE_SUFFIXES = {
    "c": frozenset({".c"}),
    "cpp": frozenset({".cc", ".cpp", ".cxx", ".c++"}),
}
# GNU dialects: the projects' own code often leans on GNU extensions (`typeof`, statement
# expressions); warnings are off, they are not what the oracle is asked.
_FLAGS = {
    "c": ["-x", "c", "-std=gnu11", "-D_GNU_SOURCE"],
    "cpp": ["-x", "c++", "-std=gnu++17"],
}
_COMMON = ["-c", "-O0", "-w", "-fcallgraph-info", "-fkeep-inline-functions", "-o", os.devnull]
UNIT_TIMEOUT_S = 300
_INDIRECT = "__indirect_call"
_QUOTED = r'"((?:[^"\\]|\\.)*)"'
_NODE = re.compile(rf"node: {{ title: {_QUOTED} label: {_QUOTED}( shape : ellipse)?")
_EDGE = re.compile(rf"edge: {{ sourcename: {_QUOTED} targetname: {_QUOTED}(?: label: {_QUOTED})?")


def gcc_setup(language: str) -> tuple[str, str]:
    """The compiler's path (`gcc` for C, `g++` for C++) and its version line, or a clear
    reason why the oracle cannot run: it needs GCC 10 or later (`-fcallgraph-info`)."""
    name = "g++" if language == "cpp" else "gcc"
    compiler = shutil.which(name)
    if compiler is None:
        raise OracleUnavailable(
            f"the C/C++ oracle needs GCC 10 or later ({name} on PATH), "
            "for example `apt-get install g++`"
        )
    done = subprocess.run([compiler, "--version"], capture_output=True, text=True, check=False)
    first = (done.stdout.strip().splitlines() or [name])[0]
    return compiler, first


@dataclass(frozen=True, slots=True)
class Call:
    """One call GCC emitted: where it is written (column 1-based) and what it calls."""

    column: int
    name: str  # the called function's own name (`helper`, `Foo`, `~Foo`)
    linker: str  # its name for the linker (`_ZN2ns6helperEi`; C's `strlen` for `__builtin_strlen`)
    target: Target | None  # None: an indirect call (a pointer, a virtual method)


@dataclass(slots=True)
class CallGraph:
    """Every unit's calls, by (path relative to the root, line)."""

    calls: dict[tuple[str, int], set[Call]] = field(default_factory=dict)
    compiled: set[str] = field(default_factory=set)  # files some unit emitted a call from
    units: int = 0
    failed: int = 0


def short_name(signature: str) -> str:
    """A function's own name from GCC's demangled label: `int ns::helper(int)` -> `helper`,
    `std::vector<T>::push_back(const T&) [with T = int]` -> `push_back`; C labels are bare."""
    text = signature.split(" [with ", 1)[0].strip()
    end = text.rfind(")")
    if end >= 0:
        depth = 0
        for at in range(end, -1, -1):
            depth += {")": 1, "(": -1}.get(text[at], 0)
            if depth == 0:
                text = text[:at]
                break
    text = _strip_template_arguments(text.rstrip())
    depth = 0
    start = 0
    for at, char in enumerate(text):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if depth == 0 and (char == " " or text.startswith("::", at)):
            start = at + (2 if char == ":" else 1)
    return text[start:]


def _strip_template_arguments(text: str) -> str:
    if not text.endswith(">") or text.endswith("operator>"):
        return text
    depth = 0
    for at in range(len(text) - 1, -1, -1):
        depth += {">": 1, "<": -1}.get(text[at], 0)
        if depth == 0:
            return text[:at]
    return text


def _location(text: str, root: Path) -> tuple[str, int] | None:
    """`path:line:column` as GCC writes it, relative to the root it compiled in -> (the path
    relative to the root, "" outside it; the line)."""
    parts = text.rsplit(":", 2)
    if len(parts) != 3 or not parts[1].isdigit():
        return None
    where = Path(parts[0])
    absolute = where if where.is_absolute() else root / where
    try:
        relative = Path(os.path.normpath(absolute)).relative_to(root).as_posix()
    except ValueError:
        relative = ""
    return relative, int(parts[1])


def read_unit(text: str, root: Path, graph: CallGraph, defined: dict[str, Target]) -> None:
    """Add one unit's `.ci` file to `graph`; `defined` maps the names of functions some unit
    defines with external linkage to their definitions (filled by `read_definitions`)."""
    nodes: dict[str, tuple[str, bool]] = {}
    for title, label, declared_only in _NODE.findall(text):
        nodes[title] = (label, not declared_only)
    for _caller, target, where in _EDGE.findall(text):
        at = _location(where, root) if where else None
        if at is None or not at[0]:
            continue
        graph.compiled.add(at[0])
        if target == _INDIRECT:
            call = Call(int(where.rsplit(":", 1)[1]), "", "", None)
        else:
            label, is_defined = nodes.get(target, ("", False))
            signature, _, place = label.rpartition("\\n")
            name = short_name(signature or label)
            found = _location(place, root) if is_defined else None
            if found is not None:
                resolved: Target | None = Target(found[0], found[1], name)
            else:  # declared here, defined in another unit (or outside the project)
                resolved = defined.get(target) or _declared(place, name, root)
            call = Call(int(where.rsplit(":", 1)[1]), name, target.rsplit(":", 1)[-1], resolved)
        graph.calls.setdefault(at, set()).add(call)


def _declared(place: str, name: str, root: Path) -> Target:
    found = _location(place, root)
    return Target(found[0], found[1], name) if found else Target("", 0, name)


def read_definitions(texts: Iterable[str], root: Path) -> dict[str, Target]:
    """Functions defined with external linkage in any unit (GCC titles them by their linker
    name alone; a static or inline one carries its unit's file name first)."""
    defined: dict[str, Target] = {}
    for text in texts:
        for title, label, declared_only in _NODE.findall(text):
            if declared_only or ":" in title.split("(")[0]:
                continue
            signature, _, place = label.rpartition("\\n")
            found = _location(place, root)
            if found and found[0]:
                defined.setdefault(title, Target(found[0], found[1], short_name(signature)))
    return defined


def include_dirs(root: Path) -> list[str]:
    """Where a project's `#include`s are found without its build files: the root, its parent
    (for `#include "absl/..."` under an `absl/` root) and the parent's `include` folder (a
    `src/` root's public headers), and every `include` or `src` folder under the root."""
    dirs = [root, root.parent, *[d for d in [root.parent / "include"] if d.is_dir()]]
    for folder, subfolders, _ in os.walk(root):
        subfolders[:] = [s for s in subfolders if not s.startswith(".")]
        if Path(folder).name in ("include", "src") and Path(folder) != root:
            dirs.append(Path(folder))
    return [f"-I{d}" for d in dirs]


def compile_units(
    compiler: str, language: str, root: Path, units: list[str], work: Path
) -> tuple[list[str], int]:
    """Each unit compiled (in parallel, one per core) into a `.ci` file; their texts and how
    many units failed to compile (a header that is not self-contained, a missing dependency)."""
    flags = [*_FLAGS[language], *include_dirs(root), *_COMMON]

    def one(numbered: tuple[int, str]) -> str | None:
        number, unit = numbered
        dump = work / f"u{number}-"
        command = [compiler, *flags, "-dumpdir", str(dump), unit]
        try:
            done = subprocess.run(
                command, cwd=root, capture_output=True, timeout=UNIT_TIMEOUT_S, check=False
            )
        except subprocess.TimeoutExpired:
            return None
        written = list(work.glob(f"u{number}-*.ci"))
        if done.returncode != 0 or not written:
            return None
        return written[0].read_text(encoding="utf-8", errors="replace")

    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        texts = list(pool.map(one, enumerate(units)))
    return [t for t in texts if t is not None], sum(t is None for t in texts)


def gcc_answers(
    root: Path, sites: list[Site], language: str, files: list[str]
) -> tuple[list[list[Target] | None], str]:
    """One answer per site, in order (None: no unit emitted that line, so the oracle cannot
    tell), and the oracle's name. `files` are the repository's files in the language: its
    source files are all compiled (their definitions are what a header's declaration names),
    and every header holding a sampled site is compiled as a unit of its own."""
    compiler, version = gcc_setup(language)
    root = root.resolve()
    sources = [f for f in files if Path(f).suffix.lower() in SOURCE_SUFFIXES[language]]
    headers = sorted({s.path for s in sites} - set(sources))
    with tempfile.TemporaryDirectory(prefix="repolens-gcc-oracle-") as work:
        texts, failed = compile_units(compiler, language, root, sources + headers, Path(work))
    defined = read_definitions(texts, root)
    graph = CallGraph(units=len(sources) + len(headers), failed=failed)
    for text in texts:
        read_unit(text, root, graph, defined)
    answers = [_answer(graph, site) for site in sites]
    return answers, f"{version} -fcallgraph-info ({graph.units - failed} of {graph.units} units)"


def _answer(graph: CallGraph, site: Site) -> list[Target] | None:
    if site.path not in graph.compiled:
        return None
    calls = graph.calls.get((site.path, site.name_line), set())
    # GCC places a C call at its name and a C++ call at its `(`: the first call of the name
    # at or after where the name is written.
    named = sorted(
        (c for c in calls if site.name in (c.name, c.linker) and c.column > site.name_column),
        key=lambda c: c.column,
    )
    if not named:
        return []  # an indirect call, a macro, or a call GCC did not emit on this line
    first = [c.target for c in named if c.column == named[0].column and c.target]
    return first
