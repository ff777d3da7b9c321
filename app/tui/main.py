"""The console script: `repolens-tui [PATH]` opens the UI; anything else is a headless command."""

from __future__ import annotations

import sys
from pathlib import Path

from app import cli
from app.tui.bench import add_bench_parser

EXIT_ERROR = 1


def opens_tui(words: list[str]) -> bool:
    if not words:
        return True
    commands = cli.command_names(cli.build_parser(add_bench_parser))
    return len(words) == 1 and words[0] not in commands and not words[0].startswith("-")


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
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
