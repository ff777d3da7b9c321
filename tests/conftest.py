"""Shared fixtures: a copy of the sample repository and an isolated index root."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from app.core.settings import Settings
from app.service import Service

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def sample_repo(tmp_path: Path) -> Path:
    target = tmp_path / "sample_repo"
    shutil.copytree(FIXTURES / "sample_repo", target)
    return target


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setenv("REPOLENS_CONFIG", str(tmp_path / "no-config.toml"))
    return Settings(index_dir=tmp_path / "indexes")


@pytest.fixture
def indexed(tmp_path: Path, settings: Settings) -> Callable[[dict[str, str]], Service]:
    """Builds a repository from {path: text} under tmp_path/repo and indexes it for real."""

    def build(files: dict[str, str]) -> Service:
        repo = tmp_path / "repo"
        for path, text in files.items():
            (repo / path).parent.mkdir(parents=True, exist_ok=True)
            (repo / path).write_text(text)
        service = Service(repo, settings)
        service.index()
        return service

    return build


@pytest.fixture
def haskell_calls_unread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Haskell's call query taken away: every language whose definitions are read has its
    calls read too (Haskell was the last), so this stands for one added with definitions
    alone. The index, the graph and what shows them stay real."""
    from app.parse import calls

    real_query = calls._query
    monkeypatch.setattr(
        calls, "_query", lambda lang: None if lang == "haskell" else real_query(lang)
    )
