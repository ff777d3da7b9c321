"""The TUI's search-as-you-type queue, without Textual: latest query wins, one at a time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.tui.search_flow import SearchFlow


def test_keys_typed_while_a_search_runs_leave_only_the_newest_query() -> None:
    flow = SearchFlow(max_query_chars=100)
    assert flow.typed("s")
    first = flow.next_request()
    assert first is not None and first.query == "s" and not first.superseded.is_set()
    for query in ("se", "set", "set a"):
        assert flow.typed(query)
        assert flow.next_request() is None  # one search at a time
    assert first.superseded.is_set()  # the running one may stop early
    assert not flow.is_current(first.generation)
    flow.done()
    latest = flow.next_request()
    assert latest is not None and latest.query == "set a" and flow.is_current(latest.generation)
    flow.done()
    assert flow.next_request() is None


def test_a_blank_query_searches_nothing_and_outdates_what_runs() -> None:
    flow = SearchFlow(max_query_chars=100)
    flow.typed("cookie")
    running = flow.next_request()
    assert running is not None
    assert not flow.typed("   ")
    flow.done()
    assert flow.next_request() is None and not flow.is_current(running.generation)


def test_a_refresh_waits_behind_a_newer_query_and_long_queries_are_cut() -> None:
    flow = SearchFlow(max_query_chars=5)
    flow.typed("retry backoff")
    flow.refresh("retry")  # the index changed, but a newer query is already waiting
    request = flow.next_request()
    assert request is not None and request.query == "retry"  # cut to 5 characters
    flow.done()
    flow.refresh("retry backoff")
    again = flow.next_request()
    assert again is not None and again.generation == request.generation  # same query, current


def test_the_flow_imports_no_textual() -> None:
    code = "import sys, app.tui.search_flow\nassert 'textual' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])
