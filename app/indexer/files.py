"""Repository files opened safely and named faithfully: only a regular file is read (a FIFO,
socket or device in its place is refused, never waited on), and names that are not UTF-8 are
recognised and written with escapes."""

from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO

from app.core.paths import CACHE_TAG_NAME, CACHE_TAG_SIGNATURE


class NotRegular(Exception):
    """A path that is not to be read, with the skip reason and detail to record."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail


def is_undecodable(name: str) -> bool:
    """Whether a name from disk holds bytes that are not UTF-8 (Python keeps each such byte
    as a lone surrogate, which no table, JSON or terminal accepts)."""
    if name.isascii():
        return False
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def printable_path(path: str) -> str:
    """`path` with every byte that is not UTF-8 written as \\xNN: valid text to store and show."""
    if not is_undecodable(path):
        return path
    try:
        raw = path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that no file name decodes to
        return path.encode("utf-8", "backslashreplace").decode("ascii")
    return raw.decode("utf-8", "backslashreplace")


def _file_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a fifo"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


# Non-blocking, so that opening a FIFO returns at once (a FIFO blocks until a writer comes);
# no controlling terminal from a tty node.
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


def open_regular(path: str, *, follow: bool = True) -> tuple[BinaryIO, os.stat_result]:
    """Open a regular file for reading, and its stat. The type is checked before opening (a
    device is never opened) and again on the open file (it may have been swapped meanwhile);
    anything else raises NotRegular. `follow=False` refuses a symbolic link."""
    try:
        before = os.stat(path) if follow else os.lstat(path)
    except FileNotFoundError:
        raise NotRegular("vanished") from None
    except OSError as exc:
        raise NotRegular("unreadable", exc.strerror or str(exc)) from None
    if not stat.S_ISREG(before.st_mode):
        raise NotRegular("not-regular", _file_kind(before.st_mode))
    try:
        fd = os.open(path, _OPEN_FLAGS | (0 if follow else os.O_NOFOLLOW))
    except FileNotFoundError:
        raise NotRegular("vanished") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotRegular("not-regular", "replaced by a symbolic link") from None
        if exc.errno == errno.ENXIO:
            raise NotRegular("not-regular", "a socket") from None
        raise NotRegular("unreadable", exc.strerror or str(exc)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegular("not-regular", _file_kind(st.st_mode))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb"), st
    except BaseException:
        os.close(fd)
        raise


def is_cache_folder(folder: str) -> bool:
    """Whether `folder` holds a CACHEDIR.TAG with the signature (an index, a build cache)."""
    try:
        fh, _ = open_regular(os.path.join(folder, CACHE_TAG_NAME))
        with fh:
            return fh.read(len(CACHE_TAG_SIGNATURE)) == CACHE_TAG_SIGNATURE
    except (NotRegular, OSError):
        return False
