"""Sentence-level checks of an answer: is each sentence cited and are its key terms in the
excerpts it cites; has the answer degenerated (loops, citation runs, the prompt's example)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.answer.citations import cited_numbers
from app.answer.prompt import EXAMPLE_PHRASES, Excerpt

# A sentence ends at `.`, `!` or `?` before a space, or at a line break.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_CITATION = re.compile(r"\[\s*\d{1,4}(?:\s*[,\-–]\s*\d{1,4})*\s*\]")
# Citations written after the end mark (`… a GET. [2]`) belong to the sentence they follow.
_CITED_AFTER_END = re.compile(rf"([.!?])((?:\s*{_CITATION.pattern})+)")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_QUOTED = re.compile(r"\"([^\"\n]{1,40})\"|(?<!\w)'([^'\n]{1,40})'(?!\w)")
# `$` may open a name (zod's `$ZodURL`, PHP's `$this`): the grammar offers such names, and
# read from its second character the name is no whole word of the excerpt that holds it.
_IDENT = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")
_WORD = re.compile(r"\w+")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
# Words that say the excerpts do not answer: such a sentence makes no claim to cite.
_ABSTAIN = re.compile(
    r"\b(?:do(?:es)?\s+not|don't|doesn't|cannot|can't|no)\s+(?:\w+\s+){0,4}?"
    r"(?:contain|answer|say|show|mention|include|provide|cover|describe|information|"
    r"excerpts?|support|indicate|specify|appear)\b"
    r"|\bnot\s+(?:\w+\s+){0,3}(?:in|from)\s+(?:the\s+)?(?:given\s+|provided\s+)?excerpts?\b"
    r"|\bnone\s+of\s+the\s+excerpts\b|\bthere\s+is\s+no\b",
    re.IGNORECASE,
)
LOOP_NGRAM = 8  # words; a run this long written a third time is a loop
LOOP_REPEATS = 3
CITATION_RUN = 4  # this many citation markers in a row with no words between is a run


@dataclass(frozen=True, slots=True)
class SentenceCheck:
    """One answer sentence: the excerpts it cites, and why it is unsupported ("" if it is)."""

    text: str
    cited: tuple[int, ...]
    problem: str  # "", "no citation", "cites [n], which it was not given", "`x` is not in [n]"
    claim: bool = True  # False for a sentence that says the excerpts do not answer

    @property
    def supported(self) -> bool:
        return not self.problem


def sentences(text: str) -> list[str]:
    """The answer's sentences and list items, in order; a lone citation joins the one before."""
    out: list[str] = []
    text = _CITED_AFTER_END.sub(r"\2\1", _strip_code_blocks(text))
    for piece in _SENTENCE_END.split(text):
        piece = _BULLET.sub("", piece).strip()
        if not piece:
            continue
        if out and not _WORD.search(_CITATION.sub(" ", piece)):
            out[-1] = f"{out[-1]} {piece}"
        elif _WORD.search(piece):
            out.append(piece)
    return out


def _strip_code_blocks(text: str) -> str:
    return re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL)


def key_terms(sentence: str) -> set[str]:
    """What a sentence asserts that an excerpt can be checked for: identifiers (in backticks,
    snake_case, camelCase, dotted, called), numbers and short quoted strings."""
    bare = _CITATION.sub(" ", sentence)
    terms: set[str] = set()
    for span in _CODE_SPAN.findall(bare):
        terms.update(m.group().removesuffix("()") for m in _IDENT.finditer(span))
        terms.update(_NUMBER.findall(span))
    prose = _CODE_SPAN.sub(" ", bare)
    for match in _QUOTED.finditer(prose):
        terms.add((match.group(1) or match.group(2)).strip())
    prose = _QUOTED.sub(" ", prose)
    for match in _IDENT.finditer(prose):
        word = match.group()
        if _looks_like_code(word):
            terms.add(word.removesuffix("()"))
    terms.update(_NUMBER.findall(prose))
    return {t for t in terms if t}


def _looks_like_code(word: str) -> bool:
    """Called, snake_case, dotted or camelCase: a name the answer asserts. Acronyms are not:
    the answers restate the question's `URL` or `OPTIONS` far more often than they invent
    one (measured on 8 dev answers, all 8 flagged)."""
    core = word.removesuffix("()")
    return (
        word.endswith("()")
        or "_" in core.strip("_")
        or "." in core
        or bool(re.search(r"[a-z][A-Z]", core))
    )


def _occurs(term: str, haystack: str) -> bool:
    """A term occurs when each of its dotted parts does (`Response.text` is `text` in class
    `Response`'s excerpt), as a whole word (`3` is not in `303`), case-insensitively."""
    parts = [p for p in term.lower().split(".") if p] if _IDENT.fullmatch(term) else [term.lower()]
    return all(
        re.search(rf"(?<![\w$]){re.escape(part)}(?![\w$])", haystack) is not None for part in parts
    )


def check_sentences(text: str, excerpts: Sequence[Excerpt]) -> list[SentenceCheck]:
    given = {e.n: e for e in excerpts}
    checks = []
    for sentence in sentences(text):
        cited = tuple(cited_numbers(sentence))
        checks.append(SentenceCheck(sentence, cited, _problem(sentence, cited, given)))
    return [
        c if c.cited or not _ABSTAIN.search(c.text) else SentenceCheck(c.text, (), "", False)
        for c in checks
    ]


def _problem(sentence: str, cited: tuple[int, ...], given: dict[int, Excerpt]) -> str:
    if leaked_example(sentence, given.values()):
        return "copies the prompt's made-up example"
    if not cited:
        return "no citation"
    missing = [n for n in cited if n not in given]
    if missing:
        return f"cites [{missing[0]}], which it was not given"
    haystack = "\n".join(_excerpt_text(given[n]) for n in cited).lower()
    absent = sorted(t for t in key_terms(sentence) if not _occurs(t, haystack))
    if absent:
        numbers = "".join(f"[{n}]" for n in cited)
        return f"`{absent[0]}` is not in {numbers}"
    return ""


def absent_term(text: str, excerpt: Excerpt) -> str:
    """The first key term of `text` (a sentence or its beginning) that `excerpt` lacks, or ""."""
    haystack = _excerpt_text(excerpt).lower()
    return next((t for t in sorted(key_terms(text)) if not _occurs(t, haystack)), "")


def _excerpt_text(excerpt: Excerpt) -> str:
    hit = excerpt.hit
    return f"{hit.path} {hit.qualified_name} {hit.symbol}\n{hit.text}"


def abstains(text: str) -> bool:
    """The answer says the excerpts do not answer, and claims nothing cited beside that."""
    found = sentences(text)
    return bool(found) and bool(_ABSTAIN.search(found[0])) and not cited_numbers(text)


def repeated_ngram(text: str, n: int = LOOP_NGRAM, repeats: int = LOOP_REPEATS) -> str:
    """The first run of `n` words written `repeats` times (a loop), or ""."""
    words = _WORD.findall(_CITATION.sub(" ", text).lower())
    counts = Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))
    for gram, count in counts.items():
        if count >= repeats:
            return " ".join(gram)
    return ""


def citation_run(text: str, length: int = CITATION_RUN) -> bool:
    """Citation markers one after another with no words between (`[4] [5] [6] [7]`)."""
    run = rf"(?:{_CITATION.pattern}[\s,;.]*){{{length},}}"
    return re.search(run, text) is not None


def leaked_example(text: str, excerpts: Iterable[Excerpt]) -> str:
    """A phrase of the prompt's own worked example that the excerpts do not contain, or ""."""
    given = " ".join(e.hit.text for e in excerpts).lower()
    folded = text.lower()
    for phrase in EXAMPLE_PHRASES:
        if phrase in folded and phrase not in given:
            return phrase
    return ""


def degeneration(text: str, excerpts: Sequence[Excerpt], finish: str) -> list[str]:
    """Why an answer is degenerate: empty, looping, a citation run, the example, unfinished."""
    reasons = []
    if not _WORD.search(text):
        reasons.append("empty")
    if gram := repeated_ngram(text):
        reasons.append(f"repeats '{gram}'")
    if citation_run(text):
        reasons.append("a run of citations")
    if phrase := leaked_example(text, excerpts):
        reasons.append(f"the prompt's example ('{phrase}')")
    if finish in {"length", "loop"} or text.rstrip().endswith(("[", ",")):
        reasons.append("unfinished" if finish != "loop" else "stopped in a loop")
    return reasons


class LoopGuard:
    """Watches the answer as it streams and says when it has begun to loop, so generation can
    stop there; `cut` is where the loop began (the text before it is kept)."""

    def __init__(self) -> None:
        self.text = ""
        self.cut: int | None = None

    def feed(self, piece: str) -> bool:
        self.text += piece
        if self.cut is not None:
            return True
        tail = self.text[-1500:]  # loops show within a few hundred characters
        if citation_run(tail, CITATION_RUN + 1) or repeated_ngram(tail):
            self.cut = _loop_start(self.text)
        return self.cut is not None


def _loop_start(text: str) -> int:
    """Where the repetition begins: the second copy of the repeated run, or the citation run's
    second citation (its first may well end a sentence)."""
    run = re.search(rf"(?:{_CITATION.pattern}[\s,;.]*){{{CITATION_RUN},}}", text)
    if run is not None:
        markers = list(_CITATION.finditer(text, run.start(), run.end()))
        return markers[1].start() if len(markers) > 1 else run.start()
    gram = repeated_ngram(text, repeats=2)
    if not gram:
        return len(text)
    pattern = r"(?:\W|\[\s*\d+\s*\])+".join(re.escape(w) for w in gram.split())
    found = list(re.finditer(pattern, text, re.IGNORECASE))
    return found[1].start() if len(found) > 1 else len(text)
