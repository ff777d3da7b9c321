"""Repository text shown as written: characters a terminal would act on (controls, bidi
overrides, undecodable bytes) become visible escapes such as `\\x1b` and `\\u202e`."""

from __future__ import annotations

import re

# C0 controls, DEL, C1 controls (U+009B is a one-character CSI), the bidi embeddings,
# overrides and isolates (they reorder what follows on screen), and lone surrogates
# (an undecodable byte of a file name; printing one raises UnicodeEncodeError).
_BEYOND_C0 = r"\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_SINGLE_LINE = re.compile(rf"[\x00-\x1f{_BEYOND_C0}]")
_MULTI_LINE = re.compile(rf"[\x00-\x08\x0b-\x1f{_BEYOND_C0}]")  # tab, newline kept
_ESCAPED_BYTE = range(0xDC80, 0xDD00)  # how surrogateescape stores bytes 0x80-0xff


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code in _ESCAPED_BYTE:
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def literal(text: str, *, multiline: bool = False) -> str:
    """`text` safe to print or draw: nothing in it moves the cursor, sets a title or the
    clipboard, or reorders the line. `multiline` keeps tabs and newlines (code, a file's
    text); otherwise they too are escaped, so a name stays on its one line."""
    pattern = _MULTI_LINE if multiline else _SINGLE_LINE
    return pattern.sub(_visible, text)
