"""The console script: `repolens-tui [PATH]` opens the UI; anything else is a headless command."""

from __future__ import annotations

import sys
from pathlib import Path

from app import cli
from app.tui.bench import add_bench_parser

EXIT_ERROR = 1
EXIT_USAGE = 2


def opens_tui(words: list[str]) -> bool:
    if not words:
        return True
    commands = cli.command_names(cli.build_parser(add_bench_parser))
    return len(words) == 1 and words[0] not in commands and not words[0].startswith("-")


def options_after_path(words: list[str]) -> bool:
    """`repolens-tui PATH --index-dir DIR`: a path, not a command, followed by more words."""
    if len(words) < 2 or words[0].startswith("-"):
        return False
    return words[0] not in cli.command_names(cli.build_parser(add_bench_parser))


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if options_after_path(words):
        print(
            f"repolens-tui: error: the terminal UI takes one PATH and no options (got "
            f"{' '.join(words[1:])!r}). Set options in the config file or as REPOLENS_* "
            f"environment variables, e.g. REPOLENS_INDEX_DIR=DIR repolens-tui {words[0]}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if not opens_tui(words):
        return cli.main(words, add_bench_parser)
    from app.core.settings import load_settings
    from app.service import RepositoryError
    from app.tui.app import run

    try:
        run(Path(words[0] if words else "."), load_settings())
    except RepositoryError as error:
        print(f"repolens-tui: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    return 0


if __name__ == "__main__":
    sys.exit(main())
