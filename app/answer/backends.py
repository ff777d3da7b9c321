"""llama.cpp made ready for this process before its first model: its log dropped, and its
CPU code for this processor chosen.

The set-up builds every x86 CPU variant of llama.cpp (`GGML_BACKEND_DL=ON`,
`GGML_CPU_ALL_VARIANTS=ON`: AVX2, AVX-512, ...), so one build runs as fast as a native one on
any machine and never stops on an instruction the processor lacks. llama.cpp would pick the
best variant the processor supports, but only from the folders it searches itself (the
executable's and the working one), and it would pick the AMX one for any model, which
crashes on quantized ones (AMX_VARIANTS); llama-cpp-python 0.3.36 installs them in
`site-packages/bin` and has no binding to load them from there. This scores each variant as
llama.cpp does and loads the best one for the model about to be loaded, once.
A build without variants (its CPU code linked in) needs nothing.
"""

from __future__ import annotations

import ctypes
import threading
from pathlib import Path
from typing import Any

from app.answer.gguf import has_float_weights
from app.answer.model import AnswerModelUnavailable

_VARIANT_GLOB = "libggml-cpu-*"
_VARIANT_PREFIX = "libggml-cpu-"
# Variants loaded for float weights only. Sapphire Rapids' is the one with AMX, and llama.cpp
# as llama-cpp-python 0.3.36 ships it runs AMX tile instructions without a valid tile
# configuration: a quantized model (the 1.5B's Q4_K_M, any Q8_0 or Q4_0 file) stops the whole
# process with SIGILL at its first matrix product (`tilezero` in ggml_backend_amx_mul_mat; seen
# on a Xeon with AMX, llama.cpp pull request 26954). The F16 default never takes that path;
# with it, it reads its prompt as fast as with the next best (zen4) and writes 6.5 % faster.
AMX_VARIANTS = frozenset({"sapphirerapids"})

_lock = threading.Lock()
_loaded: list[Path] = []  # the variant loaded, once
_DROPPED_LOG: list[Any] = []  # the callback given to llama.cpp, kept: C holds only a pointer


def prepare_llama(model: Path | None = None) -> None:
    """Drop llama.cpp's log, then load its CPU variant for this processor (once): the AMX one
    only for a `model` whose weights are floats (the default F16)."""
    drop_llama_log()
    load_cpu_backend(model)


def drop_llama_log() -> None:
    """llama.cpp logs through llama-cpp-python's callback straight to stderr, at any verbosity
    (an aborted decode says "decode: removing memory module entries ...", loading a CPU
    variant "load_backend: loaded CPU backend from ..."): under the TUI that text lands on the
    screen, and after ctrl+q in the shell. Every line is dropped instead; every problem the
    model has reaches the person as our own error."""
    import llama_cpp

    if not _DROPPED_LOG:
        _DROPPED_LOG.append(llama_cpp.llama_log_callback(lambda _level, _text, _data: None))
    llama_cpp.llama_log_set(_DROPPED_LOG[0], ctypes.c_void_p(0))


def variants_folder() -> Path:
    """Where llama-cpp-python installs llama.cpp's CPU variants: `site-packages/bin`."""
    import llama_cpp

    return Path(llama_cpp.__file__).resolve().parent.parent / "bin"


def load_cpu_backend(model: Path | None = None) -> None:
    """Register the best CPU variant for this processor and `model` with llama.cpp, once per
    process; nothing when the build has no variants. Raises AnswerModelUnavailable when it has
    them and none can run here, or when the AMX variant this process loaded for a float model
    would have to run a quantized one."""
    amx = model is not None and has_float_weights(model)
    with _lock:
        if _loaded:
            if model is not None and not amx and _is_amx(_loaded[0]):
                raise AnswerModelUnavailable(
                    f"{model} holds quantized weights, which the llama.cpp code this process "
                    "loaded for an F16 model cannot run: ask it in a process of its own"
                )
            return
        folder = variants_folder()
        if not any(folder.glob(_VARIANT_GLOB)):
            return
        import llama_cpp.llama_cpp

        found = sorted(folder.glob(_VARIANT_GLOB))
        scores = {path: variant_score(path) for path in found if amx or not _is_amx(path)}
        best = max(scores, key=lambda path: (scores[path], path.name), default=None)
        if best is None or scores[best] <= 0:
            raise AnswerModelUnavailable(
                f"none of llama.cpp's CPU variants in {folder} runs on this processor: "
                "reinstall llama-cpp-python with the README's set-up command"
            )
        # libllama's handle: its symbols lookup reaches the ggml library it links, whose
        # backend registry models load from (llama_cpp._ggml opens another copy).
        ggml = llama_cpp.llama_cpp._lib
        ggml.ggml_backend_load.argtypes = [ctypes.c_char_p]
        ggml.ggml_backend_load.restype = ctypes.c_void_p
        if not ggml.ggml_backend_load(str(best).encode()):
            raise AnswerModelUnavailable(f"llama.cpp could not load its CPU variant {best}")
        _loaded.append(best)


def loaded_variant() -> Path | None:
    """The CPU variant this process loaded, if any yet."""
    return _loaded[0] if _loaded else None


def _is_amx(path: Path) -> bool:
    return path.name.split(".")[0].removeprefix(_VARIANT_PREFIX) in AMX_VARIANTS


def variant_score(path: Path) -> int:
    """llama.cpp's own score of a CPU variant on this processor (0: it cannot run here), as
    its loader asks each one; the library is closed again."""
    import _ctypes

    library = ctypes.CDLL(str(path))
    try:
        library.ggml_backend_score.restype = ctypes.c_int
        return int(library.ggml_backend_score())
    except AttributeError:  # not a variant: no score
        return 0
    finally:
        _ctypes.dlclose(library._handle)
