"""Index and search end to end: real walk, tree-sitter, LanceDB and the embedding model."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest

from app.core.settings import Settings
from app.service import RepositoryError, Service
from app.store.check import check_index
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
