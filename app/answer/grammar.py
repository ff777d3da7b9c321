"""The answer's shape as a llama.cpp grammar (GBNF), built per question from its excerpts:
each sentence opens with a name from excerpt k (perhaps after an article) and ends citing [k],
or the one abstention."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from app.answer.prompt import ABSTAIN_ANSWER, Excerpt

MAX_SENTENCES = 3  # the prompt asks for one to three; the grammar makes it a bound
SENTENCE_CHARS = 140  # the words between a sentence's name and its citation, at most
MIN_SENTENCE_CHARS = 8
# A name the grammar offers must look like code: repository text reaches the grammar only
# as such names, each a quoted GBNF literal.
_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*")
MAX_NAME_CHARS = 80
_CALLABLE_KINDS = frozenset({"function", "method", "constructor"})
# The sentence's words: a space, `_` (x5F, kept apart: never after a stop) or printable
# ASCII without brackets (a citation belongs at the end), backticks (a name the grammar did
# not offer) or a stop; line breaks are outside it too.
_ASCII_GLYPHS = r"\x22-\x2D\x2F-\x3E\x40-\x5A\x5C\x5E\x61-\x7E"
# Other characters only where the excerpts or the question hold them: the small model
# drifts into another script mid-sentence ("read keys as methods.通过 the macro module").
MAX_OTHER_CHARS = 256
# A sentence may open with an article before its name, as larger models write ("The
# `Limits` class ..."): without it, a model whose answers open that way found its only
# grammatical opening in the abstention, which starts with the same word.
ARTICLES = ("The", "A", "An")
# Where a sentence's opening name is: after leading space and an optional article.
OPENING_NAME = re.compile(rf"\s*(?:(?:{'|'.join(ARTICLES)}) )?`([^`\n]+)`")


def excerpt_names(excerpt: Excerpt) -> list[str]:
    """The names a sentence citing this excerpt may open with: its symbol, qualified and
    bare, with `()` for a function or method."""
    hit = excerpt.hit
    names: list[str] = []
    for name in (hit.qualified_name, hit.symbol):
        name = name.strip()
        if len(name) <= MAX_NAME_CHARS and _NAME.fullmatch(name) and name not in names:
            names.append(name)
    if hit.kind in _CALLABLE_KINDS:
        names = [f"{n}()" for n in names] + names
    return names


def _literal(text: str) -> str:
    """A GBNF string literal; `_NAME` already keeps quotes and backslashes out, and this keeps
    the grammar valid whatever reaches it."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def other_chars(texts: Sequence[str]) -> str:
    """The printable characters outside ASCII these texts use, most used first, as GBNF
    escapes (repository text never reaches the grammar as itself)."""
    counts = Counter(c for text in texts for c in text if ord(c) > 0x7E and c.isprintable())
    chosen = [c for c, _ in counts.most_common(MAX_OTHER_CHARS) if not c.isspace()]
    return "".join(f"\\U{ord(c):08X}" if ord(c) > 0xFFFF else f"\\u{ord(c):04X}" for c in chosen)


_CLOSING_CITATION = re.compile(r"\s*\[\d+\]\.?\s*$")
_JOINED_STOP = re.compile(r"[.!?](?=\S)")  # a stop inside a word: one `wordchar` with the next


def at_length_bound(sentence: str) -> bool:
    """The sentence's words reached SENTENCE_CHARS, where the grammar ends a sentence with its
    citation wherever the model was: mid-phrase as a rule ("... the keys that exist in, [1].")."""
    named = OPENING_NAME.match(sentence)
    start = named.end() if named else 1  # a document section's sentence opens with a capital
    closing = _CLOSING_CITATION.search(sentence)
    if closing is None:
        return False
    words = sentence[start : closing.start()]
    # One short of the bound too: the space the citation opens with may be the bound's last
    # character, which the grammar reads either way.
    return len(words) - len(_JOINED_STOP.findall(words)) >= SENTENCE_CHARS - 1


def answer_grammar(excerpts: Sequence[Excerpt], question: str = "", lead: bool = False) -> str:
    """GBNF for one answer over these excerpts: the abstention sentence, or one to
    MAX_SENTENCES sentences, each `name` … [k]. with `name` from excerpt k (perhaps after an
    article: The `name` … [k].). An excerpt with no
    code name (a document section) is cited by a sentence that opens with a capital. The words
    are ASCII and the other characters the excerpts or the question use. `lead`: the first
    sentence is about excerpt [1], retrieval's best hit."""
    rules: list[str] = []
    alternatives: list[str] = []
    for excerpt in excerpts:
        names = excerpt_names(excerpt)
        # A stop may come before the citation ("… them. [2]."; `closed_stops` moves it):
        # a model that ends its sentence there otherwise has to run on into a word.
        cite = f'[.!?]? " [{excerpt.n}]."'
        if names:
            choice = " | ".join(_literal(f"`{name}`") for name in names)
            rules.append(f"name{excerpt.n} ::= {choice}")
            alternatives.append(f"article? name{excerpt.n} words {cite}")
        else:
            alternatives.append(f"[A-Z] words {cite}")
    repeat = MAX_SENTENCES - 1
    other = other_chars([question, *(e.hit.text for e in excerpts)])
    first = f"( {alternatives[0]} )" if lead and alternatives else "sentence"
    return "\n".join(
        [
            f'root ::= abstain | {first} (" " sentence){{0,{repeat}}}',
            f"abstain ::= {_literal(ABSTAIN_ANSWER)}",
            "article ::= " + " | ".join(_literal(f"{a} ") for a in ARTICLES),
            "sentence ::= " + " | ".join(f"( {a} )" for a in alternatives),
            # A stop only inside a word (`a.b`, `1.5`), so that every sentence ends at its
            # citation; never `._`: a stop the model meant to end on became a run-on name no
            # excerpt holds (`entries._nested`).
            f"words ::= wordchar{{{MIN_SENTENCE_CHARS},{SENTENCE_CHARS}}}",
            f"wordchar ::= [ \\x5F{_ASCII_GLYPHS}{other}] | [.!?] [{_ASCII_GLYPHS}{other}]",
            *rules,
        ]
    )


_STOP_BEFORE_CITATION = re.compile(r"[.!?] (\[\d+\]\.)")


def closed_stops(text: str) -> str:
    """A grammar-shaped answer with each stop the model wrote before a citation moved after
    it: "… them. [2]." reads "… them [2]."."""
    return _STOP_BEFORE_CITATION.sub(r" \1", text)
