"""The console script: `repolens-tui [PATH]` opens the terminal UI; anything else is a headless
command (`app.cli`). The one module that knows both front ends."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app import cli
from app.cli.common import EXIT_ERROR, EXIT_USAGE

# The commands of `repolens-tui-bench` (app.bench.cli), named here so that this module, which
# every start imports, need not import the bench to point at it.
BENCH_COMMANDS = frozenset(
    {
        "eval",
        "bench",
        "live-bench",
        "graph-bench",
        "graph-oracle",
        "graph-replay",
        "hotspot-bench",
        "tui-bench",
        "fault-bench",
        "mcp-bench",
        "signals",
        "fit",
        "fit-fields",
        "fit-diversity",
        "misses",
        "excerpts",
    }  # fmt: skip
)
MCP_COMMAND = "mcp"  # the MCP server (app.mcp), a front end of its own


# The options every command takes that also mean something to the terminal UI; they may come
# before PATH, after it, or before a command (`repolens-tui --index-dir DIR search PATH Q`).
_VALUE_OPTIONS = ("--index-dir", "--model")
_FLAG_OPTIONS = ("-q", "--quiet")
_HELP = ("-h", "--help")


def split_leading_options(words: list[str]) -> tuple[list[str], list[str]]:
    """The common options at the start of `words`, and the words after them."""
    leading: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in _VALUE_OPTIONS and i + 1 < len(words):
            leading += words[i : i + 2]
            i += 2
        elif word.partition("=")[0] in _VALUE_OPTIONS or word in _FLAG_OPTIONS:
            leading.append(word)
            i += 1
        else:
            break
    return leading, words[i:]


def opens_tui(words: list[str]) -> bool:
    """Whether `words` open the terminal UI: no command, no benchmark command, no help."""
    _, rest = split_leading_options(words)
    if any(word in _HELP for word in words):
        return False
    return not rest or (
        rest[0] not in _command_names() and rest[0] not in BENCH_COMMANDS and rest[0] != MCP_COMMAND
    )


def _command_names() -> set[str]:
    return cli.command_names(cli.build_parser())


def tui_parser() -> argparse.ArgumentParser:
    """`repolens-tui [--index-dir DIR] [--model NAME] [PATH]`, options before or after PATH."""
    parser = argparse.ArgumentParser(
        prog="repolens-tui",
        usage="repolens-tui [--index-dir DIR] [--model NAME] [PATH]  |  repolens-tui COMMAND ...",
        description="Opens the terminal UI on PATH (default: the current directory). "
        "`repolens-tui --help` lists the headless commands.",
        epilog=cli.EPILOG,
    )
    parser.add_argument("path", nargs="?", default=".", help="the repository (default: here)")
    parser.add_argument("--index-dir", type=Path, help="where indexes live (REPOLENS_INDEX_DIR)")
    parser.add_argument("--model", help="embedding model (REPOLENS_EMBEDDING_MODEL)")
    parser.add_argument("-q", "--quiet", action="store_true", help="accepted; the UI says nothing")
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    leading, rest = split_leading_options(words)
    if rest and rest[0] in BENCH_COMMANDS and not Path(rest[0]).is_dir():
        print(
            f"repolens-tui: error: {rest[0]} is a benchmark command: run "
            f"`repolens-tui-bench {' '.join(words)}`",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if rest and rest[0] == MCP_COMMAND:
        from app.mcp.command import main as mcp_main

        return mcp_main([*leading, *rest[1:]])
    if rest and rest[0] in _command_names():
        return cli.main([rest[0], *leading, *rest[1:]])
    if words in (["-h"], ["--help"]):
        return cli.main(words)  # the whole story: the UI and every command
    try:
        args = tui_parser().parse_args(words)
    except SystemExit as exit_:  # --help printed, or a usage error said so
        return int(exit_.code or 0)
    from app.core.literal import literal
    from app.core.settings import SettingsError, load_settings
    from app.service import RepositoryError
    from app.tui.app import run

    try:
        settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
        run(Path(args.path), settings)
    except (RepositoryError, SettingsError) as error:
        print(f"repolens-tui: error: {literal(str(error))}", file=sys.stderr)
        return EXIT_ERROR
    return 0


if __name__ == "__main__":
    sys.exit(main())
