"""The Java oracle: javac's own attribution (the JDK's compiler API, through OracleJava.java
run in source-file mode), which names the method or constructor each call invokes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from app.bench.oracle import OracleUnavailable, Site, Target
from app.bench.oracle_process import ask

SCRIPT = Path(__file__).with_name("OracleJava.java")


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
    answers = ask([java, "-Xmx3g", str(SCRIPT)], root, sites, "Java")
    return answers, f"javac ({version})"
