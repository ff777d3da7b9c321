"""What every command shares: the service built from the flags, the progress printer, the
explanation lines and the exit codes (the JSON contracts are in app.contracts)."""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.events import IndexProgress
from app.core.literal import literal

if TYPE_CHECKING:
    from app.core.models import Hit
    from app.service import Service

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2

# Model output is shown, never run; terminal control sequences in it are dropped.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    return _CONTROL.sub("", text)


def add_common_options(p: argparse.ArgumentParser) -> None:
    """The options every command takes."""
    p.add_argument("--index-dir", type=Path, help="where indexes live (REPOLENS_INDEX_DIR)")
    p.add_argument("--model", help="embedding model (REPOLENS_EMBEDDING_MODEL)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


class ProgressPrinter:
    """One status line on stderr: redrawn in a terminal, one line per phase otherwise."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.phase = ""
        self.started = time.perf_counter()

    def __call__(self, event: IndexProgress) -> None:
        if self.quiet:
            return
        if event.total:
            share = event.done / event.total
            bar = "#" * int(share * 24)
            line = f"{event.phase:<6} [{bar:<24}] {event.done}/{event.total} "
        else:
            line = f"{event.phase:<6} "
        line += literal(event.message)  # it names the file being read
        if self.tty:
            sys.stderr.write("\r\033[K" + line[:120])
            if event.phase == "done":
                sys.stderr.write("\n")
        elif event.phase != self.phase or event.done == event.total:
            sys.stderr.write(line + "\n")
        self.phase = event.phase
        sys.stderr.flush()


def service_from_args(args: argparse.Namespace) -> Service:
    """The repository named by `args.path`, with the settings the flags override."""
    from app.core.settings import load_settings
    from app.service import open_repository

    settings = load_settings(
        index_dir=getattr(args, "index_dir", None),
        embedding_model=getattr(args, "model", None),
    )
    return open_repository(Path(args.path), settings)


def say(message: str) -> None:
    """A one-line note on standard error (standard output carries the results)."""
    print(f"repolens-tui: {literal(message)}", file=sys.stderr)


def ready_service(args: argparse.Namespace, *, with_vectors: bool = True) -> Service:
    service = service_from_args(args)
    service.index_if_needed(ProgressPrinter(args.quiet), say, with_vectors=with_vectors)
    return service


def explain_lines(hit: Hit) -> str:
    """The ranks and scores on one line, then each rerank signal, its factor and its reason."""
    e = hit.explanation
    ranks = f"{e.bm25}, {e.vector}"
    lines = [f"      why: {ranks}, rrf {e.fused_score:.4f} -> {e.final_score:.4f}"]
    lines += [f"        x{s.factor:g} {s.name}: {literal(s.reason)}" for s in e.signals]
    return "\n".join(lines)


def count(text: str) -> int:
    """An argparse type for counts and budgets: a whole number of 1 or more (0 is refused,
    not read as "the default")."""
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {text!r}")
    return value


def count_or_zero(text: str) -> int:
    """An argparse type: a whole number of 0 or more."""
    value = _whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text!r}")
    return value


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
