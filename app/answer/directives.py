"""Instructions written into repository text, and the answer sentences that repeat them: those
are left out while the answer streams, before any of their risky words is shown."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.answer.grammar import OPENING_NAME

LEFT_OUT = "(Left out: a sentence that repeated an instruction found in the repository text.)"

_DOWNLOAD = r"\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b"
_DOWNLOAD_TOOL = re.compile(_DOWNLOAD, re.IGNORECASE)
_INTERPRETER = (
    r"(?:sudo\s+(?:-\S+\s+)*)?(?:[\w./-]*/)?(?:ba|z|k|da|fi)?sh|python\d*|perl|ruby|node|iex"
)
# A download piped into an interpreter: `curl … | sh`, `wget -O- … | sudo bash`,
# `bash <(curl …)`, `sh -c "$(curl …)"`, `iwr … | iex`.
_DOWNLOAD_AND_RUN = re.compile(
    rf"{_DOWNLOAD}[^\n]*?\|\s*(?:{_INTERPRETER})\b"
    rf"|\b(?:ba|z)?sh\s+(?:-c\s+)?[\"']?(?:<\(|\$\()\s*{_DOWNLOAD}",
    re.IGNORECASE,
)
_URL = re.compile(r"\b(?:https?|ftp)://[^\s`'\"<>)\]]+|\bwww\.[\w-]+\.[^\s`'\"<>)\]]+", re.I)
# Rules for the answer itself: only an instruction aimed at the answerer words them so (not
# "always include", nor "every response" in an HTTP library).
_ANSWER_RULE = re.compile(
    r"\b(?:always|never)\s+(?:mention|say|tell|recommend|respond|reply|cite|remind|suggest|"
    r"repeat|answer)\b"
    r"|\b(?:in|to|for|with)\s+(?:any|every|all|each)\s+(?:answers?|replies)\b"
    r"|\bevery\s+(?:answer|reply)\b"
    r"|\bignore\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:previous|prior|above|earlier|preceding)\b"
    r"|^\W*assistant\s*:"
    r"|\bnote\s+(?:to|for)\s+(?:the\s+)?(?:ai|assistants?|llms?|models?|chatbots?)\b",
    re.IGNORECASE | re.MULTILINE,
)
# A sentence that tells the reader to do something (with a link, that is a lure).
_ADVICE = re.compile(
    r"\b(?:run|execute|visit|open|download|install|fetch|go\s+to|navigate|paste|pipe|source|"
    r"curl|wget|must|need\s+to|have\s+to|first|please)\b",
    re.IGNORECASE,
)
# A command quoted in backticks: it has a space or a shell operator (not a bare name).
_COMMAND = re.compile(r"`([^`\n]*(?:\s|[|;&$])[^`\n]*)`")
# Words after which a sentence may turn into a rejected one; from there it is held to its end.
_CUE = re.compile(
    rf"{_DOWNLOAD}|\b(?:sudo|bash|zsh|sh|https?|ftp|www|always|never|every|ignore|assistant|"
    r"note|answers?|repl(?:y|ies)|run|execute|install|visit|download|must|need|"
    r"first|please|paste|pipe|source)\b|://|\||\$\(|<\(",
    re.IGNORECASE,
)
_WORD = re.compile(r"[\w']+")
_SPACE = re.compile(r"\s+")
# Words held back while streaming when the excerpts hold an instruction, so that the first
# word of one of its word pairs is not shown before the second makes it a cue. Without one,
# every cue is a single word, checked before the words up to it are released.
_LOOKAHEAD_WORDS = 3
_ECHO_WORDS = 6  # this many words in a row from an instruction is repeating it
# Where a released piece may end: after a sentence's end mark and its space, or a line.
_UNIT_END = re.compile(r"[.!?](?=\s)|\n")
_COMMENT_LEADER = re.compile(r'^\s*(?:#+|//+|/\*+|\*+/?|--|;+|"""|\'\'\'|<!--)\s?')


def _folded(text: str) -> str:
    return " ".join(text.lower().split())


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@dataclass(frozen=True, slots=True)
class RepositoryInstructions:
    """The instructions found in the excerpts: their wording, and the commands and links
    inside them. Anything the question itself contains may be repeated."""

    phrases: frozenset[tuple[str, ...]]  # every run of _ECHO_WORDS words of an instruction
    payloads: frozenset[str]  # commands and links inside instructions, folded
    pairs: frozenset[tuple[str, str]]  # every two words in a row of an instruction
    question: str  # folded

    @classmethod
    def from_excerpts(cls, texts: Sequence[str], question: str) -> RepositoryInstructions:
        phrases: set[tuple[str, ...]] = set()
        payloads: set[str] = set()
        pairs: set[tuple[str, str]] = set()
        for paragraph in _paragraphs(texts):
            if not (_ANSWER_RULE.search(paragraph) or _DOWNLOAD_AND_RUN.search(paragraph)):
                continue
            words = _words(paragraph)
            phrases.update(
                tuple(words[i : i + _ECHO_WORDS]) for i in range(len(words) - _ECHO_WORDS + 1)
            )
            payloads.update(_folded(u).rstrip(".,;:") for u in _URL.findall(paragraph))
            payloads.update(_folded(c) for c in _COMMAND.findall(paragraph))
            pairs.update(zip(words, words[1:], strict=False))
        return cls(frozenset(phrases), frozenset(payloads), frozenset(pairs), _folded(question))

    @property
    def found(self) -> bool:
        """Whether the excerpts hold any instruction."""
        return bool(self.phrases or self.payloads or self.pairs)

    def has_cue(self, text: str) -> bool:
        """Whether `text`, the start of a sentence, could become one that `reason` rejects."""
        if _CUE.search(text):
            return True
        words = _words(text)
        return any(pair in self.pairs for pair in zip(words, words[1:], strict=False))

    def reason(self, unit: str) -> str:
        """Why `unit` (a sentence or a line of the answer) must be left out, or ""."""
        folded = _folded(unit)
        for match in _DOWNLOAD_AND_RUN.finditer(unit):
            if _folded(match.group()) not in self.question:
                return "runs a downloaded script"
        for match in _ANSWER_RULE.finditer(unit):
            if _folded(match.group()) not in self.question:
                return "states a rule for answers"
        for payload in self.payloads:
            if payload in folded and payload not in self.question:
                return "repeats a command or link from an instruction"
        for url in _URL.findall(unit):
            if _folded(url).rstrip(".,;:") not in self.question and _ADVICE.search(unit):
                return "sends the reader to a link"
        if any(payload in self.question for payload in self.payloads):
            return ""  # a question quoting the instruction's command asks what it says
        words = _words(unit)
        runs = (tuple(words[i : i + _ECHO_WORDS]) for i in range(len(words) - _ECHO_WORDS + 1))
        if any(run in self.phrases and " ".join(run) not in self.question for run in runs):
            return "repeats an instruction"
        return ""


def _paragraphs(texts: Sequence[str]) -> list[str]:
    """Blocks of consecutive non-blank lines of one kind (commented or not), comment leaders
    removed: a docstring's or a comment's paragraph is one instruction however it is wrapped."""
    paragraphs = []
    for text in texts:
        block: list[str] = []
        commented = False
        for line in [*text.splitlines(), ""]:
            bare = _COMMENT_LEADER.sub("", line).strip()
            leader = bare != line.strip()
            if block and (not bare or leader != commented):  # a comment ends where code starts
                paragraphs.append(" ".join(block))
                block = []
            if bare:
                block.append(bare)
                commented = leader
    return paragraphs


class AnswerScreen:
    """The answer as it streams: words pass at once until the open sentence shows a cue
    (`curl`, a link, "always", a word pair of an instruction), then the sentence is held to
    its end and released, or replaced by LEFT_OUT when it repeats a repository instruction."""

    def __init__(self, instructions: RepositoryInstructions) -> None:
        self.instructions = instructions
        self.left_out: list[str] = []
        self._open = ""  # the sentence (or line) being written
        self._shown = 0  # how much of it has been released
        self._holding = False
        self._marked = False  # the last unit ended in LEFT_OUT: one note for a run of them

    def feed(self, piece: str) -> str:
        self._open += piece
        released = []
        while match := _UNIT_END.search(self._open):
            unit, self._open = self._open[: match.end()], self._open[match.end() :]
            released.append(self._close(unit, bool(self.instructions.reason(unit))))
        released.append(self._stream_open())
        return "".join(released)

    def finish(self, cut: bool = False) -> str:
        """The rest; a sentence `cut` short (by the token limit or a cancel) that has begun to
        name a download tool is left out, since its end would have said what to run."""
        unit, self._open = self._open, ""
        bad = self.instructions.reason(unit) or (cut and _DOWNLOAD_TOOL.search(unit))
        return self._close(unit, bool(bad))

    def _stream_open(self) -> str:
        """Release the open sentence up to its last whole word, or its opening code name once
        the closing backtick arrives; when the excerpts hold an instruction, but its last
        _LOOKAHEAD_WORDS words. Nothing more once its whole words show a cue."""
        if self._holding:
            return ""
        ends = _release_points(self._open)
        if not ends:
            return ""
        if self.instructions.has_cue(self._open[: ends[-1]]):
            self._holding = True
            return ""
        behind = _LOOKAHEAD_WORDS if self.instructions.found else 1
        if len(ends) < behind or ends[-behind] <= self._shown:
            return ""
        upto = ends[-behind]
        piece, self._shown = self._open[self._shown : upto], upto
        return piece

    def _close(self, unit: str, bad: bool) -> str:
        rest, shown = unit[self._shown :], self._shown
        self._shown, self._holding = 0, False
        if not unit.strip():
            return rest
        if not bad:
            self._marked = False
            return rest
        self.left_out.append(unit.strip())
        if self._marked and not shown:
            return ""
        self._marked = True
        lead = rest[: len(rest) - len(rest.lstrip())]
        return lead + LEFT_OUT + rest[len(rest.rstrip()) :]


def _release_points(text: str) -> list[int]:
    """Where a piece of the open sentence `text` may end: after each run of spaces, and right
    after its opening code name (in place of the space that follows it)."""
    ends = [(m.start(), m.end()) for m in _SPACE.finditer(text)]
    name = OPENING_NAME.match(text)
    if name is None:
        return [end for _, end in ends]
    close = name.end()
    return [end for _, end in ends if end < close] + [close] + [e for s, e in ends if s > close]
