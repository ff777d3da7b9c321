"""Vector feedback: the second vector list searches from the query vector moved toward the
first fusion's best chunks, so a neighbour of what BM25 found by name rises in it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.search import searcher
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

FILES = {
    "pkg/paths.py": (
        "def expand_tilde(path):\n"
        '    """Replace a leading ~ by the home folder."""\n'
        "    import os\n    return os.path.expanduser(path)\n"
    ),
    "pkg/home.py": (
        "def home_folder():\n"
        '    """The user home directory of the current user."""\n'
        '    import os\n    return os.environ.get("HOME", "/")\n'
    ),
    "pkg/files.py": (
        "def read_file(name):\n"
        '    """Read a whole text file from disk."""\n'
        "    with open(name) as handle:\n        return handle.read()\n"
    ),
    "pkg/net.py": (
        "def open_socket(host, port):\n"
        '    """Connect a TCP socket to host and port."""\n'
        "    import socket\n    return socket.create_connection((host, port))\n"
    ),
    "pkg/cache.py": (
        "def cache_dir():\n"
        '    """Where cached downloads are kept under the home directory."""\n'
        '    import os\n    return os.path.join(os.path.expanduser("~"), ".cache")\n'
    ),
}


def _vector_ranks(service: Service, query: str) -> dict[str, int | None]:
    return {h.symbol: h.explanation.vector_rank for h in service.search(query, k=5).hits}


def test_the_vector_list_follows_the_best_fused_chunk(
    indexed: Indexed, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = indexed(FILES)
    monkeypatch.setattr(searcher, "FEEDBACK_HITS", 1)
    monkeypatch.setattr(searcher, "FEEDBACK_WEIGHT", 1.0)
    fed = _vector_ranks(service, "tilde")
    corpus = service.searcher().corpus
    plain = corpus.nearest(service.searcher().embedder.embed_query("tilde"), 5)
    by_symbol = {corpus.row(c)["symbol"]: rank for rank, c in enumerate(plain, 1)}
    # The query vector alone puts an unrelated file reader above the home folder; moved toward
    # `expand_tilde` (BM25's and the fusion's first), the home folder comes first of the two.
    assert by_symbol["read_file"] < by_symbol["home_folder"], by_symbol
    assert fed["home_folder"] < fed["read_file"], fed
