"""One identifier-aware tokenizer for the index and the query: `getUserById` -> get user by id
getuserbyid, stemmed, stop words out."""

from __future__ import annotations

import re
from functools import lru_cache

from py_rust_stemmers import SnowballStemmer

_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*|[0-9]+")
# Boundaries inside an identifier: lower->Upper, ACRONYMWord, letter<->digit.
_DOTTED = re.compile(r"\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\b")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

# English function words plus the words every question uses; none of them says what code does.
_STOP_WORD_TEXT = """
    a an and are as at be been but by can could do does did for from has have how i if in into
    is it its me my of on or our should so than that the their them then there these they this
    those to was we were what when where which while who whom why will with would you your s t
    also any some such via about after before between both each more most much other own same
    up out just only very tell implemented implement happens happen
"""
STOP_WORDS = frozenset(_STOP_WORD_TEXT.split())

_stemmer = SnowballStemmer("english")


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    return _stemmer.stem_word(word)


@lru_cache(maxsize=200_000)
def _word_tokens(word: str) -> tuple[str, ...]:
    parts = [part.lower() for part in _CAMEL.findall(word)]
    kept = [p for p in parts if (len(p) > 1 or p.isdigit()) and p not in STOP_WORDS]
    out = [_stem(part) for part in kept]
    if len(parts) > 1:
        joined = "".join(parts)
        if len(joined) > 2:
            out.append(joined)
    return tuple(out)


def name_words(name: str) -> str:
    """A definition's name in plain lower-case words, for a model that reads words, not
    identifiers: `BaseClient._redirect_method` -> "base client redirect method"."""
    return " ".join(part.lower() for part in _CAMEL.findall(name))


def tokens(text: str) -> list[str]:
    """Search tokens of any text, in order, duplicates kept (BM25 counts them)."""
    out: list[str] = []
    for word in _WORD.findall(text):
        out.extend(_word_tokens(word))
    return out


def token_text(text: str) -> str:
    """Tokens joined by spaces: what the full-text index stores and is queried with."""
    return " ".join(tokens(text))


# Other languages' member syntax between two names: Rust / C++ / PHP `Url::parse`, Ruby's
# `Class#method`, PHP's `$obj->method` and `Namespace\Class`.
_MEMBER_SYNTAX = re.compile(r"(?<=[\w$])(?:::|->|#|\\)(?=[A-Za-z_$])")


def as_dotted(text: str) -> str:
    """The text with every language's member syntax written as `Owner.member`."""
    return _MEMBER_SYNTAX.sub(".", text)


def identifiers(text: str) -> list[str]:
    """Words that look like code identifiers (camelCase, snake_case, dotted calls) in a query."""
    text = as_dotted(text)
    found: list[str] = []
    for dotted in _DOTTED.findall(text):  # `Client.send`, `os.path.join`: the member named
        member = dotted.rsplit(".", 1)[-1]
        if len(member) >= 3:
            found.append(member)
    for word in _WORD.findall(text):
        is_compound = "_" in word.strip("_") or bool(re.search(r"[a-z][A-Z]", word))
        has_digits = len(word) >= 4 and bool(re.search(r"[A-Za-z]\d|\d[A-Za-z]", word))
        is_compound = is_compound or has_digits
        if is_compound or word.startswith("$"):
            found.append(word)
    return found


def member_key(qualified_name: str) -> str:
    """The last two parts of a dotted name, lower-cased ("" when it has one part): how a
    query's `Expression.compile` meets a definition's qualified name."""
    parts = qualified_name.lower().split(".")
    return ".".join(parts[-2:]) if len(parts) > 1 else ""


# Lines of an installed-packages listing (`pip list`, `pip freeze`, "Python 3.8.1") that issue
# reports paste: hundreds of package names that say nothing about the bug. Dots delimit the
# version's parts, so a long dotted line costs linear time (no nested repeats to backtrack).
_LISTING_LINE = re.compile(
    r"^[ \t]*[A-Za-z][\w.-]*(?:\[[\w,.-]+\])?(?:[ \t]*==[ \t]*|[ \t]+)v?\d+(?:\.[\w+!-]+)+"
    r"(?:[ \t]+\S+)?[ \t\r]*$"
    r"|^[ \t]*-{3,}(?:[ \t]+-{3,})+[ \t\r]*$"
    r"|^[ \t]*Package[ \t]+Version(?:[ \t]+Location)?[ \t\r]*$",
    re.MULTILINE,
)


def without_listings(text: str) -> str:
    """The text without the lines of a pasted package listing (name and version per line)."""
    return _LISTING_LINE.sub("", text)


# Text the query quotes: `next('route')`, "trust proxy", an error message.
_QUOTED = re.compile(r"""(?<![\w`])(['"])([^'"\n]{2,80})\1""")


def quoted_texts(text: str) -> list[str]:
    """Quoted strings of the query worth finding verbatim in code (no paths, no numbers)."""
    found = []
    for _, inner in _QUOTED.findall(text):
        inner = inner.strip()
        if len(inner) >= 3 and not inner.replace(".", "").isdigit() and "/" not in inner:
            found.append(inner)
    return list(dict.fromkeys(found))


_CLASS_CALL = re.compile(r"\b([A-Z][A-Za-z0-9_]*)\(")
CONSTRUCTORS = ("__init__", "constructor")  # Python's and JavaScript's / TypeScript's


def member_names(text: str) -> list[str]:
    """`Owner.member` pairs a query spells (`Expression.compile`, `res.cookie`), by
    `member_key`, in any language's syntax (`Url::parse`, `Mash#fetch`, `$req->send()`); a
    class called as `Timeout(5.0)` names its constructor (`timeout.__init__`)."""
    text = as_dotted(text)
    pairs = [member_key(name) for name in _DOTTED.findall(text)]
    for name in dict.fromkeys(_CLASS_CALL.findall(text)):
        pairs.extend(f"{name.lower()}.{constructor}" for constructor in CONSTRUCTORS)
    return pairs
