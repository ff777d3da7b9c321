"""The console script: `repolens-tui [PATH]` opens the terminal UI; anything else is a headless
command (`app.cli`). The one module that knows both front ends."""

from __future__ import annotations

import sys
from pathlib import Path

from app import cli
from app.cli.common import EXIT_ERROR, EXIT_USAGE

# The commands of `repolens-tui-bench` (app.bench.cli), named here so that this module, which
# every start imports, need not import the bench to point at it.
BENCH_COMMANDS = frozenset(
    {"eval", "bench", "live-bench", "graph-bench", "tui-bench", "fault-bench"}
)


def opens_tui(words: list[str]) -> bool:
    if not words:
        return True
    commands = cli.command_names(cli.build_parser())
    return len(words) == 1 and words[0] not in commands and not words[0].startswith("-")


def options_after_path(words: list[str]) -> bool:
    """`repolens-tui PATH --index-dir DIR`: a path, not a command, followed by more words."""
    if len(words) < 2 or words[0].startswith("-"):
        return False
    return words[0] not in cli.command_names(cli.build_parser())


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if words and words[0] in BENCH_COMMANDS and not Path(words[0]).is_dir():
        print(
            f"repolens-tui: error: {words[0]} is a benchmark command: run "
            f"`repolens-tui-bench {' '.join(words)}`",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if options_after_path(words):
        print(
            f"repolens-tui: error: the terminal UI takes one PATH and no options (got "
            f"{' '.join(words[1:])!r}). Set options in the config file or as REPOLENS_* "
            f"environment variables, e.g. REPOLENS_INDEX_DIR=DIR repolens-tui {words[0]}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if not opens_tui(words):
        return cli.main(words)
    from app.core.literal import literal
    from app.core.settings import SettingsError, load_settings
    from app.service import RepositoryError
    from app.tui.app import run

    try:
        run(Path(words[0] if words else "."), load_settings())
    except (RepositoryError, SettingsError) as error:
        print(f"repolens-tui: error: {literal(str(error))}", file=sys.stderr)
        return EXIT_ERROR
    return 0


if __name__ == "__main__":
    sys.exit(main())
