"""What a GGUF file's header says of its weights: read from its metadata, before llama.cpp
opens it (the format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md).

Only `general.file_type` is wanted, which writers put among the first keys; reading stops
there, or at the end of the metadata, or at anything malformed (then: unknown)."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import BinaryIO

MAGIC = b"GGUF"
FILE_TYPE_KEY = "general.file_type"
# llama_ftype values whose weights are floats: all F32, mostly F16, mostly BF16.
FLOAT_FILE_TYPES = frozenset({0, 1, 32})
MAX_KEYS = 4096  # a header with more is not one this reads
MAX_BYTES = 16 << 20  # nor one whose strings or arrays would take more

# Metadata value types: the fixed sizes, then STRING (8) and ARRAY (9).
_SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
_STRING, _ARRAY, _UINT32 = 8, 9, 4


class _Malformed(Exception):
    pass


def _read(handle: BinaryIO, size: int) -> bytes:
    data = handle.read(size)
    if len(data) != size:
        raise _Malformed
    return data


def _u32(handle: BinaryIO) -> int:
    return int(struct.unpack("<I", _read(handle, 4))[0])


def _u64(handle: BinaryIO) -> int:
    return int(struct.unpack("<Q", _read(handle, 8))[0])


def _string(handle: BinaryIO) -> bytes:
    size = _u64(handle)
    if size > MAX_BYTES:
        raise _Malformed
    return _read(handle, size)


def _skip(handle: BinaryIO, kind: int) -> None:
    if kind in _SIZES:
        _read(handle, _SIZES[kind])
    elif kind == _STRING:
        _string(handle)
    elif kind == _ARRAY:
        inner, count = _u32(handle), _u64(handle)
        if inner in _SIZES:
            if inner and count * _SIZES[inner] > MAX_BYTES:
                raise _Malformed
            handle.seek(count * _SIZES[inner], 1)
        else:
            for _ in range(min(count, MAX_BYTES)):
                _skip(handle, inner)
    else:
        raise _Malformed


def file_type(path: Path) -> int | None:
    """`general.file_type` (llama.cpp's llama_ftype) of a GGUF file, or None: not said, or
    not a GGUF file this can read."""
    try:
        with path.open("rb") as handle:
            if _read(handle, 4) != MAGIC:
                return None
            _u32(handle)  # version
            _u64(handle)  # tensors
            keys = _u64(handle)
            for _ in range(min(keys, MAX_KEYS)):
                key, kind = _string(handle), _u32(handle)
                if key == FILE_TYPE_KEY.encode() and kind == _UINT32:
                    return _u32(handle)
                _skip(handle, kind)
    except (OSError, _Malformed, struct.error):
        return None
    return None


def has_float_weights(path: Path) -> bool:
    """Whether the file says its weights are F32, F16 or BF16 (not quantized)."""
    return file_type(path) in FLOAT_FILE_TYPES
