"""The call graph on hand-labelled fixtures, one per language: precision of certain edges,
recall of certain + probable, and no call left without an edge or an unresolved record."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from app.core.models import tier_of
from app.core.settings import Settings
from app.service import Service
from app.store.graph_tables import GRAPH_EDGES, GRAPH_FILES
from app.store.store import Store

FIXTURES = Path(__file__).parents[1] / "fixtures" / "callgraph"
LANGUAGES = ["python", "javascript", "typescript", "go", "java", "rust"]
LABEL = re.compile(r"(?:#|//)\s*->\s*(.+?)\s*$")


def labels(root: Path) -> dict[tuple[str, int], set[str] | None]:
    """(path, line) -> the true callees; {"none"}: nothing in the project; None: dynamic."""
    out: dict[tuple[str, int], set[str] | None] = {}
    for file in sorted(root.rglob("*")):
        if not file.is_file() or file.suffix in (".md", ".mod"):
            continue
        rel = file.relative_to(root).as_posix()
        for number, line in enumerate(file.read_text().splitlines(), 1):
            if m := LABEL.search(line):
                text = m.group(1)
                out[(rel, number)] = None if text == "?" else {t.strip() for t in text.split(",")}
    return out


def graph_rows(tmp_path: Path, settings: Settings, language: str) -> tuple[Store, list[dict]]:
    repo = tmp_path / language
    shutil.copytree(FIXTURES / language, repo)
    service = Service(repo, settings)
    service.index(with_vectors=False)
    store = Store.open(service.index_dir)
    rows = store.read_table(GRAPH_EDGES).to_pylist()
    for row in rows:  # stored as float32
        row["confidence"] = round(row["confidence"], 3)
    return store, rows


@pytest.mark.parametrize("language", LANGUAGES)
def test_labelled_call_graph(tmp_path: Path, settings: Settings, language: str) -> None:
    store, rows = graph_rows(tmp_path, settings, language)
    truth = labels(FIXTURES / language)
    certain = [r for r in rows if r["callee"] and tier_of(r["confidence"]) == "certain"]
    right = 0
    wrong = []
    for r in certain:
        expected = truth.get((r["path"], r["line"]))
        if expected is not None and r["callee"] in expected:
            right += 1
        else:
            wrong.append((r["path"], r["line"], r["callee"], r["rule"]))
    precision = right / max(len(certain), 1)

    confident = {
        (r["path"], r["line"], r["callee"]) for r in rows if r["callee"] and r["confidence"] >= 0.7
    }
    wanted = [
        (path, line, callee)
        for (path, line), callees in truth.items()
        if callees
        for callee in callees
        if callee != "none"
    ]
    missed = [w for w in wanted if w not in confident]
    recall = 1 - len(missed) / max(len(wanted), 1)
    print(f"{language}: certain precision {precision:.3f} ({len(certain)} edges), "
          f"recall {recall:.3f} ({len(wanted)} labelled edges)")  # fmt: skip
    assert precision >= 0.95, wrong
    assert recall >= 0.90, missed

    # Every call has an edge or an unresolved record, and every labelled line has a call.
    facts = store.read_table(GRAPH_FILES).to_pylist()
    import json

    calls = {(f["path"], i) for f in facts for i in range(len(json.loads(f["facts"])["calls"]))}
    answered = {(r["path"], r["call"]) for r in rows}
    assert calls == answered
    lines = {(r["path"], r["line"]) for r in rows}
    assert set(truth) <= lines, set(truth) - lines
    # Nothing in the project is claimed for calls labelled as reaching nothing.
    for r in rows:
        if r["callee"] and truth.get((r["path"], r["line"])) == {"none"}:
            raise AssertionError(f"edge on a line labelled none: {r}")
