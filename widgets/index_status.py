"""One always-visible line: what the indexer is doing and what the index holds."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from app.core.events import IndexProgress

BAR = 20


class IndexStatus(Static):
    def show_progress(self, progress: IndexProgress) -> None:
        line = Text(f" {progress.phase} ", style="reverse")
        if progress.total:
            share = progress.done / progress.total
            line.append(f" {'━' * int(share * BAR):<{BAR}} {progress.done}/{progress.total}")
        line.append(f"  {progress.message}")
        self.update(line)

    def show_ready(self, files: int, chunks: int, vectors: int, wanted: int) -> None:
        share = vectors / wanted if wanted else 1.0
        line = Text(" ready ", style="reverse")
        line.append(f"  {files} files · {chunks} chunks · vectors {share:.0%}")
        self.update(line)

    def show_error(self, message: str) -> None:
        line = Text(" error ", style="reverse")
        line.append(f"  {message}")
        self.update(line)
