"""The shared vectors table under writers in several processes at once: repositories indexed
together under one index root (two TUIs, the MCP server beside a TUI) all add to it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.store.shared_vectors import SharedVectors

WRITER = """
import sys
import numpy as np
from pathlib import Path
from app.store.shared_vectors import SharedVectors
folder, name = Path(sys.argv[1]), sys.argv[2]
vectors = SharedVectors(folder, name)
rng = np.random.default_rng(len(name))
for batch in range(30):
    keys = [f"{name}-{batch}-{row}" for row in range(4)]
    vectors.add("model", keys, rng.random((4, 8), dtype=np.float32))
    if batch % 2 == 1:
        vectors.compact("model")
"""


def test_writers_in_three_processes_at_once_lose_no_vector_and_damage_nothing(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "vectors"
    root = Path(__file__).resolve().parents[2]
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(folder), name],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("alpha", "beta", "gamma", "delta")
    ]
    errors = [writer.communicate(timeout=300)[1] for writer in writers]
    assert [writer.returncode for writer in writers] == [0, 0, 0, 0], errors
    vectors = SharedVectors(folder, "check")
    assert vectors.damage("model") is None
    assert len(vectors.keys("model")) == 4 * 30 * 4
