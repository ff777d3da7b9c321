"""The Rust oracle: rustc's own MIR (`-Zunpretty=mir`, its mid-level code after type checking
and method resolution), which names the function, method or trait implementation each call
of the crate's library runs and where the call is written.

The crate is built by cargo in a temporary copy (its dev-dependencies taken out of the copy's
Cargo.toml: a library build needs none of them, and an offline machine rarely has them), with
no network: the dependencies come from Debian's crate packages in /usr/share/cargo/registry
where that folder exists (`apt-get install librust-<crate>-dev`), else from cargo's own cache.
`RUSTC_BOOTSTRAP=1` lets the stable compiler print its MIR. Like any cargo build, this runs
the crate's build script and procedural macros: a bench for code one would build anyway.

What it cannot say: a call through a trait object (`dyn Trait`), a call on a generic type
parameter (`<G as IntoNeighbors>::neighbors`: the trait's method, whatever type is given),
and calls in tests, examples and benches (only the library is built); such sites count as
unresolved by the oracle and are not judged."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from app.bench.oracle import OracleUnavailable, Site, Target

DEBIAN_REGISTRY = Path("/usr/share/cargo/registry")
BUILD_TIMEOUT_S = 1_800
# A call in the MIR: `_3 = Graph::<N, E>::remove_node(move _4, ...) -> [return: bb1, ...];
# // scope 1 at src/a.rs:11:5: 11:21`, the span from the call's first character.
_CALL = re.compile(
    r"= (.+?)\((?:.*)\) -> (?:\[return|unwind|bb|\[)[^/]*// scope \d+ at (.+?):(\d+):(\d+): "
)
# `fn graph_impl::<impl at src/graph_impl/mod.rs:412:1: 416:1>::remove_node(_1: ...`
_HEADER = re.compile(r"^fn (.+?)\(")
_SPAN = re.compile(r"// (?:in )?(?:scope \d+ at |return place in scope \d+ at )(.+?):(\d+):\d+: ")
_IMPL = re.compile(r"<impl at (.+?):(\d+):\d+: \d+:\d+>")
# What an `impl` line says: `impl<K, T> PartialOrd for MinScored<K, T>`, `impl Graph<N, E>`.
_IMPL_TEXT = re.compile(
    r"\bimpl\b\s*(?:<.*?>)?\s*(?:(?:unsafe\s+)?([\w:]+)(?:<.*?>)?\s+for\s+)?"
    r"&?\s*(?:'\w+\s+)?(?:mut\s+)?([\w:]+)"
)
_TYPE_PARAMETER = re.compile(r"[A-Z][A-Za-z]?|Self")  # `G`, `N`, `Ty`, `Ix`, a trait's `Self`


def rust_setup() -> tuple[str, str]:
    """`cargo`'s path and rustc's version line, or a clear reason why the oracle cannot run:
    it needs cargo and rustc 1.70 or later on PATH."""
    cargo, rustc = shutil.which("cargo"), shutil.which("rustc")
    if cargo is None or rustc is None:
        raise OracleUnavailable(
            "the Rust oracle needs cargo and rustc on PATH, for example `apt-get install cargo`"
        )
    done = subprocess.run([rustc, "--version"], capture_output=True, text=True, check=False)
    return cargo, (done.stdout.strip() or "rustc")


def without_generics(text: str) -> str:
    """`Graph::<N, E>::remove_node::<G>` -> `Graph::remove_node`; `<A<T> as B<U>>::m` ->
    `<A as B>::m`."""
    if not text.startswith("<"):
        return _strip(text).strip(":")
    end = _closing(text)
    inner, rest = text[1:end], _strip(text[end + 1 :]).rstrip(":")
    depth = 0
    for at, char in enumerate(inner):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if depth == 0 and inner.startswith(" as ", at):
            return f"<{_strip(inner[:at])} as {_strip(inner[at + 4 :])}>{rest}"
    return f"<{_strip(inner)}>{rest}"


def _strip(text: str) -> str:
    """Every `<...>` taken out, `::` kept single."""
    out, depth = [], 0
    for char in text:
        if char == "<":
            depth += 1
        elif char == ">" and depth:
            depth -= 1
        elif not depth:
            out.append(char)
    return re.sub(r"::+", "::", "".join(out)).strip()


def _closing(text: str) -> int:
    """The index of the `>` that closes the `<` at the start of `text`."""
    depth = 0
    for at, char in enumerate(text):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if depth == 0:
            return at
    return len(text) - 1


@dataclass(slots=True)
class Mir:
    """What the library's MIR says: each call by (path, line) -> [(column, name, callee)], and
    each function it defines by its MIR path -> (path, a line of its signature)."""

    calls: dict[tuple[str, int], list[tuple[int, str, str]]] = field(default_factory=dict)
    defined: dict[str, tuple[str, int]] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)


def read_mir(text: str) -> Mir:
    """Calls and definitions from `-Zunpretty=mir -Zmir-include-spans=yes` output."""
    mir = Mir()
    header = ""
    for line in text.splitlines():
        if line.startswith("fn "):
            found = _HEADER.match(line)
            header = found.group(1) if found else ""
            continue
        if header and (span := _SPAN.search(line)):
            path, number = span.group(1), int(span.group(2))
            if not path.startswith("/") and header not in mir.defined:
                mir.defined[header] = (path, number)
                mir.files.add(path)
        if " -> [return" not in line and "-> unwind" not in line and "-> bb" not in line:
            continue
        call = _CALL.search(line)
        if call is None:
            continue
        callee, path = call.group(1).strip(), call.group(2)
        if path.startswith("/") or "{closure" in callee:
            continue
        name = without_generics(callee).rsplit("::", 1)[-1].strip("<>")
        where = (path, int(call.group(3)))
        mir.calls.setdefault(where, []).append((int(call.group(4)), name, callee))
    return mir


Keys = dict[tuple[str, str, str], list[tuple[str, int, str]]]


def impl_keys(mir: Mir, root: Path) -> Keys:
    """(self type, trait or "", method) -> definitions, from each `<impl at FILE:LINE>` the
    MIR names and what the source says on that line (`impl Ord for MinScored`); a trait's own
    default methods under (trait, trait, method), free functions under ("", path, name);
    each definition with the module its block is in (`adj`, `graph_impl::stable_graph`)."""
    keys: Keys = {}
    lines: dict[str, list[str]] = {}
    for header, where in mir.defined.items():
        method = header.rsplit("::", 1)[-1]
        impl = _IMPL.search(header)
        if impl is None:
            owner = header.rsplit("::", 1)[0] if "::" in header else ""
            last = owner.rsplit("::", 1)[-1]
            module = owner.rsplit("::", 1)[0] if "::" in owner else ""
            keys.setdefault((last, last, method), []).append((*where, module))  # a default
            keys.setdefault(("", header, method), []).append((*where, owner))  # a function
            continue
        path, number = impl.group(1), int(impl.group(2))
        if path not in lines:
            try:
                lines[path] = (root / path).read_text(errors="replace").splitlines()
            except OSError:
                lines[path] = []
        said = " ".join(lines[path][number - 1 : number + 2]) if lines[path] else ""
        written = _IMPL_TEXT.search(said)
        if written is None:
            continue
        trait = (written.group(1) or "").rsplit("::", 1)[-1]
        self_type = written.group(2).rsplit("::", 1)[-1]
        module = header[: impl.start()].removesuffix("::")
        keys.setdefault((self_type, trait, method), []).append((*where, module))
    return keys


def targets_of(callee: str, keys: Keys) -> list[Target]:
    """The definitions one MIR callee is: [] where rustc names no one function (a trait
    object, a type parameter or a projection of one), an outside target where the project
    defines none."""
    name = without_generics(callee).rsplit("::", 1)[-1]
    if callee.startswith("<"):  # `<Self as Trait>::method`
        inner = callee[1 : _closing(callee)]
        self_text, trait_text = _split_as(inner)
        self_text = re.sub(r"^&\s*(?:'\w+\s+)?(?:mut\s+)?", "", self_text.strip())
        if self_text.startswith(("<", "dyn ", "impl ")) or _TYPE_PARAMETER.fullmatch(self_text):
            return []  # `<dyn Visit as Visit>`, `<G as IntoNeighbors>`: whatever is given
        written, _, self_type = _strip(self_text).rpartition("::")
        trait = _strip(trait_text).rsplit("::", 1)[-1]
        found = keys.get((self_type, trait, name)) or keys.get((trait, trait, name))
        # `adj::EdgeReference`: rustc names the module where several types share the name.
        found = [f for f in found or [] if f[2].endswith(written)] or found
    else:
        plain = without_generics(callee)
        owner = plain.rsplit("::", 1)[0] if "::" in plain else ""
        last = owner.rsplit("::", 1)[-1]
        found = keys.get(("", plain, name)) or keys.get((last, "", name))
        found = found or keys.get((last, last, name))
    if not found:
        return [Target("", 0, name)]
    return [Target(path, line, name) for path, line, _ in found]


def _split_as(inner: str) -> tuple[str, str]:
    """`A<T> as B` -> (`A<T>`, `B`), the ` as ` outside any `<...>`."""
    depth = 0
    for at, char in enumerate(inner):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if depth == 0 and inner.startswith(" as ", at):
            return inner[:at], inner[at + 4 :]
    return inner, ""


def _cargo_copy(root: Path, work: Path) -> Path:
    """The crate copied without its build output, its dev-dependencies taken out."""
    copy = work / "crate"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("target", ".git"), symlinks=True)
    manifest = copy / "Cargo.toml"
    kept, skipping = [], False
    for line in manifest.read_text(errors="replace").splitlines():
        if line.lstrip().startswith("["):
            skipping = "dev-dependencies" in line
        if not skipping:
            kept.append(line)
    manifest.write_text("\n".join(kept) + "\n")
    return copy


def build_mir(root: Path) -> str:
    """The library's MIR, printed by rustc through cargo in a temporary copy."""
    cargo, _ = rust_setup()
    if not (root / "Cargo.toml").is_file():
        raise OracleUnavailable(f"the Rust oracle needs a crate: no Cargo.toml in {root}")
    with tempfile.TemporaryDirectory(prefix="repolens-rust-oracle-") as work:
        copy = _cargo_copy(root, Path(work))
        command = [cargo, "rustc", "--lib", "--offline", "-q"]
        if DEBIAN_REGISTRY.is_dir():
            command += [
                "--config",
                'source.crates-io.replace-with="debian"',
                "--config",
                f'source.debian.directory="{DEBIAN_REGISTRY}"',
            ]
        command += ["--", "-Zunpretty=mir", "-Zmir-include-spans=yes"]
        env = {**os.environ, "RUSTC_BOOTSTRAP": "1", "CARGO_TARGET_DIR": str(Path(work) / "t")}
        done = subprocess.run(
            command, cwd=copy, env=env, capture_output=True, text=True,
            timeout=BUILD_TIMEOUT_S, check=False,
        )  # fmt: skip
    if done.returncode != 0 or not done.stdout:
        errors = [line for line in done.stderr.splitlines() if line.startswith("error")]
        last = (errors or done.stderr.strip().splitlines() or ["no message"])[0]
        raise OracleUnavailable(f"the Rust oracle could not build the crate: {last}")
    return done.stdout


def rust_answers(root: Path, sites: list[Site]) -> tuple[list[list[Target] | None], str]:
    """One answer per site, in order (None: the library's MIR holds nothing of that file, a
    test's or an example's), and the oracle's name."""
    _, version = rust_setup()
    mir = read_mir(build_mir(root))
    keys = impl_keys(mir, root)
    answers: list[list[Target] | None] = []
    for site in sites:
        if site.path not in mir.files:
            answers.append(None)
            continue
        # A call starts where its receiver does: of the calls of that name on the site's
        # line, the one that starts nearest before the name (`d.visit() + g.visit()`).
        named = [
            c
            for c in mir.calls.get((site.path, site.line), [])
            if c[1] == site.name and (c[0] <= site.name_column + 1 or site.name_line != site.line)
        ]
        if not named:
            answers.append([])
            continue
        start = max(column for column, _, _ in named)
        there = {callee for column, _, callee in named if column == start}
        if len(there) != 1:
            answers.append(None)  # two calls of that name start there: which is which?
            continue
        answers.append(targets_of(there.pop(), keys))
    return answers, f"{version} MIR"
