"""Index and search end to end: real walk, tree-sitter, LanceDB and the embedding model."""

from __future__ import annotations

import os
import socket
import time
from datetime import timedelta
from pathlib import Path

import pytest

from app.cli import main
from app.core.events import IndexProgress, RunControl
from app.core.settings import Settings
from app.indexer.embed import model_id_for
from app.service import RepositoryError, Service
from app.store.check import check_index
from app.store.manifest import IndexCorrupt, read_manifest
from app.store.shared_vectors import vector_table_name
from app.store.store import Store


def test_index_then_search_finds_the_implementation(sample_repo: Path, settings: Settings) -> None:
    service = Service(sample_repo, settings)
    report = service.index()
    assert report.files_parsed == 6 and report.chunks_total > 5
    # Test files are left to BM25 (embed_tests is off by default); everything else has a vector.
    assert report.vectors_total == report.vectors_wanted == report.chunks_total - 3  # test_retry.py
    result = service.search("exponential delay with full jitter before the next attempt", k=5)
    assert result.hits[0].qualified_name == "retry_backoff"
    assert result.hits[0].path == "src/retry.py"
    assert result.vectors_ready == 1.0
    explanation = result.hits[0].explanation
    assert explanation.bm25_rank is not None or explanation.vector_rank is not None
    assert explanation.final_score == pytest.approx(result.hits[0].score)


def test_tests_rank_below_the_code_they_test(sample_repo: Path, settings: Settings) -> None:
    service = Service(sample_repo, settings)
    service.index()
    hits = service.search(
        "retry policy should retry server errors", k=20, budget_tokens=10_000
    ).hits
    paths = [hit.path for hit in hits]
    assert paths.index("src/retry.py") < paths.index("tests/test_retry.py")
    test_hit = next(hit for hit in hits if hit.path.startswith("tests/"))
    assert "test" in [s.name for s in test_hit.explanation.signals]


def test_commonjs_members_are_found_by_name(sample_repo: Path, settings: Settings) -> None:
    service = Service(sample_repo, settings)
    service.index()
    hits = service.search("how does res.cookie set the expiry from maxAge", k=3).hits
    assert hits[0].path == "web/cookies.js"
    assert hits[0].symbol == "cookie"


def test_reindex_touches_only_changed_files(sample_repo: Path, settings: Settings) -> None:
    service = Service(sample_repo, settings)
    first = service.index()
    again = service.index()
    assert (again.files_parsed, again.chunks_added, again.vectors_added) == (0, 0, 0)
    assert again.files_unchanged == first.files_seen

    scanner = sample_repo / "src/html_parser.py"
    scanner.write_text(scanner.read_text() + "\n\ndef count_tags(document):\n    return 0\n")
    (sample_repo / "README.md").unlink()
    changed = service.index()
    assert changed.files_parsed == 1 and changed.files_removed == 1
    assert 0 < changed.vectors_added <= 3
    store = Store.open(service.index_dir)
    assert "README.md" not in store.files()
    ids = store.chunk_table(["id"]).column("id").to_pylist()
    assert len(ids) == len(set(ids))
    assert any(hit.symbol == "count_tags" for hit in service.search("count tags", k=3).hits)


def test_touched_but_unchanged_file_is_not_reparsed(sample_repo: Path, settings: Settings) -> None:
    service = Service(sample_repo, settings)
    first = service.index(with_vectors=False)
    target = sample_repo / "src/retry.py"
    os.utime(target, (time.time() + 10, time.time() + 10))  # as `git checkout` back does
    report = service.index(with_vectors=False)
    assert report.files_parsed == 0 and report.files_unchanged == report.files_seen
    assert report.chunks_total == first.chunks_total, "a touched file lost its chunks"
    assert check_index(service.index_dir) == []
    assert not service.search("retry backoff").hits[0].stale


def test_changing_the_model_truncation_re_embeds(sample_repo: Path, settings: Settings) -> None:
    Service(sample_repo, settings).index()
    other = settings.model_copy(update={"embedding_max_tokens": 128})
    report = Service(sample_repo, other).index()
    assert report.files_parsed == 0
    assert report.vectors_added == report.vectors_wanted


def test_lexical_search_works_before_vectors(sample_repo: Path, settings: Settings) -> None:
    service = Service(sample_repo, settings)
    service.index(with_vectors=False)
    result = service.search("retry backoff jitter", k=3)
    assert result.vectors_ready == 0.0
    assert result.hits[0].qualified_name == "retry_backoff"


class _StopsAfterOneBatch(RunControl):
    """Asks the embedding to yield (as the live index does when a file changes) once one
    batch is in."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def should_yield(self) -> bool:
        self.asked += 1
        return self.asked > 1


def test_embedding_progress_goes_on_from_where_a_stopped_run_left_it(
    sample_repo: Path, settings: Settings
) -> None:
    """The status line's `adding vectors N%`: a run that resumes after yielding to an edit
    counts the vectors already stored, so the share never falls back to 0%."""
    service = Service(sample_repo, settings.model_copy(update={"embedding_batch_size": 2}))
    service.index(with_vectors=False)
    first: list[IndexProgress] = []
    assert service.embed(first.append, _StopsAfterOneBatch()).vectors_deferred
    stopped = [event for event in first if event.phase == "embed"][-1]
    later: list[IndexProgress] = []
    report = service.embed(later.append)
    embedding = [event for event in later if event.phase == "embed"]
    assert embedding[0].total == stopped.total
    assert embedding[0].done == stopped.done > 0
    # The total counts the word vectors too (app.search.words): every vector the run adds.
    assert embedding[-1].done == embedding[-1].total > report.vectors_wanted
    assert report.vectors_total == report.vectors_wanted


def test_empty_repository_indexes_and_finds_nothing(tmp_path: Path, settings: Settings) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    service = Service(empty, settings)
    report = service.index()
    assert (report.files_seen, report.chunks_total) == (0, 0)
    assert service.search("anything at all").hits == []


def test_a_file_is_not_a_repository(tmp_path: Path, settings: Settings) -> None:
    path = tmp_path / "file.py"
    path.write_text("x = 1\n")
    with pytest.raises(RepositoryError, match="is not a directory"):
        Service(path, settings)
    with pytest.raises(RepositoryError, match="does not exist"):
        Service(tmp_path / "missing", settings)


def test_index_and_search_work_with_the_network_blocked(
    sample_repo: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("network access attempted during an offline test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setenv("REPOLENS_CACHE_DIR", str(sample_repo.parent / "fresh-cache"))
    service = Service(sample_repo, settings)
    service.index()
    assert service.search("exponential backoff with jitter", k=1).hits[0].symbol == "retry_backoff"
    # Native code goes round these patches (tests/unit/test_offline.py traces it): onnxruntime
    # phones home unless this was set before it loaded.
    assert os.environ.get("ORT_DISABLE_TELEMETRY") == "1"


def test_bad_input_is_skipped_with_reasons_and_the_rest_indexed(
    tmp_path: Path, settings: Settings
) -> None:
    repo = tmp_path / "messy"
    repo.mkdir()
    (repo / "good.py").write_text("def parse_config(path):\n    return open(path).read()\n")
    (repo / "latin1.py").write_bytes(b"# caf\xe9\ndef menu():\n    return 'caf\xe9'\n")
    (repo / "nul.py").write_bytes(b"def x():\n    return 1\n\x00\x00\x00\x01\x02")
    (repo / "bundle.js").write_text("var a=1;" * 2000)  # one 16,000-character line
    (repo / "huge.txt").write_text("x" * 2_000_000)
    (repo / "loop").symlink_to(repo, target_is_directory=True)
    (repo / "root").symlink_to("/", target_is_directory=True)
    (repo / "dangling.py").symlink_to(repo / "missing.py")
    (repo / "node_modules").mkdir()
    (repo / "node_modules" / "dep.js").write_text("module.exports = 1;\n")
    (repo / "package-lock.json").write_text("{}\n")

    service = Service(repo, settings)
    report = service.index(with_vectors=False)
    reasons = report.skipped_by_reason
    for reason in (
        "binary",
        "minified",
        "too-large",
        "symlink-outside",
        "broken-symlink",
        "denied",
    ):
        assert reasons.get(reason), f"no {reason} in {reasons}"
    store = Store.open(service.index_dir)
    assert sorted(store.files()) == ["good.py", "latin1.py"]
    symbols = store.chunk_table(["symbol"]).column("symbol").to_pylist()
    assert {"parse_config", "menu"} <= set(symbols)
    stats = service.stats()
    assert {entry["path"] for entry in stats["skipped"]} >= {"nul.py", "bundle.js", "root"}


def test_a_generated_documentation_site_leaves_the_index(
    tmp_path: Path, settings: Settings
) -> None:
    """A page indexed while written by hand is dropped once a tool regenerates it, and the
    code it documents is the answer again."""
    repo = tmp_path / "lib"
    (repo / "src").mkdir(parents=True)
    (repo / "docs").mkdir()
    (repo / "src" / "retry.py").write_text(
        'def retry_policy(attempts):\n    """How often a failed request is retried."""\n'
        "    return min(attempts, 3)\n"
    )
    page = repo / "docs" / "retry_policy.html"
    page.write_text("<h1>retry_policy</h1>\n<p>How often a failed request is retried.</p>\n")
    service = Service(repo, settings)
    service.index(with_vectors=False)
    assert "docs/retry_policy.html" in Store.open(service.index_dir).files()

    page.write_text(
        page.read_text() + '<footer>Generated by <a href="https://example.org/tool">tool</a>'
        " 1.0</footer>\n"
    )
    report = service.index(with_vectors=False)
    assert report.skipped_by_reason == {"generated-docs": 1}
    assert sorted(Store.open(service.index_dir).files()) == ["src/retry.py"]
    hits = service.search("how often is a failed request retried", k=3).hits
    assert [h.path for h in hits] == ["src/retry.py"]
    skipped = service.stats()["skipped"]
    assert [(s["path"], s["reason"]) for s in skipped] == [
        ("docs/retry_policy.html", "generated-docs")
    ]


CALLING_REPO = {
    "src/fetch.py": "def fetch_old_record(key):\n    return load(key)\n\n\n"
    "def load(key):\n    return {'key': key}\n",
    "src/report.py": "from src.fetch import fetch_old_record\n\n\n"
    "def monthly_report(month):\n    return [fetch_old_record(month)]\n",
    "src/gone.py": "def soon_removed_helper():\n    return 1\n",
}


def _write_repo(root: Path, files: dict[str, str]) -> Path:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


def _tables(service: Service) -> Path:
    manifest = read_manifest(service.index_dir)
    assert manifest is not None
    return service.index_dir / manifest.tables_dir


def _damage(table_folder: Path, how: str) -> None:
    """Break every data file of a real Lance table: cut it in half, or overwrite its tail."""
    for path in (table_folder / "data").glob("*.lance"):
        size = path.stat().st_size
        if how == "truncate":
            os.truncate(path, size // 2)
        else:
            with path.open("r+b") as handle:
                handle.seek(max(size - 64, 0))
                handle.write(b"\xff" * 64)


def test_searches_from_another_service_see_the_old_index_during_a_rebuild(
    tmp_path: Path, settings: Settings
) -> None:
    repo = _write_repo(tmp_path / "repo", CALLING_REPO)
    service = Service(repo, settings)
    service.index(with_vectors=False)
    assert service.search("fetch_old_record", k=3).hits  # this service now holds a searcher
    (repo / "src/gone.py").unlink()
    (repo / "src/fresh.py").write_text("def freshly_added_helper():\n    return 2\n")

    during: list[set[str]] = []

    def search_meanwhile(event: IndexProgress) -> None:
        if event.phase == "parse" and not during:  # the new tables are being written
            hits = Service(repo, settings).search("fetch old record freshly added", k=10).hits
            during.append({hit.symbol for hit in hits})

    service.index(search_meanwhile, rebuild=True, with_vectors=False)
    assert during and "fetch_old_record" in during[0]  # the old index answered
    assert "freshly_added_helper" not in during[0]
    for searcher in (service, Service(repo, settings)):  # the rebuild is published to both
        symbols = {hit.symbol for hit in searcher.search("helper", k=10).hits}
        assert "freshly_added_helper" in symbols and "soon_removed_helper" not in symbols
    assert check_index(service.index_dir) == []


def _read(service: Service, table: str) -> object:
    """What a reader of `table` does: a search loads chunks and files, `callers` the graph."""
    if table.startswith("graph"):
        return service.callers("load")
    return service.search("fetch record", k=3)


@pytest.mark.parametrize(
    ("table", "how"),
    [("chunks", "truncate"), ("files", "overwrite"), ("graph_edges", "truncate")],
)
def test_a_damaged_table_is_named_in_one_line_then_rebuilt_by_index(
    tmp_path: Path, settings: Settings, capsys: pytest.CaptureFixture[str], table: str, how: str
) -> None:
    repo = _write_repo(tmp_path / "repo", CALLING_REPO)
    Service(repo, settings).index(with_vectors=False)
    _damage(_tables(Service(repo, settings)) / f"{table}.lance", how)
    index_dir = ["--index-dir", str(settings.index_dir)]

    with pytest.raises(IndexCorrupt) as caught:
        _read(Service(repo, settings), table)
    assert f"{table}.lance" in str(caught.value) and "\n" not in str(caught.value)
    capsys.readouterr()
    assert main(["stats", str(repo), "--check", *index_dir]) == 1
    out = capsys.readouterr()
    assert f"{table}.lance" in out.out + out.err and "Traceback" not in out.out + out.err

    assert main(["index", str(repo), "--no-vectors", "-q", *index_dir]) == 0
    assert f"repair  the index is damaged: {_tables(Service(repo, settings)).parent}" in (
        capsys.readouterr().out
    )
    assert main(["stats", str(repo), "--check", *index_dir]) == 0
    assert "consistent" in capsys.readouterr().out
    _read(Service(repo, settings), table)


def test_index_finds_a_damaged_table_no_reader_has_noticed(
    tmp_path: Path, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _write_repo(tmp_path / "repo", CALLING_REPO)
    Service(repo, settings).index(with_vectors=False)
    _damage(_tables(Service(repo, settings)) / "chunks.lance", "truncate")
    assert (
        main(["index", str(repo), "--no-vectors", "-q", "--index-dir", str(settings.index_dir)])
        == 0
    )
    assert "chunks.lance" in capsys.readouterr().out
    assert check_index(Service(repo, settings).index_dir) == []


def _vectors_folder(settings: Settings) -> Path:
    model_id = model_id_for(settings.embedding_model, settings.embedding_max_tokens)
    return settings.index_dir / "vectors" / f"{vector_table_name(model_id)}.lance"


def test_a_damaged_shared_vectors_table_is_dropped_and_embedded_again(
    tmp_path: Path, settings: Settings
) -> None:
    first = _write_repo(tmp_path / "first", CALLING_REPO)
    second = _write_repo(
        tmp_path / "second",
        {"lib/cache.py": "def evict_oldest(cache):\n    return cache.pop(next(iter(cache)))\n"},
    )
    Service(first, settings).index()
    Service(second, settings).index()
    _damage(_vectors_folder(settings), "truncate")

    with pytest.raises(IndexCorrupt) as caught:  # every repository under the root is hit
        Service(second, settings).search("evict the oldest cache entry")
    assert "vectors" in str(caught.value) and "\n" not in str(caught.value)
    assert main(["stats", str(second), "--check", "--index-dir", str(settings.index_dir)]) == 1

    report = Service(second, settings).index()
    assert any("vectors" in line for line in report.repairs)
    assert report.vectors_added == report.vectors_wanted > 0
    assert Service(second, settings).search("evict the oldest cache entry").vectors_ready == 1.0
    # The first repository's vectors went with the table; its next run embeds them again.
    again = Service(first, settings).index()
    assert again.vectors_added == again.vectors_wanted > 0
    assert Service(first, settings).search("monthly report").vectors_ready == 1.0


def test_rebuild_repairs_a_damaged_vectors_table_nobody_has_read(
    tmp_path: Path, settings: Settings
) -> None:
    repo = _write_repo(tmp_path / "repo", CALLING_REPO)
    Service(repo, settings).index()
    _damage(_vectors_folder(settings), "overwrite")
    report = Service(repo, settings).index(rebuild=True)
    assert any("vectors" in line for line in report.repairs)
    assert report.vectors_added == report.vectors_wanted > 0
    assert Service(repo, settings).search("monthly report").vectors_ready == 1.0


def _generated_repo(root: Path, files: int = 40) -> None:
    """Modules of documented functions, each calling the next (the graph has edges)."""
    for f in range(files):
        lines = [f'"""Module {f}: the steps of a generated pipeline."""', ""]
        for n in range(10):
            callee = f"step_{f}_{n + 1}" if n < 9 else "sorted"
            lines += [
                f"def step_{f}_{n}(records, threshold={n}):",
                f'    """Keep the records of module {f} above {n}, then hand them on.',
                "",
                "    Records below the threshold are counted, not kept; the count is logged.",
                '    """',
                "    kept, dropped = [], 0",
                "    for record in records:",
                f"        if record.get('score', 0) > threshold + {f}:",
                "            kept.append(dict(record, step=threshold))",
                "        else:",
                "            dropped += 1",
                "    if dropped:",
                f"        print('step {f}.{n} dropped', dropped, 'of', len(records))",
                f"    return {callee}(kept)",
                "",
                "",
            ]
        (root / f"module_{f}.py").write_text("\n".join(lines))


def _bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def test_many_small_runs_keep_the_tables_near_their_fresh_size(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Versions are pruned by age, with a margin for the clock; runs here follow each other
    # within a tenth of a second (real ones, seconds), so the margin is shortened to match.
    monkeypatch.setattr("app.store.upkeep.CLOCK_MARGIN", timedelta(seconds=0.05))
    repo = tmp_path / "repo"
    repo.mkdir()
    _generated_repo(repo, files=100)
    service = Service(repo, settings)
    service.index(with_vectors=False)
    fresh = _bytes(_tables(service))
    for run in range(15):
        target = repo / f"module_{run * 7 % 100}.py"
        target.write_text(target.read_text() + f"\n\ndef added_{run}(x):\n    return x\n")
        changed = [target.name] if run % 2 else None  # the watcher's runs, and full ones
        service.index(with_vectors=False, changed=changed)
        assert service.search(f"added_{run}", k=1).hits[0].symbol == f"added_{run}"
        assert check_index(service.index_dir) == []  # every published table reads whole
        assert _bytes(_tables(service)) < 3 * fresh, f"after run {run + 1}"
