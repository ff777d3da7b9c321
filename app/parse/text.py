"""Text shaping shared by the parse layer and the chunker: signatures and doc comments cut to
size, comment markers stripped."""

from __future__ import annotations

import inspect
import re

SIGNATURE_CHARS = 300
DOC_CHARS = 600
# Markers: C-like, shell, Lua/SQL/Haskell (`-- |` and `{-| -}` are Haddock's), Lisp, HTML,
# and Elixir's doc attributes (`@doc """`, `@doc "One line."`, a closing `"""`).
_COMMENT_MARK = re.compile(
    r"^\s*(?:/\*+!?|\*+/|\*+|//+!?|#+!?|--+\s?[|^]?|\{-+\s?[|^]?|;+|<!--"
    r"|@(?:doc|moduledoc|typedoc)\s+(?:~[sS])?(?:\"\"\"|\")?|\"\"\"$)\s?"
)
_COMMENT_END = re.compile(r"\s*(?:\*+/|-->|-+\}|\"\"\")\s*$")
_ELIXIR_HEREDOC = re.compile(r'\s*@(?:doc|moduledoc|typedoc)\s+(?:~[sS])?"""')
_ELIXIR_DOC_LINE = re.compile(r'^\s*@(?:doc|moduledoc|typedoc)\s+(?:~[sS])?"(?!"")(.*)"\s*$')
# Banner rules (`//////`, `# ======`) and C# XML doc tags carry no words worth keeping.
_RULE = re.compile(r"^(?:[/*#=\-~+_]\s*){3,}|(?:\s*[/*#=\-~+_]){3,}$")
_XML_TAG = re.compile(r"</?(?:summary|remarks|returns|param|typeparam|value|para|example)\b[^>]*>")
_SPACE = re.compile(r"\s+")


def collapse(text: str, limit: int) -> str:
    """Whitespace-collapsed text cut to `limit` characters."""
    out = _SPACE.sub(" ", text).strip()
    return out if len(out) <= limit else out[: limit - 1].rstrip() + "…"


def strip_comment(text: str) -> str:
    """Comment text without its markers (//, #, /** */, --), one line per source line; an
    Elixir doc heredoc without the code's indentation."""
    if _ELIXIR_HEREDOC.match(text):
        return inspect.cleandoc(_COMMENT_END.sub("", _COMMENT_MARK.sub("", text, count=1)))
    out: list[str] = []
    for raw in text.split("\n"):
        if one_line := _ELIXIR_DOC_LINE.match(raw):
            raw = one_line.group(1)
        line = _COMMENT_END.sub("", _COMMENT_MARK.sub("", raw, count=1))
        line = _XML_TAG.sub("", _RULE.sub("", line)).rstrip()
        if line.strip() or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()


def clip_doc(text: str) -> str:
    text = text.strip()
    return text if len(text) <= DOC_CHARS else text[: DOC_CHARS - 1].rstrip() + "…"
