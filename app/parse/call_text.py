"""How the graph writes what a call is made on: a receiver with its argument lists, blocks
and string literals elided (`sm.Configure(State.A)` reads `sm.Configure()`), and a called
expression that is a qualified name split into its receiver and the called name."""

from __future__ import annotations

import re

TEXT_CHARS = 80
# Generic arguments and index brackets (`Map<K, V>`, `handlers[k]`), innermost first.
_GENERICS = re.compile(r"<[^<>]*>|\[[^\[\]]*\]")
_ANGLES = re.compile(r"<[^<>]*>")
_SPACE = re.compile(r"\s+")
# What Rust's `Vec::<T>::new`, `parse::<u32>()` leave once their generics are gone.
_TURBOFISH = re.compile(r"::(?=[(.]|$)")
_OPEN = {"(": ")", "[": "]", "{": "}"}
_QUOTES = "\"'`"
# Ruby's `expect do ... end.to`: a do-block, from its `do` to the last `end`.
_RUBY_DO_BLOCK = re.compile(r"\bdo\b.*\bend\b", re.S)
# Comments a receiver written over several lines may hold, by language, matched where one
# starts (never inside a string or a JavaScript regex literal: `"http://x".split()`).
_C_COMMENTS = re.compile(r"//[^\n]*|/\*.*?(?:\*/|$)", re.S)
_COMMENTS = {
    "python": re.compile(r"#[^\n]*"),
    "ruby": re.compile(r"#[^\n]*"),
    "php": re.compile(r"(?://|#)[^\n]*|/\*.*?(?:\*/|$)", re.S),
}
_JS_LANGUAGES = frozenset({"javascript", "typescript", "tsx"})
# After these (or at the start), a JavaScript `/` opens a regex literal, not a division.
_REGEX_AFTER = frozenset("(,=:[!&|?{};+-*%<>~^")
EMPTY_REGEX = "/(?:)/"  # what JavaScript itself prints for an empty pattern
_SEPARATOR = re.compile(r"::|\?\.|->|\.|\\")
_NAME = re.compile(r"[^\W\d]\w*")
# The receiver of Swift's `.init(...)`, `.success(x)`: the type the context expects.
IMPLICIT_MEMBER = "."
# Names that call no definition of their own when called bare (`super(props)`, `self(...)`).
_NOT_CALLEES = frozenset({"super", "self", "this", "Self", "base", "parent", "static"})
# Go's `new(T)`, whose argument is a type the receiver keeps (`new(Route).Host()`).
_GO_NEW = re.compile(r"(?:^|[^\w.])new$")
_GO_TYPE = re.compile(r"\*?[^\W\d]\w*(?:\.[^\W\d]\w*)?")


def elide(text: str, language: str = "") -> str:
    """`text` with its comments gone and the inside of each argument list, block, index and
    string literal left out (`f(a, "x").g{ it }` -> `f().g{}`); a parenthesised expression
    keeps its own text, elided alike (`(slot as Slot)`). White space stays only between two
    words (`value as Array`)."""
    if language == "ruby":
        text = _RUBY_DO_BLOCK.sub("{}", text)
    return _words_apart(_elide(_without_comments(text, language), language))


def _without_comments(text: str, language: str) -> str:
    """`text` with each comment replaced by a space; strings are kept whole whatever they
    hold (`"#fff".lower()`), a JavaScript regex literal reads as the empty one with its flags
    (`/\\/\\/[(]/g.test(s)` -> `/(?:)/g.test(s)`: a bracket in it opens no group)."""
    comment = _COMMENTS.get(language, _C_COMMENTS)
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _QUOTES and not _rust_lifetime(language, text, i):
            end = _string_end(text, i)
        elif ch == "/" and language in _JS_LANGUAGES and _opens_regex(text, i):
            end = _regex_end(text, i)
            flags = text[i:end].rsplit("/", 1)[1]
            out.append(EMPTY_REGEX + flags)  # its pattern elided as a string's text is
            i = end
            continue
        elif found := comment.match(text, i):
            out.append(" ")
            i = found.end()
            continue
        else:
            end = i + 1
        out.append(text[i:end])
        i = end
    return "".join(out)


def _opens_regex(text: str, i: int) -> bool:
    """A JavaScript `/` that starts a regex literal: not a comment, and at the start or after
    an operator or an opening bracket (after a name or a `)` it divides)."""
    if text[i + 1 : i + 2] in ("/", "*"):
        return False
    before = text[:i].rstrip()[-1:]
    return not before or before in _REGEX_AFTER


def _regex_end(text: str, start: int) -> int:
    """The index just past a regex literal's flags (its `[...]` classes may hold `/`)."""
    i, in_class = start + 1, False
    while i < len(text) and text[i] != "\n":
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        elif ch == "/" and not in_class:
            i += 1
            while i < len(text) and (text[i].isalpha()):
                i += 1
            return i
        i += 1
    return i


def _elide(text: str, language: str) -> str:
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _QUOTES and not _rust_lifetime(language, text, i):
            out.append(ch + ch)
            i = _string_end(text, i)
        elif ch in _OPEN:
            end = _group_end(text, i, language)
            written = "".join(out).rstrip()
            before = written[-1:]
            inner = text[i + 1 : end - 1].strip()
            if (
                ch == "("
                and language == "go"
                and _GO_NEW.search(written)
                and _GO_TYPE.fullmatch(inner)
            ):
                out.append("(" + inner + ")")  # Go's `new(Route)`: the type is no argument
            elif ch == "(" and not (before.isalnum() or (before and before in "_)]}>?!")):
                # `(slot as Slot).m()`: a parenthesised receiver, not arguments
                out.append("(" + _elide(text[i + 1 : end - 1], language).strip() + ")")
            else:
                out.append(ch + _OPEN[ch])
            i = end
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _group_end(text: str, start: int, language: str) -> int:
    """The index just past the bracket that closes the one at `start` (strings skipped)."""
    closers = [_OPEN[text[start]]]
    i = start + 1
    while i < len(text) and closers:
        ch = text[i]
        if ch in _QUOTES and not _rust_lifetime(language, text, i):
            i = _string_end(text, i)
            continue
        if ch in _OPEN:
            closers.append(_OPEN[ch])
        elif ch == closers[-1]:
            closers.pop()
        i += 1
    return i


def _rust_lifetime(language: str, text: str, i: int) -> bool:
    """Rust's `'a` (a lifetime or a label) opens no literal; `'a'` and `'\\n'` do."""
    if language != "rust" or text[i] != "'":
        return False
    return not (text[i + 1 : i + 2] == "\\" or text[i + 2 : i + 3] == "'")


def _string_end(text: str, start: int) -> int:
    """The index just past the literal opened at `start` (the end of text if it never closes)."""
    quote, i = text[start], start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i + 1
        i += 1
    return len(text)


def _words_apart(text: str) -> str:
    """White space dropped, but one space kept between two words (`value as Array`)."""
    parts = _SPACE.split(text.strip())
    out = parts[0] if parts else ""
    for part in parts[1:]:
        joins_words = out[-1:].isalnum() or out[-1:] == "_"
        out += (" " if joins_words and (part[:1].isalnum() or part[:1] in "_$") else "") + part
    return out


def without_generics(text: str) -> str:
    return _innermost_first(_GENERICS, text)


def _innermost_first(pattern: re.Pattern[str], text: str) -> str:
    """`text` with every match of `pattern` removed, again until none is left (nesting)."""
    prev = None
    while prev != text:
        prev, text = text, pattern.sub("", text)
    return text


def receiver_text(text: str, language: str) -> str:
    """A receiver as the graph keeps it: arguments, blocks, literals and generics elided; PHP's
    nullsafe `?->` read as `->` (the chain's types are the same)."""
    if language == "php":
        text = text.replace("?->", "->")
    text = _TURBOFISH.sub("", without_generics(elide(text, language)))
    if len(text) <= TEXT_CHARS:
        return text
    cut = max(text.rfind(sep, 0, TEXT_CHARS) for sep in (".", "->", "::"))
    return (text[:cut] if cut > 0 else text[:TEXT_CHARS]) + "…"  # a long chain, cut at a call


def split_called(text: str) -> tuple[str, str] | None:
    """(receiver, name) when a called expression is a qualified name once its generic
    arguments are gone (`CLI::detail::checked_multiply<T>`, `JsonConvert.Parse<T>`,
    `state?.ToString`, PHP's `\\is_int`); Swift's `.init` keeps `.` as its receiver (the type
    the context expects). None for anything else (`handlers[k]`, `f()`, `super`)."""
    if _innermost_first(_ANGLES, text).rstrip().endswith("]"):
        return None  # `handlers[k]()`: an element, not a name (`app["--v"]->as<T>` is one)
    text = _SPACE.sub("", without_generics(text))
    separators = list(_SEPARATOR.finditer(text))
    parts = _SEPARATOR.split(text)
    if not all(_NAME.fullmatch(p) for p in parts[1:]):
        return None
    if parts[0] and not _NAME.fullmatch(parts[0]):
        return None
    if not separators:
        return ("", text) if text not in _NOT_CALLEES else None
    last = separators[-1]
    receiver, name = text[: last.start()].lstrip("\\:"), text[last.end() :]  # `\Foo\bar`
    if not receiver:
        return (IMPLICIT_MEMBER, name) if last.group() == "." else ("", name)
    return receiver, name
