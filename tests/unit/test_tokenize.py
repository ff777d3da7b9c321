from __future__ import annotations

from app.search.tokenize import identifiers, token_text, tokens


def test_camel_case_is_split_and_joined() -> None:
    assert tokens("getUserById") == ["get", "user", "id", "getuserbyid"]


def test_snake_case_matches_camel_case() -> None:
    assert tokens("get_user_by_id") == tokens("getUserById")


def test_acronyms_and_digits_split() -> None:
    assert tokens("HTTPServerError") == ["http", "server", "error", "httpservererror"]
    assert "json" in tokens("parseJSON2")


def test_stop_words_dropped_and_words_stemmed() -> None:
    assert tokens("Where does the client follow redirects?") == ["client", "follow", "redirect"]


def test_http_get_survives() -> None:
    assert "get" in tokens("should be a GET")


def test_index_and_query_share_tokens() -> None:
    body = "def raise_for_status(self):\n    if self.is_error: raise HTTPStatusError"
    query = "how does raise_for_status() decide the status is an error"
    assert {"raiseforstatus", "status", "error"} <= set(tokens(body)) & set(tokens(query))


def test_token_text_is_space_separated() -> None:
    assert token_text("fooBar baz") == "foo bar foobar baz"


def test_identifiers_found_in_query() -> None:
    found = identifiers(
        "What does res.cookie() do with maxAge, $ZodCatch, sha256 or plain words, e.g. v2?"
    )
    assert found == ["cookie", "maxAge", "$ZodCatch", "sha256"]
