"""Cut a file into declaration-level chunks (tree-sitter), Markdown sections or line windows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.core.models import DEFINITION_KINDS, Chunk, ParsedFile, Symbol
from app.indexer.chunk_text import (
    is_trivial,
    line_count,
    make_chunk,
    section_chunks,
    split_range,
    text_breaks,
    trim_blank,
    window_chunks,
)
from app.parse import grammar_gaps
from app.parse.calls import extract
from app.parse.definitions import (
    CONTAINERS,
    Definition,
    Found,
    break_lines,
    docstring,
    find_definitions,
    line_starts,
    members_only,
    signature,
)
from app.parse.languages import (
    DATA_LANGUAGES,
    SECTION_LANGUAGES,
    has_definitions,
    language_for_text,
)
from app.parse.manifests import is_manifest, manifest_imports
from app.parse.scripts import (
    SCRIPT_KIND,
    SCRIPT_LANGUAGES,
    script_doc,
    script_signature,
    with_script,
)
from app.parse.text import clip_doc, strip_comment
from app.parse.thin import FUNCTION_KINDS, thinness

# A class this short stays one chunk (its methods are symbols only).
SMALL_CONTAINER_LINES = 40
# Comments that open a doc block: one blank line above a definition, it still documents it.
_DOC_OPENERS = ("/**", "-- |", "--|", "{-|", "{- |")
# A file parsed by tree-sitter whose call facts could not be read (a defect in their reading):
# it keeps its chunks, and `stats` names it, rather than losing its calls without a word.
CALLS_UNREAD = "tree-sitter, calls unread"
# Past these sizes a file is generated or minified: line windows, no parse.
MAX_PARSE_CHARS = 4_000_000
MAX_LINE_CHARS = 20_000


@dataclass(slots=True)
class _Piece:
    start: int
    end: int
    kind: str
    definition: Definition | None
    parent: str
    part: int = 1
    parts: int = 1


class _Layout:
    """Lays definitions out as non-overlapping pieces in line order; the gaps become glue."""

    def __init__(self, found: Found, lines: Sequence[str], max_lines: int, glue_lines: int):
        self.found = found
        self.lines = lines
        self.max_lines = max(1, max_lines)
        self.glue_lines = max(1, glue_lines)
        self.absorbable = found.comment_lines | found.attribute_lines
        self.pieces: list[_Piece] = []
        self.starts: dict[int, int] = {}  # id(definition) -> first line of its chunk

    def lead(self, d: Definition) -> int:
        """First line of a definition's chunk: comments and attributes right above it join."""
        line = d.lead_line
        while line > 1 and line - 1 in self.absorbable:
            line -= 1
        comments = self.found.comment_lines
        if line - 2 in comments and not self.lines[line - 2].strip():
            # A doc block one blank line above still documents it: `/** */` (Express style),
            # Haddock's `-- |` and `{-|` (Haskell's containers).
            top = line - 2
            while top - 1 in comments:
                top -= 1
            if self.lines[top - 1].lstrip().startswith(_DOC_OPENERS):
                line = top
        return line

    def level(self, items: list[Definition], lo: int, hi: int, owner: Definition | None) -> None:
        """Lays out `items` and the gaps between them. Inside a function the gaps are still
        the function's own code (or the script's); elsewhere they are glue."""
        own = owner is not None and (owner.kind in FUNCTION_KINDS or owner.kind == SCRIPT_KIND)
        gap = self.code if own else self.glue
        cursor = lo
        for d in items:
            start, end = max(self.lead(d), cursor), min(d.end_line, hi)
            if start > end:
                continue  # shares its lines with the previous definition: a symbol only
            gap(cursor, start - 1, owner)
            self.definition(d, start, end)
            cursor = end + 1
        gap(cursor, hi, owner)

    def definition(self, d: Definition, start: int, end: int) -> None:
        self.starts[id(d)] = start
        kids = d.children
        size = end - start + 1
        big = d.kind == "module" or size > SMALL_CONTAINER_LINES or members_only(d)
        # A function too long for one chunk that holds named functions (`trim_prefix` inside
        # Express's `proto.handle`): each of those gets a chunk of its own.
        long_function = d.kind in FUNCTION_KINDS and size > self.max_lines
        # A script's functions always have chunks of their own; its own lines make the rest.
        cut = (d.kind in CONTAINERS and big) or long_function or d.kind == SCRIPT_KIND
        if kids and cut:
            first = max(self.lead(kids[0]), start + 1)
            self.parts(d, start, first - 1)  # the head: signature, docstring, fields
            self.level(kids, first, end, d)
        else:
            self.parts(d, start, end)

    def code(self, lo: int, hi: int, owner: Definition | None) -> None:
        """A function's own lines between the functions it holds."""
        lo, hi = trim_blank(self.lines, lo, hi)
        if lo > hi or owner is None:
            return
        if self.pieces and all(is_trivial(self.lines[i - 1]) for i in range(lo, hi + 1)):
            self.pieces[-1].end = hi  # a closing `}` or `end` stays with what it closes
            return
        self.parts(owner, lo, hi)

    def parts(self, d: Definition, start: int, end: int) -> None:
        start, end = trim_blank(self.lines, start, end)
        if start > end:
            return
        if end - start + 1 > self.max_lines:
            breaks = break_lines(d.core, start, end, self.max_lines, self.found.comment_lines)
            ranges = split_range(start, end, self.max_lines, breaks, self.lines)
        else:
            ranges = [(start, end)]
        for i, (a, b) in enumerate(ranges, 1):
            self.pieces.append(_Piece(a, b, d.kind, d, d.parent, i, len(ranges)))

    def glue(self, lo: int, hi: int, owner: Definition | None) -> None:
        lo, hi = trim_blank(self.lines, lo, hi)
        if lo > hi:
            return
        attributes = self.found.attribute_lines
        if self.pieces and all(
            is_trivial(self.lines[i - 1]) or i in attributes for i in range(lo, hi + 1)
        ):
            # A closing `}` or `end` stays with what it closes; so does an attribute below
            # it that no definition follows (Haskell's `{-# INLINE f #-}` after `f`).
            self.pieces[-1].end = hi
            return
        breaks = text_breaks(self.lines, lo, hi)
        for a, b in split_range(lo, hi, self.glue_lines, breaks, self.lines):
            self.pieces.append(_Piece(a, b, "glue", None, owner.qualified if owner else ""))


def _leading_doc(lines: Sequence[str], first: int, lead: int, comments: set[int]) -> str:
    """The comment lines absorbed above a definition, without markers."""
    rows = [lines[i - 1] for i in range(first, lead) if i in comments]
    return clip_doc(strip_comment("\n".join(rows))) if rows else ""


def _tree_sitter(
    path: str, text: str, language: str, lines: Sequence[str], max_lines: int, glue_lines: int
) -> ParsedFile:
    written = text.encode("utf-8", "surrogatepass")
    tree, src = grammar_gaps.parse(language, written)  # same length, same lines
    starts = line_starts(src)
    found = find_definitions(language, tree.root_node, src, starts)
    if language in SCRIPT_LANGUAGES:
        found = with_script(found, tree.root_node, path, line_count(lines))
    layout = _Layout(found, lines, max_lines, glue_lines)
    layout.level(found.roots, 1, line_count(lines), None)
    skip = found.comment_lines | found.attribute_lines
    named: dict[int, tuple[str, str]] = {}  # id(definition) -> (signature, doc)
    chunks: list[Chunk] = []
    for p in layout.pieces:
        d = p.definition
        if d is None:
            glue = make_chunk(path, language, p.kind, lines, p.start, p.end, parent=p.parent)
            chunks.append(glue)
            continue
        if id(d) not in named and d.kind == SCRIPT_KIND:
            named[id(d)] = (script_signature(lines), script_doc(lines))
        if id(d) not in named:
            doc = docstring(d, language) or _leading_doc(
                lines, layout.starts.get(id(d), d.lead_line), d.lead_line, found.comment_lines
            )
            named[id(d)] = (signature(d, language, written, starts, skip), doc)  # as written
        sig, doc = named[id(d)]
        chunks.append(
            make_chunk(
                path,
                language,
                p.kind,
                lines,
                p.start,
                p.end,
                symbol=d.name,
                qualified_name=d.qualified,
                parent=p.parent,
                signature=sig,
                doc=doc,
                part=p.part,
                parts=p.parts,
                thin=thinness(d) if p.parts == 1 else "",
            )  # fmt: skip
        )
    symbols: tuple[Symbol, ...] = ()
    if language not in DATA_LANGUAGES:
        symbols = tuple(
            Symbol(d.name, d.kind, d.qualified, path, d.core_line, d.end_line, d.parent, language)
            for d in found.definitions
        )
    # A file without definitions still matters: a barrel re-exports, a script calls.
    facts = _graph_facts(language, tree.root_node, found) if language not in DATA_LANGUAGES else ()
    imports, calls, bases, attributes = facts or ((), (), (), ())
    strategy = "tree-sitter" if facts is not None else CALLS_UNREAD
    return ParsedFile(
        path, language, tuple(chunks), symbols, strategy, imports, calls, bases, attributes
    )


def _graph_facts(language: str, root: Any, found: Found) -> tuple[Any, ...] | None:
    """Call-graph facts from the same tree; None when reading them failed, which must not
    cost the file its chunks."""
    try:
        return extract(language, root, found)
    except Exception:  # noqa: BLE001 - the file keeps its chunks; `stats` names it
        return None


def parse_file(
    path: str,
    text: str,
    language: str | None = None,
    *,
    max_chunk_lines: int = 120,
    window_lines: int = 60,
    window_overlap: int = 10,
) -> ParsedFile:
    """Chunk one file. Never raises: anything the parser cannot handle gets line windows."""
    lang = language or language_for_text(path, text) or "text"
    parsed = _parse(path, text, lang, max_chunk_lines, window_lines, window_overlap)
    if is_manifest(path):  # a package.json / tsconfig names the project's own modules
        return replace(parsed, imports=manifest_imports(path, text))
    return parsed


def _parse(
    path: str, text: str, lang: str, max_chunk_lines: int, window_lines: int, window_overlap: int
) -> ParsedFile:
    lines = text.split("\n")
    try:
        if lang in SECTION_LANGUAGES:
            chunks = section_chunks(path, lang, lines, max_chunk_lines, window_lines)
            return ParsedFile(path, lang, tuple(chunks), (), "sections")
        longest = max(map(len, lines))
        if has_definitions(lang) and len(text) <= MAX_PARSE_CHARS and longest <= MAX_LINE_CHARS:
            return _tree_sitter(path, text, lang, lines, max_chunk_lines, window_lines)
    except Exception:  # noqa: BLE001 - one odd file must not stop an index run
        pass
    chunks = window_chunks(path, lang, lines, window_lines, window_overlap)
    return ParsedFile(path, lang, tuple(chunks), (), "lines")


def coverage(parsed: ParsedFile, text: str) -> tuple[int, int]:
    """(non-blank lines inside definition chunks, non-blank lines) of one file."""
    ranges = [(c.start_line, c.end_line) for c in parsed.chunks if c.kind in DEFINITION_KINDS]
    return covered_lines(text, ranges)


def covered_lines(text: str, ranges: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """(non-blank lines inside any of the 1-based inclusive ranges, non-blank lines)."""
    covered: set[int] = set()
    for start, end in ranges:
        covered.update(range(start, end + 1))
    nonblank = [i for i, line in enumerate(text.split("\n"), 1) if line.strip()]
    return sum(1 for i in nonblank if i in covered), len(nonblank)
