"""One file's many similar chunks do not fill the hit list; an exact double #1 keeps its
place; a file with several moderately matching chunks outranks one lucky chunk."""

from __future__ import annotations

from collections.abc import Callable

from app.bench import swebench
from app.bench.devbench import ResultChunk
from app.search import diversity
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

# Eight near-copies in one file: each ranks above the other file's answer.
RETRY = (
    "def retry_{verb}(session, url, attempts=3):\n"
    '    """Retry the {verb} request when the connection times out."""\n'
    "    for attempt in range(attempts):\n"
    "        try:\n"
    "            return session.{verb}(url, timeout=5)\n"
    "        except TimeoutError:\n"
    "            continue\n"
    "    raise TimeoutError(url)\n\n\n"
)
VERBS = ("get", "post", "put", "patch", "delete", "head", "options", "trace")
BACKOFF = (
    "def backoff_delay(attempt, base=0.5):\n"
    '    """How long to wait before the next retry once the connection timed out."""\n'
    "    delay = base * (2 ** attempt)\n"
    "    if delay > 30:\n"
    "        delay = 30\n"
    "    return delay\n"
)
QUESTION = "retry the request when the connection times out, waiting before the next retry"


def crowded_repo() -> dict[str, str]:
    return {
        "net/retry.py": "".join(RETRY.format(verb=verb) for verb in VERBS),
        "net/backoff.py": BACKOFF,
        "net/cookies.py": "def cookie_header(jar):\n    return '; '.join(jar)\n",
    }


def test_a_second_files_answer_reaches_the_top_k(indexed: Indexed) -> None:
    hits = indexed(crowded_repo()).search(QUESTION, k=5).hits
    paths = [h.path for h in hits]
    assert "net/backoff.py" in paths, paths
    lowered = [h for h in hits if any(s.name == "same-file" for s in h.explanation.signals)]
    assert lowered and all(h.path == "net/retry.py" for h in lowered)
    assert hits[0].path == "net/retry.py"  # the file's best chunk loses nothing


def test_the_decay_lowers_each_further_chunk_of_a_file_once_more() -> None:
    ranked = ["a1", "a2", "a3", "b1"]
    score = {"a1": 1.0, "a2": 0.99, "a3": 0.98, "b1": 0.9}
    order, earlier = diversity.spread(ranked, score, lambda c: c[0], decay=0.9)
    assert order == ["a1", "b1", "a2", "a3"]  # a2 x0.9 = 0.891 < 0.9; a3 x0.81
    assert earlier == {"a2": 1, "a3": 2}
    assert diversity.signal(2, 0.9).factor == 0.9**2


def test_an_exact_double_first_loses_nothing_to_its_files_other_chunks() -> None:
    # A penalty put the double #1 (a3) under two chunks of its own file: the decay must not
    # lower it further, below the other file's chunks.
    ranked = ["a1", "a2", "a3", "b1", "b2"]
    score = {"a1": 1.0, "a2": 0.99, "a3": 0.98, "b1": 0.9, "b2": 0.89}
    order, earlier = diversity.spread(ranked, score, lambda c: c[0], decay=0.9, keep="a3")
    assert order.index("a3") < order.index("b1") and "a3" not in earlier
    assert diversity.keep_in_list(order, "b2", 2)[1] == "b2"


def test_an_exact_double_first_loses_nothing_in_a_crowded_file(indexed: Indexed) -> None:
    # `return max(0, int(header))` reads as a wrapper (x0.6): that puts it under chunks of its
    # own file, and the per-file decay must not push it lower still.
    files = crowded_repo()
    files["net/retry.py"] += (
        "def retry_after_seconds(header):\n"
        '    """Seconds from a Retry-After header: retry after that many seconds."""\n'
        "    return max(0, int(header))\n"
    )
    hits = indexed(files).search("retry after seconds from a Retry-After header", k=5).hits
    double = [h for h in hits if h.symbol == "retry_after_seconds"]
    assert double, [h.symbol for h in hits]
    explanation = double[0].explanation
    assert (explanation.bm25_rank, explanation.vector_rank) == (1, 1)
    assert "same-file" not in {s.name for s in explanation.signals}
    below = [h for h in hits[hits.index(double[0]) + 1 :] if h.path == "net/retry.py"]
    assert all(any(s.name == "same-file" for s in h.explanation.signals) for h in below)


MODERATE = (
    "def {name}(path):\n"
    '    """The {what} line of a plugin manifest."""\n'
    "    with open(path) as handle:\n"
    "        lines = [line for line in handle if line.startswith('{what}')]\n"
    "    return lines[0] if lines else None\n\n\n"
)


def test_file_evidence_ranks_the_file_with_several_matching_chunks(indexed: Indexed) -> None:
    manifest = "".join(
        MODERATE.format(name=f"read_{what}", what=what) for what in ("name", "version", "hooks")
    )
    files = {
        "plugins/manifest.py": manifest,
        "plugins/loader.py": (
            "def load_plugin_manifest_file(path):\n"
            '    """Load a plugin manifest file."""\n'
            "    with open(path) as handle:\n"
            "        fields = dict(line.split('=', 1) for line in handle)\n"
            "    return fields\n"
        ),
        "plugins/registry.py": "def register(name, plugin):\n    REGISTRY[name] = plugin\n",
        "plugins/discover.py": (
            "def find_plugin_files(folder):\n"
            '    """Find every plugin file in a folder."""\n'
            "    found = []\n"
            "    for name in sorted(os.listdir(folder)):\n"
            "        if name.endswith('.plugin'):\n"
            "            found.append(name)\n"
            "    return found\n"
        ),
        "plugins/check.py": (
            "def check_plugin_file(path):\n"
            '    """Check that a plugin file can be loaded."""\n'
            "    if not os.path.exists(path):\n"
            "        raise FileNotFoundError(path)\n"
            "    return True\n"
        ),
    }
    hits = indexed(files).search("load a plugin manifest file", k=20, budget_tokens=10**9).hits
    chunks = [ResultChunk(h.path, h.start_line, h.end_line, h.text, h.score) for h in hits]
    # One chunk of loader.py ranks first; three of manifest.py follow it closely.
    assert swebench.ranked_files(chunks)[0] == "plugins/loader.py", [h.symbol for h in hits]
    assert swebench.evidence_files(chunks)[0] == "plugins/manifest.py"


def _record(set_name: str, repo: str, paths: list[str], gold: int) -> dict[str, object]:
    """A `signals` dump record: candidates best first, scores close, one gold candidate."""
    candidates = [
        {
            "path": path,
            "start": 1,
            "end": 9,
            "kind": "function",
            "bm25": None,
            "vector": None,
            "fused": 1.0 - 0.01 * i,
            "final": 1.0 - 0.01 * i,
            "signals": [],
            "hits": [0] if i == gold else [],
        }
        for i, path in enumerate(paths)
    ]
    return {"set": set_name, "repo": repo, "id": f"{repo}-{gold}", "kind": "k",
            "n_targets": 1, "candidates": candidates}  # fmt: skip


def test_the_fitted_decay_costs_no_set_more_than_the_limit() -> None:
    from app.bench import fit_diversity

    crowded = ["x.py"] * 12 + ["y.py"]
    helped = [_record("a", "ra", crowded, gold=12) for _ in range(3)]  # y.py's answer at 13
    hurt = [_record("b", "rb", ["x.py", "x.py", "z.py", "z.py"], gold=1)]  # x.py's 2nd chunk

    def fitted(records: list[dict[str, object]]) -> tuple[float, float]:
        questions = fit_diversity.questions_of(records)
        measured = fit_diversity.measure(questions)
        return fit_diversity.best_config(questions, measured, range(len(questions)))

    assert fitted(helped)[0] < 1.0
    assert fitted(helped + hurt) == (1.0, 0.0)  # any decay that lifts y.py costs set b a rank


def test_a_chunk_among_matching_chunks_of_its_file_rises_a_little() -> None:
    ranked = ["a1", "b1", "a2", "a3"]
    score = {"a1": 1.0, "b1": 0.9, "a2": 0.5, "a3": 0.5}
    raised = diversity.evidence_factors(ranked, score, lambda c: c[0], weight=0.5)
    assert set(raised) == {"a1", "a2", "a3"}  # b.py has one candidate: no evidence
    assert raised["a1"] == (1.0 + 0.5 * 0.5 + 0.25 * 0.5) ** 0.5
    assert diversity.evidence_factors(ranked, score, lambda c: c[0], weight=0.0) == {}
