"""Explicit rerank signals applied to fused scores; each one says what it did and why."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from app.core.models import Signal
from app.parse.scripts import SCRIPT_KIND
from app.parse.thin import ACCESSOR, EMPTY, WRAPPER

TEST_FACTOR = 0.5  # tests mention everything they exercise, so they outrank the implementation
EXAMPLE_FACTOR = 0.7  # examples and benchmarks call the library the way a question words it
# Generated code (a resource class, protobuf messages, an API client) repeats the domain's
# words at every line; what a question asks about is the source it was generated from. Too
# few generated files in the bench corpora to fit a factor on (RESULTS 2026-12-05): the
# examples' factor, the other code that is not the library's own hand-written source.
GENERATED_FACTOR = EXAMPLE_FACTOR
_GENERATED_REASON = "chunk is generated code: its file's first lines say a tool wrote it"
# A UI preview calls the screen it shows with made-up data, in the words of the screen's
# question: example code, written in a library file.
PREVIEW_FACTOR = EXAMPLE_FACTOR
_PREVIEW_REASON = "a UI preview (`@Preview`, `PreviewProvider`): sample data for the editor"
PROSE_FACTOR = 0.5  # docs describe a feature; people asking "where" want the code (RESULTS)
# A stylesheet's rules name the page's parts (`.comment-form`, `.post-tags`) in a question's
# words, and say how they look: prose's factor, the other text that describes rather than does.
STYLE_FACTOR = PROSE_FACTOR
GLUE_FACTOR = 0.75  # imports and module-level statements rarely answer a question
# A shell script's own top-level code keeps glue's factor: without it, `eval mined` over five
# shell repositories fell 0.603 -> 0.573 (scripts above the functions asked for), with it 0.604.
_GLUE_REASONS = {
    "glue": "module-level glue between definitions",
    SCRIPT_KIND: "a script's own top-level code",
}
TINY_FACTOR = 0.8  # a one- or two-line chunk carries too little to be the answer
THIN_FACTOR = 0.6  # a body that forwards to one call, or only reads or sets a field, or a
# class with no body: the work is done elsewhere (the called code, whatever uses the field)
_THIN_REASONS = {
    WRAPPER: "its body only forwards to another call",
    ACCESSOR: "its body only reads or sets a field",
    EMPTY: "a class with no body: it only declares a name and its base",
}
DECLARATION_FACTOR = 0.6  # interfaces and type aliases describe shapes, not behaviour
# The head of a type whose members have chunks of their own (its declaration, fields and
# doc) matches a question in the type's words, while the member that does the asked-for
# work is the answer. Fitted over 0.6-1.0 on every set, leave-one-repository-out (0.9 chosen
# for 26 of 27 held-out repositories; RESULTS.md, 2026-12-06).
SPLIT_HEAD_FACTOR = 0.9
DECLARATION_KINDS = frozenset({"interface", "type"})
HEAD_KINDS = frozenset({"class", "struct", "interface", "enum", "trait", "impl"})
# The query names this definition exactly (an identifier such as `parse_url` or `getUser`):
# fusion by rank alone lets a loose match found by both retrievers beat it.
EXACT_NAME_FACTOR = 3.0
# A name defined more often than this in the repository (Java's 33 `hashCode`s) cannot tell
# its definitions apart, and boosting every one floods the list: the boost shrinks as
# COMMON_NAME_MOST / n (1 + 2 x 3/33 = x1.18). A name the query spells as `Owner.member`
# keeps the whole boost.
COMMON_NAME_MOST = 3
# The query quotes a text (`next('route')`, an error message) that this chunk's code holds
# verbatim, and at most QUOTED_MOST candidates do: a text many chunks hold tells nothing.
QUOTED_FACTOR = 1.5
QUOTED_MOST = 5
# A chunk whose code holds a run of a pasted error's message as written (at most QUOTED_MOST
# candidates do): the code that raises it. Fitted leave one repository out on `eval mined`'s
# error questions (254 over 18 repositories, 11 languages; 17 of 18 folds chose it over 1.5,
# 2, 3 and 10): MRR@10 0.856 at 1.5, 0.907 out of sample (app/bench/RESULTS.md, 2026-12-07).
PASTED_ERROR_FACTOR = 5.0
# The query names the file a chunk is in (`the bug is in src/_pytest/skipping.py`), and at
# most NAMED_FILES_MOST files: a report that names many points at none in particular.
NAMED_FILE_FACTOR = 1.5
NAMED_FILES_MOST = 3
# The query names a type (`Channel for sending ...`, `Scope.close()`) and a file is named
# after it and defines it (`Channel.kt`): that file is where the type's behaviour lives, more
# than the many files whose code only uses the type. At most NAMED_FILES_MOST such files.
TYPE_FILE_FACTOR = 1.3
_CAPITALISED = re.compile(r"(?<![\w$])[A-Z][A-Za-z0-9]+")
# A stack trace in the query: the functions its innermost frames in this repository ran
# are where the error was raised (TRACEBACK_DEPTH frames, innermost first).
TRACEBACK_FACTOR = 2.0
TRACEBACK_DEPTH = 2
# The query asks about one version ("in Zod 4", "v2") of a repository that keeps several side
# by side (`v3/`, `v4/`): chunks under another version's folder answer a different question.
OTHER_VERSION_FACTOR = 0.5
# With no version asked, a `v1/` copy of a file that also lies beside it unversioned
# (pydantic's `v1/fields.py` and `fields.py`) is the legacy copy kept for old callers: it
# gets the same factor. A higher `vN/` may be the newer one (Go keeps `v2/` beside the
# first version's files), so only version 1 is read as the older copy.
LEGACY_VERSION = "1"
_VERSION_FOLDER = re.compile(r"v(\d{1,2})")
# A file that holds another file's text in another language (`values-fr/strings.xml`,
# `config/locales/de.yml`; app.search.translations) matches a question through the keys it
# shares with the file it translates, ten times over: the same factor as an older version's
# copy, the other file that repeats one the list already shows.
TRANSLATION_FACTOR = OTHER_VERSION_FACTOR
_MIXED_CASE = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]")
# A query that is one name and nothing else (`Flow`, `` `ClientSession` ``): a look-up.
_ONE_NAME = re.compile(r"\s*`?([A-Za-z_$][\w$]*)`?\s*")
_VERSION_IN_QUERY = re.compile(r"(?:\b[Vv](?:ersion ?)?|\b[A-Z][A-Za-z]+ )(\d{1,2})\b(?![.,]\d)")


def spelled_exactly(word: str) -> bool:
    """Whether a query's identifier is written in mixed case (`QuerySet`, `getUser`): then it
    names only a definition spelled the same, not `queryset` or `getuser`."""
    return bool(_MIXED_CASE.search(word))


def name_key(name: str) -> str:
    """How a query's identifier meets a definition's name: case and leading `_` / `$` aside,
    so `stringbool` finds `_stringbool` (a private implementation behind a public name)."""
    return name.lower().lstrip("_$") or name.lower()


@dataclass(frozen=True, slots=True)
class QueryFacts:
    """What the query itself says, read once per search."""

    named: Mapping[str, int] = field(default_factory=dict)
    """Identifiers the query spells out (by `name_key`), with how many chunks define each."""
    spellings: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """By `name_key`: the mixed-case spellings (`QuerySet`) that must match a name exactly."""
    version: str = ""
    """The version the query asks about ("4"), when the repository has a folder for it."""
    members: Mapping[str, str] = field(default_factory=dict)
    """Chunks defining an `owner.member` the query spells (chunk id -> the pair)."""
    quoting: Mapping[str, str] = field(default_factory=dict)
    """Chunks holding verbatim a text the query quotes (chunk id -> the text)."""
    pasted: Mapping[str, str] = field(default_factory=dict)
    """Chunks holding verbatim a run of a pasted error's message (chunk id -> the run)."""
    traced: Mapping[str, str] = field(default_factory=dict)
    """Chunks run by the innermost frames of a pasted stack trace (id -> "name in path")."""
    files: frozenset[str] = frozenset()
    """Repository files the query names by path, when it names at most NAMED_FILES_MOST."""
    type_files: Mapping[str, str] = field(default_factory=dict)
    """Files named after a type the query names and defining it (path -> the type)."""
    lookup: str = ""
    """By `name_key`: the name the query consists of alone (`looked_up`)."""


def looked_up(query: str) -> str:
    """The name a query consists of alone (`Flow`), or "": such a query looks a definition
    up, and a type's head is then the answer, not only the members that do its work."""
    match = _ONE_NAME.fullmatch(query)
    return match.group(1) if match and len(match.group(1)) >= 3 else ""


def capitalised(query: str) -> list[str]:
    """The query's words that start with a capital (`Channel`, `StateFlow`, `Op`): type names
    are written so, in a sentence's first word too."""
    return list(dict.fromkeys(_CAPITALISED.findall(query)))


def version_folder(path: str) -> str:
    """The version of the innermost `vN/` folder holding `path` ("" if none)."""
    for folder in reversed(path.split("/")[:-1]):
        match = _VERSION_FOLDER.fullmatch(folder.lower())
        if match:
            return match.group(1)
    return ""


def legacy_copy_of(path: str, indexed: Callable[[str], bool]) -> str:
    """The current file `path` is the legacy copy of: `path` without its innermost `vN/`
    folder, when that folder is version LEGACY_VERSION and the file is `indexed`; else ""."""
    parts = path.split("/")
    for at in range(len(parts) - 2, -1, -1):
        match = _VERSION_FOLDER.fullmatch(parts[at].lower())
        if match:
            current = "/".join(parts[:at] + parts[at + 1 :])
            return current if match.group(1) == LEGACY_VERSION and indexed(current) else ""
    return ""


def versions_asked(query: str) -> list[str]:
    """Version numbers a query names: "Zod 4", "v2", "version 3" (not "5.0" or "302")."""
    return _VERSION_IN_QUERY.findall(query)


@dataclass(frozen=True, slots=True)
class Candidate:
    """What the reranker reads about one chunk."""

    chunk_id: str
    path: str
    kind: str
    language: str
    line_count: int
    is_test: bool
    is_prose: bool
    is_style: bool = False  # a stylesheet (CSS, Sass, Less)
    is_example: bool = False  # under examples/, samples/, benchmarks/
    is_generated: bool = False  # its file's first lines say a tool wrote it
    is_preview: bool = False  # a UI preview (`@Preview`, `PreviewProvider`): paths.ui_preview
    thin: str = ""  # WRAPPER, ACCESSOR or EMPTY (app.parse.thin), "" otherwise
    name: str = ""  # the chunk's symbol name by `name_key` ("" for glue and text windows)
    split: bool = False  # the head of a definition whose members have chunks of their own
    symbol: str = ""  # the name as written, leading `_` / `$` aside ("QuerySet")
    # The newer file this one is an older version of: its legacy `v1/` copy (legacy_copy_of)
    # or a copy in an older sibling version folder (app.search.versions).
    current: str = ""
    translates: str = ""  # the file this one translates (app.search.translations), or ""


def signals_for(candidate: Candidate, facts: QueryFacts | None = None) -> list[Signal]:
    facts = facts or QueryFacts()
    found: list[Signal] = []
    definitions = facts.named.get(candidate.name, 0) if candidate.name else 0
    spellings = facts.spellings.get(candidate.name)
    if spellings and candidate.symbol not in spellings:
        definitions = 0  # `QuerySet` asked for, `queryset` defined here
    member = facts.members.get(candidate.chunk_id)
    if member:
        reason = f"the query names `{member}`, defined here"
        found.append(_exact_name(candidate, reason, facts))
    elif definitions:
        reason = f"the query names `{candidate.name}` ({definitions} definition(s) by that name)"
        found.append(_exact_name(candidate, reason, facts, definitions))
    frame = facts.traced.get(candidate.chunk_id)
    if frame:
        reason = f"the stack trace's innermost frames ran `{frame}`"
        found.append(Signal("traceback", TRACEBACK_FACTOR, reason))
    if candidate.path in facts.files:
        reason = f"the query names its file, {candidate.path}"
        found.append(Signal("named-file", NAMED_FILE_FACTOR, reason))
    if typed := facts.type_files.get(candidate.path):
        reason = f"the query names `{typed}`; this file is named after it and defines it"
        found.append(Signal("type-file", TYPE_FILE_FACTOR, reason))
    pasted = facts.pasted.get(candidate.chunk_id)
    quoted = facts.quoting.get(candidate.chunk_id)
    if pasted:  # the stronger of the two, when a pasted error quotes its message
        reason = f"its code holds the pasted error's `{pasted}`"
        found.append(Signal("pasted-error", PASTED_ERROR_FACTOR, reason))
    elif quoted:
        found.append(Signal("quoted", QUOTED_FACTOR, f"its code holds the quoted `{quoted}`"))
    if facts.version:
        folder = version_folder(candidate.path)
        if folder and folder != facts.version:
            reason = f"the query asks about version {facts.version}; this is under v{folder}/"
            found.append(Signal("other-version", OTHER_VERSION_FACTOR, reason))
    elif candidate.current:
        reason = f"an older version of {candidate.current}; no version asked"
        found.append(Signal("other-version", OTHER_VERSION_FACTOR, reason))
    if candidate.translates:
        reason = f"a translation of {candidate.translates}"
        found.append(Signal("translation", TRANSLATION_FACTOR, reason))
    if candidate.is_test:
        found.append(Signal("test", TEST_FACTOR, "chunk is test code"))
    if candidate.is_example:
        found.append(Signal("example", EXAMPLE_FACTOR, "chunk is example or benchmark code"))
    if candidate.is_preview:
        found.append(Signal("preview", PREVIEW_FACTOR, _PREVIEW_REASON))
    if candidate.is_generated:
        found.append(Signal("generated", GENERATED_FACTOR, _GENERATED_REASON))
    if candidate.is_prose:
        found.append(Signal("prose", PROSE_FACTOR, "chunk is documentation, not code"))
    if candidate.is_style:
        found.append(Signal("stylesheet", STYLE_FACTOR, "chunk is a stylesheet, not code"))
    if candidate.kind in _GLUE_REASONS:
        found.append(Signal("glue", GLUE_FACTOR, _GLUE_REASONS[candidate.kind]))
    if candidate.thin in _THIN_REASONS:
        found.append(Signal(candidate.thin, THIN_FACTOR, _THIN_REASONS[candidate.thin]))
    looked_up = bool(facts.lookup) and facts.lookup == candidate.name
    if candidate.split and candidate.kind in HEAD_KINDS and not looked_up:
        found.append(Signal("split-head", SPLIT_HEAD_FACTOR, _SPLIT_HEAD_REASON))
    if candidate.kind in DECLARATION_KINDS:
        found.append(Signal("declaration", DECLARATION_FACTOR, f"a {candidate.kind} declaration"))
    if candidate.line_count <= 2:
        found.append(Signal("tiny", TINY_FACTOR, f"only {candidate.line_count} line(s)"))
    return found


_SPLIT_HEAD_REASON = "a type's head: its members have chunks of their own"


def _exact_name(
    candidate: Candidate, reason: str, facts: QueryFacts, definitions: int = 1
) -> Signal:
    looked_up = bool(facts.lookup) and facts.lookup == candidate.name
    if candidate.split and candidate.kind in HEAD_KINDS and not looked_up:
        # `DigestAuth` or `Timeout(...)` names a class cut into a head and its members: the
        # head lists fields, and what the question asks about happens in the members.
        reason = f"{reason}; no boost: its members have chunks of their own"
        return Signal("exact-name", 1.0, reason)
    if candidate.thin and not looked_up:
        # `z.nan()` names a wrapper and `StrictSlash(true)` a setter; the question is about
        # the code that does the work, which the boost would bury under the name.
        reason = f"{reason}; no boost: {_THIN_REASONS[candidate.thin]}"
        return Signal("exact-name", 1.0, reason)
    if definitions > COMMON_NAME_MOST:
        factor = 1 + (EXACT_NAME_FACTOR - 1) * COMMON_NAME_MOST / definitions
        return Signal("exact-name", factor, f"{reason}; a common name: x{factor:.2f}")
    return Signal("exact-name", EXACT_NAME_FACTOR, reason)


def apply(score: float, signals: list[Signal]) -> float:
    for signal in signals:
        score *= signal.factor
    return score
