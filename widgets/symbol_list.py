"""A list of definitions (kind, qualified name, path:line); Enter chooses one."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from app.core.literal import literal
from app.core.models import SymbolRef
from widgets.fitted import Fitted, Part, location_part, name_part, telling_paths

KIND_WIDTH = 9


def symbol_prompt(symbol: SymbolRef, told: str = "") -> Fitted:
    """One definition, its name and path cut from the start to the list's width: code names
    never go through markup, and their control characters are shown as escapes. `told`: the
    folders that tell its path from another listed one of the same file name, kept when cut."""
    return Fitted(
        [
            [
                Part(f"{literal(symbol.kind[:KIND_WIDTH]):<{KIND_WIDTH}} ", "italic"),
                name_part(literal(symbol.symbol)),
                Part("  "),
                location_part(symbol.path, f":{symbol.start_line}", told),
            ]
        ]
    )


class SymbolList(OptionList):
    """Emits SymbolChosen on Enter; j/k move like the arrow keys."""

    BINDINGS = [
        Binding("enter", "select", "Open"),
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]

    DEFAULT_CSS = """
    SymbolList { text-wrap: nowrap; text-overflow: ellipsis; }
    """

    class SymbolChosen(Message):
        def __init__(self, symbol: SymbolRef) -> None:
            super().__init__()
            self.symbol = symbol

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.symbols: list[SymbolRef] = []

    def show_symbols(self, symbols: list[SymbolRef]) -> None:
        self.symbols = list(symbols)
        self.clear_options()
        told = telling_paths(symbol.path for symbol in symbols)
        self.add_options([Option(symbol_prompt(s, told.get(s.path, ""))) for s in symbols])
        if symbols:
            self.highlighted = 0

    def show_message(self, message: str) -> None:
        self.symbols = []
        self.clear_options()
        self.add_option(Option(Text(literal(message), style="dim"), disabled=True))

    @property
    def highlighted_symbol(self) -> SymbolRef | None:
        index = self.highlighted
        return self.symbols[index] if index is not None and index < len(self.symbols) else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self.symbols):
            self.post_message(self.SymbolChosen(self.symbols[event.option_index]))
