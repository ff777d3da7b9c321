"""The dev2 and semble-dev scoring and the all-sets table, on small benches made in tmp_path,
checked against the benches' own reference scorers where they are on disk."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.bench import devbench, semble, sets
from app.bench.devbench import ResultChunk
from app.bench.runner import BM25, ENGINE, GREP, run_dev, run_semble
from tests.unit.test_evaluation import file_units, make_bench

SEMBLE_DIR = Path("/work/shared/bench/semble-dev")
DEV2_SCORER = Path("/work/shared/bench/dev2/score.py")
INV2 = 1 / math.log2(3)  # the DCG gain at rank 2

ALPHA_ANNOTATIONS = [
    # 1: a whole-file target and a line-span target, both found
    {
        "query": "how does the parser read a header",
        "relevant": ["pkg/parse.py"],
        "secondary": [{"path": "pkg/header.py", "start_line": 10, "end_line": 20}],
        "category": "architecture",
    },
    # 2: dropped by repos.json (its target does not exist)
    {"query": "a dropped query", "relevant": ["gone.py"], "category": "semantic"},
    # 3: no category: semble infers `symbol` for a bare identifier
    {"query": "HeaderParser", "relevant": ["header.py"]},
    # 4: `keyword` renamed by category_map
    {"query": "read the body", "relevant": ["pkg/body.py"], "category": "keyword"},
    # 5: two targets hit by one chunk (one rank counts once)
    {
        "query": "parse both parts",
        "relevant": [
            {"path": "pkg/header.py", "start_line": 1, "end_line": 5},
            {"path": "pkg/header.py", "start_line": 6, "end_line": 9},
        ],
        "category": "semantic",
    },
    # 6: never answered (missing)
    {"query": "unanswered", "relevant": ["pkg/parse.py"], "category": "semantic"},
]
BETA_ANNOTATIONS = [
    {"query": "how are routes matched", "relevant": ["tree.go"], "category": "architecture"},
]


def make_semble_bench(tmp_path: Path) -> Path:
    """repos.json, annotations and an empty published.json shaped like semble-dev."""
    bench = tmp_path / "semble-dev"
    (bench / "annotations").mkdir(parents=True)
    (bench / "annotations" / "alpha.json").write_text(json.dumps(ALPHA_ANNOTATIONS))
    (bench / "annotations" / "beta.json").write_text(json.dumps(BETA_ANNOTATIONS))
    repos = [
        {
            "name": "alpha",
            "language": "python",
            "benchmark_root": "src/lib",
            "annotations": "annotations/alpha.json",
            "core": True,
            "drop_queries": ["a dropped query"],
            "category_map": {"keyword": "symbol"},
        },
        {
            "name": "beta",
            "language": "go",
            "benchmark_root": None,
            "annotations": "annotations/beta.json",
            "core": False,
        },
        {"name": "gamma", "language": "c", "annotations": None, "core": True},
    ]
    (bench / "repos.json").write_text(json.dumps(repos))
    (bench / "published.json").write_text(json.dumps({"tools": {}}))
    return bench


def chunk(path: str, start: int, end: int) -> ResultChunk:
    return ResultChunk(path, start, end, "x" * 36)


def alpha_results() -> dict[str, list[ResultChunk]]:
    return {
        "alpha:1": [chunk("pkg/other.py", 1, 9), chunk("pkg/header.py", 20, 30)]
        + [chunk("pkg/parse.py", 1, 50)],
        "alpha:3": [chunk("pkg/header.py", 1, 3)],  # `header.py` is a suffix of it
        "alpha:4": [chunk("pkg/body.py", 1, 2), chunk("pkg/body.py", 3, 4)],
        "alpha:5": [chunk("pkg/header.py", 21, 30), chunk("pkg/header.py", 4, 7)],
        "beta:1": [chunk("mux.go", 1, 9), chunk("./tree.go", 1, 9)],
    }


def test_tasks_apply_drops_category_map_and_inferred_types(tmp_path: Path) -> None:
    bench = make_semble_bench(tmp_path)
    assert [r.name for r in semble.choose_repos(bench, None)] == ["alpha"]  # core only
    assert [r.name for r in semble.choose_repos(bench, ["beta"])] == ["beta"]
    with pytest.raises(ValueError, match="gamma"):
        semble.choose_repos(bench, ["gamma"])  # listed, but has no annotations
    tasks = semble.load_tasks(bench, "alpha")
    assert [t.query_id for t in tasks] == ["alpha:1", "alpha:3", "alpha:4", "alpha:5", "alpha:6"]
    assert [t.category for t in tasks] == [
        "architecture",
        "symbol",
        "symbol",
        "semantic",
        "semantic",
    ]
    root = semble.repo_root(tmp_path / "dest", semble.choose_repos(bench, ["alpha"])[0])
    assert root == tmp_path / "dest" / "alpha" / "src" / "lib"


def test_semble_matching_rule_by_hand(tmp_path: Path) -> None:
    bench = make_semble_bench(tmp_path)
    repos = semble.choose_repos(bench, ["alpha", "beta"])
    tasks = {r.name: semble.load_tasks(bench, r.name) for r in repos}
    score = semble.score_semble(repos, tasks, alpha_results(), 3.6)
    by_id = {t.query_id: t for t in score.tasks}
    # the span target overlaps on its last line at rank 2, the file target at rank 3
    assert by_id["alpha:1"].ndcg10 == pytest.approx((INV2 + 0.5) / (1 + INV2))
    assert by_id["alpha:1"].file_ndcg10 == pytest.approx((INV2 + 0.5) / (1 + INV2))
    assert by_id["alpha:1"].first_rank == 2 and by_id["alpha:1"].tokens == pytest.approx(30)
    assert by_id["alpha:3"].ndcg10 == 1.0  # suffix match at a `/` boundary
    assert by_id["alpha:4"].ndcg10 == 1.0  # a file target: the first chunk hits it
    # rank 1 misses both spans; rank 2 (lines 4-7) hits both: one gain, ideal is two
    assert by_id["alpha:5"].ndcg10 == pytest.approx(INV2 / (1 + INV2))
    assert by_id["alpha:5"].file_ndcg10 == pytest.approx(1 / (1 + INV2))
    assert by_id["alpha:6"].missing and by_id["alpha:6"].ndcg10 == 0.0
    assert by_id["beta:1"].ndcg10 == pytest.approx(INV2)  # root "." paths, `./` stripped
    alpha = score.repo_mean("alpha")
    assert score.overall() == pytest.approx((alpha + INV2) / 2)  # mean over repos
    assert score.by_language() == {"go": pytest.approx(INV2), "python": pytest.approx(alpha)}
    assert set(score.by_category()) == {"architecture", "semantic", "symbol"}


def test_semble_scorer_agrees_with_the_reference_score_py(tmp_path: Path) -> None:
    reference = SEMBLE_DIR / "score.py"
    if not reference.is_file():
        pytest.skip("the semble-dev reference scorer is not on this machine")
    bench = make_semble_bench(tmp_path)
    shutil.copy(reference, bench / "score.py")  # it reads repos.json beside itself
    repos = semble.choose_repos(bench, ["alpha", "beta"])
    tasks = {r.name: semble.load_tasks(bench, r.name) for r in repos}
    results = alpha_results()
    results_file = tmp_path / "results.jsonl"
    semble.write_results(results_file, [t for ts in tasks.values() for t in ts], results)
    out = tmp_path / "scores.json"
    subprocess.run(
        [sys.executable, str(bench / "score.py"), str(results_file), "--repos", "alpha,beta"]
        + ["--no-peers", "--json", str(out)],
        check=True,
        capture_output=True,
    )
    theirs = json.loads(out.read_text())["repos"]
    ours = semble.score_semble(repos, tasks, results, 3.6)
    for repo in repos:
        for q in theirs[repo.name]["queries"]:
            mine = next(t for t in ours.tasks if t.query_id == q["query_id"])
            assert mine.ndcg10 == pytest.approx(q["ndcg10"], abs=1e-12), q["query_id"]
            assert mine.file_ndcg10 == pytest.approx(q["file_ndcg10"], abs=1e-12)
            assert mine.category == q["category"] and mine.missing == q["missing"]
        assert ours.repo_mean(repo.name) == pytest.approx(theirs[repo.name]["summary"]["ndcg10"])


def test_semble_scorer_agrees_with_score_py_on_real_annotations(tmp_path: Path) -> None:
    """Real chi queries (drop_queries apply), answered with their targets at varied ranks."""
    if not (SEMBLE_DIR / "score.py").is_file():
        pytest.skip("semble-dev is not on this machine")
    repo = semble.choose_repos(SEMBLE_DIR, ["chi"])[0]
    tasks = semble.load_tasks(SEMBLE_DIR, "chi")
    results: dict[str, list[ResultChunk]] = {}
    for i, task in enumerate(tasks):
        filler = [chunk(f"none{j}.go", 1, 5) for j in range(i % 4)]
        found = [chunk(t.path, t.start_line or 1, t.end_line or 40) for t in task.targets]
        results[task.query_id] = (filler + found[::-1])[: 3 + i % 9]
    results_file = tmp_path / "chi.jsonl"
    semble.write_results(results_file, tasks, results)
    out = tmp_path / "scores.json"
    subprocess.run(
        [sys.executable, str(SEMBLE_DIR / "score.py"), str(results_file), "--repos", "chi"]
        + ["--no-peers", "--json", str(out)],
        check=True,
        capture_output=True,
    )
    theirs = json.loads(out.read_text())["repos"]["chi"]
    ours = semble.score_semble([repo], {"chi": tasks}, results, 3.6)
    assert ours.repo_mean("chi") == pytest.approx(theirs["summary"]["ndcg10"], abs=1e-12)
    assert ours.repo_mean("chi", "file_ndcg10") == pytest.approx(
        theirs["summary"]["file_ndcg10"], abs=1e-12
    )


def _semble_corpora(tmp_path: Path) -> Path:
    dest = tmp_path / "dest"
    lib = dest / "alpha" / "src" / "lib" / "pkg"
    lib.mkdir(parents=True)
    (lib / "parse.py").write_text("def parse_header(text):\n    return text.split(':')\n")
    (lib / "header.py").write_text("class HeaderParser:\n    pass\n")
    (lib / "body.py").write_text("def read_body(stream):\n    return stream.read()\n")
    return dest


def test_run_semble_scores_every_system_and_writes_results(tmp_path: Path) -> None:
    bench = make_semble_bench(tmp_path)
    dest = _semble_corpora(tmp_path)

    def make_searcher(name: str, root: Path):  # type: ignore[no-untyped-def]
        units, paths = file_units(root)
        return (lambda q, k: [ResultChunk("pkg/body.py", 1, 2, "x")]), units, paths

    results_file = tmp_path / "out" / "results.jsonl"
    rep = run_semble(bench, dest, make_searcher, results_path=results_file)
    assert rep.systems == (ENGINE, GREP, BM25)
    engine = rep.scores[ENGINE]
    assert {t.query_id: t.ndcg10 for t in engine.tasks}["alpha:4"] == 1.0
    assert rep.results[BM25]["alpha:3"][0].path == "pkg/header.py"  # BM25 finds the class
    lines = [json.loads(x) for x in results_file.read_text().splitlines()]
    assert [x["query_id"] for x in lines] == ["alpha:1", "alpha:3", "alpha:4", "alpha:5", "alpha:6"]
    summary = sets.from_semble("semble", rep)
    assert summary.overall(ENGINE).score == pytest.approx(engine.overall())
    assert summary.groups[sets.BY_LANGUAGE]["python"][BM25].n == 5
    with pytest.raises(FileNotFoundError, match="alpha"):
        run_semble(bench, tmp_path / "nowhere", make_searcher)


def _dev2_like(tmp_path: Path) -> tuple[Path, Path]:
    """The dev test bench with a `callers` question added, as dev2 has."""
    dev, dest = make_bench(tmp_path)
    extra = {
        "id": "tiny-09",
        "corpus": "tiny",
        "question": "What calls redirect_method?",
        "kind": "callers",
        "gold": [
            {"path": "pkg/client.py", "symbol": "Client.send", "start_line": 12, "end_line": 13}
        ],
    }
    with (dev / "queries" / "tiny.jsonl").open("a") as out:
        out.write(json.dumps(extra) + "\n")
    return dev, dest


def test_dev2_kinds_scores_and_reference_scorer_agree(tmp_path: Path) -> None:
    dev, dest = _dev2_like(tmp_path)

    def make_searcher(name: str, root: Path):  # type: ignore[no-untyped-def]
        units, paths = file_units(root)
        return (lambda q, k: [ResultChunk("pkg/client.py", 11, 13, "x" * 72)]), units, paths

    results_file = tmp_path / "results.jsonl"
    rep = run_dev(dev, dest, make_searcher, results_path=results_file)
    langs = {c.name: c.language for c in devbench.load_corpora(dev)}
    summary = sets.from_dev("dev2", rep, langs)
    assert "callers" in summary.groups[sets.BY_KIND]
    assert summary.groups[sets.BY_KIND]["callers"][ENGINE].top1 == 1.0
    assert set(summary.groups[sets.BY_LANGUAGE]) == {"javascript", "python"}
    assert summary.overall(ENGINE).score == pytest.approx(rep.scores[ENGINE].by_corpus["ALL"].mrr10)
    if not DEV2_SCORER.is_file():
        pytest.skip("the dev2 reference scorer is not on this machine")
    shutil.copy(DEV2_SCORER, dev / "score.py")  # it reads queries/ and corpora.json beside it
    out = subprocess.run(
        [sys.executable, str(dev / "score.py"), str(dest), str(results_file), "--json"],
        check=True,
        capture_output=True,
        text=True,
    )
    assert json.loads(out.stdout) == rep.scores[ENGINE].table()


def test_all_sets_table_puts_every_set_beside_bm25_and_means_them() -> None:
    def summary(name: str, engine: float, bm25: float) -> sets.SetSummary:
        rows = {
            ENGINE: sets.Row(10, engine, engine, engine, 900.0),
            BM25: sets.Row(10, bm25, bm25, bm25, 5000.0),
        }
        groups = {sets.OVERALL: {sets.OVERALL: rows}, sets.BY_LANGUAGE: {"rust": rows}}
        return sets.SetSummary(name, "mrr@10", groups)

    both = [summary("dev", 0.8, 0.4), summary("semble", 0.6, 0.5)]
    text = sets.format_all(both)
    assert "lang rust" in text and "dev" in text and "semble" in text
    assert text.splitlines()[-1].split()[:5] == ["MEAN", "over", "2", "sets", "20"]
    data = sets.all_to_dict(both)
    assert data["mean_over_sets"][ENGINE]["score"] == pytest.approx(0.7)  # type: ignore[index]
    assert data["mean_over_sets"][BM25]["score"] == pytest.approx(0.45)  # type: ignore[index]
