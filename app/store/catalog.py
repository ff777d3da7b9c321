"""The indexes an index root holds, found by their manifests: how a copied index is opened
where its source tree is not."""

from __future__ import annotations

import contextlib
from pathlib import Path

from app.core.paths import index_dir_for
from app.store.manifest import MANIFEST_NAME, IndexStoreError, Manifest, read_manifest


def stored_indexes(index_root: Path) -> list[tuple[Path, Manifest]]:
    """Every readable index folder directly under `index_root`, by folder name."""
    found: list[tuple[Path, Manifest]] = []
    if not index_root.is_dir():
        return found
    for folder in sorted(index_root.iterdir()):
        if not (folder / MANIFEST_NAME).is_file():
            continue
        with contextlib.suppress(IndexStoreError):  # an unreadable one is not a match
            manifest = read_manifest(folder)
            if manifest is not None:
                found.append((folder, manifest))
    return found


def matching_indexes(index_root: Path, name: str) -> list[Path]:
    """The index folders `name` names: the folder of that repository path (as it was on the
    machine that built it), else those whose repository or folder is called `name`."""
    exact = index_dir_for(index_root, Path(name))
    if (exact / MANIFEST_NAME).is_file():
        return [exact]
    wanted = Path(name).name or name
    return [
        folder
        for folder, manifest in stored_indexes(index_root)
        if Path(manifest.repo_root).name == wanted or folder.name == wanted
    ]
