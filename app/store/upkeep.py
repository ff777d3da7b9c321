"""Keeping the index small: compact small files, delete the table versions and the tables
folders no reader needs. Every function here runs under the write lock."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterable
from datetime import timedelta
from pathlib import Path
from typing import Any

from app.store.damage import NOTE_SUFFIX, clear_note
from app.store.manifest import Manifest

# Each index run adds two to four versions to a table it changes; one with this many more
# since it was last pruned gets its old versions deleted (a few milliseconds per table).
PRUNE_AFTER_VERSIONS = 2
# Compaction rewrites a table's small files into one file (the whole table, in practice),
# and the old files stay while a reader may need them, so it is rare: a table whose data
# sits in one file (the graph's, rewritten by every run) has nothing to compact and is only
# pruned; others wait until they are spread over this many files (their old versions too).
FRAGMENTS_BEFORE_COMPACTION = 16
# The shared vectors table gets a file per committed batch; this many and they are merged.
VECTOR_FRAGMENTS_BEFORE_COMPACTION = 64
# LanceDB prunes by age, which it measures a moment after we do: keep this much more.
CLOCK_MARGIN = timedelta(seconds=0.5)
# Long enough that a compaction prunes nothing: it only merges files.
NO_PRUNING = timedelta(days=3650)
# A tables folder a rebuild replaced stays this long for readers that opened it just before.
RETIRED_GRACE_SECONDS = 60.0
TABLES_PREFIX = "tables"
# Files a reader derives from the published chunks (`Store.derived_path`), kept beside them:
# `derived-<chunks version>-<strategy>-<what>`, and `.derived-...` while being written.
DERIVED_PREFIX = "derived-"


def worth_compacting(table: Any) -> bool:
    """Whether compacting `table` now costs nothing or is due (FRAGMENTS_BEFORE_COMPACTION)."""
    fragments = int(table.stats()["fragment_stats"]["num_fragments"])
    return fragments <= 1 or fragments >= FRAGMENTS_BEFORE_COMPACTION


def compact_and_prune(
    table: Any, keep_versions: Iterable[int | None], *, delete_unverified: bool
) -> bool:
    """Compact `table`, then delete every version older than the oldest of `keep_versions`
    still there (the latest always stays). Prunes nothing, and returns False, when none is
    there or the clock went back (ages could not be trusted then)."""
    table.optimize(cleanup_older_than=NO_PRUNING)
    # Ages are taken after the compaction, so that its time cannot push the cut past them.
    stamps = {int(v["version"]): v["timestamp"].timestamp() for v in table.list_versions()}
    keep = {version for version in keep_versions if version in stamps}
    if not keep:
        return False
    age = time.time() - min(stamps[version] for version in keep)
    if age < 0:
        return False
    table.optimize(
        cleanup_older_than=timedelta(seconds=age) + CLOCK_MARGIN,
        delete_unverified=delete_unverified,
    )
    return True


def compact_vectors(table: Any) -> bool:
    """Merge the shared vectors table's small files once there are many, keeping the version
    readers see now and every later one. Other repositories may be appending (each holds its
    own lock), so files no version names yet are left alone."""
    fragments = int(table.stats()["fragment_stats"]["num_fragments"])
    if fragments < VECTOR_FRAGMENTS_BEFORE_COMPACTION:
        return False
    return compact_and_prune(table, [int(table.version)], delete_unverified=False)


def tables_folders(index_dir: Path) -> list[Path]:
    if not index_dir.is_dir():
        return []
    return [
        path
        for path in index_dir.iterdir()
        if path.is_dir() and path.name.split("-")[0] == TABLES_PREFIX
    ]


def remove_unused_folders(index_dir: Path, manifest: Manifest | None, keep: str = "") -> None:
    """Delete the tables folders no reader can be using: all but the published one, `keep`,
    and the one a rebuild replaced less than RETIRED_GRACE_SECONDS ago. A folder no manifest
    names was left by a run killed before it published."""
    wanted = {keep}
    if manifest is not None:
        wanted.add(manifest.tables_dir)
        if time.time() - manifest.retired_at < RETIRED_GRACE_SECONDS:
            wanted.add(manifest.retired_tables_dir)
    for folder in tables_folders(index_dir):
        if folder.name not in wanted:
            shutil.rmtree(folder, ignore_errors=True)
            clear_note(folder)
    for note in index_dir.glob(f"{TABLES_PREFIX}*{NOTE_SUFFIX}"):
        if not note.with_name(note.name.removesuffix(NOTE_SUFFIX)).exists():
            note.unlink(missing_ok=True)


def remove_derived(tables_dir: Path, chunks_version: int | None) -> None:
    """Delete the derived files of chunk versions no longer published, and the half-written
    ones a killed reader left (older than RETIRED_GRACE_SECONDS: a live one may be writing)."""
    for path in tables_dir.glob(f"{DERIVED_PREFIX}*"):
        if path.name.split("-")[1] != str(chunks_version):
            path.unlink(missing_ok=True)
    for path in tables_dir.glob(f".{DERIVED_PREFIX}*"):
        try:
            if time.time() - path.stat().st_mtime > RETIRED_GRACE_SECONDS:
                path.unlink(missing_ok=True)
        except OSError:
            continue
