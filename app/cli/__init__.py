"""The headless front end: `repolens-tui COMMAND ...`. Each module registers its commands;
every command talks to the repository through `app.service` only."""

from __future__ import annotations

import argparse
import os
import sys

from app.cli import ask, graph, index, search, stats, watch
from app.cli.common import EXIT_ERROR, EXIT_USAGE, add_common_options
from app.core.literal import literal

COMMAND_MODULES = (index, search, stats, ask, graph, watch)
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a tool a closed pipe stopped

DESCRIPTION = (
    "Local, offline repository intelligence. `repolens-tui [PATH]` opens the terminal UI on "
    "PATH (default: the current directory); the commands below work headless."
)
EPILOG = (
    "`repolens-tui mcp PATH... [--http HOST:PORT] [--token-file F]` serves the index to coding "
    "agents (Model Context Protocol). The benchmark commands (quality, speed, the call-graph "
    "oracle and the ranking fits) are in `repolens-tui-bench`; `repolens-tui-bench --help` "
    "lists them."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="repolens-tui", description=DESCRIPTION, epilog=EPILOG)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.add_parsers(sub, add_common_options)
    return parser


def command_names(parser: argparse.ArgumentParser) -> set[str]:
    """The subcommands, so a launcher can tell `repolens-tui PATH` from a command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def run(parser: argparse.ArgumentParser, words: list[str]) -> int:
    """Parse `words` and run the command, turning the errors people can act on into one
    line on stderr and exit 1."""
    args = parser.parse_args(words)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    from app.service import user_errors

    try:
        code = int(args.run(args))
        sys.stdout.flush()  # here, so that a reader gone early is met below, not at exit
        return code
    except BrokenPipeError:
        return _reader_gone()
    except user_errors() as error:
        print(f"repolens-tui: error: {literal(str(error))}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(
            "repolens-tui: interrupted; the index keeps its last published state", file=sys.stderr
        )
        return 130


def _reader_gone() -> int:
    """Stdout's reader stopped early (`... | head -1`): what it wanted was shown, so no
    message. Stdout now leads nowhere, or the flush at exit would fail again. The exit code
    is the one a shell reports for any tool stopped by a closed pipe (128 + SIGPIPE), so a
    script that allows that for grep or git allows it here, and tells it from an error (1)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_BROKEN_PIPE


def main(argv: list[str] | None = None) -> int:
    """The headless commands; `app.main` is the console script and also opens the UI."""
    return run(build_parser(), sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
