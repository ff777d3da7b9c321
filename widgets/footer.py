"""The footer, less the keys that do not fit whole: Textual lets the last one run under the
palette key docked at the right, and shows its first cells (`^t T▏^p palette`)."""

from __future__ import annotations

from textual import events
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

PALETTE = "-command-palette"


class FittedFooter(Footer):
    """Each time its keys or its width change, every key is laid out, then the first key
    that ends past the palette key (or the footer's edge) is hidden, and all after it.

    The keys are measured after the screen's next layout, not after its next refresh: while
    the answer's Markdown mounts its blocks the app holds a batch, and the screen refreshes
    (runs the callbacks waiting on it) many times with no layout at all."""

    _unfitted = False  # keys shown whole since the last layout: measure after the next one

    def on_mount(self) -> None:
        self.screen.screen_layout_refresh_signal.subscribe(self, self._laid_out, immediate=True)

    def on_unmount(self) -> None:
        self.screen.screen_layout_refresh_signal.unsubscribe(self)

    async def recompose(self) -> None:
        await super().recompose()
        self._refit()

    def on_resize(self, event: events.Resize) -> None:
        self._refit()

    def watch_compact(self, compact: bool) -> None:
        self._refit()  # compact keys are narrower: more of them fit

    def _keys(self) -> list[Widget]:
        return [child for child in self.children if not child.has_class(PALETTE)]

    def _refit(self) -> None:
        for key in self._keys():
            key.display = True
        self._unfitted = True
        self.refresh(layout=True)

    def _laid_out(self, screen: Screen[object]) -> None:
        # Called inside the layout pass: measure once it is over, keys shown or hidden then
        # are laid out by the next pass.
        if self._unfitted:
            self.call_next(self._hide_overflow)

    def _hide_overflow(self) -> None:
        keys = self._keys()
        palette = next((c for c in self.query(FooterKey) if c.has_class(PALETTE)), None)
        shown = [key for key in (palette, *keys) if key is not None]
        if not self._unfitted or not self.region or not all(key.region for key in shown):
            return  # not laid out since shown (or its screen is not shown): the next layout
        self._unfitted = False
        edge = palette.region.x if palette is not None else self.region.right
        cut = False
        for key in keys:
            cut = cut or key.region.right > edge
            key.display = not cut
