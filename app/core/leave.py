"""Ending a front end's process while one of its background threads is still running."""

import os
import sys


def exit_now_if_busy(busy: bool, code: int = 0) -> None:
    """End the process at once with `code` when `busy`: a background thread asked to stop
    has not yet reached a point where it can. Python's own shutdown would stop that daemon
    thread wherever it is, and inside C++ (onnxruntime loading the embedding model or
    embedding a batch, llama.cpp loading the answer model) that aborts the process with
    "terminate called without an active exception", exit code 134 and a native backtrace
    on the terminal. Ending here loses nothing: every index write is published atomically
    and the index lock is a `flock`, which the kernel frees."""
    if not busy:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
