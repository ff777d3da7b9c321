"""Loading the answer model leaves the process's stdout and stderr where they point: under the
TUI, file descriptor 2 is the terminal Textual draws on while the model loads in a worker."""

from __future__ import annotations

import os
import threading
import time

import pytest

from app.answer.llm import LocalModel
from app.answer.model import resolve_model_file
from app.core.settings import Settings


def test_what_another_thread_writes_to_stderr_while_the_model_loads_arrives(
    capfd: pytest.CaptureFixture[str], settings: Settings
) -> None:
    path = resolve_model_file(settings.answer_model)
    written = 0
    stop = threading.Event()

    def draw() -> None:  # as Textual's writer thread does, straight to the descriptor
        nonlocal written
        while not stop.is_set():
            os.write(2, f"frame {written}\n".encode())
            written += 1
            time.sleep(0.001)

    drawer = threading.Thread(target=draw)
    drawer.start()
    try:
        model = LocalModel(path, n_ctx=512, threads=1, flash_attn=False)
    finally:
        stop.set()
        drawer.join()
    model.llm.close()
    out, err = capfd.readouterr()
    assert written > 10  # the load took long enough to overlap
    # Every frame arrived, in order, and llama.cpp printed nothing of its own.
    assert err.splitlines() == [f"frame {n}" for n in range(written)]
    assert out == ""
