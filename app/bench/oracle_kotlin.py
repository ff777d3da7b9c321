"""The Kotlin oracle: the JVM bytecode kotlinc writes for the repository's code, read back with
`javap`. Each invoke instruction names the method the compiler chose (its class and
descriptor) and sits on a source line (the method's LineNumberTable); the method is then found
in that class or its bases as the JVM resolves it, and its own first line is the target.

Compiled: every `.kt` file of the repository except tests and other platforms' source sets
(`jsMain`, `nativeMain`, `iosMain`, ...); files in a `commonMain` folder are passed as a
multiplatform build's common sources, so `expect` declarations meet their JVM `actual`s. A
repository whose code needs libraries the compiler cannot see does not compile, and the
oracle says so.

What it cannot say: a call of an `inline` function (its body is copied into the caller, no
invoke is left), a call of a function-typed value (`invoke`), and which of two calls of one
name on one line is which when their targets differ or one of them left no invoke; such
sites count as unresolved by the oracle and are not judged."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from app.bench.oracle import OracleUnavailable, Site, Target

COMPILE_TIMEOUT_S = 1_800
# Source sets of platforms other than the JVM, and test source sets, are not compiled.
_OTHER_PLATFORM = re.compile(
    r"(?:^|/)(?:js|wasm\w*|native|ios\w*|macos\w*|linux\w*|mingw\w*|tvos\w*|watchos\w*|apple|"
    r"darwin|android\w*|posix|unix|windows)Main/|(?:^|/)(?:tests?|\w+Test)/"
)
_CLASS = re.compile(r"^(?:[\w ]+ )?(?:class|interface|enum) ([\w.$]+)(?:<.*?>)?(.*)\{$")
_METHOD = re.compile(r"^  [^ ].*?([\w$<>\-\"]+)\((.*)\)(?: throws .*)?;$")
_INVOKE = re.compile(
    r"^\s*(\d+): invoke(?:virtual|special|static|interface)\s.*// (?:Interface)?Method "
    r"(.+?):(\(.*)$"
)
_LINE = re.compile(r"^\s*line (\d+): (\d+)$")
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)", re.MULTILINE)
_INLINE_CLASS_HASH = re.compile(r"-[\w]{7}$")


@dataclass(slots=True)
class _Method:
    name: str
    descriptor: str
    table: list[tuple[int, int]] = field(default_factory=list)  # (pc, line), LineNumberTable
    calls: list[tuple[int, str, str, str]] = field(default_factory=list)  # pc, owner, name, desc

    def line_at(self, pc: int) -> int:
        """The source line of the instruction at `pc` (0 when the table says nothing)."""
        before = [(start, line) for start, line in self.table if start <= pc]
        return max(before)[1] if before else 0

    def first_line(self) -> int:
        return min((line for _, line in self.table), default=0)


@dataclass(slots=True)
class _Class:
    name: str  # internal form: org/koin/core/Koin, org/koin/core/Koin$Companion
    source: str  # the repository path it was compiled from ("" when not found)
    bases: list[str] = field(default_factory=list)
    methods: dict[tuple[str, str], _Method] = field(default_factory=dict)


def kotlin_setup() -> tuple[str, str]:
    """`kotlinc-jvm`'s path and version line, or a clear reason why the oracle cannot run."""
    kotlinc = shutil.which("kotlinc-jvm") or shutil.which("kotlinc")
    if kotlinc is None or shutil.which("javap") is None:
        raise OracleUnavailable(
            "the Kotlin oracle needs kotlinc 2.0 or later and a JDK (javap) on PATH: for "
            "example `npm pack kotlin-compiler`, unpack it and put its package/bin on PATH, "
            "and `apt-get install default-jdk-headless`"
        )
    done = subprocess.run(
        [kotlinc, "-version"], capture_output=True, text=True, check=False, timeout=120
    )
    version = (done.stderr or done.stdout).strip().splitlines()
    return kotlinc, version[-1].removeprefix("info: ") if version else "kotlinc"


def compiled_sources(root: Path) -> tuple[list[str], list[str]]:
    """The repository's `.kt` files kotlinc is given (paths relative to root), and of them
    the common ones."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".kt"):
                found.append(Path(folder, name).relative_to(root).as_posix())
    kept = [p for p in found if not _OTHER_PLATFORM.search(p)]
    return kept, [p for p in kept if "/commonMain/" in f"/{p}"]


def kotlin_answers(root: Path, sites: list[Site]) -> tuple[list[list[Target] | None], str]:
    """One answer per site, in order (None: no invoke of that name on its line, or several
    different ones), and the oracle's name."""
    kotlinc, version = kotlin_setup()
    sources, common = compiled_sources(root)
    if not sources:
        raise OracleUnavailable(f"no Kotlin source to compile under {root}")
    with tempfile.TemporaryDirectory(prefix="repolens-kotlin-oracle-") as out:
        _compile(kotlinc, root, sources, common, Path(out))
        classes = _read_classes(Path(out), root, sources)
    invokes = _invokes_by_line(classes)
    expects, lines = _Expects(root, common), _Lines(root)
    answers = [_answer(site, invokes, classes, expects, lines) for site in sites]
    return answers, f"kotlinc's bytecode ({version})"


def _compile(kotlinc: str, root: Path, sources: list[str], common: list[str], out: Path) -> None:
    listing = out / "sources.txt"
    quoted = [f'"{p}"' if " " in p else p for p in sources]  # kotlinc's @argfile splits
    listing.write_text("\n".join(quoted) + "\n", encoding="utf-8")
    args = [kotlinc, "-nowarn", "-d", str(out / "classes"), "-jvm-target", "17"]
    if common:
        args += ["-Xmulti-platform", "-Xcommon-sources=" + ",".join(common)]
    done = subprocess.run(
        [*args, f"@{listing}"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        timeout=COMPILE_TIMEOUT_S,
    )
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if "error:" in line]
        first = errors[0] if errors else done.stderr.strip()[-300:]
        raise OracleUnavailable(
            f"kotlinc could not compile the repository ({len(errors)} errors; the oracle "
            f"needs code that builds without libraries kotlinc cannot see): {first}"
        )


def _read_classes(out: Path, root: Path, sources: list[str]) -> dict[str, _Class]:
    """Every compiled class, its bases, methods and their lines, through one `javap` run."""
    files = sorted(str(p.relative_to(out / "classes")) for p in (out / "classes").rglob("*.class"))
    names = [f[: -len(".class")].replace("/", ".") for f in files]
    done = subprocess.run(
        ["javap", "-c", "-l", "-p", "-s", "-cp", str(out / "classes"), *names],
        capture_output=True,
        text=True,
        check=False,
        timeout=COMPILE_TIMEOUT_S,
    )
    by_package = _paths_by_package(root, sources)
    classes: dict[str, _Class] = {}
    current: _Class | None = None
    method: _Method | None = None
    source_name = ""
    pending_name = ""
    for line in done.stdout.splitlines():
        if line.startswith("Compiled from "):
            source_name = line.split('"')[1]
            continue
        if header := _CLASS.match(line):
            dotted, rest = header.groups()
            name = dotted.replace(".", "/")
            package = dotted.rpartition(".")[0]
            path = by_package.get((package, source_name), "")
            current = classes[name] = _Class(name, path, _bases(rest))
            method = None
            continue
        if current is None:
            continue
        if line.startswith("  ") and line[2:3] not in (" ", "}", ""):  # a member's header
            signature = _METHOD.match(line)
            pending_name = signature.group(1).strip('"') if signature else ""
            if pending_name == current.name.rpartition("/")[2]:  # `public p.Koin(...)`
                pending_name = "<init>"
            method = None  # a field or `static {}` holds no calls of a method before it
            continue
        stripped = line.strip()
        if stripped.startswith("descriptor: ") and pending_name:
            method = _Method(pending_name, stripped.removeprefix("descriptor: "))
            current.methods[(method.name, method.descriptor)] = method
            pending_name = ""
            continue
        if method is not None and (numbered := _LINE.match(line)):
            method.table.append((int(numbered.group(2)), int(numbered.group(1))))
            continue
        if method is not None and (called := _INVOKE.match(line)):
            pc, target, descriptor = called.groups()
            owner, _, member = target.rpartition(".")
            owner = owner.strip('"') or current.name  # javap leaves out the class's own name
            method.calls.append((int(pc), owner, member.strip('"'), descriptor))
    return classes


def _bases(rest: str) -> list[str]:
    """`extends A<T> implements B, C` -> ["A", "B", "C"] in internal form."""
    text = re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", rest))  # nested generics, twice
    names = re.findall(r"[\w.$]+", text.replace("extends", " ").replace("implements", " "))
    return [n.replace(".", "/") for n in names if "." in n]


def _paths_by_package(root: Path, sources: list[str]) -> dict[tuple[str, str], str]:
    """(package, file name) -> the repository path: what a class file's SourceFile and its
    package say."""
    out: dict[tuple[str, str], str] = {}
    for path in sources:
        text = (root / path).read_text(encoding="utf-8", errors="replace")
        declared = _PACKAGE.search(text)
        out[(declared.group(1) if declared else "", path.rpartition("/")[2])] = path
    return out


Invokes = dict[tuple[str, int], list[tuple[str, str, str]]]


def _invokes_by_line(classes: dict[str, _Class]) -> Invokes:
    """(path, line) -> the (owner, name, descriptor) of each invoke written on that line."""
    out: Invokes = {}
    for cls in classes.values():
        if not cls.source:
            continue
        for method in cls.methods.values():
            for pc, owner, name, descriptor in method.calls:
                line = method.line_at(pc)
                if line:
                    out.setdefault((cls.source, line), []).append((owner, name, descriptor))
    return out


def demangled(name: str) -> str:
    """The name written in Kotlin: `loadModules$main` (internal), `get$default` (default
    arguments), `access$get` (a synthetic accessor), `box-impl`/`foo-XyZ1234` (inline
    classes) -> `loadModules`, `get`, `get`, `foo`."""
    name = name.removeprefix("access$")
    name = _INLINE_CLASS_HASH.sub("", name)
    return name.split("$", 1)[0] if not name.startswith("$") else name


def _answer(
    site: Site, invokes: Invokes, classes: dict[str, _Class], expects: _Expects, lines: _Lines
) -> list[Target] | None:
    found: set[tuple[Target, ...]] = set()
    for line in dict.fromkeys((site.name_line, site.line)):
        matching = 0
        for owner, name, descriptor in invokes.get((site.path, line), []):
            simple = owner.rpartition("/")[2].rpartition("$")[2]
            if name == "<init>" and simple == site.name:
                target = _constructor(owner, classes)
                found.add((target, *([] if target.path else expects.classes(site.name))))
            elif name != "<init>" and demangled(name) == site.name:
                target = _declared(owner, name, descriptor, classes)
                also = [*expects.of(target, owner), *_overrides(name, site, classes)]
                found.add((target, *[t for t in dict.fromkeys(also) if t != target]))
            else:
                continue
            matching += 1
        if found:
            # Fewer invokes than calls of that name written on the line: one of them was an
            # inline function's (no invoke left), so which call this one is, is not known.
            if matching < lines.calls_of(site.path, line, site.name):
                return None
            break
    return list(found.pop()) if len(found) == 1 else None


def _overrides(name: str, site: Site, classes: dict[str, _Class]) -> list[Target]:
    """A call that leaves out default arguments (`drop()`) compiles to the declaring class's
    static `drop$default`, which runs the receiver's override: the override in the caller's
    own file's classes is the same call."""
    if not name.endswith("$default"):
        return []
    written = demangled(name)
    return [
        Target(cls.source, method.first_line(), written)
        for cls in classes.values()
        if cls.source == site.path
        for (method_name, _), method in cls.methods.items()
        if method_name == written and method.first_line()
    ]


class _Lines:
    """The repository's source lines, read once per file: how many calls of a name a line
    writes (`get().get<T>()` writes two)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, list[str]] = {}

    def calls_of(self, path: str, line: int, name: str) -> int:
        if path not in self.files:
            text = (self.root / path).read_text(encoding="utf-8", errors="replace")
            self.files[path] = text.splitlines()
        lines = self.files[path]
        written = lines[line - 1] if 0 < line <= len(lines) else ""
        return len(re.findall(rf"(?<![\w$]){re.escape(name)}\s*[(<{{]", written))


def _constructor(owner: str, classes: dict[str, _Class]) -> Target:
    cls = classes.get(owner)
    simple = owner.rpartition("/")[2].rpartition("$")[2]
    if cls is None or not cls.source:
        return Target("", 0, simple)
    lines = [m.first_line() for (n, _), m in cls.methods.items() if n == "<init>"]
    line = min((x for x in lines if x), default=0)
    return Target(cls.source, line, simple, "" if line else _qualified(cls.name))


def _declared(owner: str, name: str, descriptor: str, classes: dict[str, _Class]) -> Target:
    """The method the JVM runs for `owner.name descriptor` as the compiler wrote it: the
    first class of owner, its superclasses and interfaces that declares it; outside the
    project when that chain leaves the compiled classes first."""
    seen: set[str] = set()
    queue = [owner]
    while queue:
        current = queue.pop(0)
        if current in seen:
            continue
        seen.add(current)
        cls = classes.get(current)
        if cls is None:
            continue
        method = cls.methods.get((name, descriptor))
        if method is not None and cls.source:
            line = method.first_line()
            written = demangled(name)
            qualified = "" if line else f"{_qualified(cls.name)}.{written}"
            return Target(cls.source, line, written, qualified)
        queue.extend(cls.bases)
    return Target("", 0, demangled(name))


def _qualified(internal: str) -> str:
    """`org/koin/core/Koin$Companion` -> `Koin.Companion`, as our definitions are named."""
    return internal.rpartition("/")[2].replace("$", ".")


class _Expects:
    """The `expect` declaration common code calls where the JVM runs its `actual`: for a
    target in a platform's source set, the common file of its package that declares the
    `expect` of that class (then the member by name) or of that top-level function."""

    def __init__(self, root: Path, common: list[str]) -> None:
        self.by_package: dict[str, list[tuple[str, str]]] = {}
        for path in common:
            text = (root / path).read_text(encoding="utf-8", errors="replace")
            declared = _PACKAGE.search(text)
            self.by_package.setdefault(declared.group(1) if declared else "", []).append(
                (path, text)
            )

    def classes(self, name: str) -> list[Target]:
        """A common `expect class` of that name, which a platform may make an alias of a
        library's class (`actual typealias ThreadLocal<T> = java.lang.ThreadLocal<T>`)."""
        pattern = rf"\bexpect\s+(?:\w+\s+)*class\s+({re.escape(name)})\b"
        return [
            Target(path, text.count("\n", 0, found.start(1)) + 1, name)
            for texts in self.by_package.values()
            for path, text in texts
            for found in re.finditer(pattern, text)
        ]

    def of(self, target: Target, owner: str) -> list[Target]:
        if not target.path:  # `ThreadLocal.get()`: the `expect` class's, aliased to java's
            simple = _qualified(owner)
            return [
                Target(t.path, 0, target.name, f"{simple}.{target.name}")
                for t in self.classes(simple)
            ]
        if "/commonMain/" in f"/{target.path}":
            return []
        package = owner.rpartition("/")[0].replace("/", ".")
        simple = _qualified(owner)
        name = re.escape(target.name)
        out = []
        for path, text in self.by_package.get(package, []):
            kinds = r"(?:class|object|interface)"
            if re.search(rf"\bexpect\s+(?:\w+\s+)*{kinds}\s+{re.escape(simple)}\b", text):
                out.append(Target(path, 0, target.name, f"{simple}.{target.name}"))
            for found in re.finditer(
                rf"\bexpect\s+(?:\w+\s+)*fun\s+(?:<[^>]*>\s*)?(?:[\w.<>?, *]+\.)?({name})\s*\(",
                text,
            ):
                out.append(Target(path, text.count("\n", 0, found.start(1)) + 1, target.name))
        return out
