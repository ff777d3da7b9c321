"""Tests of the evaluation harness on small corpora, questions and git repositories made here."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.bench import devbench, report, swebench
from app.bench.baselines import (
    BM25Index,
    TextUnit,
    bm25_tokens,
    grep_and_read,
    plain_bm25,
    question_terms,
)
from app.bench.devbench import ResultChunk
from app.bench.runner import BM25, BM25_FILES, GREP, Searcher, run_dev, run_swebench, whole_files
from app.core.paths import is_test_path

REFERENCE_SCORER = Path("/work/shared/bench/dev/score.py")

CLIENT = '''"""A tiny HTTP client."""


def redirect_method(request, status):
    """Pick the method of the follow-up request."""
    if status in (302, 303) and request.method == "POST":
        return "GET"
    return request.method


class Client:
    def send(self, request):
        return self.transport.handle(request)
'''

PROXY = """import os


def get_environment_proxies():
    proxies = {}
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"):
        proxies[name] = os.environ.get(name)
    return proxies
"""

ROUTER = "function matchRoute(routes, path) {\r\n  return routes.find(r => r.test(path));\r\n}\r\n"


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def make_bench(tmp_path: Path) -> tuple[Path, Path]:
    """A two-corpus bench (dev dir, corpora dir) shaped like /work/shared/bench/dev."""
    dev, dest = tmp_path / "bench" / "dev", tmp_path / "corpora"
    tiny = dest / "tiny" / "src"
    (tiny / "pkg").mkdir(parents=True)
    (tiny / "pkg" / "client.py").write_text(CLIENT)
    (tiny / "pkg" / "proxy.py").write_text(PROXY)
    (dest / "other").mkdir(parents=True)
    # CRLF on purpose: the reference scorer counts translated newlines.
    (dest / "other" / "router.js").write_bytes(ROUTER.encode())
    dev.mkdir(parents=True)
    corpora = [
        {"name": "tiny", "language": "python", "version": "1", "root": "tiny/src"},
        {"name": "other", "language": "javascript", "version": "1", "root": "other"},
    ]
    (dev / "corpora.json").write_text(json.dumps(corpora))

    def q(qid: str, corpus: str, kind: str, gold: list[tuple[str, int, int]]) -> dict[str, object]:
        return {
            "id": qid,
            "corpus": corpus,
            "question": f"question {qid} about redirects and proxies",
            "kind": kind,
            "gold": [
                {"path": p, "symbol": "x", "start_line": s, "end_line": e} for p, s, e in gold
            ],
        }

    write_jsonl(
        dev / "queries" / "tiny.jsonl",
        [
            q("tiny-01", "tiny", "no-identifier", [("pkg/client.py", 4, 8)]),
            q("tiny-02", "tiny", "api-name", [("pkg/proxy.py", 4, 9), ("pkg/client.py", 11, 13)]),
            q("tiny-03", "tiny", "conceptual", [("pkg/client.py", 12, 13)]),
            q("tiny-04", "tiny", "conceptual", [("pkg/proxy.py", 4, 9)]),
        ],
    )
    write_jsonl(
        dev / "queries" / "other.jsonl",
        [
            q("other-01", "other", "api-name", [("router.js", 1, 3)]),
            q("other-02", "other", "no-identifier", [("router.js", 2, 2)]),
        ],
    )
    return dev, dest


def varied_results() -> dict[str, list[ResultChunk]]:
    """Hits at ranks 1, 3 and 12, a miss, returned text, a './' path; tiny-04 is missing."""
    filler = [ResultChunk("pkg/proxy.py", 1, 1)] * 10
    return {
        "tiny-01": [ResultChunk("pkg/client.py", 1, 4), ResultChunk("pkg/proxy.py", 4, 9)],
        "tiny-02": [
            ResultChunk("pkg/client.py", 1, 2, text="x" * 50),
            ResultChunk("pkg/client.py", 4, 8),
            ResultChunk("./pkg/proxy.py", 9, 20),
        ],
        "tiny-03": [
            *filler,
            ResultChunk("pkg/client.py", 10, 10),
            ResultChunk("pkg/client.py", 13, 13),
        ],
        "other-01": [ResultChunk("router.js", 4, 9), ResultChunk("router.js", 1, 1, text="")],
        "other-02": [ResultChunk("router.js", 1, 3)],
    }


@pytest.mark.skipif(not REFERENCE_SCORER.is_file(), reason="the shared bench is not here")
def test_scoring_matches_reference_scorer(tmp_path: Path) -> None:
    dev, dest = make_bench(tmp_path)
    shutil.copy(REFERENCE_SCORER, dev / "score.py")  # it reads queries/ beside itself
    results_file = tmp_path / "results.jsonl"
    devbench.write_results(results_file, varied_results())
    printed = subprocess.run(
        [sys.executable, str(dev / "score.py"), str(dest), str(results_file), "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ours = devbench.score_results_file(dev, dest, results_file)
    assert ours.table() == json.loads(printed)
    assert list(ours.table()) == list(json.loads(printed))


def test_scoring_by_hand(tmp_path: Path) -> None:
    dev, dest = make_bench(tmp_path)
    score = devbench.score_dev(
        devbench.load_questions(dev), varied_results(), devbench.corpus_roots(dev, dest)
    )
    first = {q.id: q.first_hit for q in score.questions}
    assert first == {
        "other-01": 2,
        "other-02": 1,
        "tiny-01": 1,
        "tiny-02": 3,
        "tiny-03": 12,
        "tiny-04": None,
    }
    tiny = score.by_corpus["tiny"]
    assert (tiny.questions, tiny.missing) == (4, 1)
    assert tiny.top1 == pytest.approx(1 / 4)
    assert tiny.top5 == pytest.approx(2 / 4)
    assert tiny.mrr10 == pytest.approx((1 + 1 / 3) / 4)  # rank 12 is past the cut-off
    other = score.by_corpus["other"]
    assert (other.top1, other.top5, other.mrr10) == (0.5, 1.0, 0.75)
    overall = score.by_corpus[devbench.OVERALL]
    assert overall.mrr10 == pytest.approx((1 + 1 / 3 + 1 / 2 + 1) / 6)
    # other-01: lines 4..9 of a 3-line file are nothing, and text "" is 0 characters.
    # other-02: three CRLF lines count their translated "\n" only.
    tokens = {q.id: q.tokens for q in score.questions}
    assert tokens["other-01"] == 0.0
    assert tokens["other-02"] == pytest.approx(len(ROUTER.replace("\r\n", "\n")) / 3.6)
    client = CLIENT.splitlines(keepends=True)
    proxy_line9 = PROXY.splitlines(keepends=True)[8:]
    assert tokens["tiny-02"] == pytest.approx(
        (50 + len("".join(client[3:8])) + len("".join(proxy_line9))) / 3.6
    )
    assert tokens["tiny-04"] == 0.0
    kinds = score.by_kind
    assert list(kinds) == ["no-identifier", "api-name", "conceptual"]
    assert kinds["conceptual"].questions == 2 and kinds["conceptual"].top5 == 0.0
    assert kinds["no-identifier"].top1 == 1.0


def test_results_file_round_trip(tmp_path: Path) -> None:
    results = varied_results()
    path = tmp_path / "out" / "results.jsonl"
    devbench.write_results(path, results)
    assert devbench.read_results(path) == results
    row = json.loads(path.read_text().splitlines()[1])
    assert row["id"] == "tiny-02"
    assert row["results"][0] == {
        "path": "pkg/client.py",
        "start_line": 1,
        "end_line": 2,
        "text": "x" * 50,
    }
    assert "text" not in row["results"][1]


def test_bm25_ranks_the_right_unit_first() -> None:
    units = [
        TextUnit("a.py", 1, 3, "def add(a, b):\n    return a + b\n"),
        TextUnit("b.py", 1, 4, "def parseCookieHeader(header):\n    return header.split(';')\n"),
        TextUnit("c.py", 1, 2, "def send(request):\n    return transport.send(request)\n"),
        TextUnit("d.py", 1, 2, "class Header:\n    pass\n"),
    ]
    ranked = plain_bm25(units, "Where is the cookie header parsed?", k=3)
    assert ranked[0] == ResultChunk("b.py", 1, 4, units[1].text)
    assert all(r.path != "a.py" for r in ranked)  # no shared term, never returned
    assert BM25Index(units).search("send the request", k=1)[0].path == "c.py"
    # As the reference `toks`: an acronym run stays glued to the next word.
    assert bm25_tokens("parseCookieHeader x_y HTTPError") == [
        "parse",
        "cookie",
        "header",
        "httperror",
    ]


def test_question_terms_keep_identifiers_whole_and_split() -> None:
    terms = question_terms(
        "Where does raise_for_status() decide? And Router.ServeHTTP, z.stringbool"
    )
    assert terms == [
        "raise_for_status",
        "raise",
        "status",
        "decide",
        "router",
        "servehttp",
        "serve",
        "http",
        "stringbool",
    ]


def test_grep_and_read_returns_whole_files_at_most_five(tmp_path: Path) -> None:
    paths = []
    for i in range(7):
        name = f"m{i}.py"
        body = "cookie\n" * (i + 1) + ("header parse\n" if i == 2 else "") + "end\n"
        (tmp_path / name).write_text(body)
        paths.append(name)
    (tmp_path / "none.py").write_text("nothing to see\n")
    (tmp_path / "blob.bin").write_bytes(b"\0cookie header parse")
    ranked = grep_and_read(
        tmp_path, "How is the Cookie header parsed?", [*paths, "none.py", "blob.bin"]
    )
    assert len(ranked) == 5
    # Most distinct terms first (m2 has cookie + header), then most matches.
    assert [r.path for r in ranked] == ["m2.py", "m6.py", "m5.py", "m4.py", "m3.py"]
    for r in ranked:
        text = (tmp_path / r.path).read_text()
        assert (r.start_line, r.end_line, r.text) == (1, len(text.splitlines()), text)
    assert grep_and_read(tmp_path, "the of and", paths) == []


def test_swebench_scoring_on_a_hand_made_ranking() -> None:
    chunks = [
        ResultChunk("src/a.py", 1, 5),
        ResultChunk("src/b.py", 1, 5),
        ResultChunk("src/a.py", 9, 12),  # same file again: keeps rank 1
        ResultChunk("./src/c.py", 1, 5),
        ResultChunk("src/d.py", 1, 5),
        ResultChunk("src/e.py", 1, 5),
        ResultChunk("src/f.py", 1, 5),
    ]
    assert swebench.ranked_files(chunks)[:3] == ["src/a.py", "src/b.py", "src/c.py"]
    one = swebench.score_instance("i1", ["src/c.py"], chunks)
    assert one.gold_ranks == {"src/c.py": 3}
    assert (one.acc1, one.acc5, one.hit1, one.hit5, one.rr) == (False, True, False, True, 1 / 3)
    two = swebench.score_instance("i2", ["src/a.py", "src/f.py"], chunks)
    assert (two.acc1, two.acc5, two.hit1, two.hit5, two.rr) == (False, False, True, True, 1.0)
    none = swebench.score_instance("i3", ["src/z.py"], chunks)
    assert (none.acc5, none.hit5, none.rr, none.gold_ranks) == (
        False,
        False,
        0.0,
        {"src/z.py": None},
    )
    m = swebench.aggregate([one, two, none])
    assert (m.instances, m.acc5, m.hit1, m.hit5) == (3, 1 / 3, 1 / 3, 2 / 3)
    assert m.mrr == pytest.approx((1 / 3 + 1.0) / 3)
    assert is_test_path("testing/test_x.py") and not is_test_path("src/a.py")


def git(repo: Path, *args: str) -> str:
    env_args = ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]
    done = subprocess.run(
        ["git", "-C", str(repo), *env_args, *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def make_repo(tmp_path: Path) -> tuple[Path, str, str]:
    """A repository with two commits; returns its git dir and both commit ids."""
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / "src" / "a.py").write_text("def skip_reason():\n    return 'old'\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    first = git(repo, "rev-parse", "HEAD")
    (repo / "src" / "a.py").write_text("def skip_reason():\n    return 'new'\n")
    (repo / "testing").mkdir()
    (repo / "testing" / "test_a.py").write_text("def test_skip():\n    pass\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two")
    return repo / ".git", first, git(repo, "rev-parse", "HEAD")


def test_materialise_extracts_once_and_atomically(tmp_path: Path) -> None:
    git_dir, first, second = make_repo(tmp_path)
    dest = tmp_path / "checkouts" / "inst-1"
    assert swebench.materialise(git_dir, first, dest) == dest
    assert (dest / "src" / "a.py").read_text().endswith("'old'\n")
    assert not (dest / "testing").exists()
    assert swebench.marker_path(dest).read_text().strip() == first
    # Done already: a second call leaves the tree alone.
    (dest / "src" / "a.py").write_text("touched\n")
    swebench.materialise(git_dir, first, dest)
    assert (dest / "src" / "a.py").read_text() == "touched\n"
    # Another commit replaces the tree; no temporary directories are left behind.
    swebench.materialise(git_dir, second, dest)
    assert (dest / "src" / "a.py").read_text().endswith("'new'\n")
    assert (dest / "testing" / "test_a.py").is_file()
    assert sorted(p.name for p in dest.parent.iterdir()) == ["inst-1", "inst-1.done"]
    with pytest.raises(swebench.MaterialiseError):
        swebench.materialise(git_dir, "0" * 40, tmp_path / "checkouts" / "bad")
    assert sorted(p.name for p in dest.parent.iterdir()) == ["inst-1", "inst-1.done"]


def file_units(root: Path) -> tuple[list[TextUnit], list[str]]:
    paths = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    units = []
    for path in paths:
        text = (root / path).read_text()
        units.append(TextUnit(path, 1, max(1, len(text.splitlines())), text))
    return units, paths


def test_run_dev_scores_all_three_systems_and_writes_results(tmp_path: Path) -> None:
    dev, dest = make_bench(tmp_path)

    def make_searcher(name: str, root: Path) -> tuple[Searcher, list[TextUnit], list[str]]:
        units, paths = file_units(root)

        def search(question: str, k: int) -> list[ResultChunk]:
            return [ResultChunk(u.path, u.start_line, u.end_line) for u in units][:k]

        return search, units, paths

    out = tmp_path / "engine.jsonl"
    rep = run_dev(dev.parent, dest, make_searcher, k=10, corpora=["tiny"], results_path=out)
    assert rep.systems == ("engine", GREP, BM25)
    assert rep.corpora == ("tiny",)
    assert set(rep.latency_ms["engine"]) == {"tiny-01", "tiny-02", "tiny-03", "tiny-04"}
    written = devbench.read_results(out)
    assert written == rep.results["engine"]
    assert rep.scores["engine"].by_corpus["tiny"].questions == 4
    text = report.format_dev(rep)
    assert "grep-and-read" in text and "tiny" in text and "ALL" in text
    as_dict = report.dev_to_dict(rep)
    json.dumps(as_dict)
    assert set(as_dict["systems"]) == {"engine", GREP, BM25}  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        run_dev(dev, dest, make_searcher, corpora=["nope"])


def test_run_swebench_materialises_and_scores_files(tmp_path: Path) -> None:
    git_dir, _, second = make_repo(tmp_path)
    instances = tmp_path / "instances.jsonl"
    write_jsonl(
        instances,
        [
            {
                "instance_id": "repo__repo-1",
                "repo": "o/repo",
                "base_commit": second,
                "problem_statement": "The skip reason is wrong in skip_reason()",
                "gold_files": ["src/a.py"],
                "gold_spans": {"src/a.py": ["skip_reason"]},
            }
        ],
    )

    def make_searcher(name: str, root: Path) -> tuple[Searcher, list[TextUnit], list[str]]:
        units, paths = file_units(root)

        def search(question: str, k: int) -> list[ResultChunk]:
            return [ResultChunk("testing/test_a.py", 1, 2), ResultChunk("src/a.py", 1, 2)]

        return search, units, paths

    rep = run_swebench(instances, tmp_path / "co", git_dir, make_searcher, k=50)
    assert rep.tests_indexed
    assert rep.scores["engine"][0].gold_ranks == {"src/a.py": 2}
    assert rep.metrics["engine"].acc5 == 1.0 and rep.metrics["engine"].acc1 == 0.0
    assert rep.metrics[GREP].hit5 == 1.0
    # BM25 over whole files reads the checkout's non-test files, each one unit: src/a.py.
    assert rep.scores[BM25_FILES][0].gold_ranks == {"src/a.py": 1}
    assert [u.path for u in whole_files(tmp_path / "co" / "repo__repo-1", ["src/a.py",
            "testing/test_a.py"])] == ["src/a.py"]  # fmt: skip
    assert rep.scores["engine file-evidence"][0].gold_ranks == {"src/a.py": 2}  # no scores
    assert "repo__repo-1" in report.format_swe(rep)
    json.dumps(report.swe_to_dict(rep))


def test_file_evidence_needs_every_chunk_scored() -> None:
    scored = [ResultChunk("a.py", 1, 2, None, 1.0), ResultChunk("b.py", 1, 2, None, 0.9),
              ResultChunk("b.py", 5, 9, None, 0.8)]  # fmt: skip
    assert swebench.evidence_files(scored) == ["b.py", "a.py"]  # 0.9 + 0.5 x 0.8 > 1.0
    assert swebench.evidence_files([*scored, ResultChunk("c.py", 1, 2)])[0] == "a.py"
