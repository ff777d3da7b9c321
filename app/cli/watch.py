"""`repolens-tui watch PATH`: the live index, headless. A status line redrawn in place (in a
terminal) and one log line per update; Ctrl-C stops at the next safe point."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from typing import Any

from app.cli.common import EXIT_OK, service_from_args
from app.core.events import WorkerStatus
from app.core.leave import exit_now_if_busy
from app.core.literal import literal


def status_line(status: WorkerStatus) -> str:
    """One line for a terminal: state, progress, queue, watcher, graph."""
    parts = [status.state]
    if status.state == "indexing" and status.total:
        share = status.done / status.total
        parts.append(f"{status.phase} {status.done}/{status.total} ({share:.0%})")
        if status.eta_seconds:
            parts.append(f"~{status.eta_seconds:.0f} s left")
    elif status.message:
        parts.append(literal(status.message))
    parts.append(f"{status.pending} pending")
    parts.append("watching files" if status.watching else "not watching")
    if status.graph_pending:
        parts.append("call graph trails")
    if status.error:
        label = "waiting" if status.state == "waiting" else "error"
        parts.append(f"{label}: {literal(status.error)}")
    return " | ".join(parts)


class StatusPrinter:
    """Redraws the status line on stderr and prints each finished update as a log line."""

    def __init__(self, quiet: bool, out: Any = None) -> None:
        self.out = out or sys.stderr
        self.quiet = quiet
        self.tty = bool(getattr(self.out, "isatty", lambda: False)())
        self._updates = 0
        self._error = ""
        self._lock = threading.Lock()
        self._last_draw = 0.0

    def __call__(self, status: WorkerStatus) -> None:
        with self._lock:
            if status.updates > self._updates:
                self._updates = status.updates
                self._log(status.last_update)
            if status.error and status.error != self._error:
                # Another writer holding the index is a normal wait, not a failure.
                label = "waiting" if status.state == "waiting" else "error"
                self._log(f"{label}: {literal(status.error)}")
            self._error = status.error
            now = time.monotonic()
            if self.tty and not self.quiet and now - self._last_draw > 0.1:
                self._last_draw = now
                self.out.write("\r\033[K" + status_line(status)[:160])
                self.out.flush()

    def _log(self, line: str) -> None:
        stamp = time.strftime("%H:%M:%S")
        self.out.write(("\r\033[K" if self.tty else "") + f"{stamp} {literal(line)}\n")
        self.out.flush()


def cmd_watch(args: argparse.Namespace) -> int:
    service = service_from_args(args)
    printer = StatusPrinter(args.quiet)
    print(
        f"watching {literal(str(service.root))} (index {literal(str(service.index_dir))});"
        " Ctrl-C stops",
        file=sys.stderr,
    )
    worker = service.live(printer, with_vectors=not args.no_vectors)
    try:
        while not worker.join(0.5):
            pass
    except KeyboardInterrupt:
        worker.stop()
        print("\nstopped; the index keeps every update published so far", file=sys.stderr)
        exit_now_if_busy(not worker.join(0), EXIT_OK)
    return EXIT_OK


def add_parsers(sub: Any, common: Any) -> None:
    p = sub.add_parser(
        "watch", help="keep the index fresh as files change (a live status line and a log)"
    )
    p.add_argument("path")
    p.add_argument("--no-vectors", action="store_true", help="keep lexical search only")
    common(p)
    p.set_defaults(run=cmd_watch)
