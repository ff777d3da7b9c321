"""Line-level chunking helpers: windows, document sections, glue and part splitting."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.core.models import Chunk
from app.indexer.headings import HEADINGS, Heading
from app.parse.text import SIGNATURE_CHARS, collapse

_TRIVIAL_CHARS = frozenset(")]}(;, \t")
_TRIVIAL_WORDS = frozenset({"end", "fi", "done", "esac"})


def line_count(lines: Sequence[str]) -> int:
    """Number of real lines: a trailing newline does not start another one."""
    n = len(lines)
    return n - 1 if n > 1 and lines[-1] == "" else (0 if n == 1 and lines[0] == "" else n)


def is_trivial(line: str) -> bool:
    """A closing-only line (`}`, `});`, `end`): not worth a chunk of its own."""
    stripped = line.strip()
    return stripped.rstrip(";") in _TRIVIAL_WORDS or set(stripped) <= _TRIVIAL_CHARS


def text_breaks(lines: Sequence[str], lo: int, hi: int) -> dict[int, int]:
    """Cut points for plain lines: after a blank line (best) or at an unindented line."""
    breaks: dict[int, int] = {}
    for line in range(lo + 1, hi + 1):
        text = lines[line - 1]
        if not text.strip():
            continue
        if not lines[line - 2].strip():
            breaks[line] = 0
        elif not text[:1].isspace():
            breaks[line] = 1
    return breaks


def split_range(
    start: int, end: int, limit: int, breaks: Mapping[int, int], lines: Sequence[str]
) -> list[tuple[int, int]]:
    """Cut start..end into parts of at most `limit` lines, preferring the shallowest break
    in the second half of each part (the furthest one among equals); blank edges are trimmed."""
    limit = max(1, limit)
    parts: list[tuple[int, int]] = []
    while end - start + 1 > limit:
        best, best_depth = 0, 1 << 30
        for line in range(start + max(1, limit // 2), start + limit + 1):
            depth = breaks.get(line)
            if depth is not None and depth <= best_depth:
                best, best_depth = line, depth
        cut = best or start + limit
        last = cut - 1
        while last > start and not lines[last - 1].strip():
            last -= 1
        parts.append((start, last))
        start = cut
        while start < end and not lines[start - 1].strip():
            start += 1
    parts.append((start, end))
    return parts


def trim_blank(lines: Sequence[str], lo: int, hi: int) -> tuple[int, int]:
    """lo..hi without blank lines at either end (lo > hi when all blank)."""
    while lo <= hi and not lines[lo - 1].strip():
        lo += 1
    while hi >= lo and not lines[hi - 1].strip():
        hi -= 1
    return lo, hi


def make_chunk(
    path: str,
    language: str,
    kind: str,
    lines: Sequence[str],
    start: int,
    end: int,
    *,
    symbol: str = "",
    qualified_name: str = "",
    parent: str = "",
    signature: str = "",
    doc: str = "",
    part: int = 1,
    parts: int = 1,
    thin: str = "",
) -> Chunk:
    """A Chunk over lines start..end (1-based, inclusive)."""
    return Chunk(
        path=path,
        language=language,
        kind=kind,
        symbol=symbol,
        qualified_name=qualified_name,
        parent=parent,
        start_line=start,
        end_line=end,
        signature=signature,
        doc=doc,
        text="\n".join(lines[start - 1 : end]),
        part=part,
        parts=parts,
        thin=thin,
    )


def window_chunks(
    path: str, language: str, lines: Sequence[str], window_lines: int, window_overlap: int
) -> list[Chunk]:
    """Overlapping windows of `window_lines` lines; blank-only windows are dropped."""
    n = line_count(lines)
    size = max(1, window_lines)
    step = max(1, size - max(0, window_overlap))
    chunks: list[Chunk] = []
    start = 1
    while start <= n:
        end = min(n, start + size - 1)
        lo, hi = trim_blank(lines, start, end)
        if lo <= hi:
            chunks.append(make_chunk(path, language, "window", lines, lo, hi))
        if end >= n:
            break
        start += step
    return chunks


def section_chunks(
    path: str, language: str, lines: Sequence[str], max_chunk_lines: int, window_lines: int
) -> list[Chunk]:
    """One chunk per heading and its text (`language` names the document format, one of
    app.indexer.headings.HEADINGS); `parent` is the enclosing heading's path."""
    n = line_count(lines)
    heads = HEADINGS[language](lines, n)
    starts = heads if heads and heads[0].line == 1 else [Heading(1, 0, "", 1), *heads]
    chunks: list[Chunk] = []
    stack: list[tuple[int, str]] = []  # (level, qualified path) of the open headings
    for i, head in enumerate(starts):
        line, level, title = head.line, head.level, head.title
        end = starts[i + 1].line - 1 if i + 1 < len(starts) else n
        if level:
            while stack and stack[-1][0] >= level:
                stack.pop()
            parent = stack[-1][1] if stack else ""
            qualified = f"{parent} > {title}" if parent else title
            stack.append((level, qualified))
        else:
            parent = qualified = ""
        lo, hi = trim_blank(lines, line, end)
        if lo > hi:
            continue
        signature = collapse(lines[head.shown - 1], SIGNATURE_CHARS) if level else ""
        if hi - lo + 1 > max_chunk_lines:
            ranges = split_range(lo, hi, window_lines, text_breaks(lines, lo, hi), lines)
        else:
            ranges = [(lo, hi)]
        for part, (a, b) in enumerate(ranges, 1):
            chunks.append(
                make_chunk(
                    path,
                    language,
                    "section",
                    lines,
                    a,
                    b,
                    symbol=title,
                    qualified_name=qualified,
                    parent=parent,
                    signature=signature,
                    part=part,
                    parts=len(ranges),
                )  # fmt: skip
            )
    return chunks
