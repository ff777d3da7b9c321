"""`callers`, `callees`, `hotspots` and `symbols`: the call graph from the command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from app.cli.common import EXIT_ERROR, count, ready_service
from app.contracts import calls_json, json_text
from app.core.literal import literal
from app.core.models import calls_not_read_note, no_hotspots_note

TIER_CHOICES = ("certain", "probable", "uncertain")


def _graph_errors(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def wrapped(args: argparse.Namespace) -> int:
        from app.graph.navigate import GraphError

        try:
            return run(args)
        except GraphError as error:
            print(f"repolens-tui: error: {literal(str(error))}", file=sys.stderr)
            return EXIT_ERROR

    return wrapped


def _calls(args: argparse.Namespace, direction: str) -> int:
    service = ready_service(args, with_vectors=False)
    ask = getattr(service, direction)
    answer = ask(args.symbol, args.min_tier, include_tests=not args.no_tests)
    if args.json:
        print(json_text(calls_json(answer, direction)))
        return 0
    print(f"{direction} of {literal(answer.symbol)} ({literal(answer.path)})")
    for tier, entries in answer.by_tier().items():
        if not entries:
            continue
        print(f"  {tier} ({len(entries)})")
        for e in entries:
            where = f"{literal(e.call_path)}:{e.line}"
            mark = "  [test]" if e.test else ""
            rule = literal(e.rule)  # a dispatched entry's names a symbol of the repository
            print(f"    {literal(e.symbol):<40} {where:<36} {e.confidence:.2f} {rule}{mark}")
    if not answer.entries and answer.calls_not_read:
        print(f"  {calls_not_read_note(answer.calls_not_read)}")
    elif not answer.entries:
        print("  none found at or above the tier asked for")
    if answer.hidden_tests:
        print(f"  {answer.hidden_tests} more in test code, left out by --no-tests")
    if answer.unresolved:
        label = "calls of the same name left unresolved" if direction == "callers" else "unresolved"
        print(f"  {label} ({len(answer.unresolved)})")
        for u in answer.unresolved[:20]:
            callee, path = literal(u["callee"]), literal(u["path"])
            print(f"    {callee:<40} {path}:{u['line']}  {literal(u['reason'])}")
    return 0


def cmd_callers(args: argparse.Namespace) -> int:
    return _calls(args, "callers")


def cmd_callees(args: argparse.Namespace) -> int:
    return _calls(args, "callees")


def cmd_hotspots(args: argparse.Namespace) -> int:
    service = ready_service(args, with_vectors=False)
    graph = service.graph()
    rows = graph.hotspots(args.n, include_tests=args.tests, min_tier=args.min_tier)
    if args.json:
        print(json_text({"hotspots": rows, "calls_not_read": graph.calls_not_read}))
        return 0
    if not rows:
        print(no_hotspots_note(graph.calls_not_read))
        return 0
    for rank, r in enumerate(rows, 1):
        where = f"{literal(r['path'])}:{r['start_line']}"
        print(
            f"{rank:>3}. {literal(r['symbol']):<44} {where:<40} "
            f"in {r['fan_in']:>3} out {r['fan_out']:>3} pagerank {r['pagerank']:.5f}"
        )
    if graph.calls_not_read:
        print(f"not ranked: {', '.join(graph.calls_not_read)} definitions (calls not read)")
    return 0


def cmd_symbols(args: argparse.Namespace) -> int:
    service = ready_service(args, with_vectors=False)
    rows = service.symbol(args.query, args.n)
    if args.json:
        print(json_text({"query": args.query, "symbols": rows}))
        return 0
    if not rows:
        print(f"no definitions match {literal(args.query)!r}")
    for r in rows:
        symbol, kind, path = literal(r["symbol"]), literal(r["kind"]), literal(r["path"])
        print(f"{r['score']:>5.1f}  {symbol:<48} {kind:<9} {path}:{r['start_line']}")
    return 0


def add_parsers(sub: Any, common: Any) -> None:
    for name, run, helptext in (
        ("callers", cmd_callers, "who calls a symbol, by confidence tier, with the call lines"),
        ("callees", cmd_callees, "what a symbol calls, by confidence tier, and what is unresolved"),
    ):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("path")
        p.add_argument("symbol", help="name, Class.method, qualified name or path::qualified")
        p.add_argument("--min-tier", choices=TIER_CHOICES, default="uncertain")
        p.add_argument(
            "--no-tests", action="store_true", help="leave out test code (default: kept, marked)"
        )
        p.add_argument("--json", action="store_true", help="one JSON object on stdout")
        common(p)
        p.set_defaults(run=_graph_errors(run))

    p = sub.add_parser(
        "hotspots", help="the definitions that carry the code (PageRank x length x callees)"
    )
    p.add_argument("path")
    p.add_argument("-n", type=count, default=20, help="how many (default 20)")
    p.add_argument("--tests", action="store_true", help="include test files")
    p.add_argument("--min-tier", choices=TIER_CHOICES, default="probable",
                   help="rank over edges of this tier and above (default probable)")  # fmt: skip
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=_graph_errors(cmd_hotspots))

    p = sub.add_parser("symbols", help="definitions whose name fuzzily matches a query")
    p.add_argument("path")
    p.add_argument("query")
    p.add_argument("-n", type=count, default=20, help="how many (default 20)")
    p.add_argument("--min-tier", choices=TIER_CHOICES, default="uncertain",
                   help="accepted for symmetry; fan-in/out shown are over all tiers")  # fmt: skip
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(run=_graph_errors(cmd_symbols))
