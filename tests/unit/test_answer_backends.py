"""llama.cpp as the set-up builds it: every CPU variant, the best one for this processor loaded
from where llama-cpp-python installs them, silently (the TUI draws on stderr's terminal)."""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from pathlib import Path

from app.answer.backends import AMX_VARIANTS, variants_folder

# In a fresh process (the loading is once per process): load, then say what was loaded.
PROBE = """
import json, sys, llama_cpp
from pathlib import Path
from app.answer.backends import prepare_llama
prepare_llama(Path(sys.argv[1]))
mapped = sorted({line.split()[-1] for line in open("/proc/self/maps") if "libggml-cpu" in line})
print(json.dumps({"mapped": mapped, "info": llama_cpp.llama_print_system_info().decode()}))
"""


def test_the_set_up_builds_every_cpu_variant() -> None:
    # The README's CMAKE_ARGS (GGML_BACKEND_DL, GGML_CPU_ALL_VARIANTS): one per x86 level
    # (other processors have their own list).
    names = {path.name.split(".")[0] for path in variants_folder().glob("libggml-cpu-*")}
    if platform.machine() in ("x86_64", "AMD64"):
        assert {"libggml-cpu-haswell", "libggml-cpu-skylakex", "libggml-cpu-x64"} <= names
    else:
        assert names


def test_the_best_variant_for_this_processor_loads_and_nothing_is_printed() -> None:
    from app.answer.model import default_model_file

    probe = subprocess.run(
        [sys.executable, "-c", PROBE, str(default_model_file())],
        capture_output=True,
        text=True,
        timeout=120,
        cwd="/",  # llama.cpp's own search looks in the working folder: not relied on
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stderr == ""
    loaded = json.loads(probe.stdout)
    assert len(loaded["mapped"]) == 1, loaded
    assert Path(loaded["mapped"][0]).parent == variants_folder()
    # The variant's features are the processor's: at least AVX2 wherever the set-up builds.
    cpu_flags = Path("/proc/cpuinfo").read_text().split()
    assert ("AVX2 = 1" in loaded["info"]) == ("avx2" in cpu_flags)
    assert ("AVX512 = 1" in loaded["info"]) == ("avx512f" in cpu_flags)


# A quantized copy of the default model, made, then read in a fresh process: the variant loaded
# for it must run quantized matrix products (the AMX variant stopped the process with SIGILL
# there); the same process then refuses nothing. A second process loads the F16 default first
# and is told, not crashed, when it then asks for the quantized copy.
QUANTIZED_PROBE = """
import sys, json, llama_cpp
from pathlib import Path
from app.answer.backends import drop_llama_log, loaded_variant, prepare_llama
from app.answer.model import AnswerModelUnavailable
drop_llama_log()
source, quantized, order = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
if not quantized.exists():
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_Q8_0
    params.nthread = 2
    assert llama_cpp.llama_model_quantize(bytes(source), bytes(quantized), params) == 0
said = ""
if order == "f16-first":
    prepare_llama(source)
try:
    prepare_llama(quantized)
    model = llama_cpp.Llama(str(quantized), n_ctx=256, n_threads=2, verbose=False)
    model.eval(model.tokenize(b"def add(a, b):\\n    return a + b\\n" * 8))
    said = f"read {model.n_tokens}"
except AnswerModelUnavailable as error:
    said = str(error)
print(json.dumps({"said": said, "variant": loaded_variant().name}))
"""


def _probe(source: Path, quantized: Path, order: str) -> dict[str, str]:
    probe = subprocess.run(
        [sys.executable, "-c", QUANTIZED_PROBE, str(source), str(quantized), order],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    assert probe.returncode == 0, f"exit {probe.returncode}: {probe.stderr[-2000:]}"
    result: dict[str, str] = json.loads(probe.stdout)
    return result


def test_a_quantized_model_runs_on_the_variant_loaded_for_it(tmp_path: Path) -> None:
    from app.answer.model import default_model_file

    source, quantized = default_model_file(), tmp_path / "q8_0.gguf"
    alone = _probe(source, quantized, "quantized-only")
    assert alone["said"].startswith("read "), alone
    assert not any(name in alone["variant"] for name in AMX_VARIANTS)
    after_f16 = _probe(source, quantized, "f16-first")
    if any(name in after_f16["variant"] for name in AMX_VARIANTS):  # a processor with AMX
        assert after_f16["said"] == (
            f"{quantized} holds quantized weights, which the llama.cpp code this process "
            "loaded for an F16 model cannot run: ask it in a process of its own"
        )
    else:
        assert after_f16["said"].startswith("read "), after_f16
