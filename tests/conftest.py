"""Shared fixtures: a copy of the sample repository and an isolated index root."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.core.settings import Settings

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
