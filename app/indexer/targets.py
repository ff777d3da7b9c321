"""Classify a few changed paths exactly as a full walk would, without walking the repository.

The watcher hands over paths that changed; most are ordinary files, and re-walking a large
repository for each save would cost more than the save itself. Anything this module cannot
decide cheaply and surely (a directory, a symbolic link, an ignore file, a name that is not
valid UTF-8) asks for a rescan.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from app.core.models import SkippedFile
from app.core.paths import CACHE_TAG_NAME
from app.indexer.files import is_cache_folder, is_undecodable, printable_path
from app.indexer.walk import (
    WalkedFile,
    _file_deny_reason,
    _ignored_by,
    _is_denied_dir,
    _is_ignored,
    _load_spec,
    _own_manifest,
    _Spec,
)

# Files whose change alters which other files are indexed: only a full walk gets them right.
RULE_FILES = frozenset({".gitignore", CACHE_TAG_NAME})


@dataclass(slots=True)
class Targets:
    files: list[WalkedFile] = field(default_factory=list)  # exist and should be indexed
    skipped: list[SkippedFile] = field(default_factory=list)  # exist but are not indexed
    gone: set[str] = field(default_factory=set)  # no longer on disk
    outside: set[str] = field(default_factory=set)  # inside an ignored or denied directory
    rescan: str = ""  # why a full walk is needed instead ("" when it is not)


def classify_paths(
    root: Path,
    paths: Iterable[str],
    *,
    max_file_bytes: int = 1_000_000,
    extra_ignores: Sequence[str] = (),
    exclude_dirs: Sequence[Path] = (),
) -> Targets:
    """`paths` are relative to `root`, '/'-separated. Paths inside `exclude_dirs` (the index's
    own folders) count as outside the indexed tree."""
    root_real = os.path.realpath(root)
    rules = _Rules(root_real, extra_ignores)
    own = _folders_inside(root_real, exclude_dirs)
    out = Targets()
    for rel in sorted(set(paths)):
        if not rel or rel.startswith("../") or rel.startswith("/"):
            out.rescan = f"a change outside the repository: {printable_path(rel)}"
            return out
        if any(rel == folder or rel.startswith(folder + "/") for folder in own):
            out.outside.add(rel)
            continue
        if is_undecodable(rel):  # the walk records it under an escaped name, consistently
            out.rescan = f"a changed name is not valid UTF-8: {printable_path(rel)}"
            return out
        name = rel.rsplit("/", 1)[-1]
        if name in RULE_FILES or rel == ".git/info/exclude":
            out.rescan = f"ignore rules changed: {rel}"
            return out
        problem = _classify(root_real, rel, rules, max_file_bytes, out)
        if problem:
            out.rescan = problem
            return out
    return out


def _folders_inside(root_real: str, folders: Sequence[Path]) -> list[str]:
    """`folders` that lie inside the root, relative to it and '/'-separated."""
    inside = []
    for folder in folders:
        rel = os.path.relpath(os.path.realpath(folder), root_real)
        if rel != "." and not rel.startswith(".."):
            inside.append(rel.replace(os.sep, "/"))
    return inside


class _Rules:
    """Ignore specs per directory, loaded on demand and kept for one batch."""

    def __init__(self, root_real: str, extra_ignores: Sequence[str]) -> None:
        self.root_real = root_real
        extra = pathspec.GitIgnoreSpec.from_lines(list(extra_ignores))
        self.top: list[_Spec] = [("", extra)] if extra.patterns else []
        exclude = _load_spec(os.path.join(root_real, ".git", "info", "exclude"), "")
        self.bottom: list[_Spec] = [exclude] if exclude else []
        self._specs: dict[str, _Spec | None] = {}
        self._caches: dict[str, bool] = {}

    def is_cache(self, directory: str) -> bool:
        """Whether `directory` holds a CACHEDIR.TAG (a full walk skips it whole)."""
        if directory not in self._caches:
            self._caches[directory] = is_cache_folder(os.path.join(self.root_real, directory))
        return self._caches[directory]

    def chain(self, directory: str) -> list[_Spec]:
        """Every spec that applies inside `directory` ("" for the root), deepest first."""
        parts = directory.split("/") if directory else []
        chain: list[_Spec] = []
        for depth in range(len(parts) + 1):
            base = "/".join(parts[:depth])
            if base not in self._specs:
                ignore_file = os.path.join(self.root_real, base, ".gitignore")
                self._specs[base] = (
                    _load_spec(ignore_file, base) if os.path.isfile(ignore_file) else None
                )
            spec = self._specs[base]
            if spec:
                chain.insert(0, spec)
        return [*self.top, *chain, *self.bottom]


def _classify(root_real: str, rel: str, rules: _Rules, max_file_bytes: int, out: Targets) -> str:
    """Add `rel` to `out`; return a reason when only a full walk can decide."""
    parts = rel.split("/")
    for depth in range(1, len(parts)):
        directory = "/".join(parts[:depth])
        name = parts[depth - 1]
        # A full walk lists the skipped directory itself and never looks inside it.
        if _is_ignored(directory, True, rules.chain("/".join(parts[: depth - 1]))):
            out.outside.add(rel)
            return ""
        if name == ".git" or _is_denied_dir(name) or rules.is_cache(directory):
            out.outside.add(rel)
            return ""
        if os.path.islink(os.path.join(root_real, directory)):
            return f"a changed path under a symbolic link: {rel}"
    abs_path = os.path.join(root_real, rel)
    try:
        st = os.lstat(abs_path)
    except FileNotFoundError:
        out.gone.add(rel)
        return ""
    except OSError as exc:
        out.skipped.append(SkippedFile(rel, "unreadable", exc.strerror or str(exc)))
        return ""
    parent = "/".join(parts[:-1])
    is_dir = stat.S_ISDIR(st.st_mode)
    if is_dir and (_is_denied_dir(parts[-1]) or _is_ignored(rel, True, rules.chain(parent))):
        out.outside.add(rel)  # a full walk would skip it whole, and nothing in it is indexed
        return ""
    if is_dir:
        return f"a directory changed: {rel}"
    if stat.S_ISLNK(st.st_mode):
        return f"a symbolic link changed: {rel}"
    by = _ignored_by(rel, False, rules.chain(parent))
    if by is not None and not _own_manifest(parts[-1], parent, by, [*rules.top, *rules.bottom]):
        out.skipped.append(SkippedFile(rel, "ignored"))
        return ""
    denied = _file_deny_reason(parts[-1])
    if denied:
        out.skipped.append(SkippedFile(rel, *denied))
    elif not stat.S_ISREG(st.st_mode):
        out.skipped.append(SkippedFile(rel, "not-regular"))
    elif st.st_size > max_file_bytes:
        out.skipped.append(SkippedFile(rel, "too-large", f"{st.st_size} bytes > {max_file_bytes}"))
    else:
        out.files.append(WalkedFile(rel, root_real, st.st_size, st.st_mtime_ns))
    return ""
