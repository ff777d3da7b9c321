"""Callers or callees of one symbol, grouped by tier, each with the call's path:line."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from app.core.literal import literal
from app.core.models import TIERS, CallLink
from widgets.fitted import Fitted, Part, location_part, name_part, telling_paths

GROUPS = (*TIERS, "unresolved")


def call_prompt(link: CallLink, told: str = "") -> Fitted:
    """One call: its name, then the call's path:line, on one line where both fit whole, else
    path:line on a line of its own under the name; each longer than the list loses its start.
    Code names and call texts never go through markup, and their control characters are
    shown as escapes. `told`: the folders that tell the call's path from another listed one of
    the same file name (`widgets.fitted.telling_paths`), kept when it is cut."""
    name = name_part(literal(link.name), "bold" if link.target else "dim")
    where = location_part(link.call_path, f":{link.call_line}", told)
    return Fitted(
        [[Part("  "), name, Part("  "), where]], narrow=[[Part("  "), name], [Part("    "), where]]
    )


class CallList(OptionList):
    """Tier headings are disabled rows; Enter on a resolved call emits CallChosen, on an
    unresolved one CallUnresolved (nothing to walk to: the screen says why)."""

    BINDINGS = [
        Binding("enter", "select", "Walk"),
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]

    DEFAULT_CSS = """
    CallList { text-wrap: nowrap; text-overflow: ellipsis; }
    """

    class CallChosen(Message):
        def __init__(self, link: CallLink) -> None:
            super().__init__()
            self.link = link

    class CallUnresolved(Message):
        """Enter on an unresolved call: there is no definition to walk to."""

        def __init__(self, link: CallLink) -> None:
            super().__init__()
            self.link = link

    class CallHighlighted(Message):
        """The highlight moved to a call (resolved or not): its code can be previewed."""

        def __init__(self, call_list: CallList, link: CallLink) -> None:
            super().__init__()
            self.call_list = call_list
            self.link = link

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.rows: list[CallLink | None] = []  # None for a heading

    def show_links(self, links: list[CallLink], empty: str) -> None:
        self.clear_options()
        self.rows = []
        options: list[Option] = []
        told = telling_paths(link.call_path for link in links)
        for tier in GROUPS:
            group = [link for link in links if link.tier == tier]
            if not group:
                continue
            options.append(Option(Text(f"{tier} ({len(group)})", style="bold"), disabled=True))
            self.rows.append(None)
            for link in group:
                prompt = call_prompt(link, told.get(link.call_path, ""))
                options.append(Option(prompt))  # unresolved too: its call can be previewed
                self.rows.append(link)
        if not options:
            options.append(Option(Text(empty, style="dim"), disabled=True))
            self.rows.append(None)
        self.add_options(options)
        resolved = (i for i, row in enumerate(self.rows) if row and row.target)
        self.highlighted = next(resolved, next((i for i, row in enumerate(self.rows) if row), None))

    @property
    def highlighted_link(self) -> CallLink | None:
        index = self.highlighted
        return self.rows[index] if index is not None and index < len(self.rows) else None

    def show_message(self, message: str) -> None:
        self.clear_options()
        self.rows = [None]
        self.add_option(Option(Text(literal(message), style="dim"), disabled=True))

    @property
    def resolved_count(self) -> int:
        return sum(1 for row in self.rows if row and row.target)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        row = self.rows[event.option_index] if event.option_index < len(self.rows) else None
        if row is not None and row.target is not None:
            self.post_message(self.CallChosen(row))
        elif row is not None:
            self.post_message(self.CallUnresolved(row))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        link = self.highlighted_link
        if link is not None:
            self.post_message(self.CallHighlighted(self, link))
