"""The SWE-bench dev split: instances, checkouts at their base commits, file-level scoring."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.bench.devbench import ResultChunk, norm_path
from app.search import diversity

MARKER_SUFFIX = ".done"


@dataclass(frozen=True, slots=True)
class Instance:
    instance_id: str
    repo: str
    base_commit: str
    problem_statement: str
    gold_files: tuple[str, ...]
    gold_spans: dict[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class InstanceScore:
    instance_id: str
    gold_files: tuple[str, ...]
    top_files: tuple[str, ...]  # ranked files, first occurrence wins (the first ten)
    gold_ranks: dict[str, int | None]  # 1-based file rank of each gold file, None if absent
    acc1: bool  # every gold file within the top 1
    acc5: bool
    hit1: bool  # some gold file within the top 1
    hit5: bool
    rr: float  # 1 / rank of the first gold file


@dataclass(frozen=True, slots=True)
class SweMetrics:
    instances: int
    acc1: float
    acc5: float
    hit1: float
    hit5: float
    mrr: float

    def as_dict(self) -> dict[str, int | float]:
        return {
            "instances": self.instances,
            "acc@1": round(self.acc1, 4),
            "acc@5": round(self.acc5, 4),
            "hit@1": round(self.hit1, 4),
            "hit@5": round(self.hit5, 4),
            "mrr": round(self.mrr, 4),
        }


class MaterialiseError(RuntimeError):
    """`git archive | tar -x` failed."""


def load_instances(path: Path) -> list[Instance]:
    instances = []
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            continue
        d = json.loads(raw)
        spans = {f: tuple(symbols) for f, symbols in (d.get("gold_spans") or {}).items()}
        instances.append(
            Instance(
                d["instance_id"],
                d.get("repo", ""),
                d["base_commit"],
                d["problem_statement"],
                tuple(d["gold_files"]),
                spans,
            )
        )
    return instances


def marker_path(dest: Path) -> Path:
    # Beside the tree, not inside it, so the marker is never indexed as a file of the checkout.
    return dest.parent / f"{dest.name}{MARKER_SUFFIX}"


def materialise(git_dir: Path, commit: str, dest: Path) -> Path:
    """Extract `commit` of the bare repository `git_dir` into `dest`; a no-op once done.

    Extracts into a temporary sibling directory and renames it into place, then writes the
    marker (holding the commit), so an interrupted run never leaves a tree that looks complete.
    """
    dest = Path(dest)
    marker = marker_path(dest)
    if dest.is_dir() and marker.is_file() and marker.read_text().strip() == commit:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        _extract(Path(git_dir), commit, tmp)
        marker.unlink(missing_ok=True)
        if dest.exists():  # a partial tree, or one from another commit
            shutil.rmtree(dest)
        tmp.rename(dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    partial = marker.with_name(marker.name + ".tmp")
    partial.write_text(commit + "\n")
    os.replace(partial, marker)
    return dest


def _extract(git_dir: Path, commit: str, into: Path) -> None:
    archive = subprocess.Popen(
        ["git", f"--git-dir={git_dir}", "archive", "--format=tar", commit],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert archive.stdout is not None
    tar = subprocess.run(
        ["tar", "-x", "-C", str(into)], stdin=archive.stdout, capture_output=True, check=False
    )
    archive.stdout.close()
    git_err = archive.stderr.read() if archive.stderr else b""
    archive.wait()
    if archive.returncode or tar.returncode:
        detail = (git_err or tar.stderr).decode("utf-8", errors="replace").strip()
        raise MaterialiseError(f"git archive {commit} from {git_dir} failed: {detail}")


def ranked_files(chunks: Sequence[ResultChunk]) -> list[str]:
    """Files in rank order; a file's rank is that of its first chunk."""
    files: dict[str, None] = {}
    for chunk in chunks:
        files.setdefault(norm_path(chunk.path))
    return list(files)


def evidence_files(chunks: Sequence[ResultChunk]) -> list[str]:
    """Files by the evidence of all their chunks (`app.search.diversity.rank_files`).
    Chunks without a score rank as listed."""
    if any(chunk.score is None for chunk in chunks):
        return ranked_files(chunks)
    return diversity.rank_files([(norm_path(c.path), float(c.score or 0.0)) for c in chunks])


def score_instance(
    instance_id: str, gold_files: Sequence[str], chunks: Sequence[ResultChunk]
) -> InstanceScore:
    """Files ranked by their first chunk."""
    return score_files(instance_id, gold_files, ranked_files(chunks))


def score_files(instance_id: str, gold_files: Sequence[str], files: Sequence[str]) -> InstanceScore:
    """`files` ranked best first (normalised paths, each once)."""
    position = {f: i for i, f in enumerate(files, 1)}
    gold = tuple(norm_path(g) for g in gold_files)
    ranks = {g: position.get(g) for g in gold}
    found = [r for r in ranks.values() if r is not None]

    def all_within(k: int) -> bool:
        return bool(gold) and len(found) == len(gold) and max(found) <= k

    return InstanceScore(
        instance_id=instance_id,
        gold_files=gold,
        top_files=tuple(files[:10]),
        gold_ranks=ranks,
        acc1=all_within(1),
        acc5=all_within(5),
        hit1=bool(found) and min(found) <= 1,
        hit5=bool(found) and min(found) <= 5,
        rr=1.0 / min(found) if found else 0.0,
    )


def aggregate(scores: Sequence[InstanceScore]) -> SweMetrics:
    n = len(scores) or 1
    return SweMetrics(
        instances=len(scores),
        acc1=sum(s.acc1 for s in scores) / n,
        acc5=sum(s.acc5 for s in scores) / n,
        hit1=sum(s.hit1 for s in scores) / n,
        hit5=sum(s.hit5 for s in scores) / n,
        mrr=sum(s.rr for s in scores) / n,
    )
