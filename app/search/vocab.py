"""The repository's own prose-to-code vocabulary, mined from its documented definitions: the
doc words that go with a name's words (`create the instances at start` -> eager, instanc)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from app.search.tokenize import name_words, tokens

MIN_PAIRS = 3  # definitions a doc word and a name word must share: fewer is chance
MIN_LIFT = 4.0  # how much more often than chance they must meet
MOST_WORDS = 3  # code words kept per prose word
MIN_LENGTH = 3  # shorter doc words (`id`, `ok`) say too little to be mapped

Vocabulary = Mapping[str, tuple[str, ...]]


def mine(names: Iterable[str | None], docs: Iterable[str | None]) -> dict[str, tuple[str, ...]]:
    """Per doc word, the name words that go with it in the definitions holding both, best
    first: those met in at least MIN_PAIRS definitions and MIN_LIFT times more often than
    their counts alone would give (pointwise mutual information), a word never mapped to
    itself."""
    doc_counts: Counter[str] = Counter()
    name_counts: Counter[str] = Counter()
    pairs: Counter[tuple[str, str]] = Counter()
    documented = 0
    for name, doc in zip(names, docs, strict=True):
        if not name or not doc:
            continue
        # The name's words, not the whole name joined (`getuserbyid`): a question never
        # holds that one.
        code = set(tokens(name)) - {name_words(name).replace(" ", "")}
        prose = {w for w in tokens(doc) if len(w) >= MIN_LENGTH and w.isalpha()} - code
        if not code or not prose:
            continue
        documented += 1
        doc_counts.update(prose)
        name_counts.update(code)
        pairs.update((w, c) for w in prose for c in code)
    scored: dict[str, list[tuple[float, str]]] = {}
    for (word, code_word), together in pairs.items():
        if together < MIN_PAIRS:
            continue
        lift = together * documented / (doc_counts[word] * name_counts[code_word])
        if lift >= MIN_LIFT:
            # Ranked by how often they meet, weighed by how much that beats chance.
            scored.setdefault(word, []).append((together * math.log(lift), code_word))
    return {
        word: tuple(c for _, c in sorted(found, key=lambda s: (-s[0], s[1]))[:MOST_WORDS])
        for word, found in scored.items()
    }


def expansions(
    words: list[str], vocabulary: Vocabulary, named: Callable[[str], int], few: int
) -> dict[str, tuple[str, ...]]:
    """The query words that `few` or fewer names hold (`named`: how many names hold a
    word), each with its mined code words that the query does not already hold."""
    asked = set(words)
    found: dict[str, tuple[str, ...]] = {}
    for word in dict.fromkeys(words):
        if word not in vocabulary or named(word) > few:
            continue
        code = tuple(c for c in vocabulary.get(word, ()) if c not in asked)
        if code:
            found[word] = code
    return found
