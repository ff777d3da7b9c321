"""An oracle that runs as a process (javac through OracleJava.java, go/types through
OracleGo.go): the root and then one site per line on its stdin, `path<TAB>line<TAB>column`;
one JSON answer per site on its stdout, `null` where no call stands there, else a list of
[path or "" outside the root, line, name]."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from app.bench.oracle import OracleUnavailable, Site, Target

TIMEOUT_S = 1_800


def ask(
    command: list[str],
    root: Path,
    sites: list[Site],
    oracle: str,
    *,
    cwd: str | None = None,
    env: dict[str, str] | None = None,
) -> list[list[Target] | None]:
    """One answer per site, in order (None: the oracle saw no call there, or the site's path
    cannot be written on a line); `oracle` names it in the one-line error if it fails."""
    asked = [s for s in sites if "\t" not in s.path and "\n" not in s.path]
    request = "\n".join(
        [str(root.resolve()), *(f"{s.path}\t{s.name_line}\t{s.name_column}" for s in asked)]
    )
    done = subprocess.run(
        command,
        input=request + "\n",
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
        cwd=cwd,
        env=env,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise OracleUnavailable(f"the {oracle} oracle failed (exit {done.returncode}): {last}")
    found: dict[Site, list[Target] | None] = {}
    for site, line in zip(asked, done.stdout.splitlines(), strict=True):
        raw = json.loads(line)
        found[site] = None if raw is None else [Target(p, int(n), str(name)) for p, n, name in raw]
    return [found.get(site) for site in sites]
