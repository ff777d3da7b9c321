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
    "app.parse.calls",
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


def test_the_console_script_imports_no_bench_module() -> None:
    code = (
        "import contextlib, io, sys\nfrom app.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
        "bench = [m for m in sys.modules if m == 'app.bench' or m.startswith('app.bench.')]\n"
        "assert 'app.cli' in sys.modules and not bench, bench"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_bench_commands_have_their_own_entry_point() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "app.bench", "--help"],
        check=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout
    for command in ("eval", "bench", "live-bench", "graph-bench", "tui-bench", "mcp-bench"):
        assert command in shown
    product = subprocess.run(
        [sys.executable, "-m", "app.main", "eval", "dev"], cwd=ROOT, capture_output=True, text=True
    )
    assert product.returncode == 2
    assert "run `repolens-tui-bench eval dev`" in product.stderr
