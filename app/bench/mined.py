"""`eval mined PATH`: label-free questions mined from a repository itself. Each documented
definition's first doc sentence asks for that definition in a copy whose doc comments are
blanked; in a git checkout, commit subjects ask for the definitions the commit changed; and
an error a user would paste (`InvalidURL: Relative URLs cannot have a path starting with
'//'`, the message's placeholders filled in) asks for the definition that raises it."""

from __future__ import annotations

import hashlib
import random
import re
import subprocess
import tempfile
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from app.answer.brief import as_prose
from app.bench.devbench import GoldRange, Question
from app.core.paths import is_test_path
from app.graph.facts import CLASS_KINDS
from app.parse import grammar_gaps
from app.parse.definitions import (
    CONTAINERS,
    Definition,
    Found,
    docstring,
    find_definitions,
    line_starts,
)
from app.parse.languages import has_definitions, language_for_text
from app.parse.text import strip_comment

SEED = 16  # the sample is the same on every run
DOC_WORDS = 5  # a first sentence shorter than this says too little to search for
TWIN_JACCARD = 0.6
COMMIT_WORDS = 4
COMMIT_CAP = 50  # commit questions at most, newest first
COMMITS_READ = 400  # commits looked at to find them
GOLD_MOST = 3  # a commit touching more definitions is a sweep, not one change
_SENTENCE_END = re.compile(r"(?<=[.!?])\s|\n\s*\n")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*")
_TAGGED = re.compile(r"^\s*[@:]")  # `@param x`, `:param x:`: not prose
# A type's doc sentence says what the type is ("A lock-free token-bucket rate-limiter"), and
# its answer is the type's head; a function's says what code does. Reported apart: a change
# can move the two kinds in opposite directions (RESULTS.md, 2026-12-06, split-head).
DOC, DOC_TYPE = "doc", "doc-type"
DOC_KINDS = (DOC, DOC_TYPE)
TYPE_KINDS = CLASS_KINDS | {"module"}
ERROR = "error"
ERROR_CAP = 30  # error questions per repository, sampled apart from the others
ERROR_WORDS = 4  # a message with fewer words of its own names too little to search for
# `raise InvalidURL("...")`, `throw new TypeError(`...`)`, Ruby's `raise ArgumentError, "..."`;
# Go's `errors.New("...")` / `fmt.Errorf("...")`, Rust's `panic!("...")` / `bail!("...")`.
_RAISED = re.compile(
    r"""\b(?:raise|throw)[ \t]+(?:new[ \t]+)?(?P<type>[A-Za-z_][\w.:]*)?[ \t]*[(,]?[ \t]*"""
    r"""(?:[frbuFRBU]{1,2}|@|\$)?(?P<q>["'`])(?P<message>(?:(?!(?P=q))[^\n\\]){12,200})(?P=q)"""
)
_ERROR_CALL = re.compile(
    r"""\b(?P<type>errors\.New|fmt\.Errorf|panic!?|bail!|anyhow!|format_err!)[ \t]*\([ \t]*"""
    r"""(?P<q>["`])(?P<message>(?:(?!(?P=q))[^\n\\]){12,200})(?P=q)"""
)
# What a message's runtime values are written as: `{url!r}`, `%s`, `${name}`, `#{key}`, `\(x)`.
_PLACEHOLDER = re.compile(
    r"\{[^{}]*\}|%[-#+ 0-9.]*[a-zA-Z]|\$\{[^}]*\}|\$[A-Za-z_]\w*|#\{[^}]*\}|\\\([^)]*\)"
)
_CALLED_ERRORS = {
    "errors.New": "error",
    "fmt.Errorf": "error",
    "bail!": "Error",
    "anyhow!": "Error",
    "format_err!": "Error",
}


@dataclass(frozen=True, slots=True)
class Documented:
    """A definition with its doc: where it is, its first sentence, and the doc's lines."""

    path: str
    qualified: str
    kind: str
    core_line: int
    end_line: int
    sentence: str


@dataclass(frozen=True, slots=True)
class Stripped:
    """A file's text with every definition's doc comment blanked (line numbers kept)."""

    text: str
    documented: tuple[Documented, ...]


def first_sentence(doc: str) -> str:
    """The doc's first sentence as a user would type it: inline tags as their text
    (`{@code registry}` is `registry`), formatting tags out, whitespace collapsed ("" when it
    is a tag line)."""
    head = _SENTENCE_END.split(doc.strip(), maxsplit=1)[0]
    return "" if _TAGGED.match(head) else as_prose(head)


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


def _parse(path: str, text: str) -> tuple[str, Found] | None:
    language = language_for_text(path, text)
    if language is None or not has_definitions(language):
        return None
    try:
        tree, src = grammar_gaps.parse(language, text.encode("utf-8", "surrogatepass"))
        return language, find_definitions(language, tree.root_node, src, line_starts(src))
    except Exception:  # noqa: BLE001 - a file the parser cannot handle has no definitions
        return None


def _leading_comment(d: Definition, found: Found) -> list[int]:
    """The comment lines right above a definition (attributes between them skipped), as
    the chunker absorbs them."""
    absorbable = found.comment_lines | found.attribute_lines
    line, lines = d.lead_line - 1, []
    while line >= 1 and line in absorbable:
        if line in found.comment_lines:
            lines.append(line)
        line -= 1
    return sorted(lines)


def _docstring_span(d: Definition) -> tuple[int, int, int, int] | None:
    """(first row, first column, last row, last column), 0-based, of a Python docstring."""
    body = d.core.child_by_field_name("body")
    if body is None or not body.named_children:
        return None
    node = body.named_children[0]
    if node.type == "expression_statement" and node.named_children:
        node = node.named_children[0]
    if node.type != "string":
        return None
    return (
        node.start_point.row,
        node.start_point.column,
        node.end_point.row,
        node.end_point.column,
    )


def strip_docs(path: str, text: str, only: Collection[int] | None = None) -> Stripped:
    """Blank the doc of every definition (or of those starting at a line in `only`): comment
    lines above it become empty lines, a Python docstring becomes `""`. Lines keep their
    numbers, so gold ranges stay valid. `documented` lists every documented definition."""
    parsed = _parse(path, text)
    if parsed is None:
        return Stripped(text, ())
    language, found = parsed
    lines = text.split("\n")
    blank: set[int] = set()
    spans: list[tuple[int, int, int, int]] = []
    documented: list[Documented] = []
    for d in found.definitions:
        doc, comment = "", _leading_comment(d, found)
        span = _docstring_span(d) if language == "python" else None
        chosen = only is None or d.core_line in only
        if span is not None and docstring(d, language):
            doc = docstring(d, language)
            if chosen:
                spans.append(span)
        elif comment:
            doc = strip_comment("\n".join(lines[i - 1] for i in comment))
        if chosen:
            blank.update(comment)
        sentence = first_sentence(doc) if doc else ""
        if word_count(sentence) >= DOC_WORDS:
            documented.append(
                Documented(path, d.qualified or d.name, d.kind, d.core_line, d.end_line, sentence)
            )
    for r0, c0, r1, c1 in sorted(spans, reverse=True):  # bottom up: earlier spans keep columns
        lines[r0] = lines[r0][:c0] + '""' + lines[r1][c1:]
        for row in range(r0 + 1, r1 + 1):
            lines[row] = ""
    for line in blank:
        lines[line - 1] = ""
    return Stripped("\n".join(lines), tuple(documented))


def gold_of(path: str, text: str, qualified: str, kind: str, core_line: int) -> GoldRange | None:
    """The definition `qualified` of `kind` in this text: the one at `core_line`, else the
    only one so named. A container stops where its first member starts (its head chunk)."""
    parsed = _parse(path, text)
    if parsed is None:
        return None
    _, found = parsed
    same = [d for d in found.definitions if (d.qualified or d.name) == qualified and d.kind == kind]
    here = [d for d in same if d.core_line == core_line] or (same if len(same) == 1 else [])
    if not here:
        return None
    d = here[0]
    end = d.end_line
    if d.kind in CONTAINERS and d.children:
        end = max(d.core_line, min(c.lead_line for c in d.children) - 1)
    return GoldRange(path, qualified, d.core_line, end)


def _words(sentence: str) -> frozenset[str]:
    return frozenset(word.lower() for word in _WORD.findall(sentence))


def ambiguous(documented: Sequence[Documented]) -> set[int]:
    """Indices of docs whose first sentence nearly repeats another definition's (word-set
    Jaccard >= TWIN_JACCARD): a sync/async pair, an overload, a copy. Either twin answers
    such a question, and the twin's doc still in the index gives it away."""
    words = [_words(d.sentence) for d in documented]
    twins: set[int] = set()
    for i, a in enumerate(words):
        for j in range(i + 1, len(words)):
            b = words[j]
            if len(a & b) >= TWIN_JACCARD * len(a | b):
                twins.update((i, j))
    return twins


def doc_questions(name: str, files: Mapping[str, Stripped]) -> list[Question]:
    """One question per documented definition (first doc sentence >= DOC_WORDS words),
    outside tests, whose sentence no other definition nearly repeats."""
    every = [d for path, s in files.items() if not is_test_path(path) for d in s.documented]
    twins = {id(every[i]) for i in ambiguous(every)}
    questions = []
    for path, stripped in files.items():
        if is_test_path(path):
            continue  # a user asks about the code, not about its tests
        for doc in stripped.documented:
            if id(doc) in twins:
                continue
            gold = gold_of(path, stripped.text, doc.qualified, doc.kind, doc.core_line)
            if gold is None:
                continue
            qid = f"{name}-doc-{path}:{doc.core_line}"
            kind = DOC_TYPE if doc.kind in TYPE_KINDS else DOC
            questions.append(Question(qid, name, doc.sentence, kind, (gold,)))
    return questions


def error_questions(name: str, files: Mapping[str, str]) -> list[Question]:
    """One question per raised message (>= ERROR_WORDS words of its own, outside tests) that
    no other place raises: the error as a user pastes it, its type before a colon and its
    placeholders filled with `x`, asking for the definition whose code raises it."""
    raised: dict[str, list[tuple[str, int]]] = {}
    for path, text in files.items():
        if is_test_path(path):
            continue
        for match in (*_RAISED.finditer(text), *_ERROR_CALL.finditer(text)):
            message = match.group("message")
            if len(_WORD.findall(_PLACEHOLDER.sub(" ", message))) < ERROR_WORDS:
                continue
            kind = match.group("type") or "Error"
            line = text.count("\n", 0, match.start()) + 1
            filled = _PLACEHOLDER.sub("x", message)
            if kind == "panic!":  # Rust 1.73 on: the place, then the message on a line
                pasted = f"thread 'main' panicked at {path}:{line}:9:\n{filled}"
            else:  # Go's panic prints `panic: ...`, anyhow's main `Error: ...`
                kind = _CALLED_ERRORS.get(kind, kind.rstrip("!") if kind[0].islower() else kind)
                pasted = f"{re.split(r'[.:]+', kind)[-1]}: {filled}"
            raised.setdefault(pasted, []).append((path, line))
    questions = []
    for pasted, places in sorted(raised.items()):
        if len(places) != 1:
            continue  # raised in several places: any of them would be right
        path, line = places[0]
        gold = _enclosing(path, files[path], line)
        if gold is not None:
            questions.append(Question(f"{name}-error-{path}:{line}", name, pasted, ERROR, (gold,)))
    return questions


def _enclosing(path: str, text: str, line: int) -> GoldRange | None:
    """The innermost function-like definition around `line` (not a class's head)."""
    parsed = _parse(path, text)
    if parsed is None:
        return None
    around = [
        d
        for d in parsed[1].definitions
        if d.kind not in CONTAINERS and d.core_line <= line <= d.end_line
    ]
    if not around:
        return None
    d = max(around, key=lambda d: d.core_line)
    return gold_of(path, text, d.qualified or d.name, d.kind, d.core_line)


def _git(root: Path, *args: str) -> str:
    """Git's output, or "" when it fails; bytes that are no UTF-8 (a Latin-1 file's diff)
    read as U+FFFD."""
    done = subprocess.run(
        ["git", "-C", str(root), *args],
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )
    return done.stdout if done.returncode == 0 else ""


_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.M)


def changed_lines(diff: str) -> dict[str, set[int]]:
    """New-side lines each file's hunks touch (`git show --unified=0`); a pure deletion
    touches the line after it."""
    found: dict[str, set[int]] = {}
    current = ""
    for line in diff.split("\n"):
        if line.startswith("+++ "):
            current = line[6:] if line.startswith("+++ b/") else ""
            continue
        match = _HUNK.match(line)
        if match and current:
            start, count = int(match.group(1)), int(match.group(2) or 1)
            found.setdefault(current, set()).update(range(start, start + max(count, 1)))
    return found


def commit_questions(
    name: str, root: Path, texts: dict[str, str], cap: int = COMMIT_CAP
) -> list[Question]:
    """Commit subjects (no merges, >= COMMIT_WORDS words) as questions whose gold is the
    definitions the commit changed that still exist in `texts` (path -> current text)."""
    prefix = _git(root, "rev-parse", "--show-prefix").strip()
    if not _git(root, "rev-parse", "--git-dir").strip():
        return []
    log = _git(root, "log", "--no-merges", f"-n{COMMITS_READ}", "--format=%H%x1f%s", "--", ".")
    questions: list[Question] = []
    for entry in log.splitlines():
        sha, _, subject = entry.partition("\x1f")
        if word_count(subject) < COMMIT_WORDS or len(questions) >= cap:
            continue
        diff = _git(root, "show", "--format=", "--unified=0", "--no-renames", sha, "--", ".")
        gold = _changed_definitions(root, sha, prefix, changed_lines(diff), texts)
        if 0 < len(gold) <= GOLD_MOST:
            questions.append(Question(f"{name}-commit-{sha[:12]}", name, subject, "commit", gold))
    return questions


def _changed_definitions(
    root: Path, sha: str, prefix: str, changed: dict[str, set[int]], texts: dict[str, str]
) -> tuple[GoldRange, ...]:
    gold: list[GoldRange] = []
    for git_path, lines in sorted(changed.items()):
        path = git_path[len(prefix) :] if git_path.startswith(prefix) else ""
        if not path or path not in texts or is_test_path(path):
            continue
        parsed = _parse(path, _git(root, "show", f"{sha}:{git_path}"))
        if parsed is None:
            continue
        touched = [
            d
            for d in parsed[1].definitions
            if d.kind not in CONTAINERS and any(d.core_line <= n <= d.end_line for n in lines)
        ]
        for d in touched:
            now = gold_of(path, texts[path], d.qualified or d.name, d.kind, -1)
            if now is not None and now not in gold:
                gold.append(now)
    return tuple(gold)


def sample(questions: Sequence[Question], limit: int) -> list[Question]:
    """At most `limit` questions, the same ones on every run (sorted by id, then a seeded pick)."""
    ordered = sorted(questions, key=lambda q: q.id)
    if len(ordered) <= limit:
        return ordered
    return sorted(random.Random(SEED).sample(ordered, limit), key=lambda q: q.id)


def scratch_dir(root: Path) -> Path:
    """Where the doc-stripped copy of `root` lives between runs (outside any index folder)."""
    digest = hashlib.sha1(str(root.resolve()).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / "repolens-mined" / f"{root.resolve().name}-{digest}"


def write_copy(dest: Path, files: dict[str, str]) -> None:
    """Mirror `files` (path -> text) under `dest`, rewriting only what differs (so an index
    of the copy is reused) and removing what is gone."""
    dest.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        target = dest / path
        data = text.encode("utf-8", "surrogatepass")
        if target.is_file() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    for found in sorted(dest.rglob("*"), reverse=True):
        rel = found.relative_to(dest).as_posix()
        if found.is_file() and rel not in files:
            found.unlink()
        elif found.is_dir() and not any(found.iterdir()):
            found.rmdir()
