"""How much of each file's non-blank code sits inside a definition chunk (`stats --coverage`)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from app.core.models import DEFINITION_KINDS
from app.indexer.chunk import CALLS_UNREAD, covered_lines
from app.indexer.walk import read_source
from app.parse.languages import DATA_LANGUAGES
from app.store.store import Store

CODE_STRATEGIES = frozenset({"tree-sitter", CALLS_UNREAD})


def coverage_report(root: Path, store: Store, worst: int = 20) -> dict[str, Any]:
    """Share of non-blank lines inside definition chunks, overall and worst files first.
    Only code chunked by tree-sitter counts: prose, data files and windows have no definitions."""
    ranges: dict[str, list[tuple[int, int]]] = defaultdict(list)
    table = store.chunk_table(["path", "kind", "start_line", "end_line"]).to_pylist()
    for row in table:
        if row["kind"] in DEFINITION_KINDS:
            ranges[row["path"]].append((row["start_line"], row["end_line"]))
    per_file: list[dict[str, Any]] = []
    covered_total = lines_total = 0
    for record in store.files().values():
        if record.strategy not in CODE_STRATEGIES or record.language in DATA_LANGUAGES:
            continue
        text, _ = read_source(root / record.path, root=root)
        if text is None:
            continue
        covered, lines = covered_lines(text, ranges.get(record.path, []))
        covered_total += covered
        lines_total += lines
        if lines:
            per_file.append(
                {"path": record.path, "covered": covered, "lines": lines, "share": covered / lines}
            )
    per_file.sort(key=lambda item: (item["share"], -item["lines"]))
    return {
        "covered": covered_total,
        "lines": lines_total,
        "share": covered_total / lines_total if lines_total else 1.0,
        "worst_files": per_file[:worst],
    }
