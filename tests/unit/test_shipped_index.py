"""An index you can ship: the manifest records the commit, and a copied index answers
`search`, `callers` and `symbols` with no source tree, saying so."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from app.cli import main
from app.indexer.gitinfo import head_commit
from app.store.catalog import stored_indexes


def _git(repo: Path, *words: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *words],
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


def _checkout(repo: Path) -> str:
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "first")
    return _git(repo, "rev-parse", "HEAD")


def test_head_commit_reads_loose_packed_detached_and_worktree_refs(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    (repo / "sub" / "a.py").write_text("x = 1\n")
    sha = _checkout(repo)
    assert head_commit(repo) == sha
    assert head_commit(repo / "sub") == sha  # a folder inside the checkout
    _git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    assert head_commit(repo) == sha
    _git(repo, "worktree", "add", "-q", "-b", "other", str(tmp_path / "wt"))
    assert head_commit(tmp_path / "wt") == sha  # a `.git` file naming its folder
    _git(repo, "checkout", "-q", "--detach")
    assert head_commit(repo) == sha
    assert head_commit(tmp_path) == ""  # not a checkout


def test_head_commit_refuses_a_head_naming_a_path_outside_refs(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "a.py").write_text("x = 1\n")
    _checkout(repo)
    outside = tmp_path / "sha"
    outside.write_text("a" * 40 + "\n")
    (repo / ".git" / "HEAD").write_text("ref: refs/../../../sha\n")
    assert head_commit(repo) == ""


@pytest.mark.slow
def test_a_copied_index_answers_without_its_source_tree(
    sample_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("REPOLENS_CONFIG", str(tmp_path / "no-config.toml"))
    sha = _checkout(sample_repo)
    built = tmp_path / "built"
    questions = [
        ["search", str(sample_repo), "retry with exponential backoff", "--json", "-k", "4"],
        ["callers", str(sample_repo), "retry_backoff", "--json"],
        ["symbols", str(sample_repo), "RetryPolicy", "--json"],
    ]
    original = []
    for words in questions:
        assert main([*words, "--index-dir", str(built), "-q"]) == 0
        original.append(json.loads(capsys.readouterr().out))
    [(_, manifest)] = stored_indexes(built)
    assert manifest.commit == sha and manifest.strategy_version and manifest.embedding_model

    shipped = tmp_path / "elsewhere" / "indexes"
    shutil.copytree(built, shipped)
    shutil.rmtree(built)
    shutil.rmtree(sample_repo)  # no source tree anywhere now
    for words, before in zip(questions, original, strict=True):
        for name in (str(sample_repo), "sample_repo"):  # its original path, or its name
            asked = [words[0], name, *words[2:]]
            assert main([*asked, "--index-dir", str(shipped)]) == 0
            captured = capsys.readouterr()
            after = json.loads(captured.out)
            assert f"source tree not found; answering from the stored index built at {sha}" in (
                captured.err
            )
            if words[0] == "search":
                assert [_hit_key(h) for h in after["hits"]] == [_hit_key(h) for h in before["hits"]]
                assert [h["text"] for h in after["hits"]] == [h["text"] for h in before["hits"]]
            else:
                assert after == before
    assert main(["stats", "sample_repo", "--index-dir", str(shipped)]) == 0
    shown = capsys.readouterr().out
    assert f"commit      {sha}" in shown
    assert "source      source tree not found; answering from the stored index" in shown
    assert "pending     none" in shown
    assert main(["index", "sample_repo", "--index-dir", str(shipped)]) == 1
    assert "its source tree is not here" in capsys.readouterr().err


def _hit_key(hit: dict[str, object]) -> tuple[object, ...]:
    return (hit["path"], hit["start_line"], hit["end_line"], hit["symbol"], hit["stale"])


def test_a_missing_path_with_no_stored_index_says_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPOLENS_CONFIG", str(tmp_path / "no-config.toml"))
    code = main(["search", str(tmp_path / "gone"), "q", "--index-dir", str(tmp_path / "idx")])
    err = capsys.readouterr().err
    assert code == 1
    assert "gone does not exist, and no index under" in err
