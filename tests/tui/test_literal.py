"""A hostile repository cannot drive the TUI: file names and headings holding markup or
terminal escapes are shown as written on every screen, and nothing crashes or quits."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.content import Content
from textual.widgets import Input

from app.core.events import WorkerStatus
from app.core.models import CallLink, Hit, SymbolRef
from app.core.settings import Settings
from app.service import Service
from app.tui.answer_view import brief_markdown
from app.tui.app import RepolensApp
from app.tui.graph_screen import GraphScreen
from app.tui.index_screen import IndexScreen, pending_text, skipped_text, summary_text
from app.tui.symbol_screen import SymbolScreen
from tests.hostile import HOSTILE_FILES as ESCAPE_FILES
from tests.hostile import OSC52
from tests.tui.conftest import wait_for
from widgets.answer_pane import AnswerPane, markdown_code
from widgets.call_list import CallList, call_prompt
from widgets.code_preview import CodePreview
from widgets.hit_list import HitList, hit_prompt
from widgets.index_status import status_text
from widgets.symbol_list import SymbolList, symbol_prompt

MARKUP_FILES = {
    "[/x].py": "def slash_bracket():\n    return 'slash bracket words'\n",
    "[@click=app.quit]x.py": "def quit_click():\n    return 'quit click words'\n",
}


def _terminal_safe(text: str) -> bool:
    """No ESC or other C0 control but newline, no C1 control, no bidi override."""
    return not any(
        (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F
        or 0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069
        for c in text
    )  # fmt: skip


def _build(root: Path, files: dict[str, str]) -> Path:
    repo = root / "repo"
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    return repo


def _screen(app: App[None]) -> str:
    """The screen's text as the SVG screenshot holds it, entities decoded."""
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def _drawn_title(app: RepolensApp) -> str:
    """The code preview's top border row as the compositor draws it."""
    region = app.query_one("#preview", CodePreview).region
    strips = app.screen._compositor.render_strips()
    return strips[region.y].text[region.x : region.right] if region else ""


async def _search(pilot: Any, app: RepolensApp, query: str, path: str) -> None:
    """Type `query`, then preview its first hit in `path` (ranking is not under test)."""
    search = app.query_one("#search", Input)
    search.value = ""
    search.focus()
    await pilot.press(*query)
    hits = app.query_one("#hits", HitList)
    await wait_for(pilot, lambda: any(hit.path == path for hit in hits.hits))
    hits.highlighted = next(n for n, hit in enumerate(hits.hits) if hit.path == path)
    await wait_for(pilot, lambda: app.shown is not None and app.shown[0] == path)
    preview = app.query_one("#preview", CodePreview)
    title = Content.from_markup(preview.border_title or "").plain
    await wait_for(pilot, lambda: title in _drawn_title(app))


async def test_markup_in_file_names_is_shown_and_never_run(
    tmp_path: Path, settings: Settings, tui_state: Path
) -> None:
    app = RepolensApp(Service(_build(tmp_path, MARKUP_FILES), settings))
    async with app.run_test(size=(140, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        preview = app.query_one("#preview", CodePreview)

        await _search(pilot, app, "slash bracket words", "[/x].py")
        assert Content.from_markup(preview.border_title or "").plain == "[/x].py:1-2"
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: "Copied 2 lines of [/x]." in _screen(app))
        assert app.is_running and "Copied 2 lines of [/x]." in _screen(app)  # the toast wraps

        await _search(pilot, app, "quit click words", "[@click=app.quit]x.py")
        title = Content.from_markup(preview.border_title or "")
        assert title.plain == "[@click=app.quit]x.py:1-2"
        for x in range(1, 12):  # a click anywhere on the title quits nothing
            await pilot.click(CodePreview, offset=(x, 0))
        await pilot.pause(0.2)
        assert app.is_running and app.return_code is None
        assert "[@click=app.quit]x.py:1-2" in _screen(app)

        await pilot.press("ctrl+o")
        assert isinstance(app.screen, SymbolScreen)
        await pilot.press(*"quit_click")
        found = app.screen.query_one("#symbol-list", SymbolList)
        await wait_for(pilot, lambda: any(s.symbol == "quit_click" for s in found.symbols))
        assert "[@click=app.quit]x.py:1" in _screen(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GraphScreen))
        await wait_for(pilot, lambda: "[@click=app.quit]x.py:1" in _screen(app))
        assert app.is_running and "[@click=app.quit]x.py:1" in _screen(app)


async def test_escapes_in_headings_and_file_names_never_reach_the_terminal(
    tmp_path: Path, settings: Settings, tui_state: Path
) -> None:
    settings = settings.model_copy(update={"watch": False})  # so the file below stays pending
    repo = _build(tmp_path, ESCAPE_FILES)
    app = RepolensApp(Service(repo, settings))
    async with app.run_test(size=(150, 40)) as pilot:
        await wait_for(pilot, lambda: app.index_ready)
        (repo / f"{OSC52}pending.py").write_text("x = 1\n")

        await _search(pilot, app, "clipboard osc", "CLIP.md")
        shown = _screen(app)
        assert _terminal_safe(shown)
        assert "Clipboard \\x1b]52;c;cHduZWQ=\\x1b\\ heading" in shown
        await _search(pilot, app, "title osc words", "TITLE.md")
        shown = _screen(app)
        assert _terminal_safe(shown) and "\\x9b2J" in shown and "\\u202eflipped" in shown
        await _search(pilot, app, "clear screen words", "\x1b[2J.py")
        shown = _screen(app)
        assert _terminal_safe(shown) and "\\x1b[2J.py:1-2" in shown

        await pilot.press("ctrl+o")
        await pilot.press(*"clear_screen_helper")
        found = app.screen.query_one("#symbol-list", SymbolList)
        await wait_for(pilot, lambda: any(s.path == "\x1b[2J.py" for s in found.symbols))
        shown = _screen(app)
        assert _terminal_safe(shown) and "\\x1b[2J.py:1" in shown
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GraphScreen))
        callees = app.screen.query_one("#callees", CallList)
        await wait_for(pilot, lambda: any(row for row in callees.rows))
        await wait_for(pilot, lambda: '"".join' in _screen(app) and "\\x1b[2J.py" in _screen(app))
        shown = _screen(app)
        # The unresolved call is listed by its elided text: the escape in the literal is no
        # part of a call's name, and the path it sits in is shown escaped.
        assert _terminal_safe(shown) and '"".join' in shown and "\\x1b[2J.py" in shown
        await pilot.press("escape", "escape")  # the graph, then the browser it was opened from
        await wait_for(pilot, lambda: app.screen is app.default_screen)

        await pilot.press("f6")
        assert isinstance(app.screen, IndexScreen)
        skipped = "\\x1b]0;bin\\x07.py"
        await wait_for(pilot, lambda: skipped in _screen(app) and "pending.py" in _screen(app))
        shown = _screen(app)
        assert _terminal_safe(shown)
        assert skipped in shown and "\\x1b]52;c;cHduZWQ=" in shown


def _hit(path: str, symbol: str) -> Hit:
    return Hit("id", path, 1, 2, symbol, symbol, "function", "python", 1.0, "text", "body")


def test_every_line_a_widget_draws_from_repository_text_is_literal() -> None:
    name = f"{OSC52}[bold]\u202e"
    ref = SymbolRef(name, "function", f"\x1b[2J{name}.py", 1, 2)
    drawn = [
        hit_prompt(_hit(ref.path, name), 1.0).plain,
        symbol_prompt(ref).plain,
        call_prompt(CallLink(None, name, "unresolved", ref.path, 3)).plain,
        status_text(WorkerStatus(state="failed", error=f"cannot read {ref.path}")).plain,
        summary_text(WorkerStatus(last_update=name, error=name)).plain,
        pending_text({"added": [ref.path]}).plain,
        skipped_text([{"reason": name, "path": ref.path, "detail": name}]).plain,
    ]
    for line in drawn:
        assert _terminal_safe(line), line
        assert "\\x1b]52;c;cHduZWQ=\\x1b\\[bold]\\u202e" in line or "\\x1b[2J" in line


def test_a_citation_is_one_code_span_whatever_its_name_holds() -> None:
    assert markdown_code("src/app.py:1-2") == "`src/app.py:1-2`"
    assert markdown_code("a`b [x](http://h) **c**") == "``a`b [x](http://h) **c**``"
    assert markdown_code("`x``") == "``` `x`` ```"
    assert markdown_code(f"{OSC52}.md") == "`\\x1b]52;c;cHduZWQ=\\x1b\\.md`"


class _AnswerApp(App[None]):
    def compose(self) -> ComposeResult:
        yield AnswerPane()


HOSTILE_DOC = (
    'def split_record(line):\n    """Splits **records** at [each](cite:1) `delimiter`, '
    'then \x1b[2J clears.\n\n    More.\n    """\n    return line.split(",")\n'
)


async def test_a_doc_sentence_in_the_brief_is_shown_as_written(
    tmp_path: Path, settings: Settings
) -> None:
    # The brief's sentence is a doc comment: its Markdown is not read (no bold, no link that
    # would answer as citation 1) and its escape is shown, not sent to the terminal.
    service = Service(_build(tmp_path, {"records.py": HOSTILE_DOC}), settings)
    service.index(with_vectors=False)
    hits = service.search("split a record", k=1).hits
    app = _AnswerApp()
    async with app.run_test(size=(140, 8)) as pilot:
        pane = app.query_one(AnswerPane)
        pane.show_brief(lambda width: brief_markdown(hits, True, width), "")

        def drawn() -> str:  # the rows as the compositor draws them, one line per row
            return "\n".join(strip.text for strip in app.screen._compositor.render_strips())

        await wait_for(pilot, lambda: "clears." in drawn())
        shown = drawn()
        assert "Splits **records** at [each](cite:1) `delimiter`, then \\x1b[2J clears." in shown
        assert _terminal_safe(shown)
        # The sentence has a line of its own under the hit's name and place, however wide.
        assert any(row.strip().startswith("Splits **records**") for row in shown.splitlines())


async def test_the_answer_pane_shows_an_echoed_escape_as_written() -> None:
    app = _AnswerApp()
    async with app.run_test(size=(80, 10)) as pilot:
        pane = app.query_one(AnswerPane)
        pane.show_text("")
        pane.show_answer(f"The heading is Clipboard {OSC52} and \x9b2J.")
        pane.finish(lambda width: [markdown_code("\x1b[2J.py:1-2")], grounded=True)
        # The Markdown renders in the background: wait for it, not a fixed time (0.2 s was
        # too short once in CI).
        await wait_for(pilot, lambda: "Clipboard" in _screen(app) and ".py:1-2" in _screen(app))
        shown = _screen(app)
        assert _terminal_safe(shown) and "Clipboard \\x1b]52;c;cHduZWQ=" in shown
        assert "\\x1b[2J.py:1-2" in shown
