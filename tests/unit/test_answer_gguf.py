"""The GGUF header read before llama.cpp opens a file: its weights' type, or unknown."""

from __future__ import annotations

import struct
from pathlib import Path

from app.answer.gguf import file_type, has_float_weights
from app.answer.model import default_model_file


def _string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def _header(*pairs: bytes) -> bytes:
    return b"GGUF" + struct.pack("<IQQ", 3, 0, len(pairs)) + b"".join(pairs)


ARCH = _string("general.architecture") + struct.pack("<I", 8) + _string("qwen2")
TOKENS = (  # an array of strings, then one of floats, before the key wanted
    _string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, 2) + _string("a") + _string("b")
)
SCORES = _string("tokenizer.ggml.scores") + struct.pack("<IIQ", 9, 6, 3) + b"\0" * 12


def _file_type(value: int) -> bytes:
    return _string("general.file_type") + struct.pack("<II", 4, value)


def test_the_file_type_is_read_past_strings_and_arrays(tmp_path: Path) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(_header(ARCH, TOKENS, SCORES, _file_type(15)))
    assert file_type(path) == 15 and not has_float_weights(path)
    path.write_bytes(_header(ARCH, _file_type(1)))
    assert file_type(path) == 1 and has_float_weights(path)


def test_a_file_that_does_not_say_or_is_broken_is_unknown(tmp_path: Path) -> None:
    path = tmp_path / "m.gguf"
    for data in (
        _header(ARCH),  # no file type
        _header(ARCH, _file_type(1))[:-3],  # cut short
        b"GGML" + _header(ARCH, _file_type(1))[4:],  # not GGUF
        _header(_string("x") + struct.pack("<I", 99)),  # a value type that does not exist
        _header(_string("x") + struct.pack("<I", 8) + struct.pack("<Q", 2**62)),  # huge string
    ):
        path.write_bytes(data)
        assert file_type(path) is None and not has_float_weights(path)
    assert file_type(tmp_path / "missing.gguf") is None


def test_the_default_model_says_f16() -> None:
    assert file_type(default_model_file()) == 1
