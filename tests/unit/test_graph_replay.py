"""The graph replay bench: real commits of a tiny git history through the live index, each
step's call graph compared with a clean rebuild."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from app.bench import replay as replay_module
from app.bench.replay import ReplayError, commits_to_replay, differences, replay, snapshot
from app.core.settings import Settings
from app.service import Service

HISTORY = [
    {
        "pkg/core.py": "def helper():\n    return 1\n\n\nclass Store:\n    def get(self):\n"
        "        return helper()\n",
        "pkg/app.py": "from pkg.core import Store, helper\n\n\ndef main():\n    helper()\n"
        "    Store().get()\n",
    },
    {"pkg/core.py": "def helper():\n    return 2\n\n\ndef helper2():\n    return helper()\n"},
    {"pkg/app.py": None, "pkg/cli.py": "from pkg.core import helper2\n\n\ndef run():\n"
     "    helper2()\n"},
    {"pkg/util.py": "def helper2():\n    return 0\n", "tool.sh": "#!/bin/sh\necho hi\n"},
]  # fmt: skip


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout.strip()


def _history(root: Path) -> Path:
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    for number, change in enumerate(HISTORY):
        for path, text in change.items():
            target = root / path
            if text is None:
                target.unlink()
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", f"step {number}")
    return root / ".git"


def test_each_replayed_commit_leaves_the_live_graph_equal_to_a_rebuild(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The live worker resolves calls once edits pause for 3 s; a tenth of a second keeps
    # this test fast, and the order of work it follows stays the same.
    monkeypatch.setattr("app.indexer.worker.GRAPH_QUIET_SECONDS", 0.1)
    monkeypatch.setattr(replay_module, "STABLE_S", 0.3)
    gitdir = _history(tmp_path / "repo")
    seen: list[str] = []
    report = replay(gitdir, 3, settings, progress=seen.append)
    assert report.start == _git(tmp_path / "repo", "rev-parse", "HEAD~3")
    assert [s.files_changed for s in report.steps] == [1, 2, 2]
    assert [s.subject for s in report.steps] == ["step 1", "step 2", "step 3"]
    assert report.exact == 3, [s.differences for s in report.steps]
    assert len(seen) == 3 and "same as a rebuild" in seen[0]


def test_differences_name_what_the_live_graph_has_that_a_rebuild_has_not(
    tmp_path: Path, settings: Settings
) -> None:
    repo = tmp_path / "work"
    repo.mkdir()
    (repo / "a.py").write_text("def f():\n    return g()\n\n\ndef g():\n    return 1\n")
    first = Service(repo, settings.model_copy(update={"index_dir": tmp_path / "one"}))
    first.index(with_vectors=False)
    (repo / "a.py").write_text("def f():\n    return h()\n\n\ndef g():\n    return 1\n")
    second = Service(repo, settings.model_copy(update={"index_dir": tmp_path / "two"}))
    second.index(with_vectors=False)
    lines, counts = differences(snapshot(first.index_dir), snapshot(second.index_dir))
    assert counts["edges"] == 2 and counts["facts"] == 1
    assert "+ edge a.py:2 a.py::f -> a.py::g [g] 0.9 same-module" in lines
    assert any(line.startswith("- edge a.py:2 a.py::f -> unresolved [h]") for line in lines)
    assert differences(snapshot(first.index_dir), snapshot(first.index_dir)) == ([], {
        "edges": 0, "symbols": 0, "pagerank": 0, "facts": 0})  # fmt: skip


def test_a_history_too_short_or_a_bad_start_is_one_clear_error(tmp_path: Path) -> None:
    gitdir = _history(tmp_path / "repo")
    with pytest.raises(ReplayError, match="has 4 commits; 26 are needed"):
        commits_to_replay(gitdir, 25, None)
    with pytest.raises(ReplayError, match="only 1 commits follow HEAD~1"):
        commits_to_replay(gitdir, 3, "HEAD~1")
    with pytest.raises(ReplayError, match="git rev-parse"):
        commits_to_replay(gitdir, 1, "no-such-rev")
    assert len(commits_to_replay(gitdir, 2, "HEAD~3")) == 3


def test_a_commit_with_an_absolute_symlink_is_written_as_a_checkout_writes_it(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    gitdir = _history(repo)
    (repo / "misc").mkdir()
    (repo / "misc/broken-abs-symlink").symlink_to("/doesnt/exist")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "an absolute link")
    folder = tmp_path / "tree"
    folder.mkdir()
    replay_module.materialise(gitdir, _git(repo, "rev-parse", "HEAD"), folder)
    link = folder / "misc/broken-abs-symlink"
    assert link.is_symlink() and str(link.readlink()) == "/doesnt/exist"
    assert (folder / "pkg/core.py").is_file()
