"""Repository files that try to reach the terminal: shared by the CLI and the TUI tests."""

from __future__ import annotations

OSC52 = "\x1b]52;c;cHduZWQ=\x1b\\"  # sets the clipboard to "pwned"
HOSTILE_FILES = {
    "CLIP.md": f"# Clipboard {OSC52} heading\n\nclipboard osc text\n",
    "TITLE.md": "# Title \x1b]0;pwned\x07 and \x9b2J csi \u202eflipped\n\ntitle osc words\n",
    "GUIDE.rst": f"Guide {OSC52} title\n{'=' * 40}\n\nguide rst words\n",  # a section title
    "NOTES.adoc": "= Notes \x1b[2J here\n\nnotes adoc words\n",
    "\x1b[2J.py": (
        "def clear_screen_helper():\n"
        '    return "\x1b[31m".join(["clear screen words"])\n'
        "\n\n"
        "def caller_of_helper():\n"
        "    return clear_screen_helper()\n"
    ),
    "\x1b]0;bin\x07.py": "\x00\x01binary\x00",  # skipped as binary, its name listed
}
