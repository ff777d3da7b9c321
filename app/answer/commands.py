"""`repolens-tui ask`: a streamed answer, then its cited chunks and timings (or one JSON object)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Model output is shown, never run; terminal control sequences in it are dropped.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    return _CONTROL.sub("", text)


def add_ask_parser(
    sub: Any, common: Callable[[argparse.ArgumentParser], None]
) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "ask", help="a short answer from the local model, citing the ranked chunks"
    )
    p.add_argument("path")
    p.add_argument("question")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument(
        "--budget", type=int, default=None, help="token budget of the excerpts (default 600)"
    )
    p.add_argument("--max-tokens", type=int, default=None, help="longest answer (default 256)")
    p.add_argument(
        "--model-file", type=Path, help="a local GGUF answer model (REPOLENS_ANSWER_MODEL)"
    )
    common(p)
    p.set_defaults(run=cmd_ask)
    return p


def answer_json(answer: Any) -> dict[str, Any]:
    from app.cli import _hit_json

    return {
        "answer": answer.text,
        "citations": [c.as_dict() for c in answer.citations],
        "context": [_hit_json(hit, False) for hit in answer.context],
        "grounded": answer.grounded,
        "timings_ms": answer.timings_ms,
    }


def cmd_ask(args: argparse.Namespace) -> int:
    from app.cli import _service, index_if_needed

    service = _service(args)
    index_if_needed(service, args.quiet)

    def stream(piece: str) -> None:
        sys.stdout.write(printable(piece))
        sys.stdout.flush()

    answer = service.ask(
        args.question,
        on_token=None if args.json else stream,
        budget_tokens=args.budget,
        max_tokens=args.max_tokens,
        model_file=args.model_file,
    )
    if args.json:
        print(json.dumps(answer_json(answer), indent=2, ensure_ascii=False))
        return 0
    if answer.finish == "no-context":
        print(answer.text)
    else:
        print()
    if answer.question_cut:
        print("(the question was shortened to its first 1,000 characters)", file=sys.stderr)
    if answer.citations:
        print("\ncited:")
    for c in answer.citations:
        where = f"{c.path}:{c.start_line}-{c.end_line}  {c.symbol}" if c.valid else "not given"
        print(f"  [{c.n}] {where}" + ("" if c.valid else "  (invalid citation)"))
    if answer.finish != "no-context" and not answer.grounded:
        print("\n(ungrounded: the answer cites none of the excerpts it was given)")
    print(_timing_line(answer), file=sys.stderr)
    return 0


def _timing_line(answer: Any) -> str:
    t = answer.timings_ms
    parts = [f"retrieve {t.get('retrieve', 0):.0f} ms"]
    if "first_token" in t:
        parts.append(f"first token {t['first_token'] / 1000:.2f} s")
    if answer.tokens:
        parts.append(f"{answer.tokens} tokens at {answer.tokens_per_s:.1f} tokens/s")
    parts.append(f"{len(answer.context)} excerpts, {answer.prompt_tokens} prompt tokens")
    return "(" + ", ".join(parts) + ")"
