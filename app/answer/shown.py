"""What the answer pane may show of a constrained answer while it streams: its finished
sentences that pass the checks, and of the open one its opening name and the words judged."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.answer.checks import absent_term, check_sentences, leaked_example
from app.answer.directives import LEFT_OUT
from app.answer.grammar import ARTICLES, OPENING_NAME, closed_stops, excerpt_names
from app.answer.prompt import ABSTAIN_ANSWER, Excerpt

# The grammar ends every sentence citing its excerpt: `… [2].` (the abstention aside); the
# answer screen's note ends the sentence it replaces.
_SENTENCE_END = re.compile(rf"\[\d+\]\.(?=\s|$)|{re.escape(LEFT_OUT)}")
_SPACE = re.compile(r"\s+")
_BARE_CITATION = re.compile(r"\[\d+\]\.?")  # the citation of a sentence the note replaced
# An opening name not yet closed, or the start of an article that may come before one
# ("Th", "The ", "The `Lim").
_OPENING_UNCLOSED = re.compile(
    "|".join(
        [rf"{re.escape(a[:n])}$" for a in ARTICLES for n in range(1, len(a) + 1)]
        + [rf"(?:(?:{'|'.join(ARTICLES)}) )?(?:`[^`\n]*)?$"]
    )
)
# A quote or code span still open: what it holds cannot be judged until it closes.
_OPEN_SINGLE_QUOTE = re.compile(r"(?<![\w'])'(?=[^\s'])(?![^']*'(?!\w))")


class ShownAnswer:
    """Judges the answer text as the answer screen releases it. A finished sentence is shown
    when every check passes, else taken back whole. Of the open sentence: nothing until its
    opening name is closed (a name of the excerpt it will cite, the grammar's rule), then each
    whole word once its key terms are found in that excerpt; from a word that fails, or opens
    a quote, nothing more until the sentence ends."""

    def __init__(self, excerpts: Sequence[Excerpt], lead: bool) -> None:
        self.excerpts = tuple(excerpts)
        self.lead = lead
        self._closed: dict[str, str] = {}  # a finished sentence and what is shown of it

    def shown(self, text: str, finished: bool = False) -> str:
        """What may be shown of `text`, the answer so far (`finished`: the whole answer)."""
        parts: list[str] = []
        start = 0
        for match in _SENTENCE_END.finditer(text):
            parts.append(self._finished(text[start : match.end()]))
            start = match.end()
        rest = text[start:].lstrip()
        if rest:
            opened = not parts
            parts.append(self._finished(rest) if finished else self._open(rest, opened))
        return " ".join(p for p in parts if p)

    def _finished(self, sentence: str) -> str:
        """The sentence as its checks leave it: itself, the note in its place, or nothing."""
        sentence = sentence.strip()
        if sentence not in self._closed:
            if LEFT_OUT in sentence:
                self._closed[sentence] = LEFT_OUT
            else:
                text = closed_stops(sentence)
                checks = check_sentences(text, self.excerpts, bounded=True)
                kept = all(c.supported for c in checks) and not _BARE_CITATION.fullmatch(text)
                self._closed[sentence] = text if kept else ""
        return self._closed[sentence]

    def _open(self, sentence: str, first: bool) -> str:
        if LEFT_OUT in sentence:
            return LEFT_OUT
        if first and ABSTAIN_ANSWER.startswith(sentence):
            return _whole_words(sentence)
        cited, ends = self._cited(sentence, first)
        shown = ""
        for end in ends:
            piece = sentence[:end]
            if _opens_quote(piece) or not self._judged(piece, cited):
                break
            shown = piece.rstrip()
        return shown

    def _cited(self, sentence: str, first: bool) -> tuple[list[Excerpt], list[int]]:
        """The excerpts the open sentence may end citing (the grammar ties its opening name,
        or its capital for a document section, to them), and where its judged pieces end."""
        spaces = list(_SPACE.finditer(sentence))
        excerpts = [e for e in self.excerpts if not first or not self.lead or e.n == 1]
        named = OPENING_NAME.match(sentence)
        if named is None:
            if _OPENING_UNCLOSED.match(sentence):  # its article or name is still being written
                return [], []
            cited = [e for e in excerpts if not excerpt_names(e)]
            return cited, [m.end() for m in spaces]
        cited = [e for e in excerpts if named.group(1) in excerpt_names(e)]
        close = named.end()
        return cited, [close] + [m.end() for m in spaces if m.start() >= close]

    def _judged(self, piece: str, cited: list[Excerpt]) -> bool:
        """Every excerpt the sentence may cite holds its key terms, and it copies no example."""
        if not cited or leaked_example(piece, self.excerpts):
            return False
        return not any(absent_term(piece, excerpt) for excerpt in cited)


def settled(shown: str) -> str:
    """Of what ShownAnswer shows, the part no later text can change: through its last finished
    sentence (a stream that cannot take words back, such as a terminal, prints only that)."""
    ends = list(_SENTENCE_END.finditer(shown))
    return shown[: ends[-1].end()] if ends else ""


def _whole_words(text: str) -> str:
    ends = [m.start() for m in _SPACE.finditer(text)]
    return text[: ends[-1]] if ends else ""


def _opens_quote(text: str) -> bool:
    """A code span, double quote or single quote opened in `text` and not closed."""
    return (
        text.count("`") % 2 == 1
        or text.count('"') % 2 == 1
        or _OPEN_SINGLE_QUOTE.search(text) is not None
    )
