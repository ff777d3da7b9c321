"""The repository's prose-to-code vocabulary: doc words mined against name words, and a
question's word that no name holds meeting the names its mined code words are in."""

from __future__ import annotations

from collections.abc import Callable

from app.search import vocab
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

EAGER = {
    "eager_load_modules": "Loaded at start, before any request.",
    "eager_open_pool": "Opened at start so that the first call is fast.",
    "eager_warm_cache": "Filled at start with the defaults.",
}
# Documented definitions that share nothing with the eager ones: chance's baseline.
OTHERS = {
    "read_settings": "Reads the settings file.",
    "write_report": "Writes the report to disk.",
    "parse_header": "Splits a header line into a name and a value.",
    "format_date": "Formats a date the way the log wants it.",
    "send_mail": "Sends a mail to the owner.",
    "hash_password": "Hashes a password with a random salt.",
    "merge_lists": "Merges two sorted lists into one.",
    "count_words": "Counts the words of a text.",
    "resize_image": "Resizes an image to the given width.",
    "close_socket": "Closes the socket and forgets it.",
}


def _source(functions: dict[str, str]) -> str:
    return "".join(
        f'def {name}():\n    """{doc}"""\n    return {name!r}\n\n\n'
        for name, doc in functions.items()
    )


def test_a_doc_word_maps_to_the_name_words_it_keeps_company_with() -> None:
    functions = {**EAGER, **OTHERS}
    mined = vocab.mine(list(functions), list(functions.values()))
    assert mined["start"] == ("eager",)
    assert "password" not in mined  # met once: too few to tell from chance


def test_a_question_word_no_name_holds_meets_the_mined_names(indexed: Indexed) -> None:
    service = indexed({"boot.py": _source(EAGER), "misc.py": _source(OTHERS)})
    hits = service.search("what gets prepared when the program starts?", k=10).hits
    expanded = [h for h in hits if h.explanation.expanded_rank is not None]
    assert {h.symbol for h in expanded} == set(EAGER), [h.symbol for h in hits]
    assert all(h.explanation.expanded == ("start -> eager",) for h in expanded)
    assert "expanded #" in expanded[0].explanation.summary()
    assert "(start -> eager)" in expanded[0].explanation.summary()
