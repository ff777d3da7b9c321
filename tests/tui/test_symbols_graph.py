"""The symbol browser and the call-graph navigator, driven with Pilot over the sample repo."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from app.core.models import CallLink, SymbolRef
from app.core.settings import Settings
from app.service import Service
from app.tui.app import RepolensApp
from app.tui.graph_screen import GraphScreen
from app.tui.messages import CallsLoaded, SymbolOpened
from app.tui.symbol_screen import SymbolScreen
from tests.tui.conftest import searched, wait_for
from widgets.call_list import CallList, call_prompt
from widgets.code_preview import CodePreview
from widgets.symbol_list import SymbolList, symbol_prompt


def _screen(app: RepolensApp) -> str:
    """The screen's rows as the compositor draws them."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def _names(calls: CallList) -> list[str]:
    return [row.name for row in calls.rows if row is not None and row.target is not None]


async def test_browse_open_walk_back_and_forward(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    seen: list[object] = []
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(140, 40), message_hook=seen.append) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press("ctrl+o")
        assert isinstance(app.screen, SymbolScreen)
        found = app.screen.query_one("#symbol-list", SymbolList)
        # Before a name is typed the list holds the hotspots, and says so on screen.
        await wait_for(pilot, lambda: bool(found.symbols))
        await wait_for(pilot, lambda: "the 6 most central; type to find any" in _screen(app))
        assert "the 6 most central; type to find any" in _screen(app), _screen(app)
        await pilot.press(*"RetryPolicy.wait")
        await wait_for(
            pilot, lambda: bool(found.symbols) and found.symbols[0].symbol == "RetryPolicy.wait"
        )
        await wait_for(pilot, lambda: " shown ─" in _screen(app))
        assert " shown ─" in _screen(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GraphScreen))
        assert any(isinstance(m, SymbolOpened) for m in seen)
        graph = app.screen
        assert isinstance(graph, GraphScreen)
        callees = graph.query_one("#callees", CallList)
        await wait_for(pilot, lambda: "retry_backoff" in _names(callees))
        title = graph.query_one("#graph-title", Static)
        assert "step" not in title.content.plain  # type: ignore[union-attr]  # no walk yet
        preview = app.query_one("#preview", CodePreview)
        await wait_for(pilot, lambda: "retry.py" in str(preview.border_title))

        # Walk to the callee: its callers now include RetryPolicy.wait.
        callees.focus()
        callees.highlighted = next(
            i for i, row in enumerate(callees.rows) if row and row.name == "retry_backoff"
        )
        await pilot.press("enter")
        assert graph.current is not None and graph.current.symbol == "retry_backoff"
        walked = graph.current
        await wait_for(  # the preview (and f4 / ctrl+y) follow the walk
            pilot,
            lambda: app.shown is not None and app.shown[:2] == (walked.path, walked.start_line),
        )
        callers = graph.query_one("#callers", CallList)
        await wait_for(pilot, lambda: "RetryPolicy.wait" in _names(callers))
        assert "   step 2 of 2   " in title.content.plain  # type: ignore[union-attr]
        loaded = [m for m in seen if isinstance(m, CallsLoaded) and not m.error]
        assert {m.symbol.symbol for m in loaded if m.symbol} >= {
            "RetryPolicy.wait",
            "retry_backoff",
        }

        await pilot.press("backspace")
        assert graph.current is not None and graph.current.symbol == "RetryPolicy.wait"
        assert "   step 1 of 2   " in title.content.plain  # type: ignore[union-attr]
        await wait_for(pilot, lambda: "retry_backoff" in _names(callees))
        await pilot.press("alt+right")
        assert graph.current is not None and graph.current.symbol == "retry_backoff"
        await pilot.press("alt+left")
        assert graph.current is not None and graph.current.symbol == "RetryPolicy.wait"

        await pilot.press("escape")  # back to the symbol browser it was opened from
        assert isinstance(app.screen, SymbolScreen)
        await pilot.press("escape")
        assert app.screen is app.default_screen


async def test_escape_closes_the_browser_and_hotspots_start_a_walk(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press("ctrl+o")
        assert isinstance(app.screen, SymbolScreen)
        await pilot.press("escape")
        assert app.screen is app.default_screen

        await pilot.press("ctrl+h")
        graph = app.screen
        assert isinstance(graph, GraphScreen) and graph.current is None
        hotspots = graph.query_one("#hotspots", SymbolList)
        await wait_for(pilot, lambda: bool(hotspots.symbols))
        first = hotspots.symbols[0]
        await pilot.press("enter")
        assert graph.current == first
        await pilot.press("backspace")
        assert graph.current is None
        await pilot.press("escape")
        assert app.screen is app.default_screen


def test_names_render_literally() -> None:
    ref = SymbolRef("[bold]x", "function", "a.py", 3, 4)
    assert "[bold]x" in symbol_prompt(ref).plain
    link = CallLink(ref, "[red]y", "certain", "b.py", 9)
    assert "[red]y  b.py:9" in call_prompt(link).plain
    assert ref.graph_id == "a.py::[bold]x"


async def test_enter_on_a_hit_opens_its_call_graph_or_its_code(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    from app.core.models import DEFINITION_KINDS

    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(140, 40)) as pilot:
        hits = await searched(
            pilot,
            app,
            "exponential backoff with jitter",
            lambda found: bool(found) and found[0].symbol == "retry_backoff",
        )
        await pilot.press("ctrl+r", "enter")  # a definition: its call graph
        await wait_for(pilot, lambda: isinstance(app.screen, GraphScreen))
        assert isinstance(app.screen, GraphScreen) and app.screen.current is not None
        assert app.screen.current.symbol == "retry_backoff"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, GraphScreen))
        prose = next(n for n, hit in enumerate(hits.hits) if hit.kind not in DEFINITION_KINDS)
        hits.focus()
        hits.highlighted = prose
        await pilot.press("enter")  # not a definition: its code, maximized
        preview = app.query_one("#preview", CodePreview)
        await wait_for(pilot, lambda: app.screen.maximized is preview)
        path = hits.hits[prose].path
        await wait_for(pilot, lambda: app.shown is not None and app.shown[0] == path)


async def test_the_graph_previews_the_highlighted_call_hides_tests_and_returns_to_its_list(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    from textual.widgets import Input, Static

    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press("ctrl+o", *"retry_backoff")
        browser = app.screen
        found = browser.query_one("#symbol-list", SymbolList)
        await wait_for(
            pilot, lambda: bool(found.symbols) and found.symbols[0].symbol == "retry_backoff"
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GraphScreen))
        graph = app.screen
        callers = graph.query_one("#callers", CallList)
        await wait_for(pilot, lambda: "RetryPolicy.wait" in _names(callers))
        # Tests are hidden, and the screen says so and how many.
        title = graph.query_one("#graph-title", Static)
        assert "tests hidden (t shows them)" in title.content.plain  # type: ignore[union-attr]
        assert not any("test_" in name for name in _names(callers))
        assert "1 in tests hidden" in str(callers.border_subtitle)
        # The highlighted caller's call is previewed on the graph screen.
        code = graph.query_one("#graph-preview", CodePreview)
        # A call is one line: `src/retry.py:28`, not `:28-28`.
        await wait_for(pilot, lambda: str(code.border_title) == "src/retry.py:28")
        assert str(code.border_subtitle) == "the call in RetryPolicy.wait"
        await pilot.press("t")
        await wait_for(pilot, lambda: "test_retry_backoff_is_capped" in _names(callers))
        assert "tests shown (t hides them)" in title.content.plain  # type: ignore[union-attr]
        # Walking moves the main screen's preview too.
        callers.highlighted = next(
            i for i, row in enumerate(callers.rows) if row and row.name == "RetryPolicy.wait"
        )
        await pilot.press("enter")
        main_preview = app.query_one("#preview", CodePreview)
        await wait_for(pilot, lambda: str(main_preview.border_title).startswith("src/retry.py:27-"))
        callees = graph.query_one("#callees", CallList)
        await wait_for(pilot, lambda: "retry_backoff" in _names(callees))
        callees.focus()
        await wait_for(pilot, lambda: str(code.border_title) == "src/retry.py:9-12")
        assert str(code.border_subtitle) == "the definition of retry_backoff"
        # An unresolved callee shows its call's line and the graph's reason it has no target.
        callees.highlighted = next(
            i for i, row in enumerate(callees.rows) if row and row.name == "time.sleep"
        )
        await wait_for(pilot, lambda: str(code.border_title) == "src/retry.py:28")
        assert str(code.border_subtitle) == (
            "the call of time.sleep, unresolved: external module time"
        )
        await pilot.press("enter")  # nothing to walk to: the screen says why and stays
        await wait_for(pilot, lambda: any("time.sleep" in n.message for n in app._notifications))
        assert app.screen is graph and graph.current is not None
        assert graph.current.symbol == "RetryPolicy.wait"
        # Escape returns to the symbol browser as it was left.
        await pilot.press("escape")
        assert app.screen is browser
        assert browser.query_one("#symbol-query", Input).value == "retry_backoff"
        await pilot.press("escape")
        assert app.screen is app.default_screen


async def test_escape_from_a_hits_graph_returns_to_the_same_hit(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:

    app = RepolensApp(Service(sample_repo, settings))
    async with app.run_test(size=(80, 24)) as pilot:
        hits = await searched(pilot, app, "exponential backoff with jitter", lambda h: len(h) > 2)
        await pilot.press("ctrl+r", "j")  # the second hit, the class RetryPolicy
        assert hits.hits[1].symbol == "RetryPolicy"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GraphScreen))
        await pilot.press("escape")
        assert app.screen is app.default_screen
        assert app.focused is hits and hits.highlighted == 1


async def test_the_hotspots_offer_no_tests_key_and_a_symbols_graph_does(
    sample_repo: Path, settings: Settings, tui_state: Path
) -> None:
    from textual.widgets._footer import FooterKey

    service = Service(sample_repo, settings)
    app = RepolensApp(service)

    def keys() -> set[str]:
        return {key.key for key in app.screen.query(FooterKey)}

    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press("ctrl+g")
        hotspots = app.screen.query_one("#hotspots", SymbolList)
        await wait_for(pilot, lambda: bool(hotspots.symbols))
        await wait_for(pilot, lambda: "escape" in keys())
        await pilot.pause(0.2)
        assert "t" not in keys()
        listed = service.hotspots(len(hotspots.symbols))
        assert [row["symbol"] for row in listed] == [ref.symbol for ref in hotspots.symbols]
        # retry_backoff: called from the library and from a test.
        for _ in range([row["symbol"] for row in listed].index("retry_backoff")):
            await pilot.press("down")
        await pilot.press("enter")
        callers = app.screen.query_one("#callers", CallList)
        await wait_for(pilot, lambda: callers.resolved_count > 0)
        await wait_for(pilot, lambda: "t" in keys())
        assert "t" in keys()
        await pilot.press("backspace")  # back to the hotspots: gone again
        await wait_for(pilot, lambda: "escape" in keys() and "t" not in keys())
        assert "t" not in keys()
