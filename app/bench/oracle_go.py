"""The Go oracle: go/types, the Go tools' own type checker (through OracleGo.go, run with
`go run`), which names the function, method or type each call uses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from app.bench.oracle import OracleUnavailable, Site, Target

SCRIPT = Path(__file__).with_name("OracleGo.go")
TIMEOUT_S = 1_800


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
    asked = [s for s in sites if "\t" not in s.path and "\n" not in s.path]
    request = "\n".join(
        [str(root.resolve()), *(f"{s.path}\t{s.name_line}\t{s.name_column}" for s in asked)]
    )
    # Outside any module, with no network and no toolchain switch: the script needs only
    # the standard library.
    env = {**os.environ, "GOTOOLCHAIN": "local", "GOPROXY": "off", "GOFLAGS": "", "GOWORK": "off"}
    with tempfile.TemporaryDirectory(prefix="repolens-go-oracle-") as work:
        done = subprocess.run(
            [go, "run", str(SCRIPT)],
            input=request + "\n",
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
            cwd=work,
            env=env,
        )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise OracleUnavailable(f"the Go oracle failed (exit {done.returncode}): {last}")
    found: dict[Site, list[Target] | None] = {}
    for site, line in zip(asked, done.stdout.splitlines(), strict=True):
        raw = json.loads(line)
        found[site] = None if raw is None else [Target(p, int(n), str(name)) for p, n, name in raw]
    return [found.get(site) for site in sites], f"go/types ({version})"
