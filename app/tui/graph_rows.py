"""Turns the call graph's answers (dicts, CallsAnswer) into the core models widgets show."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.core.models import CallLink, SymbolRef
from app.graph.dispatch import is_dispatch

# What a graph view says while the first index run has not resolved the calls yet.
GRAPH_BUILDING = "Call graph: building… it shows here once ready (search works meanwhile)."


def graphs_published(app: object) -> int:
    """How many call graphs the app has heard published (RepolensApp.graph_updates): a view
    told "building" by a load that began before the latest one loads again at once."""
    return int(getattr(app, "graph_updates", 0))


def symbol_ref(row: dict[str, Any]) -> SymbolRef:
    return SymbolRef(row["symbol"], row["kind"], row["path"], row["start_line"], row["end_line"])


def call_links(answer: Any, side: str, kind_of: Callable[[str], str]) -> list[CallLink]:
    """`side` is "callers" or "callees"; `kind_of` maps a graph id to its definition's kind."""
    links = []
    for entry in answer.entries:
        sid = SymbolRef(entry.symbol, "", entry.path, 0, 0).graph_id
        target = SymbolRef(entry.symbol, kind_of(sid), entry.path, entry.start_line, entry.end_line)
        # A dispatch's rule says how the call reaches it (`through IOrderService.Create`, an
        # `implementation` the declared method may run): the preview's caption tells it.
        how = entry.rule if is_dispatch(entry.rule) else ""
        links.append(
            CallLink(target, entry.symbol, entry.tier, entry.call_path, entry.line, how, entry.test)
        )
    for loose in answer.unresolved:
        name = loose["caller"] if side == "callers" else loose["callee"]
        reason = str(loose.get("reason") or "")
        test = bool(loose.get("test"))
        links.append(
            CallLink(None, name, "unresolved", loose["path"], loose["line"], reason, test=test)
        )
    return links
