"""The footer, less the keys that do not fit whole: Textual lets the last one run under the
palette key docked at the right, and shows its first cells (`^t T▏^p palette`)."""

from __future__ import annotations

from textual import events
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

PALETTE = "-command-palette"
TRIES = 10  # refreshes to wait for a first layout (a screen not shown yet has none)


class FittedFooter(Footer):
    """Each time its keys or its width change, every key is laid out, then the first key
    that ends past the palette key (or the footer's edge) is hidden, and all after it."""

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
        self.call_after_refresh(self._hide_overflow, TRIES)

    def _hide_overflow(self, tries: int) -> None:
        keys = self._keys()
        palette = next((c for c in self.query(FooterKey) if c.has_class(PALETTE)), None)
        laid_out = [key for key in (palette, *keys[:1]) if key is not None]
        if not self.region or not all(key.region for key in laid_out):
            if tries > 1:  # not laid out yet: measure after the next refresh
                self.call_after_refresh(self._hide_overflow, tries - 1)
            return
        edge = palette.region.x if palette is not None else self.region.right
        cut = False
        for key in keys:
            # A key laid out wholly past the footer's edge has no region on screen.
            cut = cut or not key.region or key.region.right > edge
            key.display = not cut
