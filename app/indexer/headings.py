"""Section headings of prose documents, each format by its own rules: Markdown (ATX and
setext), reStructuredText (under- and overlined titles), AsciiDoc (`==` titles) and Org
(`*` headlines). Code and literal blocks are skipped, so a `# comment` in a fence is no title."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# Headings longer than this are not headings (and a 1 MB line must not reach the regexes).
HEADING_CHARS = 1000

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# reStructuredText: a title's under- or overline repeats one punctuation character.
_RST_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}[ \t]*$")
# AsciiDoc: `= Title` .. `====== Title` (Markdown's `#` is accepted too); a delimited block
# (`----` listing, `....` literal, `++++` passthrough, `////` comment) holds no titles.
_ADOC_TITLE = re.compile(r"^(={1,6}|#{1,6})[ \t]+(\S.*?)[ \t]*$")
_ADOC_BLOCK = re.compile(r"^(-{4,}|\.{4,}|\+{4,}|/{4,}|`{3,})[ \t]*$")
_ORG_TITLE = re.compile(r"^(\*+)[ \t]+(\S.*?)[ \t]*$")
_ORG_BEGIN = re.compile(r"^[ \t]*#\+begin_(\w+)", re.IGNORECASE)
_ORG_END = re.compile(r"^[ \t]*#\+end_(\w+)", re.IGNORECASE)
# Markdown inside a title: a badge (an image inside a link), an image, a link (its text
# stays), an HTML tag (`<img alt="chi" src=...>`, `<a name="x"></a>`).
_TARGET = r"(?:\([^)]*\)|\[[^\]]*\])"
_BADGE = re.compile(rf"\[!\[[^\]]*\]{_TARGET}\]{_TARGET}")
_IMAGE = re.compile(rf"!\[([^\]]*)\]{_TARGET}")
_LINK = re.compile(rf"\[([^\]]+)\]{_TARGET}")
_TAG = re.compile(r"<[^>]*>")
_ALT = re.compile(r"""\balt=["']([^"']*)["']""")
_CODE_SPAN = re.compile(r"(`[^`]*`)")


@dataclass(frozen=True, slots=True)
class Heading:
    """A section's first line (1-based, an overline included), its depth (1 is the top),
    its title, and the line that shows it (the title's own)."""

    line: int
    level: int
    title: str
    shown: int


def _front_matter_end(lines: Sequence[str], n: int) -> int:
    """The index of the first line after a YAML front matter block (0 when there is none)."""
    if n and lines[0].strip() == "---":
        for i in range(1, n):
            if lines[i].strip() in ("---", "..."):
                return i + 1
    return 0


def plain_title(title: str) -> str:
    """A Markdown title as read: `Stateless [![Build](badge.svg)](ci)` -> "Stateless",
    `[Read the docs](https://x)` -> "Read the docs"; a title that is only an image reads as
    its alternative text."""
    parts = _CODE_SPAN.split(_LINK.sub(r"\1", _IMAGE.sub("", _BADGE.sub("", title))))
    for i in range(0, len(parts), 2):  # a code span (`Option<T>`) holds no tags
        parts[i] = _TAG.sub("", parts[i])
    plain = " ".join("".join(parts).split())
    if plain:
        return plain
    alt = _IMAGE.search(title) or _ALT.search(title)
    return " ".join(alt.group(1).split()) if alt else title


def markdown_headings(lines: Sequence[str], n: int) -> list[Heading]:
    """ATX (`## Title`) and setext (a line underlined by `===` or `---`) headings."""
    found: list[Heading] = []
    fence = ""
    first = _front_matter_end(lines, n)
    for i in range(first, n):
        line = lines[i]
        if len(line) > HEADING_CHARS:
            continue
        if fence:
            if line.strip().startswith(fence):
                fence = ""
            continue
        if m := _FENCE.match(line):
            fence = m.group(1)
            continue
        if m := _ATX.match(line):
            title = plain_title((m.group(2) or "").strip())
            found.append(Heading(i + 1, len(m.group(1)), title, i + 1))
        elif (
            i > first
            and _SETEXT.match(line)
            and lines[i - 1].strip()
            and not (found and found[-1].line == i)
            and not _FENCE.match(lines[i - 1])
        ):
            level = 1 if line.strip()[0] == "=" else 2
            found.append(Heading(i, level, plain_title(lines[i - 1].strip()), i))
    return found


def _rst_title(lines: Sequence[str], i: int, n: int) -> tuple[str, int] | None:
    """(adornment style, lines it spans) when lines[i] starts a title, else None: an
    unindented text line underlined by at least 3 of one punctuation character, or such a
    line between an over- and underline of the same run."""
    line = lines[i]
    over = _RST_ADORNMENT.match(line)
    if over and i + 2 < n:
        title, under = lines[i + 1], lines[i + 2]
        if title.strip() and not _RST_ADORNMENT.match(title) and under.rstrip() == line.rstrip():
            return "over" + over.group(1), 3
    if over or not line.strip() or line[:1].isspace() or i + 1 >= n:
        return None
    under_match = _RST_ADORNMENT.match(lines[i + 1])
    if under_match is None or len(lines[i + 1].rstrip()) < min(len(line.rstrip()), 4):
        return None
    if i > 0 and lines[i - 1].strip() and not _RST_ADORNMENT.match(lines[i - 1]):
        return None  # the last line of a paragraph followed by a transition-like line
    return under_match.group(1), 2


def rst_headings(lines: Sequence[str], n: int) -> list[Heading]:
    """reStructuredText section titles; depth follows the order in which each adornment
    style (its character, and whether it has an overline) first appears, as docutils does."""
    found: list[Heading] = []
    styles: list[str] = []
    i = 0
    while i < n:
        if len(lines[i]) > HEADING_CHARS or (title := _rst_title(lines, i, n)) is None:
            i += 1
            continue
        style, span = title
        if style not in styles:
            styles.append(style)
        shown = i + span - 1  # the title line: under an overline it is the middle one
        found.append(Heading(i + 1, styles.index(style) + 1, lines[shown - 1].strip(), shown))
        i += span
    return found


def _titles_outside_blocks(
    lines: Sequence[str],
    n: int,
    title: re.Pattern[str],
    opens: Callable[[str], str],
    closes: Callable[[str], str],
) -> list[Heading]:
    """Lines `title` matches (group 1: the marks that give the depth, group 2: the title),
    but inside a block: `opens(line)` names the block a line begins ("" for none), and the
    block ends at the line `closes` gives that name for."""
    found: list[Heading] = []
    block = ""
    for i in range(n):
        line = lines[i]
        if len(line) > HEADING_CHARS:
            continue
        if block:
            block = "" if closes(line) == block else block
            continue
        if block := opens(line):
            continue
        if m := title.match(line):
            found.append(Heading(i + 1, len(m.group(1)), m.group(2), i + 1))
    return found


def _adoc_block(line: str) -> str:
    return line.rstrip() if _ADOC_BLOCK.match(line) else ""  # closed by the same line


def _org_block(pattern: re.Pattern[str]) -> Callable[[str], str]:
    def name(line: str) -> str:
        m = pattern.match(line)
        return m.group(1).lower() if m else ""

    return name


def asciidoc_headings(lines: Sequence[str], n: int) -> list[Heading]:
    """AsciiDoc section titles (`= Document`, `== Section`, ...) outside delimited blocks."""
    return _titles_outside_blocks(lines, n, _ADOC_TITLE, _adoc_block, str.rstrip)


def org_headings(lines: Sequence[str], n: int) -> list[Heading]:
    """Org headlines (`* Title`, `** Subtitle`) outside `#+begin_...` blocks."""
    return _titles_outside_blocks(
        lines, n, _ORG_TITLE, _org_block(_ORG_BEGIN), _org_block(_ORG_END)
    )


HEADINGS: dict[str, Callable[[Sequence[str], int], list[Heading]]] = {
    "markdown": markdown_headings,
    "rst": rst_headings,
    "asciidoc": asciidoc_headings,
    "org": org_headings,
}
