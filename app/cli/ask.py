"""`repolens-tui ask PATH QUESTION`: the brief of the top hits at once (stderr), a streamed
answer, then its cited chunks and timings (or one JSON object)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.answer.brief import brief
from app.answer.shown import settled
from app.cli.common import count, printable, ready_service
from app.contracts import answer_json, json_text
from app.core.literal import literal
from app.core.models import Hit

if TYPE_CHECKING:
    from app.answer.engine import Answer


def cmd_ask(args: argparse.Namespace) -> int:
    service = ready_service(args)
    printed = [""]

    def stream(shown: str) -> None:
        # A terminal cannot take words back: each sentence is printed once it has passed the
        # checks the answer pane applies, so a sentence later left out is never printed.
        done = settled(shown)
        if done.startswith(printed[0]) and len(done) > len(printed[0]):
            sys.stdout.write(printable(done[len(printed[0]) :]))
            sys.stdout.flush()
            printed[0] = done

    def show_brief(hits: list[Hit]) -> None:
        # What the answer will read, at once on stderr (stdout stays the answer): the model
        # takes seconds to load and to read its prompt.
        print(f"{brief_text(hits)}\n", file=sys.stderr, flush=True)

    answer = service.ask(
        args.question,
        on_context=None if args.json or args.quiet else show_brief,
        on_shown=None if args.json else stream,
        budget_tokens=args.budget,
        max_tokens=args.max_tokens,
        model_file=args.model_file,
    )
    if args.json:
        print(json_text(answer_json(answer)))
        return 0
    print(printable(_rest(answer.text, printed[0])))
    if answer.question_cut:
        print("(the question was shortened to its first 1,000 characters)", file=sys.stderr)
    if answer.citations:
        print("\ncited:")
    for c in answer.citations:
        where = (
            f"{literal(c.path)}:{c.start_line}-{c.end_line}  {literal(c.symbol)}"
            if c.valid
            else "not given"
        )
        print(f"  [{c.n}] {where}" + ("" if c.valid else "  (invalid citation)"))
    if not answer.grounded and not answer.abstained:
        print("\n(ungrounded: the answer cites none of the excerpts it was given)")
    for check in answer.dropped:
        print(f"\n(left out, unsupported: {printable(check.text)} -> {printable(check.problem)})")
    for check in answer.unsupported:
        print(f"\n(unsupported: {printable(check.text)} -> {printable(check.problem)})")
    if answer.degenerate:
        print(f"\n(stopped: the answer {printable('; '.join(answer.degenerate))})")
    print(_timing_line(answer), file=sys.stderr)
    return 0


def brief_text(hits: list[Hit]) -> str:
    """The brief of the top hits as lines of text: `[n]`, symbol, path:line, doc sentence."""
    lines = ["top hits (the answer follows):"]
    for entry in brief(hits):
        said = entry.summary or entry.signature
        summary = f"  {literal(said)}" if said else ""
        lines.append(
            f"  [{entry.n}] {literal(entry.symbol)}  {literal(entry.path)}:{entry.line}{summary}"
        )
    return "\n".join(lines)


def _rest(text: str, printed: str) -> str:
    """What is left to print of the answer's final text after `printed` streamed: the rest, or
    the whole text on a line of its own when it does not go on from what was printed (a
    sentence about a bare signature is held back while streaming, then kept and flagged)."""
    if printed and text.startswith(printed):
        return text[len(printed) :]
    return f"\n{text}" if printed else text


def _timing_line(answer: Answer) -> str:
    t = answer.timings_ms
    parts = [f"retrieve {t.get('retrieve', 0):.0f} ms"]
    if "first_token" in t:
        parts.append(f"first token {t['first_token'] / 1000:.2f} s")
    if answer.tokens:
        parts.append(f"{answer.tokens} tokens at {answer.tokens_per_s:.1f} tokens/s")
    parts.append(f"{len(answer.context)} excerpts, {answer.prompt_tokens} prompt tokens")
    return "(" + ", ".join(parts) + ")"


def add_parsers(sub: Any, common: Any) -> None:
    p = sub.add_parser("ask", help="a short answer from the local model, citing the ranked chunks")
    p.add_argument("path")
    p.add_argument("question")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument(
        "--budget",
        type=count,
        default=None,
        help="token budget of the excerpts (default: the answer_budget_tokens setting)",
    )
    p.add_argument("--max-tokens", type=count, default=None, help="longest answer (default 256)")
    p.add_argument(
        "--model-file", type=Path, help="a local GGUF answer model (REPOLENS_ANSWER_MODEL)"
    )
    common(p)
    p.set_defaults(run=cmd_ask)
