"""Search as you type without a fixed delay: one search runs at a time, and the keys typed
meanwhile leave only the newest query waiting, which runs as soon as the running one ends.
Plain Python (no Textual), so the queue's rules are tested on their own."""

from __future__ import annotations

import threading
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """A search to run now: its query, its generation (to drop outdated results) and the
    event that a newer query sets so the running search may stop early."""

    query: str
    generation: int
    superseded: threading.Event


class SearchFlow:
    """Latest query wins. Call `typed` for each new query, `refresh` when the index changed
    under an unchanged one, `next_request` to get what to run, `done` when it ended."""

    def __init__(self, max_query_chars: int) -> None:
        self.max_query_chars = max_query_chars
        self.generation = 0  # bumped by every typed query: results of older ones are outdated
        self.searching = False
        self.waiting: str | None = None
        self._superseded = threading.Event()

    def typed(self, query: str) -> bool:
        """A new query: earlier results are outdated and the running search may stop early.
        False for a blank query (nothing to search: the caller clears the results)."""
        self.generation += 1
        self._superseded.set()
        self.waiting = query if query.strip() else None
        return self.waiting is not None

    def refresh(self, query: str) -> None:
        """Search `query` again (the index changed), unless a newer query already waits."""
        if self.waiting is None:
            self.waiting = query

    def next_request(self) -> SearchRequest | None:
        """The waiting query, when no search runs; it now counts as running."""
        if self.searching or self.waiting is None:
            return None
        query, self.waiting = self.waiting, None
        self.searching = True
        self._superseded = threading.Event()
        return SearchRequest(query[: self.max_query_chars], self.generation, self._superseded)

    def done(self) -> None:
        """The running search ended (with results, an error or superseded)."""
        self.searching = False

    def is_current(self, generation: int) -> bool:
        return generation == self.generation
