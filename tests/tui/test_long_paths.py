"""Deep paths and long qualified names cut to the pane keep their ends in view: the file and
its lines, the method's own name (a Kotlin repository's paths run 70 characters deep)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.app import App

from app.core.models import CallLink
from app.service import Service
from app.tui.app import RepolensApp
from app.tui.graph_screen import GraphScreen
from tests.tui.conftest import searched, wait_for
from widgets.call_list import CallList, call_prompt
from widgets.code_preview import CodePreview
from widgets.fitted import Part, elide_start, fit_row, name_part, path_part, telling_paths
from widgets.symbol_list import SymbolList

DEEP = "src/commonMain/kotlin/org/koin/core/instance/SingleInstanceFactory.kt"
KOTLIN = """package org.koin.core.instance

class SingleInstanceFactory<T>(val definition: String) {
    fun createInstanceWithDefinition(): String = definition

    fun getOrCreateSharedInstanceValue(): String = createInstanceWithDefinition()
}
"""


def _screen(app: App[None]) -> str:
    """The screen's text, row by row, as the compositor draws it (the SVG screenshot splits
    a row's text into one element per style)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_the_file_and_lines_stay_in_view_in_every_list_at_both_sizes(
    indexed: Callable[[dict[str, str]], Service], tui_state: Path
) -> None:
    app = RepolensApp(indexed({DEEP: KOTLIN}))
    async with app.run_test(size=(160, 45)) as pilot:
        hits = await searched(pilot, app, "single instance factory")
        preview = app.query_one("#preview", CodePreview)
        await wait_for(pilot, lambda: app.shown is not None)
        # The 37-column list: the file and the chunk's lines after an ellipsis.
        where = f"{hits.hits[0].start_line}-{hits.hits[0].end_line}"
        row = f"1.00 …ngleInstanceFactory.kt:{where} │"
        await wait_for(pilot, lambda: row in _screen(app))
        shown = _screen(app)
        assert row in shown, shown
        assert f"{DEEP}:{where}" in str(preview.border_title)  # the wide preview: all of it

        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: app.screen.has_class("-narrow"))
        row = f"1.00 …/kotlin/org/koin/core/instance/SingleInstanceFactory.kt:{where}"
        await wait_for(
            pilot, lambda: row in _screen(app) and str(preview.border_title).startswith("…")
        )
        shown = _screen(app)
        assert row in shown
        assert str(preview.border_title).startswith("…")
        assert str(preview.border_title).endswith(f"/SingleInstanceFactory.kt:{where}")

        await pilot.press("ctrl+o", *"getOrCreateShared")
        found = app.screen.query_one("#symbol-list", SymbolList)
        await wait_for(pilot, lambda: bool(found.symbols))
        # The method's own name and the file's end, the class's start cut off.
        row = "….getOrCreateSharedInstanceValue  …gleInstanceFactory.kt:6"
        await wait_for(pilot, lambda: row in _screen(app))
        assert row in _screen(app)
        await pilot.press("enter")  # the method's call graph
        await wait_for(pilot, lambda: isinstance(app.screen, GraphScreen))
        callees = app.screen.query_one("#callees", CallList)
        await wait_for(pilot, lambda: callees.resolved_count > 0)
        # The tests note gives way first (no walk: no step), then the path keeps its file
        # name and the name its class's end.
        title = " …eFactory.getOrCreateSharedInstanceValue  method  …/SingleInstanceFactory.kt:6 "
        # The call's row: the method's name, and under it the file and its line.
        name = "│   ….createInstanceWithDefinition    │"
        path = "│     …/SingleInstanceFactory.kt:6    │"
        await wait_for(
            pilot,
            lambda: (
                _screen(app).startswith(title) and name in _screen(app) and path in _screen(app)
            ),
        )
        shown = _screen(app)
        assert shown.startswith(title), shown
        assert name in shown, shown
        assert path in shown, shown


COMMAND_GO = """package cobra

type Command struct{ name string }

func (c *Command) Name() string { return c.name }
"""
COMPLETIONS_GO = """package cobra

func (c *Command) GenBashCompletion() string {
	return c.Name()
}
"""


async def test_a_call_row_keeps_its_name_and_its_path_end_at_80_columns_and_on_resize(
    indexed: Callable[[dict[str, str]], Service], tui_state: Path
) -> None:
    """A call's name and path:line do not fit one 36-cell row: each keeps a line of its
    own, whole; the row is cut again at every width."""
    service = indexed({"command.go": COMMAND_GO, "bash_completions.go": COMPLETIONS_GO})
    app = RepolensApp(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press("ctrl+o", *"Command.Name")
        found = app.screen.query_one("#symbol-list", SymbolList)
        await wait_for(pilot, lambda: bool(found.symbols))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GraphScreen))
        callers = app.screen.query_one("#callers", CallList)
        await wait_for(pilot, lambda: callers.resolved_count > 0)
        name = "│   Command.GenBashCompletion         │"
        path = "│     bash_completions.go:4           │"
        await wait_for(pilot, lambda: name in _screen(app) and path in _screen(app))
        shown = _screen(app)
        assert name in shown, shown
        assert path in shown, shown

        await pilot.resize_terminal(160, 45)
        wide = "│   Command.GenBashCompletion  bash_completions.go:4 "
        await wait_for(pilot, lambda: wide in _screen(app))
        shown = _screen(app)
        assert wide in shown, shown
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: path in _screen(app))
        assert path in _screen(app)


def test_a_spare_note_is_left_out_before_a_name_or_path_is_cut() -> None:
    title = [name_part("SingleInstanceFactory.get"), Part("  method"), Part("  ")]
    title += [path_part(f"{DEEP}:54"), Part("   tests hidden (t shows them)", spare=True)]
    assert fit_row(title, 160).plain.endswith(
        "SingleInstanceFactory.kt:54   tests hidden (t shows them)"
    )
    assert fit_row(title, 80).plain == (
        "SingleInstanceFactory.get  method  …/core/instance/SingleInstanceFactory.kt:54"
    )


def test_a_row_cuts_the_start_of_its_path_then_of_its_name_then_its_end() -> None:
    hit = [Part("   1.00 "), path_part("src/Stateless/Reflection/TransitionInfo.cs:5-40")]
    note = Part("  (signature)")
    assert fit_row([*hit, note], 80).plain == (
        "   1.00 src/Stateless/Reflection/TransitionInfo.cs:5-40  (signature)"
    )
    assert fit_row([*hit, note], 50).plain == "   1.00 …/TransitionInfo.cs:5-40  (signature)"
    assert fit_row([*hit, note], 37).plain == "   1.00 …ionInfo.cs:5-40  (signature)"
    assert fit_row([*hit, note], 24).plain == "   1.00 …nfo.cs:5-40  (…"  # 12 cells kept
    # An optional note is left out before the file name is cut.
    optional = Part("  (signature)", optional=True)
    assert fit_row([*hit, optional], 37).plain == "   1.00 …/TransitionInfo.cs:5-40"
    symbol = [Part("method    "), name_part("StateMachine.StateConfiguration.PermitIf")]
    symbol += [Part("  "), path_part("src/Stateless/StateConfiguration.cs:323")]
    assert fit_row(symbol, 70).plain == (
        "method    ….StateConfiguration.PermitIf  …/StateConfiguration.cs:323"
    )
    assert fit_row(symbol, 40).plain == "method    ….PermitIf  …figuration.cs:323"
    assert elide_start("src/org/koin/Koin.kt:55", 18) == "…/koin/Koin.kt:55"
    assert elide_start("ab", 1) == "…"


def test_a_path_left_room_by_an_optional_note_keeps_its_folders() -> None:
    # A hit packed as a signature in a 35-cell list: the note does not fit beside the whole
    # path, so it goes; the path then fits whole (five `…/mod.rs` rows could not be told apart).
    hit = [Part("   0.84 "), path_part("src/algo/mod.rs:123-189")]
    note = Part("  (signature)", optional=True)
    assert fit_row([*hit, note], 35).plain == "   0.84 src/algo/mod.rs:123-189"
    assert fit_row([*hit, note], 29).plain == "   0.84 …/algo/mod.rs:123-189"
    assert fit_row([*hit, note], 28).plain == "   0.84 …/mod.rs:123-189"


STACK_HS = """module Stack where

push :: a -> [a] -> [a]
push x xs = x : xs

pushTwo :: a -> [a] -> [a]
pushTwo x = push x . push x
"""


@pytest.mark.usefixtures("haskell_calls_unread")
async def test_an_empty_call_list_says_the_language_s_calls_are_not_read_at_both_sizes(
    indexed: Callable[[dict[str, str]], Service], tui_state: Path
) -> None:
    """A language whose calls are not read: its empty lists say so, never "calls nothing"."""
    app = RepolensApp(indexed({"Stack.hs": STACK_HS}))
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        await pilot.press("ctrl+o")  # before a name is typed: no hotspots, and why
        await wait_for(pilot, lambda: "No hotspots: calls in haskell are not read." in _screen(app))
        await pilot.press(*"pushTwo")
        found = app.screen.query_one("#symbol-list", SymbolList)
        await wait_for(pilot, lambda: bool(found.symbols))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GraphScreen))
        note = "Calls in haskell are not read."
        await wait_for(pilot, lambda: note in _screen(app))
        assert "calls nothing" not in _screen(app)
        await pilot.resize_terminal(80, 24)
        both = f"│ {note}      ││ {note}      │"
        await wait_for(pilot, lambda: both in _screen(app))
        shown = _screen(app)
        assert both in shown, shown


JVM = "src/jvmMain/kotlin/org/koin/core/context/GlobalContext.kt"
NATIVE = "src/nativeMain/kotlin/org/koin/core/context/GlobalContext.kt"


def test_paths_sharing_a_file_name_keep_the_folders_that_tell_them_apart() -> None:
    told = telling_paths([JVM, NATIVE, "src/commonMain/kotlin/org/koin/core/Koin.kt", JVM])
    assert told == {
        JVM: "…/jvmMain/…/GlobalContext.kt",
        NATIVE: "…/nativeMain/…/GlobalContext.kt",
    }  # Koin.kt is the only one of its name: its file name tells it apart already
    # Two folders are needed where one is shared with a third path.
    told = telling_paths(["a/x/b/F.kt", "a/y/b/F.kt", "a/x/c/F.kt"])
    assert told == {
        "a/x/b/F.kt": "…/x/b/F.kt",
        "a/y/b/F.kt": "…/y/…/F.kt",
        "a/x/c/F.kt": "…/x/c/F.kt",
    }
    assert telling_paths(["v4/mini/schemas.ts", "v4/classic/schemas.ts"]) == {
        "v4/mini/schemas.ts": "…/mini/schemas.ts",
        "v4/classic/schemas.ts": "…/classic/schemas.ts",
    }


def test_a_cut_path_keeps_its_telling_folder() -> None:
    hit = [Part("   1.00 "), path_part(f"{JVM}:55-59", short="…/jvmMain/…/GlobalContext.kt:55-59")]
    assert fit_row(hit, 80).plain == f"   1.00 {JVM}:55-59"  # whole where it fits
    assert fit_row(hit, 45).plain == "   1.00 …/jvmMain/…/GlobalContext.kt:55-59"
    # Narrower, the folder stays and the file name loses its start; then cut as any path.
    assert fit_row(hit, 35).plain == "   1.00 …/jvmMain/…Context.kt:55-59"
    assert fit_row(hit, 25).plain == "   1.00 …Context.kt:55-59"
    # Beside a name, the file name gives way before the name's class does.
    symbol = [Part("method    "), name_part("GlobalContext.startKoin"), Part("  ")]
    symbol.append(path_part(f"{JVM}:55", short="…/jvmMain/…/GlobalContext.kt:55"))
    assert (
        fit_row(symbol, 60).plain == "method    GlobalContext.startKoin  …/jvmMain/…lContext.kt:55"
    )


CONTEXT_KT = """package org.koin.core.context

object GlobalContext {
    fun startKoin(application: KoinApplication): KoinApplication {
        register(application)
        return application
    }
}
"""


def _list_rows(app: App[None]) -> list[str]:
    """The results list's part of each row: what is left of the panes' shared border."""
    return [row[: row.index("││")] for row in _screen(app).splitlines() if "││" in row]


def _listed(app: App[None], text: str) -> bool:
    return any(text in row for row in _list_rows(app))


async def test_hits_from_platform_copies_of_a_file_read_apart_in_the_narrow_list(
    indexed: Callable[[dict[str, str]], Service], tui_state: Path
) -> None:
    native = CONTEXT_KT.replace("return application", "application.createEagerInstances()")
    app = RepolensApp(indexed({JVM: CONTEXT_KT, NATIVE: native}))
    async with app.run_test(size=(160, 45)) as pilot:
        hits = await searched(pilot, app, "start koin global context")
        assert {hit.path for hit in hits.hits} >= {JVM, NATIVE}
        # The 37-column list cuts the file name, not the folder that tells the two apart.
        await wait_for(
            pilot, lambda: _listed(app, "…/jvmMain/…") and _listed(app, "…/nativeMain/…")
        )
        rows = _list_rows(app)
        assert any("1.00 …/jvmMain/…" in row or "1.00 …/nativeMain/…" in row for row in rows)
        assert any("…/jvmMain/…" in row for row in rows), rows
        assert any("…/nativeMain/…" in row for row in rows), rows


def test_a_call_row_keeps_the_folder_that_tells_its_file_apart() -> None:
    links = [
        CallLink(None, "GlobalContext.startKoin", "certain", JVM, 57),
        CallLink(None, "MutableGlobalContext.startKoin", "certain", NATIVE, 57),
    ]
    told = telling_paths(link.call_path for link in links)
    narrow = [call_prompt(link, told[link.call_path]).narrow or [] for link in links]
    # The narrow form (a call's path on a line of its own) in the 37-column list at 80x24.
    assert [fit_row(rows[1], 33).plain for rows in narrow] == [
        "    …/jvmMain/…lobalContext.kt:57",
        "    …/nativeMain/…alContext.kt:57",
    ]
