"""Files kept side by side in sibling version folders (`manual/v1.5/manual.yml`,
`manual/v1.8/manual.yml`, `manual/dev/manual.yml`; Docusaurus' `version-2.x/`): every copy
but the newest is an older version, which search ranks below it when no version is asked."""

from __future__ import annotations

import re
from collections.abc import Iterable

# A version folder: `v2`, `v1.6`, `1.6`, `3.9.15`, `version-2.x`, `release-1.0`. A bare
# integer (`1/`, `2/`) is not one: numbered folders are as often test cases or days.
_VERSION = re.compile(r"(?:v|version-?|release-?)(\d+(?:\.\d+)*)(?:\.x)?|(\d+(?:\.\d+)+)(?:\.x)?")
# Names of the version in development: newer than every numbered sibling, but only among
# numbered siblings (alone, `dev/` or `main/` is an ordinary folder).
DEVELOPMENT = ("dev", "next", "latest", "unreleased", "current", "main", "master")
# Any folder that may be one of the above, to read most paths past with one search.
_MAYBE = re.compile(
    rf"(?:^|/)(?:(?:v|version-?|release-?)?\d[\d.]*(?:\.x)?|{'|'.join(DEVELOPMENT)})/", re.I
)

Rank = tuple[int, tuple[int, ...]]


def version_rank(folder: str) -> Rank | None:
    """How new a version folder is (greater is newer), or None if `folder` names none."""
    name = folder.lower()
    match = _VERSION.fullmatch(name)
    if match:
        return (0, tuple(int(part) for part in (match.group(1) or match.group(2)).split(".")))
    if name in DEVELOPMENT:
        return (1, (len(DEVELOPMENT) - DEVELOPMENT.index(name),))
    return None


def newer_versions(paths: Iterable[str]) -> dict[str, str]:
    """Each path that has a newer copy in a sibling version folder (the same file under the
    same parent, one folder apart, at least one of the folders numbered) -> the newest copy's
    path. Paths under no version folder are read past quickly."""
    families: dict[tuple[str, str], list[tuple[Rank, str]]] = {}
    for path in paths:
        if not _MAYBE.search(path):
            continue
        parts = path.split("/")
        for at in range(len(parts) - 2, -1, -1):
            rank = version_rank(parts[at])
            if rank is not None:
                key = ("/".join(parts[:at]), "/".join(parts[at + 1 :]))
                families.setdefault(key, []).append((rank, path))
    newer: dict[str, str] = {}
    for members in families.values():
        if len(members) < 2 or all(rank[0] for rank, _ in members):
            continue
        newest = max(members)[1]
        for _, path in members:
            if path != newest:
                newer.setdefault(path, newest)
    return newer
