"""Stack traces pasted in a query (which functions ran, innermost first), the errors it pastes
(`InvalidURL: Relative URLs cannot have a path starting with '//'`) and the file paths it
names, and where they live in the repository being searched (the paths in a report are the
reporter's, not ours)."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Python: `File "/site-packages/_pytest/_io/saferepr.py", line 23, in repr_instance`,
# outermost frame first.
_PYTHON_FRAME = re.compile(r'File "([^"\n]{1,400})", line \d+, in ([A-Za-z_]\w{0,100})')
# JavaScript (V8): `at Layer.handle [as handle_request] (/app/lib/router/layer.js:95:5)`,
# innermost frame first; the name it was called by (`handle_request`) is the one defined.
_JS_FRAME = re.compile(
    r"\bat (?:async )?([A-Za-z_$][\w$.]{0,100})(?: \[as ([\w$]+)\])? \(([^()\s]{1,400}?):\d+:\d+\)"
)


# A path with at least one folder and an extension: `src/_pytest/skipping.py`,
# `/usr/lib/python3.8/site-packages/_pytest/main.py:238`, `C:\proj\src\app.py`; not
# `res.json` or a URL.
_PATH = re.compile(
    r"(?<![\w/\\.~:-])(?:~|[A-Za-z]:)?[/\\]*(?:[\w.-]+[/\\]+)+[\w.-]+\.[A-Za-z][A-Za-z0-9]{0,5}"
    r"(?![\w/\\])"
)


# A pasted error's line: `ValueError: ...`, `E   AssertionError: ...` (pytest), `java.lang.
# IllegalStateException: ...`, `Uncaught TypeError: ...`, Go's `panic: ...`, `error: ...`.
_ERROR_LINE = re.compile(
    r"^[ \t>]*(?:E[ \t]+|Uncaught[ \t]+)?(?P<type>error|panic|fatal|"
    r"(?:[A-Za-z_][\w$]*(?:[.:]{1,2}|\\))*"
    r"[A-Z]\w*?(?:[a-z0-9][A-Z]\w*|Error|Exception|Warning|Failure|Fault))"
    r"(?:\[\w+\])?[ \t]*:[ \t]+(?P<message>[^\n]{12,400})$",
    re.MULTILINE,
)
# What varies between two runs of one raise: quoted values, numbers, paths, reprs, addresses.
_RUNTIME_VALUE = re.compile(
    r"""'[^'\n]*'|"[^"\n]*"|`[^`\n]*`|<[^<>\n]*>|\S*[/\\]\S*|0x[0-9a-fA-F]+|\b\d[\w.]*"""
)
_LETTERS = re.compile(r"[A-Za-z]{2,}")
_BARE = {"error", "panic", "fatal"}  # a line's kind, not a type
MESSAGE_WORDS = 3  # a run of fewer words between runtime values is too common to look for


# Rust's panic: `thread 'main' panicked at src/lib.rs:5:9:` and the message on the next line
# (1.73 on), or `panicked at 'message', src/lib.rs:5:9` before.
_RUST_PANIC = re.compile(
    r"panicked at (?:'(?P<quoted>[^'\n]{12,400})'|[^\n]*:[ \t]*\n[ \t]*(?P<message>[^\n]{12,400}))"
)


def pasted_errors(text: str) -> list[tuple[str, list[str]]]:
    """Each error line the text pastes: its type as written (`httpx.InvalidURL`, "" for
    `error:` or `panic:`) and the runs of its message between runtime values (quoted
    values, numbers, paths), each of MESSAGE_WORDS words or more: the text the raising code
    holds as written (`Relative URLs cannot have a path starting with`)."""
    found = []
    for match in _ERROR_LINE.finditer(text):
        kind = match.group("type")
        found.append(("" if kind in _BARE else kind, _runs(match.group("message"))))
    for match in _RUST_PANIC.finditer(text):
        found.append(("", _runs(match.group("quoted") or match.group("message"))))
    return found


def _runs(message: str) -> list[str]:
    runs = [run.strip(" \t.,;:()[]{}") for run in _RUNTIME_VALUE.split(message)]
    return [run for run in runs if len(_LETTERS.findall(run)) >= MESSAGE_WORDS]


def type_names(kind: str) -> list[str]:
    """The names a pasted error's type is written with: `Twig\\Error\\LoaderError` ->
    Twig, Error, LoaderError."""
    return [part for part in re.split(r"[.:$\\]+", kind) if part]


def named_paths(text: str) -> list[str]:
    """The file paths a text names (each once, in order), as written."""
    return list(dict.fromkeys(_PATH.findall(text)))


def frames(text: str) -> list[tuple[str, str]]:
    """(path, function) of every stack frame the text holds, innermost first."""
    python = _PYTHON_FRAME.findall(text)
    javascript = [
        (path, alias or name.rsplit(".", 1)[-1]) for name, alias, path in _JS_FRAME.findall(text)
    ]
    return [*reversed(python), *javascript]


def repository_path(path: str, by_name: dict[str, list[str]]) -> str | None:
    """The repository file a frame's path most likely is: the one sharing the longest run of
    trailing folders with it, at least the file and one folder unless the name is unique."""
    parts = re.split(r"[/\\]+", path)
    best, best_shared = None, 0
    for candidate in by_name.get(parts[-1], ()):
        shared = _shared_tail(parts, candidate.split("/"))
        if shared > best_shared:
            best, best_shared = candidate, shared
    if best is None or (best_shared < 2 and len(by_name.get(parts[-1], ())) > 1):
        return None
    return best


def _shared_tail(a: list[str], b: list[str]) -> int:
    count = 0
    for x, y in zip(reversed(a), reversed(b), strict=False):
        if x != y:
            break
        count += 1
    return count


def names_by_file(paths: Iterable[str]) -> dict[str, list[str]]:
    """Repository paths by file name."""
    found: dict[str, list[str]] = {}
    for path in paths:
        found.setdefault(path.rsplit("/", 1)[-1], []).append(path)
    return found
