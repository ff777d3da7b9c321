"""llama.cpp as the set-up builds it: every CPU variant, the best one for this processor loaded
from where llama-cpp-python installs them, silently (the TUI draws on stderr's terminal)."""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from pathlib import Path

from app.answer.backends import UNSAFE_VARIANTS, safe_variants, variants_folder

# In a fresh process (the loading is once per process): load, then say what was loaded.
PROBE = """
import json, llama_cpp
from app.answer.backends import prepare_llama
prepare_llama()
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
    probe = subprocess.run(
        [sys.executable, "-c", PROBE],
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


# A quantized copy of the default model, made and read in a fresh process: the variant loaded
# must run quantized matrix products (the AMX variant stopped the process with SIGILL there).
QUANTIZED_PROBE = """
import sys, llama_cpp
from app.answer.backends import prepare_llama
prepare_llama()
params = llama_cpp.llama_model_quantize_default_params()
params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_Q8_0
params.nthread = 2
assert llama_cpp.llama_model_quantize(sys.argv[1].encode(), sys.argv[2].encode(), params) == 0
model = llama_cpp.Llama(sys.argv[2], n_ctx=256, n_threads=2, verbose=False)
model.eval(model.tokenize(b"def add(a, b):\\n    return a + b\\n" * 8))
print("read", model.n_tokens)
"""


def test_a_quantized_model_reads_a_prompt_with_the_variant_loaded(tmp_path: Path) -> None:
    from app.answer.model import default_model_file

    quantized = tmp_path / "q8_0.gguf"
    probe = subprocess.run(
        [sys.executable, "-c", QUANTIZED_PROBE, str(default_model_file()), str(quantized)],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    assert probe.returncode == 0, f"exit {probe.returncode}: {probe.stderr[-2000:]}"
    assert probe.stdout.startswith("read "), probe.stdout


def test_the_amx_variant_is_never_loaded() -> None:
    names = {path.name.split(".")[0] for path in safe_variants(variants_folder())}
    assert "libggml-cpu-sapphirerapids" not in names
    assert {f"libggml-cpu-{name}" for name in UNSAFE_VARIANTS} == {"libggml-cpu-sapphirerapids"}
