"""Repository text is shown as written: nothing in a name or heading drives the terminal."""

from __future__ import annotations

import json

import pytest

from app.contracts import json_text
from app.core.literal import literal

OSC52 = "\x1b]52;c;cHduZWQ=\x1b\\"  # sets the clipboard to "pwned"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (f"# Clipboard {OSC52} heading", "# Clipboard \\x1b]52;c;cHduZWQ=\\x1b\\ heading"),
        ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),
        ("\x1b[2J.py", "\\x1b[2J.py"),
        ("del\x7f nul\x00", "del\\x7f nul\\x00"),
        ("c1 \x9b2J \x85 \x80", "c1 \\x9b2J \\x85 \\x80"),
        ("evil\u202etxt.py \u2066x\u2069", "evil\\u202etxt.py \\u2066x\\u2069"),
        ("a\tb\nc\rd", "a\\x09b\\x0ac\\x0dd"),
        ("bad byte \udcff", "bad byte \\xff"),
        ("café ünïcode 名前 [bold]", "café ünïcode 名前 [bold]"),
    ],
)
def test_literal_makes_every_acted_on_character_visible(raw: str, shown: str) -> None:
    assert literal(raw) == shown


def test_literal_keeps_tabs_and_newlines_of_a_multi_line_text() -> None:
    code = "def f():\n\treturn '\x1b[31m'\r\n"
    assert literal(code, multiline=True) == "def f():\n\treturn '\\x1b[31m'\\x0d\n"


def _acted_on(char: str) -> bool:
    """What a terminal acts on or reorders: C0, DEL, C1, bidi controls, lone surrogates."""
    code = ord(char)
    return (
        code < 0x20
        or 0x7F <= code <= 0x9F
        or 0x202A <= code <= 0x202E
        or 0x2066 <= code <= 0x2069
        or 0xD800 <= code <= 0xDFFF
    )


def test_literal_leaves_nothing_a_terminal_acts_on() -> None:
    every = "".join(chr(c) for c in range(0x2100)) + "\ud800\udcff"
    assert not [c for c in literal(every) if _acted_on(c)]
    kept = [c for c in literal(every, multiline=True) if _acted_on(c)]
    assert kept == ["\t", "\n"]
    literal(every).encode("utf-8")  # a lone surrogate would raise here


def test_json_text_escapes_c1_controls_and_keeps_the_data() -> None:
    payload = {"path": "\x9b2J.py", "symbol": f"# {OSC52} \u202e", "name": "名前 é"}
    dumped = json_text(payload)
    assert not any(0x80 <= ord(c) <= 0x9F for c in dumped)
    assert "\x1b" not in dumped and "\u202e" not in dumped
    assert "\\u009b2J.py" in dumped and "名前 é" in dumped  # other text stays readable
    assert json.loads(dumped) == payload
    dumped.encode("utf-8")


def test_json_text_keeps_an_undecodable_path_byte_as_data() -> None:
    dumped = json_text({"path": "bad\udcff.py"})
    assert json.loads(dumped) == {"path": "bad\udcff.py"}
    dumped.encode("utf-8")
