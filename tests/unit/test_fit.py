"""The signals dump and the fitted rerank: the hand-set factors reproduce the current order,
and a fit learns a signal that the hand-set factor gets wrong, scored out of sample."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from app.bench import fit, signals
from app.bench.devbench import GoldRange, Question
from app.bench.semble import Repo, Target, Task
from app.core.settings import Settings
from app.service import Service


def candidate(path: str, bm25: int | None, vector: int | None, sig: list, hits: list[int]):  # type: ignore[no-untyped-def,type-arg]
    fused = sum(1 / (60 + r) for r in (bm25, vector) if r is not None)
    final = fused
    for _, factor in sig:
        final *= factor
    return {
        "path": path,
        "start": 1,
        "end": 9,
        "kind": "function",
        "bm25": bm25,
        "vector": vector,
        "fused": fused,
        "final": final,
        "signals": sig,
        "hits": hits,
    }


def records(set_name: str, repo: str, n: int) -> list[dict]:  # type: ignore[type-arg]
    """Questions whose gold is a wrapper ranked second, behind a test chunk that the hand
    factors leave on top; the wrapper factor is what is wrong here."""
    out = []
    for i in range(n):
        cands = [
            candidate("tests/t.py", 1, 2, [["test", 0.9]], []),
            candidate("src/a.py", 2, 1, [["wrapper", 0.6]], [0]),
            candidate("src/b.py", 50, 50, [], []),
        ]
        out.append({"set": set_name, "repo": repo, "id": f"{repo}-{i}", "kind": "k",
                    "n_targets": 1, "candidates": cands})  # fmt: skip
    return out


def test_hand_weights_reproduce_the_current_order() -> None:
    recs = records("dev", "r1", 3)
    names = fit.feature_names(recs)
    assert {"test", "wrapper", "log_fused"} <= set(names)
    start = fit.hand_weights(recs, names)
    assert start[names.index("wrapper")] == pytest.approx(np.log(0.6))
    for block in fit.blocks_of(recs, names):
        assert fit.order(block, start) == fit.order(block, None) == [0, 1, 2]


def test_loro_fit_learns_what_the_hand_factors_get_wrong() -> None:
    recs = records("dev", "r1", 4) + records("dev", "r2", 4) + records("dev2", "r3", 4)
    names = fit.feature_names(recs)
    blocks = fit.blocks_of(recs, names)
    start = fit.hand_weights(recs, names)
    table = fit.compare(blocks, start, [0.0], {"dev", "dev2"})
    assert table["current"]["dev"]["mrr"] == pytest.approx(0.5)
    assert table["hand (linear)"]["dev"]["mrr"] == pytest.approx(0.5)
    # every repo is ranked by weights that never saw it, and the gold comes first
    assert table["loro l2=0"]["dev"]["mrr"] == 1.0 and table["loro l2=0"]["dev2"]["top1"] == 1.0
    strong = fit.compare(blocks, start, [1000.0], {"dev", "dev2"})["loro l2=1000"]
    assert strong["dev"]["mrr"] == pytest.approx(0.5)  # pulled hard to the hand factors
    text = fit.format_compare(table, ["dev", "dev2"])
    lines = text.splitlines()
    assert "mean" in lines[1] and "engine" in lines[2] and "current" in lines[3]


def test_semble_questions_score_ndcg_per_target() -> None:
    repo = Repo("alpha", "python", "src", True, True)
    task = Task("alpha", "alpha:1", "q", "semantic", (Target("a.py"), Target("b.py", 1, 5)))
    labelled = signals.from_semble(repo, [task])[0]
    assert labelled.hits("a.py", 1, 2) == [0] and labelled.hits("b.py", 5, 9) == [1]
    assert labelled.hits("b.py", 6, 9) == []
    rec = {
        "set": "semble",
        "repo": "alpha",
        "id": "alpha:1",
        "kind": "semantic",
        "n_targets": 2,
        "candidates": [
            candidate("c.py", 1, 1, [], []),
            candidate("b.py", 2, 2, [], [1]),
            candidate("a.py", 3, 3, [], [0]),
        ],
    }
    names = fit.feature_names([rec])
    block = fit.blocks_of([rec], names)[0]
    figures = fit.question_metrics(block, fit.order(block, None))
    ideal = 1 + 1 / np.log2(3)
    assert figures["ndcg"] == pytest.approx((1 / np.log2(3) + 0.5) / ideal)
    assert figures["mrr"] == 0.5


def test_signals_dump_of_a_real_index_feeds_fit(
    tmp_path: Path, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "proxy.py").write_text(
        "def get_environment_proxies():\n    return {'http': read_env('HTTP_PROXY')}\n"
    )
    (repo / "pkg" / "auth.py").write_text("def basic_auth(user, password):\n    return user\n")
    service = Service(repo, settings)
    service.index()

    def search(q: str):  # type: ignore[no-untyped-def]
        return service.search(q, k=signals.POOL, budget_tokens=signals.NO_BUDGET).hits

    gold = (GoldRange("pkg/proxy.py", "get_environment_proxies", 1, 2),)
    questions = [Question("r-1", "repo", "where are proxies read from the environment", "x", gold)]
    out = tmp_path / "dump.jsonl"
    assert signals.write(out, signals.dump(search, signals.from_questions("dev", questions))) == 1
    rec = signals.read(out)[0]
    assert rec["set"] == "dev" and len(rec["candidates"]) == 2
    top = rec["candidates"][0]
    assert top["path"] == "pkg/proxy.py" and top["hits"] == [0] and top["bm25"] == 1
    args = argparse.Namespace(
        dump=out, l2=[0.1], no_mined=False, weights=tmp_path / "w.json", json=False
    )
    assert fit.run_fit(args) == 0
    assert "current" in capsys.readouterr().out
    assert "log_fused" in json.loads((tmp_path / "w.json").read_text())


def test_hand_weights_reproduce_the_engine_order_of_a_real_index(
    indexed: Callable[[dict[str, str]], Service],
) -> None:
    """Several chunks of one file (each lowered by the per-file decay, more for each one
    above it), test code and a wrapper: the linear model plus the decay re-applied gives back
    exactly the order the search returned."""
    retry = "\n\n".join(
        f"def retry_request_{i}(request, attempts):\n"
        f"    # retry the request after a timeout, {i}\n"
        f"    for _ in range(attempts):\n        request.send({i})\n    return request"
        for i in range(5)
    )
    service = indexed(
        {
            "pkg/retry.py": retry,
            "pkg/wrap.py": "def retry(request):\n    return retry_request_0(request, 3)\n",
            "tests/test_retry.py": "def test_retry_request():\n    retry_request_1(None, 2)\n",
        }
    )
    labelled = signals.from_questions(
        "dev", [Question("r-1", "repo", "how is a request retried after a timeout", "x", ())]
    )

    def search(q: str):  # type: ignore[no-untyped-def]
        return service.search(q, k=signals.POOL, budget_tokens=signals.NO_BUDGET).hits

    recs = list(signals.dump(search, labelled))
    lowered = [s for c in recs[0]["candidates"] for s in c["signals"] if s[0] == "same-file"]
    assert len({factor for _, factor in lowered}) >= 2  # decays of different depths
    names = fit.feature_names(recs, crossed=True)
    start = fit.hand_weights(recs, names)
    block = fit.blocks_of(recs, names)[0]
    assert fit.order(block, start) == list(range(len(block.hits)))
    assert fit.question_facts(recs[0]["question"])["prose"] == 1.0


def fusion_records(repo: str, n: int) -> list[dict]:  # type: ignore[type-arg]
    """Prose questions whose gold only the vectors rank first, and questions naming an
    identifier whose gold only BM25 does: one fusion for both gets half of them wrong."""
    out = []
    for i in range(n):
        prose = i % 2 == 0
        gold, other = ((50, 1), (1, 50)) if prose else ((1, 50), (50, 1))
        question = "where are requests retried" if prose else "where is retry_request"
        cands = [candidate("a.py", *other, [], []), candidate("b.py", *gold, [], [0])]
        out.append({"set": "dev", "repo": repo, "id": f"{repo}-{i}", "question": question,
                    "kind": "k", "n_targets": 1, "candidates": cands})  # fmt: skip
    return out


def test_crossed_features_let_the_fit_change_the_fusion_by_question_kind() -> None:
    recs = fusion_records("r1", 6) + fusion_records("r2", 6) + fusion_records("r3", 6)
    plain = fit.feature_names(recs)
    table = fit.compare(fit.blocks_of(recs, plain), fit.hand_weights(recs, plain), [0.01], {"dev"})
    assert table["loro l2=0.01"]["dev"]["top1"] <= 0.5
    names = fit.feature_names(recs, crossed=True)
    assert "vector_rrf@prose" in names and "bm25_rrf@log_length" in names
    blocks = fit.blocks_of(recs, names)
    table = fit.compare(blocks, fit.hand_weights(recs, names), [0.01], {"dev"})
    assert table["hand (linear)"]["dev"]["top1"] == 0.0  # a tie: the first one dumped
    assert table["loro l2=0.01"]["dev"]["top1"] == 1.0  # out of sample, both kinds


def test_pool_cuts_each_question_to_the_engines_first_candidates() -> None:
    recs = records("dev", "r1", 2)
    cut = fit.top_of(recs, 2)
    assert [c["path"] for c in cut[0]["candidates"]] == ["tests/t.py", "src/a.py"]
    assert len(recs[0]["candidates"]) == 3 and fit.top_of(recs, 0) == recs


def test_a_fit_moves_only_the_free_weights() -> None:
    recs = records("dev", "r1", 4)
    names = fit.feature_names(recs)
    start = fit.hand_weights(recs, names)
    free = (start != 0).astype(float)  # --factors-only: the hand-set factors and log_fused
    w = fit.fit(fit.blocks_of(recs, names), start, 0.0, free=free)
    moved = {n for n, a, b in zip(names, start, w, strict=True) if a != b}
    assert "wrapper" in moved and moved <= {"log_fused", "test", "wrapper"}
    assert fit.fit(fit.blocks_of(recs, names), start, 0.0)[names.index("bm25_rrf")] != 0
