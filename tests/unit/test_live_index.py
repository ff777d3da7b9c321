"""The live index: targeted updates equal a full index, the watcher and worker keep search
fresh (real watchfiles, real LanceDB, the real embedding model), and hits say when stale."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.core.settings import Settings
from app.indexer.targets import classify_paths
from app.indexer.worker import WORKER_NICENESS, IndexWorker, WorkerStatus
from app.service import Service
from app.store.check import check_index, index_fingerprint
from app.store.store import Store


def wait_until(condition: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not reached within {timeout} s")


def snapshot(index_dir: Path) -> dict[str, Any]:
    return index_fingerprint(index_dir)


def fresh_snapshot(repo: Path, tmp_path: Path) -> dict[str, Any]:
    service = Service(repo, Settings(index_dir=tmp_path / "fresh-index"))
    service.index(with_vectors=False)
    return snapshot(service.index_dir)


def edit_repository(repo: Path) -> list[str]:
    """Change, add, delete and rename files; return the paths touched."""
    scanner = repo / "src" / "html_parser.py"
    scanner.write_text(scanner.read_text() + "\n\ndef count_tags(document):\n    return 0\n")
    (repo / "src" / "added.py").write_text(
        "from html_parser import count_tags\n\n\ndef tally(doc):\n    return count_tags(doc)\n"
    )
    (repo / "web" / "cookies.js").unlink()
    (repo / "README.md").rename(repo / "GUIDE.md")
    return ["src/html_parser.py", "src/added.py", "web/cookies.js", "README.md", "GUIDE.md"]


def test_an_update_of_changed_paths_equals_a_fresh_index(
    sample_repo: Path, settings: Settings, tmp_path: Path
) -> None:
    service = Service(sample_repo, settings)
    service.index(with_vectors=False)
    changed = edit_repository(sample_repo)

    report = service.index(changed=changed, with_vectors=False, with_graph=False)
    assert report.mode == "paths"
    assert report.files_parsed == 3 and report.files_removed == 2
    assert report.graph_pending > 0
    assert service.search("count tags").hits[0].path == "src/html_parser.py"  # before the graph
    assert service.catch_up_graph() is not None

    assert snapshot(service.index_dir) == fresh_snapshot(sample_repo, tmp_path)
    assert check_index(service.index_dir) == []


def test_paths_that_only_a_walk_can_decide_ask_for_a_rescan(sample_repo: Path) -> None:
    (sample_repo / ".gitignore").write_text("generated/\n*.log\n")
    (sample_repo / "generated").mkdir()
    (sample_repo / "generated" / "out.py").write_text("x = 1\n")
    (sample_repo / "debug.log").write_text("noise\n")
    (sample_repo / "node_modules" / "lib").mkdir(parents=True)
    (sample_repo / "node_modules" / "lib" / "index.js").write_text("module.exports = 1\n")

    quiet = classify_paths(
        sample_repo,
        [
            "generated/out.py",
            "debug.log",
            "node_modules/lib/index.js",
            "gone.py",
            "src/html_parser.py",
        ],
    )
    assert quiet.rescan == ""
    assert [f.path for f in quiet.files] == ["src/html_parser.py"]
    assert {s.path: s.reason for s in quiet.skipped} == {"debug.log": "ignored"}
    assert quiet.outside == {"generated/out.py", "node_modules/lib/index.js"}
    assert quiet.gone == {"gone.py"}

    assert "ignore rules" in classify_paths(sample_repo, [".gitignore"]).rescan
    assert "directory" in classify_paths(sample_repo, ["src"]).rescan


def test_a_gitignore_change_drops_newly_ignored_files(
    sample_repo: Path, settings: Settings, tmp_path: Path
) -> None:
    service = Service(sample_repo, settings)
    service.index(with_vectors=False)
    (sample_repo / ".gitignore").write_text("src/html_parser.py\n")

    report = service.index(changed=[".gitignore"], with_vectors=False)
    assert report.mode == "full" and "ignore rules" in report.rescan_reason
    assert "src/html_parser.py" not in Store.open(service.index_dir).files()
    assert snapshot(service.index_dir) == fresh_snapshot(sample_repo, tmp_path)


def test_a_hit_whose_file_changed_since_indexing_is_marked_stale(
    sample_repo: Path, settings: Settings
) -> None:
    service = Service(sample_repo, settings)
    service.index(with_vectors=False)
    hit = service.search("tag scanner scan").hits[0]
    assert not hit.stale
    target = sample_repo / hit.path
    target.write_text(target.read_text() + "\n# edited\n")

    assert service.search("tag scanner scan").hits[0].stale
    assert service.stats()["pending"]["changed"] == [hit.path]
    service.index(changed=[hit.path], with_vectors=False)
    assert not service.search("tag scanner scan").hits[0].stale
    assert service.stats()["pending"] == {"changed": [], "added": [], "removed": []}


@pytest.fixture
def worker_service(sample_repo: Path, settings: Settings) -> Service:
    return Service(sample_repo, settings)


def start_worker(service: Service) -> tuple[IndexWorker, list[WorkerStatus]]:
    seen: list[WorkerStatus] = []
    worker = IndexWorker(service, seen.append)
    worker.start()
    wait_until(lambda: worker.idle.is_set() and seen and seen[-1].updates >= 1, 120)
    return worker, seen


@pytest.mark.skipif(sys.platform != "linux", reason="per-thread priority is Linux's")
def test_the_worker_thread_yields_the_cpu_to_searches(worker_service: Service) -> None:
    worker, _ = start_worker(worker_service)
    try:
        (indexer,) = [t for t in threading.enumerate() if t.name == "repolens-index"]
        thread = indexer.native_id
        assert thread is not None and thread != threading.get_native_id()
        ours = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        assert os.getpriority(os.PRIO_PROCESS, thread) == max(ours, WORKER_NICENESS)
    finally:
        worker.stop()


def found(service: Service, query: str, path: str) -> bool:
    return any(hit.path == path for hit in service.search(query, k=5).hits)


@pytest.mark.slow
def test_the_worker_keeps_search_fresh_as_files_change(
    worker_service: Service, sample_repo: Path, tmp_path: Path
) -> None:
    service = worker_service
    worker, seen = start_worker(service)
    try:
        assert seen[-1].watching
        (sample_repo / "src" / "weather.py").write_text(
            "def forecast_rainfall(city):\n    return 'wet'\n"
        )
        wait_until(lambda: found(service, "forecast rainfall", "src/weather.py"))
        hits = service.search("forecast rainfall").hits
        chunk_id = next(h.chunk_id for h in hits if h.path == "src/weather.py")
        wait_until(lambda: service.searcher().has_vector(chunk_id))  # vectors follow at once
        best = service.search("forecast rainfall").hits[0]
        assert best.chunk_id == chunk_id and best.explanation.vector_rank == 1

        (sample_repo / "src" / "weather.py").rename(sample_repo / "src" / "climate.py")
        wait_until(lambda: found(service, "forecast rainfall", "src/climate.py"))
        assert not found(service, "forecast rainfall", "src/weather.py")

        (sample_repo / "src" / "climate.py").unlink()
        wait_until(lambda: not found(service, "forecast rainfall", "src/climate.py"))
        # Search sees the change as it is published, a moment before the update is counted.
        # (The rename's update also removed one file, but it re-read one.)
        wait_until(lambda: "0 files re-read, 1 removed" in seen[-1].last_update)

        before = seen[-1].updates
        (sample_repo / "node_modules").mkdir()
        (sample_repo / "node_modules" / "dep.js").write_text("module.exports = 1\n")
        time.sleep(1.0)
        assert seen[-1].updates == before, "an edit in an ignored folder cost an update"

        wait_until(lambda: worker.idle.is_set() and not worker.status.graph_pending)
        assert snapshot(service.index_dir) == fresh_snapshot(sample_repo, tmp_path)
    finally:
        worker.stop()
    assert check_index(service.index_dir) == []


@pytest.mark.slow
def test_a_burst_of_changes_settles_in_one_batch_equal_to_a_fresh_index(
    worker_service: Service, sample_repo: Path, tmp_path: Path
) -> None:
    service = worker_service
    worker, seen = start_worker(service)
    try:
        before = seen[-1].updates
        burst = sample_repo / "burst"
        burst.mkdir()
        for n in range(300):  # like a branch switch: many files within a moment
            (burst / f"mod_{n}.py").write_text(f"def handler_{n}(event):\n    return {n}\n")
        wait_until(lambda: found(service, "handler_299", "burst/mod_299.py"))
        wait_until(lambda: worker.idle.is_set() and not worker.status.graph_pending)
        assert seen[-1].updates - before == 1
        assert snapshot(service.index_dir) == fresh_snapshot(sample_repo, tmp_path)
    finally:
        worker.stop()


@pytest.mark.slow
def test_a_paused_worker_queues_changes_until_resumed(
    worker_service: Service, sample_repo: Path
) -> None:
    service = worker_service
    worker, seen = start_worker(service)
    try:
        worker.pause()
        (sample_repo / "src" / "paused.py").write_text("def while_paused_marker():\n    pass\n")
        wait_until(lambda: worker.status.pending >= 1 or len(worker.queue) >= 1, 5)
        time.sleep(0.5)
        assert not found(service, "while paused marker", "src/paused.py")
        assert worker.status.state == "paused"
        worker.resume()
        wait_until(lambda: found(service, "while paused marker", "src/paused.py"))
    finally:
        worker.stop()
    assert worker.status.state == "stopped"


def test_a_file_replaced_by_a_directory_is_rescanned(
    sample_repo: Path, settings: Settings, tmp_path: Path
) -> None:
    service = Service(sample_repo, settings)
    service.index(with_vectors=False)
    (sample_repo / "src" / "retry.py").unlink()
    (sample_repo / "src" / "retry.py").mkdir()
    (sample_repo / "src" / "retry.py" / "inner.py").write_text("def nested_helper():\n    pass\n")

    report = service.index(changed=["src/retry.py"], with_vectors=False)
    assert report.mode == "full" and "directory" in report.rescan_reason
    files = Store.open(service.index_dir).files()
    assert "src/retry.py" not in files and "src/retry.py/inner.py" in files
    assert snapshot(service.index_dir) == fresh_snapshot(sample_repo, tmp_path)


def test_a_watcher_that_stops_asks_for_a_full_rescan(tmp_path: Path) -> None:
    from app.indexer.watch import ChangeQueue, Watcher

    queue = ChangeQueue()
    watcher = Watcher(tmp_path / "missing", queue)  # the OS refuses to watch it
    watcher.start()
    wait_until(lambda: not watcher.alive, 10)
    paths, reason = queue.take()
    assert paths == set() and "the file watcher stopped" in reason
    assert watcher.error


def test_a_watcher_stopped_before_it_starts_never_watches(tmp_path: Path) -> None:
    """The app may quit between the indexer making its watcher and starting it (seen in CI:
    "cannot join thread before it is started" from the app's unmount)."""
    from app.indexer.watch import ChangeQueue, Watcher

    watcher = Watcher(tmp_path, ChangeQueue())
    watcher.stop()
    watcher.start()
    wait_until(lambda: not watcher.alive, 5)
    assert watcher.started.is_set() and not watcher.error


@pytest.mark.slow
def test_a_searcher_changed_in_place_equals_one_loaded_afresh(
    sample_repo: Path, settings: Settings
) -> None:
    from app.search.searcher import Searcher

    service = Service(sample_repo, settings)
    service.index()
    searcher = service.searcher()
    changed = edit_repository(sample_repo)
    service.index(changed=changed)  # the service applies the change to its searcher

    fresh = Searcher(Store.open(service.index_dir), service.embedder())
    live = {r["id"]: r for r in searcher.corpus.live_rows()}
    assert live == {r["id"]: r for r in fresh.corpus.live_rows()}
    assert searcher.corpus.stamps == fresh.corpus.stamps
    assert searcher.corpus.signatures == fresh.corpus.signatures
    assert searcher.corpus.parents == fresh.corpus.parents
    assert +searcher.corpus.name_counts == +fresh.corpus.name_counts
    assert searcher.corpus.vector_count == fresh.corpus.vector_count
    assert searcher.corpus.removed > 0
    for chunk_id in live:
        assert searcher.has_vector(chunk_id) == fresh.has_vector(chunk_id)
    for query in ("count tags", "retry backoff", "set a cookie"):
        ours = [(h.chunk_id, round(h.score, 9)) for h in searcher.search(query, 5, 1000).hits]
        assert ours == [(h.chunk_id, round(h.score, 9)) for h in fresh.search(query, 5, 1000).hits]


def test_a_worker_without_vectors_goes_idle_and_a_one_pass_worker_ends(
    sample_repo: Path, settings: Settings
) -> None:
    service = Service(sample_repo, settings)
    one_pass = service.live(watch=False, with_vectors=False)
    try:
        assert one_pass.join(60), "a one-pass worker without vectors never ended"
    finally:
        one_pass.stop()
    worker = service.live(with_vectors=False)
    try:
        wait_until(lambda: worker.idle.is_set() and worker.status.updates >= 1, 60)
    finally:
        worker.stop()


def test_a_first_run_says_its_chunks_are_searchable_before_its_call_graph(
    sample_repo: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A repository never indexed: the worker reports the published chunks (search works)
    while the call graph is still being resolved, then the graph on its own."""
    import app.indexer.pipeline as pipeline

    resolving, release = threading.Event(), threading.Event()
    real = pipeline.catch_up_graph

    def held(*args: Any, **kwargs: Any) -> Any:  # the real graph step, made to wait
        resolving.set()
        assert release.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "catch_up_graph", held)
    service = Service(sample_repo, settings)
    seen: list[WorkerStatus] = []
    worker = service.live(seen.append, with_vectors=False)
    try:
        wait_until(resolving.is_set, 60)
        searchable = wait_until(lambda: next((s for s in seen if s.published), None))
        assert searchable.files > 0 and searchable.graph_pending
        assert searchable.updates == 0 and searchable.graph_updates == 0  # the run goes on
        assert service.search("exponential backoff").hits
        assert "has no call graph yet" in service.details()["graph"]["reason"]
        assert service.details()["graph"]["not_yet"]
        release.set()
        done = wait_until(lambda: next((s for s in seen if s.updates), None))
        assert done.graph_updates == 1 and not done.graph_pending
        assert service.hotspots(3)
    finally:
        release.set()
        worker.stop()


@pytest.mark.slow
def test_the_worker_says_when_every_vector_is_in(sample_repo: Path, settings: Settings) -> None:
    """Results shown before the vectors came were ranked without them: the worker counts
    the moment every vector is in as a publish, so a front end searches again."""
    service = Service(sample_repo, settings)
    seen: list[WorkerStatus] = []
    worker = service.live(seen.append)
    try:
        ready = wait_until(
            lambda: next((s for s in seen if s.message.startswith("vectors ready (")), None), 120
        )
        assert ready.published == 2  # the chunks, then their vectors
    finally:
        worker.stop()
