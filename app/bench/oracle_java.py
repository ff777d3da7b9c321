"""The Java oracle: javac's own attribution (the JDK's compiler API, through OracleJava.java
run in source-file mode), which names the method or constructor each call invokes."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from app.bench.oracle import OracleUnavailable, Site, Target

SCRIPT = Path(__file__).with_name("OracleJava.java")
TIMEOUT_S = 1_800


def java_setup() -> tuple[str, str]:
    """`java`'s path and its version line, or a clear reason why the oracle cannot run: it
    needs a JDK 11 or later (the compiler, not only the runtime)."""
    java = shutil.which("java")
    if java is None or shutil.which("javac") is None:
        raise OracleUnavailable(
            "the Java oracle needs a JDK 11 or later (java and javac on PATH), "
            "for example `apt-get install default-jdk-headless`"
        )
    done = subprocess.run([java, "-version"], capture_output=True, text=True, check=False)
    lines = (done.stderr or done.stdout).strip().splitlines()
    return java, lines[0] if lines else "java"


def java_answers(root: Path, sites: list[Site]) -> tuple[list[list[Target] | None], str]:
    """One answer per site, in order (None: javac saw no call there), and the oracle's name."""
    java, version = java_setup()
    asked = [s for s in sites if "\t" not in s.path and "\n" not in s.path]
    request = "\n".join(
        [str(root.resolve()), *(f"{s.path}\t{s.name_line}\t{s.name_column}" for s in asked)]
    )
    done = subprocess.run(
        [java, "-Xmx3g", str(SCRIPT)],
        input=request + "\n",
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise OracleUnavailable(f"the Java oracle failed (exit {done.returncode}): {last}")
    found: dict[Site, list[Target] | None] = {}
    for site, line in zip(asked, done.stdout.splitlines(), strict=True):
        raw = json.loads(line)
        found[site] = None if raw is None else [Target(p, int(n), str(name)) for p, n, name in raw]
    return [found.get(site) for site in sites], f"javac ({version})"
