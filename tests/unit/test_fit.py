"""The signals dump and the fitted rerank: the hand-set factors reproduce the current order,
and a fit learns a signal that the hand-set factor gets wrong, scored out of sample."""

from __future__ import annotations

import argparse
import json
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
    assert "current" in text.splitlines()[2] and "mean" in text.splitlines()[1]


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
