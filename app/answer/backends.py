"""llama.cpp made ready for this process before its first model: its log dropped, and its
CPU code for this processor chosen.

The set-up builds every x86 CPU variant of llama.cpp (`GGML_BACKEND_DL=ON`,
`GGML_CPU_ALL_VARIANTS=ON`: AVX2, AVX-512, AMX, ...), so one build runs as fast as a native
one on any machine and never stops on an instruction the processor lacks. llama.cpp picks
the best variant the processor supports, but only from the folders it searches itself (the
executable's and the working one); llama-cpp-python 0.3.36 installs them in
`site-packages/bin` and has no binding to load them from there, so this does, once.
A build without variants (its CPU code linked in) needs nothing.
"""

from __future__ import annotations

import ctypes
import threading
from pathlib import Path
from typing import Any

from app.answer.model import AnswerModelUnavailable

_VARIANT_GLOB = "libggml-cpu-*"

_lock = threading.Lock()
_loaded: list[Path] = []  # the variants folder, once loaded
_DROPPED_LOG: list[Any] = []  # the callback given to llama.cpp, kept: C holds only a pointer


def prepare_llama() -> None:
    """Drop llama.cpp's log, then load its CPU variant for this processor (once)."""
    drop_llama_log()
    load_cpu_backend()


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


def load_cpu_backend() -> None:
    """Register the best CPU variant for this processor with llama.cpp, once per process;
    nothing when the build has no variants. Raises AnswerModelUnavailable when it has them
    and none can run here."""
    with _lock:
        if _loaded:
            return
        folder = variants_folder()
        if not any(folder.glob(_VARIANT_GLOB)):
            return
        import llama_cpp.llama_cpp

        # libllama's handle: its symbols lookup reaches the ggml library it links, whose
        # backend registry models load from (llama_cpp._ggml opens another copy).
        ggml = llama_cpp.llama_cpp._lib
        ggml.ggml_backend_load_all_from_path.argtypes = [ctypes.c_char_p]
        ggml.ggml_backend_load_all_from_path(str(folder).encode())
        ggml.ggml_backend_reg_count.restype = ctypes.c_size_t
        if ggml.ggml_backend_reg_count() == 0:
            raise AnswerModelUnavailable(
                f"none of llama.cpp's CPU variants in {folder} runs on this processor: "
                "reinstall llama-cpp-python with the README's set-up command"
            )
        _loaded.append(folder)
