"""A front end that ends while the indexer is inside native code: the process ends at once
and cleanly, not by Python's shutdown stopping that thread (which aborts the process)."""

from __future__ import annotations

from pathlib import Path

from tests.tui.test_quit import run_probe

# What a front end does when it closes (the TUI's `leave`, the MCP server's `_run`): stop the
# live index with a short wait, then end. 0.15 s into the embed phase the indexer is loading
# the embedding model or embedding a batch; without `exit_now_if_busy` this process ended in
# "terminate called without an active exception", exit code 134, every time we ran it.
PROBE = """
import sys, threading, time
from pathlib import Path
from app.core.leave import exit_now_if_busy
from app.core.settings import Settings
from app.service import Service

service = Service(Path(sys.argv[1]), Settings(index_dir=Path(sys.argv[2])))
embedding = threading.Event()
worker = service.live(lambda status: status.phase == "embed" and embedding.set(), watch=False)
embedding.wait(120)
time.sleep(0.15)
worker.stop(timeout=0.2)
print("stopped", "busy" if not worker.join(0) else "done", flush=True)
exit_now_if_busy(not worker.join(0))
"""


def test_ending_while_the_indexer_embeds_does_not_abort(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    for number in range(30):
        (repo / f"steps_{number}.py").write_text(
            "".join(f"def step_{n}(value):\n    return value + {n}\n\n\n" for n in range(40))
        )
    result = run_probe(PROBE, repo, tmp_path)
    assert "stopped" in result.stdout, result.stderr[-3000:]
    assert result.returncode == 0, (result.stdout[-1000:], result.stderr[-3000:])
    assert "terminate called" not in result.stderr
