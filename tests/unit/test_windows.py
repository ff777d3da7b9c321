"""A chunk longer than the model reads is embedded in two windows and scored by the better one."""

from __future__ import annotations

from collections.abc import Callable

from app.core.models import Chunk
from app.indexer.context import embed_text, later_window
from app.search.windows import has_window, max_tokens_of, window_key
from app.service import Service

# The first 1,500 characters read numbers from a text; only the end retries a connection.
LONG = (
    "def load_settings(text):\n"
    + "".join(
        f"    value_{i} = int(text.split(',')[{i}].strip() or '0')  # column {i} as a number\n"
        for i in range(14)
    )
    + "    attempt = 0\n"
    "    while True:\n"
    "        try:\n"
    "            return open_connection(value_0)\n"
    "        except ConnectionRefusedError:\n"
    "            # the server is down: wait twice as long before each new reconnect attempt\n"
    "            attempt += 1\n"
    "            sleep(min(60, 2 ** attempt))\n"
)
OTHERS = (
    "def open_socket(host, port):\n    return socket.create_connection((host, port))\n\n\n"
    "def close_socket(sock):\n    sock.shutdown(socket.SHUT_RDWR)\n    sock.close()\n\n\n"
    "def send_all(sock, data):\n    while data:\n        data = data[sock.send(data):]\n"
)
QUESTION = "wait longer and longer between attempts when the server refuses to connect"


def _chunk(text: str, doc: str = "") -> Chunk:
    return Chunk(
        path="app/settings.py",
        language="python",
        kind="function",
        symbol="load_settings",
        qualified_name="load_settings",
        parent="",
        start_line=1,
        end_line=text.count("\n") + 1,
        signature="def load_settings(text):",
        doc=doc,
        text=text,
    )


def test_a_long_body_gets_a_second_window_from_a_line_start_under_the_same_header() -> None:
    chunk = _chunk(LONG)
    assert has_window(LONG, 384) and not has_window(OTHERS, 384)
    window = later_window(chunk, 384, 384 * 5)
    first = embed_text(chunk, 384 * 5)
    head = first.split("\n")[:2]
    assert window.split("\n")[:2] == head  # header and the name in words
    body = window.split("\n", 2)[2]
    assert LONG.endswith(body) and LONG[: len(LONG) - len(body)].endswith("\n")
    assert "reconnect attempt" in body and "value_0 =" not in body
    # A long doc comment before the body moves the window's start up by as much.
    with_doc = later_window(_chunk(LONG, doc="Reads the settings. " * 20), 384, 384 * 5)
    assert len(with_doc.split("\n", 2)[2]) > len(body)
    assert later_window(_chunk(OTHERS), 384, 384 * 5) == ""


def test_the_window_key_follows_the_chunk_and_the_model_id_says_its_length() -> None:
    assert window_key("k1", "h1") == window_key("k1", "h1") != window_key("k1", "h2")
    assert max_tokens_of("sentence-transformers/all-MiniLM-L6-v2@256") == 256
    assert max_tokens_of("some-model") == 384


def test_a_question_about_the_end_of_a_long_function_finds_it_by_vector(
    indexed: Callable[[dict[str, str]], Service],
) -> None:
    service = indexed({"app/settings.py": LONG, "app/net.py": OTHERS})
    searcher = service.searcher()
    assert searcher.vectors_ready == 1.0  # the second window is no chunk of its own
    assert len(searcher.corpus.windows) == 1
    hits = service.search(QUESTION, k=4).hits
    ranks = {hit.path: hit.explanation.vector_rank for hit in hits}
    assert ranks["app/settings.py"] == 1
