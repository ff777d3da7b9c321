"""`repolens-tui search PATH QUESTION`: ranked chunks packed into a token budget."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from app.cli.common import EXIT_OK, count, explain_lines, ready_service
from app.contracts import json_text, search_json
from app.core.literal import literal


def cmd_search(args: argparse.Namespace) -> int:
    service = ready_service(args)
    result = service.search(args.query, k=args.k, budget_tokens=args.budget)
    if args.json:
        print(json_text(search_json(result, args.explain)))
        return EXIT_OK
    if not result.hits:
        print("no results")
    for rank, hit in enumerate(result.hits, 1):
        name = literal(hit.qualified_name or hit.symbol or hit.kind)
        print(
            f"{rank:>2}. {literal(hit.path)}:{hit.start_line}-{hit.end_line}  {name}  [{hit.kind}]"
            f"  {hit.score:.4f}"
            + ("  (signature only)" if hit.packed == "signature" else "")
            + ("  (file changed since indexed)" if hit.stale else "")
        )
        if args.explain:
            print(explain_lines(hit))
        if args.show_text:
            for line in hit.text.split("\n"):
                print("      " + literal(line, multiline=True))
    timings = ", ".join(f"{k} {v:.1f}" for k, v in result.timings_ms.items())
    note = "" if result.vectors_ready >= 1 else f", vectors {result.vectors_ready:.0%} ready"
    print(f"({timings} ms{note})", file=sys.stderr)
    return EXIT_OK


def add_parsers(sub: Any, common: Any) -> None:
    p = sub.add_parser("search", help="ranked code chunks for a question")
    p.add_argument("path")
    p.add_argument("query")
    p.add_argument("-k", type=count, default=None, help="at most this many hits (default 10)")
    p.add_argument("--budget", type=count, default=None, help="token budget (default 1000)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--explain", action="store_true", help="show why each hit ranks where it does")
    p.add_argument("--show-text", action="store_true", help="print each hit's packed text")
    common(p)
    p.set_defaults(run=cmd_search)
