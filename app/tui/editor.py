"""The person's editor (`$VISUAL` or `$EDITOR`) opened at a line, and what went wrong."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path


def editor_command(path_in: Path, line: int) -> list[str]:
    """`$VISUAL` or `$EDITOR` (with its own arguments) opening `path_in` at `line`."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    return [*shlex.split(editor), f"+{line}", str(path_in)]


def run_editor(command: list[str], *, interactive: bool = True) -> str:
    """Run the editor and wait; a one-line problem for the person, or ""."""
    try:
        stdin = None if interactive else subprocess.DEVNULL
        subprocess.run(command, check=False, stdin=stdin)
    except FileNotFoundError:
        return f"The editor `{command[0]}` was not found: set $EDITOR (or $VISUAL)."
    except OSError as error:
        return f"The editor `{command[0]}` could not start: {error.strerror or error}."
    return ""
