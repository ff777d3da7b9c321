"""The PHP oracle: the repository's own PHPUnit tests, run under Xdebug's function trace, which
writes down every call made from the repository's files and the function or method PHP ran for
it (oracle_php.php loads the classes and says where each is defined). It is no type checker: it
knows only the calls the tests run, and those exactly, dynamic dispatch and traits included. A
method that ran stands with the declarations it overrides or implements (a call on an interface
type ran a class's method; a type checker names the interface's, which counts as well).

The tests are every `*Test.php` under `tests/` (or `test/`), run without the repository's
phpunit.xml (its listeners may need packages that are not installed); classes load through
`vendor/autoload.php` when the repository has one, else through its composer.json's psr-4
folders and files.

What it cannot say: a site the tests never reach, a call that ended in `__call` (no method of
that name ran), a `new` of a class with no constructor, and which of two calls of one name on
one line is which; such sites count as unresolved by the oracle and are not judged."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.bench.oracle import OracleUnavailable, Site, Target

BOOTSTRAP = Path(__file__).with_name("oracle_php.php")
TEST_TIMEOUT_S = 1_800
# Xdebug's trace, one call per line, without the arguments' values (they are most of its size).
_TRACE_SETTINGS = (
    "xdebug.mode=trace",
    "xdebug.start_with_request=yes",
    "xdebug.trace_format=1",
    "xdebug.trace_output_name=trace",
    "xdebug.use_compression=0",
    "xdebug.var_display_max_depth=0",
    "xdebug.var_display_max_children=0",
    "xdebug.var_display_max_data=0",
)
_TRACE_ENTRY = "0"  # the third field of a call's entry line (1 is its exit)


def php_setup() -> tuple[str, str, str]:
    """`php`'s and `phpunit`'s paths and PHP's version line, or a clear reason why the oracle
    cannot run."""
    php, phpunit = shutil.which("php"), shutil.which("phpunit")
    modules = ""
    if php is not None:
        done = subprocess.run([php, "-m"], capture_output=True, text=True, check=False)
        modules = done.stdout.lower()
    if php is None or phpunit is None or "xdebug" not in modules:
        raise OracleUnavailable(
            "the PHP oracle runs the repository's tests under Xdebug: it needs PHP 7.4 or "
            "later with Xdebug 3 and PHPUnit (`php`, `phpunit` on PATH), for example "
            "`apt-get install php-cli php-xdebug php-mbstring phpunit`"
        )
    done = subprocess.run([php, "--version"], capture_output=True, text=True, check=False)
    return php, phpunit, (done.stdout.splitlines() or ["php"])[0]


def php_answers(root: Path, sites: list[Site]) -> tuple[list[list[Target] | None], str]:
    """One answer per site, in order (None: the tests never ran a function of the site's name
    from its line), and the oracle's name."""
    php, phpunit, version = php_setup()
    tests = next((root / d for d in ("tests", "test") if (root / d).is_dir()), None)
    if tests is None:
        raise OracleUnavailable(
            f"the PHP oracle runs the repository's tests: {root} has no tests/ or test/ folder"
        )
    real = root.resolve()
    with tempfile.TemporaryDirectory(prefix="repolens-php-oracle-") as work:
        defined = Path(work) / "definitions.json"
        settings = [f"-d{s}" for s in (*_TRACE_SETTINGS, f"xdebug.output_dir={work}")]
        command = [php, *settings, phpunit, "--bootstrap", str(BOOTSTRAP), "--no-configuration"]
        env = {**os.environ, "ORACLE_ROOT": str(real), "ORACLE_DEFINITIONS": str(defined)}
        subprocess.run(
            [*command, str(tests)],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=TEST_TIMEOUT_S,
            check=False,  # failing tests are expected; the calls that ran are what counts
        )
        trace = Path(work) / "trace.xt"
        if not trace.is_file() or not defined.is_file():
            raise OracleUnavailable(
                f"the PHP oracle's test run wrote no trace: PHPUnit over {tests} stopped "
                "before its end"
            )
        where = _definitions(json.loads(defined.read_text(encoding="utf-8")), real)
        ran = _calls_by_line(_entries(trace, f"{real}/"), where)
    made = _constructed(where)
    return [_answer(site, ran, made) for site in sites], f"the tests under Xdebug ({version})"


def _constructed(
    where: dict[str, list[tuple[str, int]]],
) -> dict[str, list[tuple[tuple[str, int], tuple[str, int]]]]:
    """By a class's short name (lowercased): each such class's definition and the constructor
    it runs (its own or inherited), so that `new SyntaxError(...)`, which Xdebug reports as
    the `__construct` of its base `Error`, also names the class made."""
    out: dict[str, list[tuple[tuple[str, int], tuple[str, int]]]] = defaultdict(list)
    for key, found in where.items():
        if key.startswith("class ") and found[0][0]:
            name = key[len("class ") :]
            runs = where.get(f"{name}::__construct", [("", 0)])[0]
            out[name.rsplit("\\", 1)[-1]].append((found[0], runs))
    return out


def _definitions(raw: dict[str, list[Any]], real: Path) -> dict[str, list[tuple[str, int]]]:
    """`Class::method`, `class Class` and `function` (lowercased, as PHP reads names) -> the
    repository path and first line of the definition ("" outside the repository), then those
    of the declarations it overrides or implements."""

    def inside(path: Any, line: Any) -> tuple[str, int]:
        if not isinstance(path, str) or not isinstance(line, int) or not Path(path).is_file():
            return "", 0  # PHP's own, another package's, or code made by eval()
        return (path[len(str(real)) + 1 :], line) if path.startswith(f"{real}/") else ("", 0)

    return {
        name.lower(): [inside(path, line), *(inside(p, n) for p, n in above)]
        for name, (path, line, above) in raw.items()
    }


def _entries(trace: Path, prefix: str) -> Iterator[tuple[str, int, str, bool]]:
    """Each call the trace holds from a file under `prefix`: that file (relative), the line,
    the function's name as Xdebug writes it, and whether it is written in PHP."""
    with trace.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            fields = line.split("\t", 10)
            if len(fields) < 10 or fields[2] != _TRACE_ENTRY or not fields[8].startswith(prefix):
                continue
            yield fields[8][len(prefix) :], int(fields[9]), fields[5], fields[6] == "1"


# By caller (path, line): each call's short name (`render`, `__construct`), whether it is a
# method's, and the definition that ran, then the declarations it overrides.
Ran = dict[tuple[str, int], list[tuple[str, bool, tuple[Target, ...]]]]


def _calls_by_line(
    entries: Iterator[tuple[str, int, str, bool]], where: dict[str, list[tuple[str, int]]]
) -> Ran:
    ran: dict[tuple[str, int], set[tuple[str, bool, tuple[Target, ...]]]] = defaultdict(set)
    for path, line, function, written in entries:
        owner, _, name = function.replace("->", "::").rpartition("::")
        short = name.rsplit("\\", 1)[-1]
        if not written:
            ran[(path, line)].add((short, bool(owner), (Target("", 0, short),)))
            continue
        found = where.get(f"{owner}::{name}".lower() if owner else name.lower(), [("", 0)])
        ran[(path, line)].add((short, bool(owner), tuple(Target(p, n, short) for p, n in found)))
    return {key: sorted(calls, key=str) for key, calls in ran.items()}


def _answer(
    site: Site, ran: Ran, made: dict[str, list[tuple[tuple[str, int], tuple[str, int]]]]
) -> list[Target] | None:
    """What the tests ran for this site: the functions called by its name from its line (PHP
    reports a call on its first line, a method's on the line of its name), each with the
    declarations it overrides. `new Foo` ran Foo's (or a base's) `__construct`. A bare call
    (`count($node)`) runs a function, never the method PHP itself calls in turn
    (`Node::count`, reported on the same line)."""
    lines = dict.fromkeys((site.name_line, site.line))
    seen = [call for at in lines for call in ran.get((site.path, at), [])]
    created = site.name[:1].isupper() and not site.receiver  # `new Foo(...)`
    wanted = "__construct" if created else site.name.lower()
    by_method = bool(site.receiver) or created  # a bare `f()` calls a function
    named = [
        found for short, method, found in seen if short.lower() == wanted and method == by_method
    ]
    if created:
        runs = {(found[0].path, found[0].line) for found in named}
        classes = [at for at, ctor in made.get(site.name.lower(), []) if ctor in runs]
        named += [tuple(Target(path, line, site.name) for path, line in classes)]
    targets = [t for found in named for t in found if t.path or found[0] is t]
    return list(dict.fromkeys(targets)) or None
