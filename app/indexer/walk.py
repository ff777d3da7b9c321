"""Walk a repository for indexable files, honouring .gitignore and a default deny list.

Also reads a single file for indexing (`read_source`): never blocking on a FIFO or a device,
then binary sniffing, decoding, minified checks.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pathspec

from app.core.models import SkippedFile
from app.core.paths import CACHE_TAG_NAME
from app.indexer.files import (
    NotRegular,
    is_cache_folder,
    is_undecodable,
    open_regular,
    printable_path,
)

SKIP_REASONS: dict[str, str] = {
    "ignored": "matched .gitignore, .git/info/exclude or a configured ignore pattern",
    "denied": "on the default deny list (dependencies, build output, caches, lock files)",
    "too-large": "larger than the maximum file size",
    "binary": "binary content or a binary file extension",
    "minified": "minified or generated (very long lines)",
    "generated-docs": "a documentation page a tool generated (javadoc, Dokka, jazzy, Sphinx, ...)",
    "symlink-outside": "symbolic link pointing outside the repository",
    "symlink-loop": "symbolic link that would loop or revisit a directory already walked",
    "broken-symlink": "symbolic link whose target does not exist",
    "symlink-duplicate": "symbolic link to a file that is indexed under its own path",
    "unreadable": "could not be read (permission or OS error)",
    "vanished": "disappeared during the walk",
    "not-regular": "not a regular file (fifo, socket or device)",
    "undecodable-name": "file or folder name that is not valid UTF-8 (shown with \\xNN escapes)",
}

UNDECODABLE_FILE = "the file name is not valid UTF-8; rename it to index it"
UNDECODABLE_FOLDER = "the folder name is not valid UTF-8; rename it to index what it holds"
INDEX_FOLDER = "the repolens-tui index itself"
CACHE_FOLDER = "a cache folder (it holds a CACHEDIR.TAG)"


def _words(text: str) -> frozenset[str]:
    # Whitespace-separated lists keep these long sets readable (the formatter would explode
    # a literal set into one name per line).
    return frozenset(text.split())


# Vendored copies of other projects go by several names: pip's and setuptools' `_vendor`,
# `vendored`, C and C++ projects' `third-party`, `thirdparty` and `3rdparty`.
DENIED_DIRS = _words(
    """
    .git .hg .svn .bzr node_modules bower_components vendor _vendor vendored third_party
    third-party thirdparty 3rdparty __pycache__ .venv venv
    .tox .nox .mypy_cache .pytest_cache .ruff_cache .idea .vscode dist build target out .next
    .nuxt coverage .gradle .cache site-packages
    """
)
DENIED_DIR_SUFFIXES = (".egg-info",)

LOCK_FILES = _words(
    """
    package-lock.json yarn.lock pnpm-lock.yaml poetry.lock Pipfile.lock Cargo.lock composer.lock
    Gemfile.lock go.sum uv.lock
    """
)

MINIFIED_SUFFIXES = (".min.js", ".min.css", "-min.js", ".bundle.js", ".map")

# Binary by design, known by name so no start-up reads them: among them gettext catalogues
# (.mo; Django ships 1,261, each was read at every start only to find a NUL byte), shapefiles
# (.shp .shx .dbf) and MaxMind databases (.mmdb). Not `.doc`: the content decides, since
# towncrier's news fragments (aiohttp's `CHANGES/3642.doc`) are text and Word's are OLE files.
BINARY_EXTENSIONS = _words(
    """
    .pyc .pyo .pyd .so .dylib .dll .exe .class .jar .war .o .obj .a .lib .wasm .node .dex .apk
    .zip .gz .tgz .bz2 .xz .zst .tar .7z .rar .whl .egg .deb .rpm .dmg .iso
    .png .jpg .jpeg .gif .bmp .ico .icns .tif .tiff .webp .psd .heic .avif
    .woff .woff2 .ttf .otf .eot
    .mp3 .mp4 .m4a .wav .flac .ogg .avi .mov .mkv .webm
    .pdf .docx .xls .xlsx .ppt .pptx
    .sqlite .sqlite3 .db .bin .onnx .gguf .safetensors .pt .pth .ckpt .h5 .npy .npz .pkl
    .pickle .parquet .arrow .lance .feather
    .mo .shp .shx .dbf .mmdb
    """
)

SNIFF_BYTES = 8192
MAX_LINE_CHARS = 5000
MAX_AVG_LINE_CHARS = 300
AVG_CHECK_MIN_BYTES = 20_000
NON_TEXT_SHARE = 0.30

# A documentation site a tool wrote from the code's doc comments, committed beside it (jazzy's
# `docs/`, Dokka's `docs/api/`, javadoc, Doxygen, Sphinx, rustdoc, mkdocs): thousands of pages
# that repeat the doc comments the code already holds and crowd it out of every result list.
# Known by what such pages say of themselves, anywhere in the page (footers come last).
HTML_SUFFIXES = (".html", ".htm", ".xhtml")
DOC_GENERATOR_MARKS = (
    (re.compile(r"<meta\s[^>]*\bname\s*=\s*[\"']?generator\b", re.IGNORECASE),
     "it has a generator <meta> tag"),
    (re.compile(r"<!--\s*generated\s+(?:by|with|using)\b", re.IGNORECASE),
     "a comment in it says a tool generated it"),
    (re.compile(r"\b(?:generated|created)\s+(?:by|with|using)\s*(?:</\w+>\s*)*<a\b"
                r"|\bgenerated\s+on\b[^<]{0,80}\bby\s*<a\b", re.IGNORECASE),
     "its footer names the tool that generated it"),
)  # fmt: skip

# Bytes that plain text contains; everything else counts towards the binary share.
_TEXT_BYTES = bytes(range(32, 127)) + b"\t\n\r\f\b\x1b" + bytes(range(128, 256))
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# The signature of an OLE compound file: Word's .doc, Excel's .xls, PowerPoint's .ppt, .msi.
_OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@dataclass(frozen=True, slots=True)
class WalkedFile:
    path: str  # relative to root, '/'-separated
    root: str  # the repository root as resolved on disk
    size: int
    mtime_ns: int

    @property
    def abs_path(self) -> Path:  # made on demand: most walked files are only compared
        return Path(self.root, self.path)


@dataclass(slots=True)
class WalkResult:
    files: list[WalkedFile]  # sorted by path
    skipped: list[SkippedFile]  # sorted by path


class WalkError(Exception):
    """The root cannot be walked at all (missing, not a directory, unreadable)."""


def is_minified_name(name: str) -> bool:
    return name.lower().endswith(MINIFIED_SUFFIXES)


def _is_denied_dir(name: str) -> bool:
    return name in DENIED_DIRS or name.endswith(DENIED_DIR_SUFFIXES)


def _file_deny_reason(name: str) -> tuple[str, str] | None:
    if name in LOCK_FILES:
        return "denied", "lock file"
    if is_minified_name(name):
        return "denied", "minified file name"
    ext = os.path.splitext(name)[1].lower()
    if ext in BINARY_EXTENSIONS:
        return "binary", f"binary extension {ext}"
    return None


# (base directory relative to root, "" for the root; compiled patterns)
_Spec = tuple[str, pathspec.GitIgnoreSpec]


def _load_spec(path: str, base: str) -> _Spec | None:
    try:
        fh, _ = open_regular(path)
        with fh:
            lines = fh.read().decode("utf-8", errors="replace").splitlines()
    except (NotRegular, OSError):
        return None  # an unreadable ignore file (or a FIFO) simply contributes no patterns
    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    return (base, spec) if spec.patterns else None


def _ignored_by(rel: str, is_dir: bool, specs: Sequence[_Spec]) -> _Spec | None:
    """The spec that ignores `rel`, or None. `specs` run highest priority first; the first
    one with a matching pattern decides."""
    path = rel + "/" if is_dir else rel
    for base, spec in specs:
        sub = path[len(base) + 1 :] if base else path
        decision = spec.check_file(sub).include
        if decision is not None:
            return (base, spec) if decision else None
    return None


def _is_ignored(rel: str, is_dir: bool, specs: Sequence[_Spec]) -> bool:
    return _ignored_by(rel, is_dir, specs) is not None


def _own_manifest(name: str, dir_rel: str, by: _Spec, configured: Sequence[_Spec]) -> bool:
    """A package.json ignored by the .gitignore beside it: that pattern is meant for the
    manifests a build writes below (zod's `**/package.json`), not for the one git tracks
    there, which names the package's modules. `configured` (ignore settings and
    .git/info/exclude) always apply."""
    return name == "package.json" and by[0] == dir_rel and not any(by is s for s in configured)


def _readlink(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "?"


# A run reads thousands of files from the same few folders: each folder is resolved once a
# moment, not once a file (two realpath calls per file were a fifth of indexing 50,000 tiny
# files). A file that is itself a symbolic link is always resolved anew.
_FOLDER_TTL_S = 2.0
_real_folders: dict[str, tuple[float, str]] = {}


def _real_folder(folder: str) -> str:
    now = time.monotonic()
    known = _real_folders.get(folder)
    if known is not None and now - known[0] < _FOLDER_TTL_S:
        return known[1]
    real = os.path.realpath(folder)
    if len(_real_folders) > 4096:
        _real_folders.clear()
    _real_folders[folder] = (now, real)
    return real


def _resolved(path: str) -> str:
    """`os.path.realpath(path)`, with the folder part resolved through `_real_folder`."""
    folder, name = os.path.split(path)
    target = os.path.join(_real_folder(folder), name)
    with contextlib.suppress(OSError):  # gone: the open that follows says so
        if stat.S_ISLNK(os.lstat(target).st_mode):
            return os.path.realpath(target)
    return target


def _inside(real: str, root_real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


def _folder_ids(folders: Sequence[Path], root_st: os.stat_result) -> set[tuple[int, int]]:
    """(device, inode) of each existing folder but the root: found by what it is, not by its
    name, so that no spelling or symbolic link of the path lets the walk in."""
    ids = set()
    for folder in folders:
        with contextlib.suppress(OSError):
            st = os.stat(folder)
            ids.add((st.st_dev, st.st_ino))
    ids.discard((root_st.st_dev, root_st.st_ino))
    return ids


def walk(
    root: Path,
    *,
    max_file_bytes: int = 1_000_000,
    extra_ignores: Sequence[str] = (),
    exclude_dirs: Sequence[Path] = (),
) -> WalkResult:
    """List indexable files under `root` (no contents are read) and everything skipped.
    `exclude_dirs` (the index's own folders) are left out wherever they lie."""
    try:
        root_real = os.path.realpath(root, strict=True)
        root_st = os.stat(root_real)
    except FileNotFoundError as exc:
        raise WalkError(f"repository root does not exist: {root}") from exc
    except OSError as exc:
        raise WalkError(f"cannot access repository root {root}: {exc.strerror or exc}") from exc
    if not stat.S_ISDIR(root_st.st_mode):
        raise WalkError(f"repository root is not a directory: {root}")
    if not os.access(root_real, os.R_OK | os.X_OK):
        raise WalkError(f"repository root is not readable: {root}")

    files: list[WalkedFile] = []
    skipped: list[SkippedFile] = []
    # A file reached by a symbolic link is indexed once, under its own path when the walk
    # meets that too (aiohttp's `reader_c.py -> reader_py.py` filled search results twice).
    real_files: dict[tuple[int, int], str] = {}
    linked_files: list[tuple[WalkedFile, tuple[int, int]]] = []

    def skip(rel: str, reason: str, detail: str = "") -> None:
        # Details quote link targets, which may hold bytes that are not UTF-8 too.
        skipped.append(SkippedFile(printable_path(rel), reason, printable_path(detail)))

    extra = pathspec.GitIgnoreSpec.from_lines(list(extra_ignores))
    top: list[_Spec] = [("", extra)] if extra.patterns else []
    bottom: list[_Spec] = []
    exclude = _load_spec(os.path.join(root_real, ".git", "info", "exclude"), "")
    if exclude:
        bottom.append(exclude)

    excluded = _folder_ids(exclude_dirs, root_st)
    visited: set[tuple[int, int]] = {(root_st.st_dev, root_st.st_ino)}
    # Each frame: (directory path on disk, path relative to root, .gitignore specs deepest first).
    stack: list[tuple[str, str, tuple[_Spec, ...]]] = [(root_real, "", ())]
    # Directory symlinks are followed only after every real directory has been walked, so a
    # link never makes us index a directory twice: it is followed only if still unvisited.
    deferred: list[tuple[str, str, tuple[_Spec, ...]]] = []

    while stack or deferred:
        if not stack:
            link_abs, rel, chain = deferred.pop(0)
            try:
                st = os.stat(link_abs)
            except FileNotFoundError:
                skip(rel, "vanished")
                continue
            except OSError as exc:
                skip(rel, "unreadable", exc.strerror or str(exc))
                continue
            if (st.st_dev, st.st_ino) in excluded:
                skip(rel, "denied", INDEX_FOLDER)
                continue
            if (st.st_dev, st.st_ino) in visited:
                target = os.path.relpath(os.path.realpath(link_abs), root_real)
                skip(rel, "symlink-loop", f"-> {target} (already walked)")
                continue
            visited.add((st.st_dev, st.st_ino))
            stack.append((link_abs, rel, chain))

        dir_abs, dir_rel, chain = stack.pop()
        try:
            with os.scandir(dir_abs) as it:
                entries = sorted(it, key=lambda e: e.name)
        except FileNotFoundError:
            skip(dir_rel, "vanished")
            continue
        except OSError as exc:
            if not dir_rel:
                raise WalkError(f"cannot list repository root {root}: {exc.strerror}") from exc
            skip(dir_rel, "unreadable", exc.strerror or str(exc))
            continue

        prefix = dir_rel + "/" if dir_rel else ""
        names = {e.name for e in entries}
        if dir_rel and CACHE_TAG_NAME in names and is_cache_folder(dir_abs):
            skip(dir_rel, "denied", CACHE_FOLDER)  # another index, wherever it lies
            continue
        if ".gitignore" in names:
            spec = _load_spec(os.path.join(dir_abs, ".gitignore"), dir_rel)
            if spec:
                chain = (spec, *chain)
        specs = [*top, *chain, *bottom]

        for entry in entries:
            name = entry.name
            rel = prefix + name
            try:
                is_link = entry.is_symlink()
                is_dir = entry.is_dir()  # follows links; False for a broken one
            except OSError as exc:
                skip(rel, "unreadable", exc.strerror or str(exc))
                continue

            by = _ignored_by(rel, is_dir, specs) if specs else None
            if by is not None and not _own_manifest(name, dir_rel, by, [*top, *bottom]):
                skip(rel, "ignored")
                continue
            if name == ".git" or (is_dir and _is_denied_dir(name)):
                skip(rel, "denied", "default deny list")
                continue
            if not is_dir:
                denied = _file_deny_reason(name)
                if denied:
                    skip(rel, *denied)
                    continue
            if is_undecodable(name):  # no path that is not valid text enters the index
                skip(rel, "undecodable-name", UNDECODABLE_FOLDER if is_dir else UNDECODABLE_FILE)
                continue

            if is_link:
                try:
                    os.stat(entry.path)
                except FileNotFoundError:
                    skip(rel, "broken-symlink", f"-> {_readlink(entry.path)}")
                    continue
                except OSError as exc:
                    if exc.errno == errno.ELOOP:
                        skip(rel, "symlink-loop", exc.strerror or "")
                    else:
                        skip(rel, "unreadable", exc.strerror or str(exc))
                    continue
                real = os.path.realpath(entry.path)
                if not _inside(real, root_real):
                    skip(rel, "symlink-outside", f"-> {real}")
                    continue
                if is_dir:
                    deferred.append((entry.path, rel, chain))
                    continue

            if is_dir:
                try:
                    st = entry.stat()
                except FileNotFoundError:
                    skip(rel, "vanished")
                    continue
                except OSError as exc:
                    skip(rel, "unreadable", exc.strerror or str(exc))
                    continue
                key = (st.st_dev, st.st_ino)
                if key in excluded:
                    skip(rel, "denied", INDEX_FOLDER)
                    continue
                if key in visited:  # bind mounts and the like
                    skip(rel, "symlink-loop", "directory already walked")
                    continue
                visited.add(key)
                stack.append((entry.path, rel, chain))
                continue

            try:
                st = entry.stat()
            except FileNotFoundError:
                skip(rel, "vanished")
                continue
            except OSError as exc:
                skip(rel, "unreadable", exc.strerror or str(exc))
                continue
            if not stat.S_ISREG(st.st_mode):
                skip(rel, "not-regular")
                continue
            if st.st_size > max_file_bytes:
                skip(rel, "too-large", f"{st.st_size} bytes > {max_file_bytes}")
                continue
            walked = WalkedFile(path=rel, root=root_real, size=st.st_size, mtime_ns=st.st_mtime_ns)
            if is_link:
                linked_files.append((walked, (st.st_dev, st.st_ino)))
            else:
                real_files.setdefault((st.st_dev, st.st_ino), rel)
                files.append(walked)

    for walked, key in sorted(linked_files, key=lambda pair: pair[0].path):
        if key in real_files:
            skip(walked.path, "symlink-duplicate", f"-> {real_files[key]}")
        else:  # the target is not indexed itself (ignored, denied): the first link stands in
            real_files[key] = walked.path
            files.append(walked)
    files.sort(key=lambda f: f.path)
    skipped.sort(key=lambda s: s.path)
    return WalkResult(files=files, skipped=skipped)


def _decode(data: bytes, utf16: bool) -> str:
    with contextlib.suppress(UnicodeDecodeError):
        return data.decode("utf-8-sig")
    if utf16:
        with contextlib.suppress(UnicodeDecodeError):
            return data.decode("utf-16")
    # Never fail on bad bytes: keep the text and mark them with U+FFFD.
    return data.decode("utf-8", errors="replace")


def read_source(
    abs_path: Path, *, max_file_bytes: int = 1_000_000, root: Path | None = None
) -> tuple[str | None, SkippedFile | None]:
    """Read one file as text, or say why it should not be indexed. Only a regular file is
    read (a FIFO, socket or device put in its place is skipped, never waited on). With `root`,
    a path that now resolves outside it is refused and no symbolic link is followed after
    that check."""
    where = printable_path(str(abs_path))
    target, follow = str(abs_path), True
    if root is not None:
        target, follow = _resolved(target), False
        if not _inside(target, _real_folder(str(root))):
            return None, SkippedFile(where, "symlink-outside", f"-> {printable_path(target)}")
    try:
        fh, st = open_regular(target, follow=follow)
        with fh:
            if st.st_size > max_file_bytes:
                detail = f"{st.st_size} bytes > {max_file_bytes}"
                return None, SkippedFile(where, "too-large", detail)
            # Read one byte past the limit in case the file grew after the fstat.
            data = fh.read(max_file_bytes + 1)
    except NotRegular as refused:
        return None, SkippedFile(where, refused.reason, refused.detail)
    except OSError as exc:
        return None, SkippedFile(where, "unreadable", exc.strerror or str(exc))
    if len(data) > max_file_bytes:
        return None, SkippedFile(where, "too-large", f"over {max_file_bytes} bytes")

    if data.startswith(_OLE_SIGNATURE):
        return None, SkippedFile(where, "binary", "an OLE compound file (such as a Word .doc)")
    utf16 = data.startswith(_UTF16_BOMS)
    if not utf16:  # UTF-16 text is full of NUL bytes, so only sniff everything else
        sample = data[:SNIFF_BYTES]
        if b"\x00" in sample:
            return None, SkippedFile(where, "binary", "NUL byte in the first 8 KiB")
        if sample and len(sample.translate(None, _TEXT_BYTES)) / len(sample) > NON_TEXT_SHARE:
            return None, SkippedFile(where, "binary", "mostly non-text bytes")

    text = _decode(data, utf16).replace("\r\n", "\n").replace("\r", "\n")

    lines = text.split("\n")
    longest = max(map(len, lines))
    if longest > MAX_LINE_CHARS:
        return None, SkippedFile(where, "minified", f"a line of {longest} characters")
    if len(data) > AVG_CHECK_MIN_BYTES and len(text) / len(lines) > MAX_AVG_LINE_CHARS:
        return None, SkippedFile(where, "minified", "average line over 300 characters")
    if abs_path.name.lower().endswith(HTML_SUFFIXES):
        said = generated_page(text)
        if said:
            return None, SkippedFile(where, "generated-docs", said)
    return text, None


def generated_page(text: str) -> str:
    """Why an HTML page is one a documentation tool generated, or "" (a page written by
    hand, a template)."""
    for mark, said in DOC_GENERATOR_MARKS:
        if mark.search(text):
            return said
    return ""
