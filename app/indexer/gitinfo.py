"""The commit a git checkout is at, read from git's own files: no git process runs, since a
repository's config can name commands (core.fsmonitor, hooks) that git would run."""

from __future__ import annotations

import re
from pathlib import Path

_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def head_commit(root: Path) -> str:
    """The commit HEAD names in the checkout holding `root`, or "" (not a checkout, or HEAD
    unreadable)."""
    try:
        gitdir = _git_dir(root)
        if gitdir is None:
            return ""
        head = (gitdir / "HEAD").read_text(encoding="utf-8").strip()
        if not head.startswith("ref:"):
            return head if _SHA.fullmatch(head) else ""
        return _ref_commit(gitdir, head[4:].strip())
    except (OSError, UnicodeDecodeError):
        return ""


def _git_dir(root: Path) -> Path | None:
    """`.git` of `root` or of the nearest folder above it; a worktree's `.git` file names
    its folder."""
    for folder in (root, *root.parents):
        dot_git = folder / ".git"
        if dot_git.is_dir():
            return dot_git
        if dot_git.is_file():
            text = dot_git.read_text(encoding="utf-8").strip()
            return (folder / text[len("gitdir:") :].strip()) if text.startswith("gitdir:") else None
    return None


def _ref_commit(gitdir: Path, ref: str) -> str:
    if not ref.startswith("refs/") or ".." in ref.split("/"):
        return ""  # HEAD is a file anyone can write: it must name a ref, not any path
    common = gitdir
    if (gitdir / "commondir").is_file():  # a linked worktree shares the main refs
        common = gitdir / (gitdir / "commondir").read_text(encoding="utf-8").strip()
    for base in (gitdir, common):
        loose = base / ref
        if loose.is_file():
            sha = loose.read_text(encoding="utf-8").strip()
            return sha if _SHA.fullmatch(sha) else ""
    packed = common / "packed-refs"
    if packed.is_file():
        for line in packed.read_text(encoding="utf-8").splitlines():
            sha, _, name = line.partition(" ")
            if name.strip() == ref and _SHA.fullmatch(sha):
                return sha
    return ""
