"""The answer pane's Markdown: the brief of the top hits, and the answer's checked sentences
with each unsupported one flagged; repository text in code spans, shown literally."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.answer.brief import brief
from app.answer.engine import MODEL_FAILED, MODEL_LOADING, MODEL_READY
from app.core.models import Hit
from widgets.answer_pane import citation_link, markdown_code, markdown_literal
from widgets.fitted import elide_start

READING = "_Reading the excerpts…_"
UNSUPPORTED = "⚠ unsupported"
_MODEL_NOTES = {  # the answer model's state as the status line says it
    MODEL_LOADING: "answer model loading",
    MODEL_READY: "answer model ready",
    MODEL_FAILED: "answer model failed to load",
}


def model_note(state: str) -> str:
    """The status line's words for the answer model's state ("" while it is not loaded)."""
    return _MODEL_NOTES.get(state, "")


def _cut(text: str, width: int, separators: str) -> str:
    """`text` without its start when longer than `width` cells (0: whole), as in the lists."""
    return elide_start(text, width, separators) if width > 0 else text


def brief_markdown(hits: Sequence[Hit], numbered: bool, width: int = 0) -> str:
    """One item per top hit: `[n]` (once the excerpts are known), symbol and path:line, then
    the summary on a line of its own. A symbol or path longer than `width` cells (when not 0)
    loses its start, as in the lists."""

    def cut(text: str, separators: str) -> str:
        return _cut(text, width, separators)

    lines = ["**Top hits**" + ("" if numbered else " (the answer follows)")]
    for entry in brief(hits):
        number = f"{citation_link(entry.n)} " if numbered else ""
        summary = (
            f"\\\n  {markdown_literal(entry.summary)}" if entry.summary
            else f"\\\n  {markdown_code(entry.signature)}" if entry.signature
            else ""
        )  # fmt: skip
        lines.append(
            f"- {number}{markdown_code(cut(entry.symbol, '.:'))} "
            f"{markdown_code(cut(f'{entry.path}:{entry.line}', '/'))}{summary}"
        )
    return "\n".join(lines)


def citation_lines(citations: Sequence[Any], width: int = 0) -> list[str]:
    """One line per citation under the answer: `[n]`, path:lines, symbol; each longer than
    `width` cells (when not 0) loses its start, so that it wraps whole, never mid-name."""
    return [
        (citation_link(c.n) if c.valid else f"\\[{c.n}\\]")
        + f" {markdown_code(_cut(f'{c.path}:{c.start_line}-{c.end_line}', width, '/'))}"
        f" {markdown_code(_cut(c.symbol, width, '.:'))}"
        + ("" if c.valid else " (not an excerpt it was given)")
        for c in citations
    ]


def progress_markdown(done: int, total: int) -> str:
    return f"_Reading the excerpts: {done} of {total} tokens…_"


def answer_body(answer: Any) -> tuple[str, list[str]]:
    """The answer as its checked sentences, each unsupported one flagged with why; and the
    notes under it. An answer with a code block is shown as written (its sentences would
    lose the block)."""
    checks = list(answer.sentences)
    unsupported = [c for c in checks if not c.supported]
    notes = []
    if answer.degenerate:
        notes.append(f"**Stopped:** the answer {'; '.join(answer.degenerate)}.")
    if unsupported:
        notes.append(
            f"**{len(unsupported)} of {len(checks)} sentences unsupported** ({UNSUPPORTED}): "
            "no citation, or the excerpt they cite does not hold what they name or say."
        )
    for check in answer.dropped:
        notes.append(f"**Left out, unsupported:** {check.text} ({_reason(check.problem)})")
    if "```" in answer.text or not checks:
        return answer.text, notes
    body = " ".join(
        c.text if c.supported else f"{c.text} **{UNSUPPORTED}:** {_reason(c.problem)}"
        for c in checks
    )
    return body, notes


def _reason(problem: str) -> str:
    return problem.replace("[", "\\[").replace("]", "\\]")
