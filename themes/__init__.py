"""The product's own themes, as data: a dark and a light one (Textual's built-ins also work)."""

from __future__ import annotations

from textual.theme import Theme

REPOLENS_DARK = Theme(
    name="repolens-dark",
    primary="#5FA8D3",
    secondary="#7FB069",
    accent="#E3B23C",
    warning="#E3B23C",
    error="#E05D5D",
    success="#7FB069",
    foreground="#D8DEE9",
    background="#14181F",
    surface="#1B212B",
    panel="#232B38",
    dark=True,
)

REPOLENS_LIGHT = Theme(
    name="repolens-light",
    primary="#1F6F9F",
    secondary="#3F7D3A",
    accent="#A86A00",
    warning="#A86A00",
    error="#B83232",
    success="#3F7D3A",
    foreground="#1E2430",
    background="#F7F8FA",
    surface="#FFFFFF",
    panel="#E8ECF2",
    dark=False,
)

THEMES = (REPOLENS_DARK, REPOLENS_LIGHT)
DEFAULT_THEME = REPOLENS_DARK.name
