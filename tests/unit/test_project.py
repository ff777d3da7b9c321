"""The project's promises about itself: CI runs the README's commands; the engine has no UI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE_MODULES = [
    "app.service",
    "app.cli",
    "app.indexer.pipeline",
    "app.indexer.chunk",
    "app.indexer.walk",
    "app.search.searcher",
    "app.store.store",
    "app.evaluation.command",
]


def test_ci_runs_exactly_the_readme_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    commands = [
        line
        for line in (ROOT / ".ci/run").read_text().splitlines()
        if line.strip() and not line.startswith(("#", "set ", "cd "))
    ]
    assert commands, "the CI script runs nothing"
    for command in commands:
        assert command in readme, f"CI runs a command the README does not give: {command}"


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_engine_imports_no_ui(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        "ui = ('textual', 'widgets', 'app.tui')\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ui[:2] or m.startswith(ui[2])]\n"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_help_is_instant_without_heavy_imports() -> None:
    code = (
        "import sys\nfrom app.cli import build_parser\nbuild_parser()\n"
        "heavy = [m for m in ('lancedb', 'fastembed', 'onnxruntime', 'tree_sitter', 'pyarrow')"
        " if m in sys.modules]\nassert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
