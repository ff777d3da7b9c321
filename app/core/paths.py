"""Platform paths (the config file, the index root, the model cache) and path roles (test code)."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import platformdirs

APP_NAME = "repolens-tui"

_TEST_PATH = re.compile(
    r"(^|/)(tests?|__tests__|spec|specs|testing|testdata|fixtures?)(/|$)"
    r"|(^|/)(test_[^/]*|[^/]*_test\.[a-z]+|[^/]*\.(test|spec)\.[a-z]+|conftest\.py)$",
    re.IGNORECASE,
)


def config_file() -> Path:
    """The TOML settings file; `REPOLENS_CONFIG` points elsewhere."""
    override = os.environ.get("REPOLENS_CONFIG")
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def default_index_root() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME)) / "indexes"


def cache_root() -> Path:
    """Where assembled models live; `REPOLENS_CACHE_DIR` points elsewhere."""
    override = os.environ.get("REPOLENS_CACHE_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_cache_dir(APP_NAME))


def index_dir_for(index_root: Path, repo_root: Path) -> Path:
    """One folder per repository: a readable name plus a hash of the absolute path."""
    resolved = repo_root.resolve()
    digest = hashlib.sha1(str(resolved).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", resolved.name or "root")[:40]
    return index_root / f"{name}-{digest}"


def is_test_path(path: str) -> bool:
    """Whether a repository path is test code (a tests folder, test_*.py, *.test.js, ...)."""
    return bool(_TEST_PATH.search(path))
