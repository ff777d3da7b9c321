"""Progress events the engine reports to any front end (plain data, no UI)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class IndexProgress:
    """Where an index run is: `phase` is walk, read, parse, write, embed or done."""

    phase: str
    done: int
    total: int
    message: str = ""


ProgressCallback = Callable[[IndexProgress], None]


def ignore_progress(_: IndexProgress) -> None:
    return None
