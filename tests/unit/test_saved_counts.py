"""The BM25F token counts saved beside the published chunks: the next load reads them
instead of counting again, and a file that is damaged, foreign or outdated is never used."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from app.core.settings import Settings
from app.search import corpus as corpus_module
from app.search.corpus import COUNTS_FILE, Corpus
from app.search.lexical import (
    FIELDS,
    TEXT,
    count_fields,
    load_counts,
    rows_digest,
    save_counts,
)
from app.search.tokenize import tokens
from app.service import Service
from app.store.store import Store
from app.store.upkeep import DERIVED_PREFIX

QUESTIONS = ["how are failed requests retried", "cookie header parse", "escape html"]


def _postings(corpus: Corpus) -> list[tuple[str, int, dict[str, int], list[np.ndarray]]]:
    return [
        (field, first, counted.group, [counted.starts, counted.rows, counted.counts])
        for field in FIELDS
        for first, counted in corpus.postings.fields[field].blocks
    ]


def _same(a: Corpus, b: Corpus) -> bool:
    left, right = _postings(a), _postings(b)
    return len(left) == len(right) and all(
        x[:3] == y[:3] and all(np.array_equal(p, q) for p, q in zip(x[3], y[3], strict=True))
        for x, y in zip(left, right, strict=True)
    )


def _never_counted(*_: object) -> None:
    raise AssertionError("counted again")


@pytest.fixture
def indexed_sample(sample_repo: Path, settings: Settings) -> Service:
    service = Service(sample_repo, settings)
    service.index(with_vectors=False)
    return service


def test_the_next_load_reads_the_saved_counts_and_ranks_alike(
    indexed_sample: Service, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store.open(indexed_sample.index_dir)
    counted = Corpus(store, None, False)
    path = store.derived_path(COUNTS_FILE)
    assert path is not None and path.is_file()  # the first load saved them
    first = {q: indexed_sample.search(q).hits for q in QUESTIONS}
    monkeypatch.setattr(corpus_module, "count_fields", _never_counted)
    read = Corpus(Store.open(indexed_sample.index_dir), None, False)
    assert _same(counted, read) and read.holds(tokens("cookie")[0])
    again = Service(indexed_sample.root, settings)  # a new process: loads the saved counts
    assert {q: again.search(q).hits for q in QUESTIONS} == first
    assert all(first.values())


def test_a_damaged_file_is_counted_again_and_rewritten(indexed_sample: Service) -> None:
    store = Store.open(indexed_sample.index_dir)
    counted = Corpus(store, None, False)
    path = store.derived_path(COUNTS_FILE)
    assert path is not None
    path.write_bytes(path.read_bytes()[:200])  # cut short, as a full disk might leave it
    recounted = Corpus(Store.open(indexed_sample.index_dir), None, False)
    assert _same(counted, recounted)
    assert len(path.read_bytes()) > 200  # whole again


def test_a_new_publish_drops_the_old_file_and_counts_its_own_rows(
    indexed_sample: Service, sample_repo: Path
) -> None:
    store = Store.open(indexed_sample.index_dir)
    Corpus(store, None, False)
    old = store.derived_path(COUNTS_FILE)
    assert old is not None
    killed = old.with_name(f".{old.name}.abc123")  # what a reader killed while writing left
    killed.write_bytes(b"PK")
    os.utime(killed, (time.time() - 3600, time.time() - 3600))
    (sample_repo / "src" / "quokka.py").write_text("def quokka_burrow():\n    return 1\n")
    indexed_sample.index(with_vectors=False)
    assert not old.exists() and not killed.exists()  # the publish deleted them
    store = Store.open(indexed_sample.index_dir)
    fresh = Corpus(store, None, False)
    new = store.derived_path(COUNTS_FILE)
    assert new is not None and new != old and fresh.holds(tokens("quokka")[0])
    assert sorted(p.name for p in new.parent.glob(f"{DERIVED_PREFIX}*")) == [new.name]
    assert not list(new.parent.glob(f".{DERIVED_PREFIX}*"))  # no staging file left behind


def test_counts_that_do_not_fit_the_rows_are_counted_again(indexed_sample: Service) -> None:
    store = Store.open(indexed_sample.index_dir)
    counted = Corpus(store, None, False)
    path = store.derived_path(COUNTS_FILE)
    assert path is not None
    table = store.chunk_table(corpus_module.LOADED_COLUMNS)
    digest = rows_digest([*table.column("id").to_pylist(), *table.column("embed_key").to_pylist()])
    slices = count_fields(table)
    text = slices[0][TEXT]
    beyond = replace(text, rows=text.rows + len(text.lengths))  # rows past the slice's end
    save_counts(path, [{**slices[0], TEXT: beyond}], digest)
    assert load_counts(path, digest, table.num_rows) is None
    save_counts(path, slices, digest)  # fits, but for one row fewer than the table holds
    assert load_counts(path, digest, table.num_rows - 1) is None
    assert load_counts(path, digest, table.num_rows) is not None
    save_counts(path, [{**slices[0], TEXT: beyond}], digest)
    assert _same(counted, Corpus(Store.open(indexed_sample.index_dir), None, False))
