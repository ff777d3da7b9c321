"""The file-level BM25 reference (`bm25-files`) on small checkouts made here."""

from __future__ import annotations

import json
from pathlib import Path

from app.bench.baselines import TextUnit, code_tokens
from app.bench.devbench import ResultChunk
from app.bench.runner import BM25_FILES, Searcher, run_swebench, whole_files


def checkout(tmp_path: Path, files: dict[str, str], issue: str, gold: str) -> tuple[Path, Path]:
    """One instance's checkout under `co/` and its instances file."""
    root = tmp_path / "co" / "o__r-1"
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    instances = tmp_path / "instances.jsonl"
    row = {"instance_id": "o__r-1", "base_commit": "0" * 40, "problem_statement": issue,
           "gold_files": [gold]}  # fmt: skip
    instances.write_text(json.dumps(row) + "\n")
    return instances, tmp_path / "co"


def reference_files(instances: Path, checkouts: Path) -> tuple[str, ...]:
    """The files `bm25-files` ranks for the one instance; the engine is a stand-in (unused)."""

    def make_searcher(name: str, root: Path) -> tuple[Searcher, list[TextUnit], list[str]]:
        paths = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())

        def search(question: str, k: int) -> list[ResultChunk]:
            return []

        return search, [], paths

    report = run_swebench(instances, checkouts, None, make_searcher)
    return report.scores[BM25_FILES][0].top_files


def test_code_tokens_keep_identifiers_whole_and_split() -> None:
    assert code_tokens("r.raise_for_status() -> HTTPError x") == [
        "raise_for_status", "raise", "for", "status", "httperror", "http", "error",
    ]  # fmt: skip


def test_whole_files_are_source_files_with_their_path_words(tmp_path: Path) -> None:
    files = {
        "src/pkg/capture.py": "def readouterr():\n    pass\n",
        "README.md": "# capture\n",
        "doc/changelog.rst": "capture\n",
        "testing/test_capture.py": "def test_x(): ...\n",
    }
    instances, checkouts = checkout(tmp_path, files, "capture", "src/pkg/capture.py")
    units = whole_files(checkouts / "o__r-1", sorted(files))
    assert [u.path for u in units] == ["src/pkg/capture.py"]
    assert code_tokens(units[0].text)[:4] == ["src", "pkg", "capture", "py"]
    assert (units[0].start_line, units[0].end_line) == (1, 2)


def test_documentation_that_repeats_the_issue_does_not_outrank_the_code(tmp_path: Path) -> None:
    # pytest's checkouts hold 216 .rst files (changelog fragments, docs) beside 77 .py files;
    # in the reference's pool they took the top places on swebench-dev.
    issue = "capsys.readouterr() converts carriage return to newline since 6.0"
    files = {
        "src/pkg/capture.py": "class CaptureFixture:\n    def readouterr(self):\n"
        "        # keep each carriage return as written\n        return self.out\n",
        "src/pkg/terminal.py": "def write_line(line):\n    print(line)\n",
        "doc/changelog.rst": "6.0: capsys readouterr converts carriage return to newline.\n",
    }
    instances, checkouts = checkout(tmp_path, files, issue, "src/pkg/capture.py")
    assert reference_files(instances, checkouts)[0] == "src/pkg/capture.py"


def test_an_identifier_named_whole_outweighs_its_common_words(tmp_path: Path) -> None:
    # `skip` and `reason` are in half the files; only b.py holds `skip_reason` itself.
    issue = "skip_reason() gives a wrong value"
    files = {
        "src/a.py": "skip = True\nreason = 'skip'\n# skip the reason, skip the skip reason\n",
        "src/b.py": "def skip_reason(item):\n    return item.marker\n",
        "src/c.py": "def collect(path):\n    return [path]\n",
        "src/d.py": "def report(line):\n    return line\n",
    }
    instances, checkouts = checkout(tmp_path, files, issue, "src/b.py")
    assert reference_files(instances, checkouts)[0] == "src/b.py"
