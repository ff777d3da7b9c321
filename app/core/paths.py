"""Platform paths (the config file, the index root, the model cache), the folders an index
writes (and how walks recognise them), and path roles (test code)."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import platformdirs

APP_NAME = "repolens-tui"

VECTORS_FOLDER = "vectors"  # beside the index folders: one vector store shared by the root
# The Cache Directory Tagging Specification (https://bford.info/cachedir/): a folder holding
# this file, starting with this signature, is a cache that walks, backups and archives skip.
CACHE_TAG_NAME = "CACHEDIR.TAG"
CACHE_TAG_SIGNATURE = b"Signature: 8a477f597d28d172789f06886806bc55"
_CACHE_TAG_TEXT = (
    CACHE_TAG_SIGNATURE
    + b"\n# This file is a cache directory tag created by repolens-tui (an index).\n"
    + b"# For information about cache directory tags see https://bford.info/cachedir/\n"
)

TEST = "test"
EXAMPLE = "example"
# Folders of tests and their helpers as real repositories name them: `test-utils/` and
# `testFixtures/` (kotlinx-coroutines, Gradle), `exposed-tests/` and `android-unit-tests/` (a
# module of tests: plural, since `kotlinx-coroutines-test/` and `koin-test/` are libraries
# for their users' tests), `test_suite/` (serde), `integration_test/` (Ecto).
_TEST_PATH = re.compile(
    r"(^|/)(tests?|__tests__|spec|specs|testing|testdata|fixtures?|benches)(/|$)"
    r"|(^|/)(test[-_]?(utils?|helpers?|support|resources|fixtures)|test_[^/]+)(/|$)"
    r"|(^|/)([^/]+[-_]tests|integration[-_]?test(s|ing)?)(/|$)"
    r"|(^|/)[^/]+\.(tests?|unittests?|integrationtests?|specs?)(/|$)"
    r"|(^|/)(test_[^/]*|[^/]*_(test|spec)\.[a-z]+|[^/]*\.(test|spec)\.[a-z]+|conftest\.py)$",
    re.IGNORECASE,
)
# Spelled in CamelCase, so matched with case: `FooTests.cs`, `ParserTest.java`, `CsvTester.cs`,
# Hspec's `StackSpec.hs`, Kotlin's and Gradle's source sets (`src/commonTest/`, `jvmTest/`,
# `jvmCoreTest/`, `java8Test/`). Not PHP files: Twig's `TwigTest.php` is library code (a
# template test), PHP's tests live in `tests/`.
_CAMEL_TEST_PATH = re.compile(
    r"(^|/)[a-z][A-Za-z0-9]*Test(/|$)"
    r"|(^|/)[^/]*[a-z0-9](Tests?|Tester|Spec)\.(cs|java|kt|kts|swift|scala|groovy|hs)$"
)
# Benchmarks also live beside the code they measure, named for it: `str_cat_benchmark.cc`
# (C++), `parse.bench.ts` (Vitest), `encode-bench.js`; JMH's and BenchmarkDotNet's
# `ParserBenchmark.java` / `SerializerBenchmarks.cs`, a C# `MyLib.Benchmarks/` project and
# Gradle's `src/jmh/` source set.
_EXAMPLE_PATH = re.compile(
    r"(^|/)_?(examples?|samples?|benchmarks?|jmh)(/|$)"
    r"|(^|/)[^/]+\.benchmarks?(/|$)"
    r"|(^|/)[^/]*[_.-](benchmarks?|bench)\.[a-z]+$",
    re.IGNORECASE,
)
_CAMEL_BENCHMARK_PATH = re.compile(r"(^|/)[^/]*[a-z0-9]Benchmarks?\.(java|kt|kts|cs|scala|swift)$")
# Rust keeps unit tests in a `#[cfg(test)] mod tests` inside the library file, Zig in
# `test "name" { ... }` blocks (named so by the parse).
_RUST_TEST_MODULE = re.compile(r"(^|\.)tests?(\.|$)")
_ZIG_TEST = re.compile(r'(^|\.)test[ "]')


def config_file() -> Path:
    """The TOML settings file; `REPOLENS_CONFIG` points elsewhere."""
    override = os.environ.get("REPOLENS_CONFIG")
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def default_index_root() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME)) / "indexes"


def cache_root() -> Path:
    """Where assembled models live; `REPOLENS_CACHE_DIR` points elsewhere."""
    override = os.environ.get("REPOLENS_CACHE_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_cache_dir(APP_NAME))


def index_dir_for(index_root: Path, repo_root: Path) -> Path:
    """One folder per repository: a readable name plus a hash of the absolute path."""
    resolved = repo_root.resolve()
    digest = hashlib.sha1(str(resolved).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", resolved.name or "root")[:40]
    return index_root / f"{name}-{digest}"


def index_folders(index_dir: Path, repo_root: Path) -> list[Path]:
    """The folders an index of `repo_root` writes into, which walks and watchers of the
    repository must leave out: the whole index root when it lies inside the repository, else
    (the root is the repository or holds it) just this index's folder and the vectors."""
    index_root = index_dir.parent
    repo_real = os.path.realpath(repo_root)
    root_real = os.path.realpath(index_root)
    if root_real.startswith(repo_real.rstrip(os.sep) + os.sep):
        return [index_root]
    return [index_dir, index_root / VECTORS_FOLDER]


def write_cache_tag(folder: Path) -> None:
    """Mark `folder` as a cache (CACHEDIR.TAG), so that any walk, ours included, skips it
    wherever it lies and whatever it is called."""
    tag = folder / CACHE_TAG_NAME
    if not tag.exists():
        folder.mkdir(parents=True, exist_ok=True)
        tag.write_bytes(_CACHE_TAG_TEXT)


def path_role(path: str) -> str:
    """What a repository path holds besides library code: TEST (a tests folder, test helpers
    such as `test-utils/`, a module of tests such as `exposed-tests/`, test_*.py, *.test.js,
    `src/test/`, `*Tests.cs`, `*_spec.rb`, ...), EXAMPLE (`examples/`,
    `samples/`, `benchmarks/`, `*_benchmark.cc`, `*.bench.ts`, `*Benchmark.java`) or ""
    (the library itself)."""
    if _TEST_PATH.search(path) or _CAMEL_TEST_PATH.search(path):
        return TEST
    if _EXAMPLE_PATH.search(path) or _CAMEL_BENCHMARK_PATH.search(path):
        return EXAMPLE
    return ""


def is_test_path(path: str) -> bool:
    """Whether a repository path is test code."""
    return path_role(path) == TEST


def in_test_module(language: str, kind: str, qualified: str, parent: str) -> bool:
    """Whether a chunk is unit-test code by where it sits in its file: Rust's
    `#[cfg(test)] mod tests`, its head (a module so named) or anything inside it (`parent`
    is the qualified name of what encloses the chunk); a Zig `test "name"` block."""
    if language == "zig":
        return bool(_ZIG_TEST.search(qualified) or _ZIG_TEST.search(parent))
    scope = qualified if kind == "module" else parent
    return language == "rust" and bool(_RUST_TEST_MODULE.search(scope))
