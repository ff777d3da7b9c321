"""Each documented definition's second vector, of its words (kind, name, owner, path, doc),
not its body: a question in plain English meets a definition whose code reads as noise."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.search import corpus
from app.search.words import word_text
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

# The function asked about: its doc says what it does, its body is mostly bookkeeping.
EXPAND = '''def expand_user_home(raw, env=None, fallback=None, strict=False):
    """Replace a leading tilde with the current user's home directory."""
    env = dict(env or {})
    parts = raw.split("/")
    head = parts[0]
    if not head.startswith("~"):
        return raw
    name = head[1:]
    base = env.get("HOME") if not name else env.get("HOME_" + name.upper())
    if base is None:
        if strict:
            raise KeyError(name)
        base = fallback if fallback is not None else head
    rest = [p for p in parts[1:] if p]
    seen, kept = set(), []
    for part in rest:
        if part == "." or (part in seen and part.startswith("@")):
            continue
        if part == ".." and kept:
            kept.pop()
            continue
        seen.add(part)
        kept.append(part)
    if strict and any(part.startswith("$") for part in kept):
        raise ValueError([part for part in kept if part.startswith("$")])
    encoded = [part.encode("utf-8", "surrogateescape").decode("utf-8", "replace") for part in kept]
    joined = "/".join([base.rstrip("/")] + encoded)
    if raw.endswith("/") and not joined.endswith("/"):
        joined += "/"
    return joined
'''
# Neighbours on the same words with short bodies, which their code vectors are mostly about.
OTHERS = {
    "paths/home.py": '''def home_directory(env):
    """The current user's home directory, from the environment."""
    return env.get("HOME", "/")
''',
    "paths/backup.py": '''def strip_tilde(name):
    """Remove the trailing tilde of a backup file's name."""
    return name[:-1] if name.endswith("~") else name
''',
    "paths/prefix.py": '''def replace_prefix(path, old, new):
    """Replace a leading prefix of a path with another one."""
    return new + path[len(old):] if path.startswith(old) else path
''',
}
QUESTION = "replace the tilde with the home directory of the current user"


def test_the_word_text_says_what_the_definition_is_and_leaves_its_body_out() -> None:
    text = word_text(
        "method",
        "handle_request",
        "HTTPTransport",
        "httpx/_transports/default.py",
        "Send a request. Returns a response. Retries once.\n\n:param request: the request",
        1,
    )
    assert text == (
        "method handle request of http transport, in httpx transports default. "
        "Send a request. Returns a response."
    )
    doc = "Parse a URL."
    assert word_text("function", "parse", "", "lib/url.rs", doc, 1) == (
        "function parse, in lib url. Parse a URL."
    )
    assert word_text("function", "parse", "", "lib/url.rs", "", 1) == ""  # no doc: its name alone
    assert word_text("function", "parse", "", "lib/url.rs", "@param s the text", 1) == ""
    assert word_text("glue", "", "", "lib/url.rs", doc, 1) == ""  # not a definition
    assert word_text("function", "parse", "", "lib/url.rs", doc, 2) == ""  # a later part


def test_the_word_vector_lifts_a_documented_definition_the_code_vector_misses(
    indexed: Indexed, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = indexed({"paths/expand.py": EXPAND, **OTHERS})
    hits = service.search(QUESTION, k=10).hits
    expand = next(h for h in hits if h.symbol == "expand_user_home")
    assert expand.explanation.vector_rank == 1 and expand.explanation.vector_by_words
    assert "vector #1 (words)" in expand.explanation.summary()
    # Without word vectors the same search ranks it lower by cosine.
    monkeypatch.setattr(corpus, "WORD_DISCOUNT", float("inf"))
    vectors = service.searcher().corpus.nearest(service.embedder().embed_query(QUESTION), 10)[0]
    by_code = [service.searcher().corpus.row(chunk_id)["symbol"] for chunk_id in vectors]
    assert by_code.index("expand_user_home") > 0, by_code


def test_an_edited_doc_embeds_only_its_word_text_again(indexed: Indexed) -> None:
    service = indexed({"paths/expand.py": EXPAND, **OTHERS})
    before = service.index()
    assert before.vectors_added == before.word_vectors_added == 0
    edited = EXPAND.replace("current user's home directory", "home folder of whoever runs it")
    (service.root / "paths/expand.py").write_text(edited)
    report = service.index()
    assert (report.vectors_added, report.word_vectors_added) == (1, 1)  # its code, its words
    found = service.search("the home folder of whoever runs it", k=3).hits
    assert found[0].symbol == "expand_user_home" and found[0].explanation.vector_by_words
