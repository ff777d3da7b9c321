"""Sentence-level checks of an answer: is each sentence cited, are its key terms and most of
its words in the excerpts it cites; has the answer degenerated (loops, the prompt's example)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from app.answer.citations import cited_numbers
from app.answer.grammar import SENTENCE_CHARS, at_length_bound
from app.answer.prompt import EXAMPLE_PHRASES, Excerpt
from app.search.tokenize import tokens

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
# The share of a sentence's words (stemmed, stop words and function words out) that must occur
# in the excerpts it cites. The 0.5B restates the question as a fact about the name it opens
# with: those words come from the question, not the excerpt. Fitted on 129 hand-labelled
# sentences (app/bench/data/answer_labels.jsonl; each corpus held out in app/bench/RESULTS.md).
WORDS_FOUND = 0.52
# English closed-class words the search's stop list lets through (prepositions, conjunctions,
# quantifiers): a fair paraphrase adds them ("decides whether", "searches through") and code
# seldom spells them, so their absence from an excerpt is no evidence. Negations stay: "not"
# and "no" change what a sentence claims.
_FUNCTION_WORD_TEXT = """
    above across against along among amongst around below beneath beside besides beyond
    despite down during except inside near off onto outside over past per since through
    toward towards under unlike until till upon within without because though although whereas
    whereby whether unless yet nor either neither else however thus hence therefore
    otherwise instead rather ever never even whenever wherever whatever whichever whoever all
    every another several many few fewer less least lot lots none anything everything something
    nothing anyone everyone someone
"""
_FUNCTION_WORDS = frozenset(_FUNCTION_WORD_TEXT.split())
# One word not found is too little to call a sentence unsupported: a short paraphrase
# ("`x` is chosen [1]") has one verb of its own (none of the labelled ones turns on it).
MIN_UNSAID = 2
# What a constrained answer says when the checks leave out every sentence the model wrote:
# not "No excerpt answers this", which would say the excerpts were read and found wanting.
# It claims nothing, so it abstains (_ABSTAIN reads "do not support").
ALL_LEFT_OUT = "The model's answer is left out: the excerpts it cites do not support what it says."
LOOP_NGRAM = 8  # words; a run this long written a third time is a loop
LOOP_REPEATS = 3
# A sentence this alike to an earlier one (rapidfuzz's normalised Indel similarity, 0-100,
# over its lower-case words) says it again: "`Clash` provides ... [2]. The `Clash` provides".
REPEATED_SENTENCE = 90
CUT_OFF = (
    f"cut off unfinished: the longest sentence an answer may write is {SENTENCE_CHARS} characters"
)
CITATION_RUN = 4  # this many citation markers in a row with no words between is a run


@dataclass(frozen=True, slots=True)
class SentenceCheck:
    """One answer sentence: the excerpts it cites, and why it is unsupported ("" if it is)."""

    text: str
    cited: tuple[int, ...]
    problem: str  # "", "no citation", "`x` is not in [n]", "[n] does not say this: …"
    claim: bool = True  # False for a sentence that says the excerpts do not answer
    # The key terms alone are in the cited excerpts (the check before the words were read).
    terms_supported: bool = True
    # Every excerpt it cites is a signature, its body left out for room: what the sentence
    # says of it can be neither found nor ruled out there.
    elided: bool = False
    # The grammar ended it at its length bound, mid-phrase: unfinished, whatever its words.
    cut: bool = False

    @property
    def supported(self) -> bool:
        return not self.problem

    def left_out(self, unsaid_too: bool) -> bool:
        """A constrained answer leaves the sentence out: a key term is missing, or (with
        `unsaid_too`) most of its words are, from excerpts not packed as signatures only;
        otherwise an unsupported sentence is kept, flagged."""
        if self.supported:
            return False
        return self.cut or not self.terms_supported or (unsaid_too and not self.elided)


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


def check_sentences(
    text: str, excerpts: Sequence[Excerpt], bounded: bool = False
) -> list[SentenceCheck]:
    """Each sentence of `text` checked against the excerpts it cites (`bounded`: written under
    the answer grammar, whose sentences stop at SENTENCE_CHARS)."""
    given = {e.n: e for e in excerpts}
    words = {e.n: set(tokens(_excerpt_text(e))) for e in excerpts}
    checks = []
    for sentence in sentences(text):
        cited = tuple(cited_numbers(sentence))
        if not cited and _ABSTAIN.search(sentence):
            checks.append(SentenceCheck(sentence, (), "", False))
            continue
        problem = _problem(sentence, cited, given)
        terms_supported = not problem
        elided = bool(cited) and all(
            n in given and given[n].hit.packed == "signature" for n in cited
        )
        if terms_supported:
            problem = _unsaid(sentence, cited, words, elided)
        cut = bounded and at_length_bound(sentence)
        if cut:
            problem = CUT_OFF
        checks.append(SentenceCheck(sentence, cited, problem, True, terms_supported, elided, cut))
    return checks


def words_found(sentence: str, found: set[str]) -> tuple[list[str], list[str]]:
    """The sentence's words outside code spans and citations, stop words and function words
    out: those whose stemmed tokens all occur in `found` (an excerpt's tokens), and the others."""
    prose = _CODE_SPAN.sub(" ", _CITATION.sub(" ", sentence))
    said: list[str] = []
    unsaid: list[str] = []
    for word in dict.fromkeys(w.lower() for w in _WORD.findall(prose)):
        parts = tokens(word) if word not in _FUNCTION_WORDS else []
        if parts:
            (said if all(p in found for p in parts) else unsaid).append(word)
    return said, unsaid


def _unsaid(sentence: str, cited: tuple[int, ...], words: dict[int, set[str]], elided: bool) -> str:
    """Why the cited excerpts do not say what the sentence says, or "": too few of its words
    are theirs (the rest often the question's own, restated as a fact)."""
    found = set().union(*(words[n] for n in cited)) if cited else set()
    said, unsaid = words_found(sentence, found)
    total = len(said) + len(unsaid)
    if len(unsaid) < MIN_UNSAID or len(said) >= WORDS_FOUND * total:
        return ""
    numbers = "".join(f"[{n}]" for n in cited)
    missing = ", ".join(unsaid[:4]) + (", …" if len(unsaid) > 4 else "")
    shown = "shows only a signature, which does not say this" if elided else "does not say this"
    return f"{numbers} {shown}: {len(said)} of {total} words are in it (not {missing})"


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
    """Why an answer is degenerate: empty, looping, a citation run, the example, unfinished.
    An answer whose repeated sentence was cut (finish "repeat") is whole as shown."""
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
    stop there; `cut` is where the loop began (the text before it is kept). A sentence that
    says again what an earlier one said is cut as soon as it ends (`repeat`): the answer
    before it is whole, and the model would most often go on to write it a third time."""

    def __init__(self) -> None:
        self.text = ""
        self.cut: int | None = None
        self.repeat = False
        self._checked = 0  # the end of the last sentence compared with those before it

    def feed(self, piece: str) -> bool:
        self.text += piece
        if self.cut is not None:
            return True
        tail = self.text[-1500:]  # loops show within a few hundred characters
        if citation_run(tail, CITATION_RUN + 1):
            self.cut = _loop_start(self.text)
        elif gram := repeated_ngram(tail):
            # The loop began in the sentence that wrote the run a second time: it goes, the
            # whole sentences before it stay.
            whole = _sentence_start(self.text, _second_copy(self.text, gram))
            self.cut = whole or _loop_start(self.text)
            self.repeat = whole > 0
        else:
            ends = [m.end() for m in _SENTENCE_CLOSED.finditer(self.text, self._checked)]
            if ends:
                self._checked = ends[-1]
                self.cut = _repeated_sentence(self.text[: ends[-1]])
                self.repeat = self.cut is not None
        return self.cut is not None


# The end of a sentence: its full stop (after its citation) before a space or the end.
_SENTENCE_CLOSED = re.compile(r"[.!?](?=\s|$)")


def _repeated_sentence(text: str) -> int | None:
    """Where the last sentence of `text` begins, when its words (citations aside) are at
    least REPEATED_SENTENCE alike to an earlier sentence's; otherwise None."""
    found = sentences(text)
    if len(found) < 2:
        return None
    last = _plain(found[-1])
    if not any(fuzz.ratio(last, _plain(earlier)) >= REPEATED_SENTENCE for earlier in found[:-1]):
        return None
    start = text.rstrip().rfind(found[-1][:20])
    return start if start > 0 else None


def _plain(sentence: str) -> str:
    return " ".join(_WORD.findall(_CITATION.sub(" ", sentence).lower()))


def _copies(text: str, gram: str) -> list[re.Match[str]]:
    """Where the run of words `gram` is written in `text`, citations and stops between its
    words as `repeated_ngram` reads them."""
    pattern = r"(?:\W|\[\s*\d+\s*\])+".join(re.escape(w) for w in gram.split())
    return list(re.finditer(pattern, text, re.IGNORECASE))


def _second_copy(text: str, gram: str) -> int:
    found = _copies(text, gram)
    return found[1].start() if len(found) > 1 else len(text)


def _sentence_start(text: str, at: int) -> int:
    """The end of the last closed sentence before `at` (0 when none is closed)."""
    ends = [m.end() for m in _SENTENCE_CLOSED.finditer(text, 0, at)]
    return ends[-1] if ends else 0


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
    found = _copies(text, gram)
    return found[1].start() if len(found) > 1 else len(text)
