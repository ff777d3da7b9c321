"""The JS/TS oracle: the TypeScript compiler's language service, through oracle_ts.js in node,
with `typescript` from npm installed in a cache folder (never in the repository measured)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from platformdirs import user_cache_dir

from app.bench.oracle import OracleUnavailable, Site, Target

SCRIPT = Path(__file__).with_name("oracle_ts.js")
TYPESCRIPT = "typescript@5.9.3"  # 5.x is the compiler written in TypeScript, with its JS API
TIMEOUT_S = 1_800
__all__ = ["OracleUnavailable", "node_setup", "ts_answers"]


def default_node_dir() -> Path:
    return Path(user_cache_dir("repolens-tui")) / "oracle-node"


def node_setup(node_dir: Path | None) -> tuple[str, Path]:
    """node's path and the folder holding node_modules/typescript, or a clear reason."""
    folder = (node_dir or default_node_dir()).expanduser()
    node = shutil.which("node")
    if node is None:
        raise OracleUnavailable("the TypeScript oracle needs node (Node.js 18 or later) on PATH")
    if not (folder / "node_modules" / "typescript" / "package.json").is_file():
        raise OracleUnavailable(
            f"no typescript package in {folder}; install it with "
            f"`npm install --prefix {folder} {TYPESCRIPT}` (or give --node-dir)"
        )
    return node, folder


def ts_answers(
    root: Path, sites: list[Site], node_dir: Path | None = None
) -> tuple[list[list[Target] | None], str]:
    """One answer per site, in order, and the oracle's name with its version."""
    node, folder = node_setup(node_dir)
    version = json.loads((folder / "node_modules/typescript/package.json").read_text())["version"]
    request = {
        "root": str(root.resolve()),
        "sites": [[s.path, s.name_line, s.name_column] for s in sites],
    }
    env = os.environ | {"NODE_PATH": str(folder / "node_modules")}
    done = subprocess.run(
        [node, "--max-old-space-size=3072", str(SCRIPT)],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise OracleUnavailable(f"the TypeScript oracle failed (exit {done.returncode}): {last}")
    raw = json.loads(done.stdout)
    answers = [
        None if found is None else [Target(p, int(line), str(name)) for p, line, name in found]
        for found in raw
    ]
    return answers, f"typescript {version}"
