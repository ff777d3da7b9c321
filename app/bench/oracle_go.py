"""The Go oracle: go/types, the Go tools' own type checker (through OracleGo.go, run with
`go run`), which names the function, method or type each call uses."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from app.bench.oracle import OracleUnavailable, Site, Target
from app.bench.oracle_process import ask

SCRIPT = Path(__file__).with_name("OracleGo.go")


def go_setup() -> tuple[str, str]:
    """`go`'s path and its version line, or a clear reason why the oracle cannot run: it
    needs a Go toolchain 1.18 or later (generics) on PATH."""
    go = shutil.which("go")
    if go is None:
        raise OracleUnavailable(
            "the Go oracle needs a Go toolchain 1.18 or later (`go` on PATH), "
            "for example `apt-get install golang-go`"
        )
    done = subprocess.run([go, "version"], capture_output=True, text=True, check=False)
    return go, (done.stdout.strip() or "go")


def go_answers(root: Path, sites: list[Site]) -> tuple[list[list[Target] | None], str]:
    """One answer per site, in order (None: no called name stands there), and the oracle's
    name."""
    go, version = go_setup()
    # Outside any module, with no network and no toolchain switch: the script needs only
    # the standard library.
    env = {**os.environ, "GOTOOLCHAIN": "local", "GOPROXY": "off", "GOFLAGS": "", "GOWORK": "off"}
    with tempfile.TemporaryDirectory(prefix="repolens-go-oracle-") as work:
        answers = ask([go, "run", str(SCRIPT)], root, sites, "Go", cwd=work, env=env)
    return answers, f"go/types ({version})"
