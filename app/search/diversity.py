"""The hit list spread over files (one file's many similar chunks must not fill it), and a
file's score from its chunks' scores, for questions whose answer is a file."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from app.core.models import Signal

# The k-th chunk of one file in the list is scored x FILE_DECAY^(k-1): with EVIDENCE_WEIGHT, the
# pair with the best mean over every eval set that costs no set more than 0.01
# (`repolens-tui-bench fit-diversity`; stronger decays lift semble-dev further but cost dev2's
# one-definition answers, RESULTS.md).
FILE_DECAY = 0.95
# A file's score is its best chunk's, plus the j-th best's x FILE_EVIDENCE^(j-1): several
# moderately matching chunks are evidence for their file. (Ranking swebench-dev's files by it
# measured below their first chunk's rank at every value tried, RESULTS.md.)
FILE_EVIDENCE = 0.5
# In search, each chunk is scored x (its file's score / its file's best chunk's)^EVIDENCE_WEIGHT:
# fitted with the decay (`fit-diversity`). It fitted 0.05 over plain BM25; with the BM25F
# fields every weight above 0 costs dev (0.05: -0.009), so it is 0 until a refit says more.
EVIDENCE_WEIGHT = 0.0
SAME_FILE, FILE_EVIDENCE_SIGNAL = "same-file", "file-evidence"
SIGNALS = (FILE_EVIDENCE_SIGNAL, SAME_FILE)  # what this module says in `--explain`


def spread(
    ranked: Sequence[str],
    score: Mapping[str, float],
    path_of: Callable[[str], str],
    decay: float = FILE_DECAY,
    keep: str | None = None,
) -> tuple[list[str], dict[str, int]]:
    """`ranked` (best first by `score`) re-sorted once the k-th chunk of each file is scored
    x decay^(k-1), all but `keep` (the chunk both retrievers rank first: an exact double #1
    loses nothing to its file's other chunks); also, per chunk so lowered, how many of its
    file's chunks rank above it."""
    listed: dict[str, int] = {}
    earlier: dict[str, int] = {}
    for chunk_id in ranked:
        path = path_of(chunk_id)
        before = listed.get(path, 0)
        listed[path] = before + 1
        if before and decay != 1.0 and chunk_id != keep:
            earlier[chunk_id] = before
    place = {chunk_id: i for i, chunk_id in enumerate(ranked)}

    def key(chunk_id: str) -> tuple[float, int]:
        return (-score[chunk_id] * decay ** earlier.get(chunk_id, 0), place[chunk_id])

    return sorted(ranked, key=key), earlier


def signal(earlier: int, decay: float = FILE_DECAY) -> Signal:
    """What `--explain` says of a chunk lowered because `earlier` chunks of its file rank
    above it."""
    return Signal(SAME_FILE, decay**earlier, f"{earlier} chunk(s) of its file rank above it")


def evidence_factors(
    ranked: Sequence[str],
    score: Mapping[str, float],
    path_of: Callable[[str], str],
    weight: float = EVIDENCE_WEIGHT,
    evidence: float = FILE_EVIDENCE,
) -> dict[str, float]:
    """Per chunk whose file holds other candidates: x (its file's score / the file's best
    chunk's score)^weight, so a chunk among further matching chunks rises a little."""
    if weight == 0.0:
        return {}
    totals = file_scores([(path_of(c), score[c]) for c in ranked], evidence)
    best: dict[str, float] = {}
    for chunk_id in ranked:
        path = path_of(chunk_id)
        best[path] = max(best.get(path, 0.0), score[chunk_id])
    factors = {}
    for chunk_id in ranked:
        path = path_of(chunk_id)
        if best[path] > 0 and totals[path] > best[path]:
            factors[chunk_id] = (totals[path] / best[path]) ** weight
    return factors


def evidence_signal(factor: float) -> Signal:
    """What `--explain` says of a chunk raised by its file's other matching chunks."""
    return Signal(FILE_EVIDENCE_SIGNAL, factor, "other chunks of its file match the query too")


def keep_in_list(ranked: Sequence[str], chunk_id: str, k: int) -> list[str]:
    """`ranked` with `chunk_id` moved up to the k-th place if it ranks below it."""
    order = list(ranked)
    if chunk_id in order[k:]:
        order.remove(chunk_id)
        order.insert(k - 1, chunk_id)
    return order


def file_scores(
    scored: Sequence[tuple[str, float]], evidence: float = FILE_EVIDENCE
) -> dict[str, float]:
    """Per file, from (path, score) per chunk: the best chunk's score, plus the j-th best's
    x evidence^(j-1)."""
    by_file: dict[str, list[float]] = {}
    for path, value in scored:
        by_file.setdefault(path, []).append(value)
    return {
        path: sum(value * evidence**j for j, value in enumerate(sorted(values, reverse=True)))
        for path, values in by_file.items()
    }


def rank_files(scored: Sequence[tuple[str, float]], evidence: float = FILE_EVIDENCE) -> list[str]:
    """Files best first by `file_scores`; ties by the rank of their first chunk."""
    totals = file_scores(scored, evidence)
    first: dict[str, int] = {}
    for i, (path, _) in enumerate(scored):
        first.setdefault(path, i)
    return sorted(totals, key=lambda path: (-totals[path], first[path]))
