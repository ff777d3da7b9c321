"""Tests for the repository walk and source reading, on real files in tmp_path."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import stat
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import pytest

from app.core.paths import write_cache_tag
from app.indexer.files import printable_path
from app.indexer.targets import classify_paths
from app.indexer.walk import (
    CACHE_FOLDER,
    DOC_GENERATOR_MARKS,
    INDEX_FOLDER,
    SKIP_REASONS,
    WalkError,
    is_minified_name,
    read_source,
    walk,
)
from app.service import Service

NOBODY = 65534
T = TypeVar("T")


def write(root: Path, rel: str, content: str | bytes = "x = 1\n") -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def paths(root: Path) -> list[str]:
    return [f.path for f in walk(root).files]


def skips(root: Path) -> dict[str, str]:
    return {s.path: s.reason for s in walk(root).skipped}


def within(seconds: float, run: Callable[[], T], fifos: Sequence[Path] = ()) -> T:
    """`run()` in a thread that must end within `seconds`, so that a read stuck on a FIFO
    fails the test instead of hanging it (the FIFOs are then opened for writing, which
    frees the stuck reader)."""
    results: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            results.append(run())
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        for fifo in fifos:
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(5)
        pytest.fail(f"still running after {seconds} s: blocked on a FIFO?")
    if errors:
        raise errors[0]
    return results[0]


# --- ignore rules ---------------------------------------------------------------------------


def test_nested_gitignore_with_negation_and_anchoring(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.log\n")
    write(tmp_path, "sub/.gitignore", "!keep.log\nlocal.txt\n/gen.txt\n")
    for rel in [
        "a.log",
        "local.txt",
        "gen.txt",
        "sub/keep.log",
        "sub/drop.log",
        "sub/local.txt",
        "sub/gen.txt",
        "sub/deep/gen.txt",
        "sub/deep/local.txt",
    ]:
        write(tmp_path, rel)
    found = paths(tmp_path)
    assert "sub/keep.log" in found  # re-included by the nested negation
    assert "local.txt" in found  # the nested pattern applies only below sub/
    assert "gen.txt" in found
    assert "sub/deep/gen.txt" in found  # "/gen.txt" is anchored to sub/
    skipped = skips(tmp_path)
    for rel in ["a.log", "sub/drop.log", "sub/local.txt", "sub/gen.txt", "sub/deep/local.txt"]:
        assert skipped[rel] == "ignored", rel
        assert rel not in found


def test_git_info_exclude_and_git_dir_denied(tmp_path: Path) -> None:
    write(tmp_path, ".git/info/exclude", "secret.txt\n")
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "secret.txt")
    write(tmp_path, "main.py")
    assert paths(tmp_path) == ["main.py"]
    assert skips(tmp_path) == {".git": "denied", "secret.txt": "ignored"}


def test_ignored_directory_recorded_once(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "generated/\n")
    for i in range(5):
        write(tmp_path, f"generated/part{i}/file{i}.py")
    write(tmp_path, "src/main.py")
    result = walk(tmp_path)
    assert [f.path for f in result.files] == [".gitignore", "src/main.py"]
    assert [(s.path, s.reason) for s in result.skipped] == [("generated", "ignored")]


def test_extra_ignores(tmp_path: Path) -> None:
    write(tmp_path, "docs/a.md", "# a\n")
    write(tmp_path, "src/a.py")
    write(tmp_path, "src/a_test.py")
    result = walk(tmp_path, extra_ignores=["docs/", "*_test.py"])
    assert [f.path for f in result.files] == ["src/a.py"]
    assert {s.path: s.reason for s in result.skipped} == {
        "docs": "ignored",
        "src/a_test.py": "ignored",
    }


# --- deny list and size ---------------------------------------------------------------------


def test_default_deny_list(tmp_path: Path) -> None:
    for rel in [
        "node_modules/lib/index.js",
        "node_modules/other/x.js",
        "pkg.egg-info/PKG-INFO",
        "build/out.py",
        "src/__pycache__/m.cpython-311.pyc",
        "src/pip/_vendor/rich/console.py",  # vendored copies of other projects
        "3rdparty/zlib/inflate.c",
    ]:
        write(tmp_path, rel)
    write(tmp_path, "package-lock.json", "{}")
    write(tmp_path, "static/app.min.js", "var a=1;")
    write(tmp_path, "static/logo.png", b"\x89PNG")
    write(tmp_path, "src/main.py")
    assert paths(tmp_path) == ["src/main.py"]
    assert skips(tmp_path) == {
        "3rdparty": "denied",
        "build": "denied",
        "node_modules": "denied",  # once, not per file inside
        "package-lock.json": "denied",
        "pkg.egg-info": "denied",
        "src/__pycache__": "denied",
        "src/pip/_vendor": "denied",
        "static/app.min.js": "denied",
        "static/logo.png": "binary",
    }


def test_too_large_by_stat(tmp_path: Path) -> None:
    write(tmp_path, "small.py", "x = 1\n")
    big = write(tmp_path, "big.py", "x = 1\n" * 100)
    result = walk(tmp_path, max_file_bytes=100)
    assert [f.path for f in result.files] == ["small.py"]
    assert [(s.path, s.reason) for s in result.skipped] == [("big.py", "too-large")]
    text, skipped = read_source(big, max_file_bytes=100)
    assert text is None and skipped is not None and skipped.reason == "too-large"


def test_is_minified_name() -> None:
    for name in ["app.min.js", "style.min.css", "jquery-min.js", "main.bundle.js", "a.js.map"]:
        assert is_minified_name(name), name
    for name in ["main.js", "minimal.py", "admin.css"]:
        assert not is_minified_name(name), name


# --- read_source ----------------------------------------------------------------------------


def test_binary_content_with_source_extension(tmp_path: Path) -> None:
    path = write(tmp_path, "fake.py", b"import os\n\x00\x01\x02 payload")
    assert paths(tmp_path) == ["fake.py"]  # walk does not read contents
    text, skipped = read_source(path)
    assert text is None
    assert skipped is not None and skipped.reason == "binary"
    assert skipped.path == str(path)


def test_mostly_control_bytes_is_binary(tmp_path: Path) -> None:
    path = write(tmp_path, "noise.txt", bytes(range(1, 32)) * 50)
    _, skipped = read_source(path)
    assert skipped is not None and skipped.reason == "binary"


def test_invalid_utf8_decodes_with_replacement(tmp_path: Path) -> None:
    path = write(tmp_path, "latin.py", b"name = 'caf\xe9'\n")
    text, skipped = read_source(path)
    assert skipped is None
    assert text == "name = 'caf\ufffd'\n"


def test_utf8_bom_stripped(tmp_path: Path) -> None:
    path = write(tmp_path, "bom.py", b"\xef\xbb\xbfx = 1\n")
    assert read_source(path) == ("x = 1\n", None)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_with_bom(tmp_path: Path, codec: str) -> None:
    bom = b"\xff\xfe" if codec.endswith("le") else b"\xfe\xff"
    path = write(tmp_path, "wide.cs", bom + "class Caf\u00e9 {}\r\n".encode(codec))
    assert read_source(path) == ("class Caf\u00e9 {}\n", None)


def test_line_endings_normalised(tmp_path: Path) -> None:
    path = write(tmp_path, "mixed.py", b"a = 1\r\nb = 2\rc = 3\n")
    assert read_source(path) == ("a = 1\nb = 2\nc = 3\n", None)


def test_minified_single_huge_line(tmp_path: Path) -> None:
    path = write(tmp_path, "app.js", "var a=1;" * 1000)
    text, skipped = read_source(path)
    assert text is None and skipped is not None and skipped.reason == "minified"


# What documentation tools write into the pages they generate, as real pages have it.
GENERATED_PAGES = {
    "jazzy": '<footer>\n  <p>Generated by <a class="link" href="https://github.com/realm/jazzy"'
    ' target="_blank">jazzy \u266a\u266b v0.15.4</a>, a Realm project.</p>\n</footer>',
    "dokka": '<div>\n  <span>Generated by </span>\n  <a class="footer--link"'
    ' href="https://github.com/Kotlin/dokka">\n    Dokka\n  </a>\n</div>',
    "javadoc": "<!DOCTYPE HTML>\n<!-- Generated by javadoc (17) on Mon Jan 01 -->\n<html>",
    "sphinx": '<head>\n<meta name="generator" content="Docutils 0.17.1" />\n</head>',
    "rustdoc": '<head><meta name="viewport"><meta name="generator" content="rustdoc"></head>',
    "typedoc": '<footer><p>Generated using <a href="https://typedoc.org/">TypeDoc</a></p></footer>',
    "yard": '<div id="footer">Generated on Mon Jan 1 2026 by\n <a href="https://yardoc.org">yard'
    "</a></div>",
}


@pytest.mark.parametrize("tool", sorted(GENERATED_PAGES))
def test_documentation_pages_a_tool_generated_are_skipped(tmp_path: Path, tool: str) -> None:
    body = "<h1>RetryPolicy</h1>\n<p>Retries a request.</p>\n" * 20
    path = write(tmp_path, f"docs/Classes/{tool}.html", body + GENERATED_PAGES[tool] + "\n")
    text, skipped = read_source(path)
    assert text is None and skipped is not None
    assert skipped.reason == "generated-docs"
    assert skipped.detail in {said for _, said in DOC_GENERATOR_MARKS}


def test_pages_written_by_hand_are_read(tmp_path: Path) -> None:
    template = write(
        tmp_path,
        "templates/base.html",
        "<html><head><title>{% block title %}{% endblock %}</title></head>\n"
        "<body><p>This token is generated by the server; see <code>make_token</code>.</p>\n"
        '<p>Docs written by <em>us</em>, <a href="/about">about</a>.</p></body></html>\n',
    )
    assert read_source(template)[1] is None
    # The marks count in HTML pages only: a Python string that holds one is code.
    code = write(tmp_path, "site.py", 'HEAD = \'<meta name="generator" content="ours">\'\n')
    assert read_source(code)[1] is None


def test_minified_by_average_line_length(tmp_path: Path) -> None:
    path = write(tmp_path, "data.js", ("x" * 400 + "\n") * 100)  # 40 KB, no line over 5,000
    _, skipped = read_source(path)
    assert skipped is not None and skipped.reason == "minified"
    short = write(tmp_path, "short.js", ("x" * 400 + "\n") * 10)  # under 20 KB: kept
    assert read_source(short)[1] is None


def test_read_source_vanished(tmp_path: Path) -> None:
    path = write(tmp_path, "gone.py")
    path.unlink()
    text, skipped = read_source(path)
    assert text is None and skipped is not None and skipped.reason == "vanished"


# --- symlinks -------------------------------------------------------------------------------


def test_symlink_loop_terminates(tmp_path: Path) -> None:
    write(tmp_path, "pkg/mod.py")
    (tmp_path / "pkg" / "loop").symlink_to("..", target_is_directory=True)
    result = walk(tmp_path)
    assert [f.path for f in result.files] == ["pkg/mod.py"]
    assert {s.path: s.reason for s in result.skipped} == {"pkg/loop": "symlink-loop"}


def test_symlink_to_directory_inside_root_not_visited_twice(tmp_path: Path) -> None:
    write(tmp_path, "real/mod.py")
    (tmp_path / "alias").symlink_to("real", target_is_directory=True)
    result = walk(tmp_path)
    assert [f.path for f in result.files] == ["real/mod.py"]
    assert {s.path: s.reason for s in result.skipped} == {"alias": "symlink-loop"}


def test_symlink_to_filesystem_root_not_descended(tmp_path: Path) -> None:
    write(tmp_path, "main.py")
    (tmp_path / "everything").symlink_to("/", target_is_directory=True)
    result = walk(tmp_path)
    assert [f.path for f in result.files] == ["main.py"]
    assert [(s.path, s.reason) for s in result.skipped] == [("everything", "symlink-outside")]


def test_symlinked_files(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(repo, "real.py")
    outside = write(tmp_path, "outside.py")
    (repo / "inside_link.py").symlink_to("real.py")
    (repo / "outside_link.py").symlink_to(outside)
    result = walk(repo)
    # A link to a file the walk indexes anyway is that file twice (aiohttp's
    # `reader_c.py -> reader_py.py`): it is skipped, saying where the file is indexed.
    assert [f.path for f in result.files] == ["real.py"]
    assert {(s.path, s.reason, s.detail) for s in result.skipped} == {
        ("outside_link.py", "symlink-outside", f"-> {outside.resolve()}"),
        ("inside_link.py", "symlink-duplicate", "-> real.py"),
    }


def test_a_link_to_a_file_the_walk_skips_stands_in_for_it_once(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "generated/\n")
    write(tmp_path, "generated/schema.py")
    (tmp_path / "schema.py").symlink_to("generated/schema.py")
    (tmp_path / "schema_alias.py").symlink_to("generated/schema.py")
    result = walk(tmp_path)
    assert [f.path for f in result.files] == [".gitignore", "schema.py"]
    assert result.files[1].abs_path == tmp_path.resolve() / "schema.py"
    assert {s.path: (s.reason, s.detail) for s in result.skipped} == {
        "generated": ("ignored", ""),
        "schema_alias.py": ("symlink-duplicate", "-> schema.py"),
    }


def test_broken_symlink(tmp_path: Path) -> None:
    (tmp_path / "dangling.py").symlink_to(tmp_path / "missing.py")
    assert skips(tmp_path) == {"dangling.py": "broken-symlink"}
    assert paths(tmp_path) == []


# --- odd entries and errors -----------------------------------------------------------------


def test_fifo_is_not_regular(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    assert skips(tmp_path) == {"pipe": "not-regular"}


def test_read_source_never_waits_on_a_fifo(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.py"
    os.mkfifo(pipe)  # what a file may be replaced by between the walk and the read
    text, skipped = within(5, lambda: read_source(pipe), [pipe])
    assert text is None and skipped is not None
    assert (skipped.reason, skipped.detail) == ("not-regular", "a fifo")
    text, skipped = within(5, lambda: read_source(pipe, root=tmp_path), [pipe])
    assert skipped is not None and skipped.reason == "not-regular"


def test_read_source_refuses_devices_and_sockets(tmp_path: Path) -> None:
    (tmp_path / "null.py").symlink_to("/dev/null")  # read as an empty file before
    text, skipped = read_source(tmp_path / "null.py")
    assert text is None and skipped is not None
    assert (skipped.reason, skipped.detail) == ("not-regular", "a device")
    _, skipped = read_source(tmp_path / "null.py", root=tmp_path)  # and it leads outside
    assert skipped is not None and skipped.reason == "symlink-outside"

    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "sock.py"))
        text, skipped = read_source(tmp_path / "sock.py")
    assert text is None and skipped is not None
    assert (skipped.reason, skipped.detail) == ("not-regular", "a socket")


def test_read_source_with_root_refuses_a_file_swapped_for_a_link_outside(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(repo, "notes.py")
    (repo / "alias.py").symlink_to("notes.py")  # a link inside the repository is read
    secret = write(tmp_path, "secret.txt", "password = 'hunter2'\n")
    (walked,) = walk(repo).files  # notes.py; the link is the same file
    assert read_source(repo / "alias.py", root=repo)[0] == "x = 1\n"
    (repo / "notes.py").unlink()
    (repo / "notes.py").symlink_to(secret)  # swapped after the walk
    text, skipped = read_source(walked.abs_path, root=Path(walked.root))
    assert text is None and skipped is not None and skipped.reason == "symlink-outside"


def test_a_fifo_ignore_file_does_not_block_the_walk(tmp_path: Path) -> None:
    write(tmp_path, "a.py")
    os.mkfifo(tmp_path / ".gitignore")
    os.makedirs(tmp_path / ".git" / "info")
    os.mkfifo(tmp_path / ".git" / "info" / "exclude")
    fifos = [tmp_path / ".gitignore", tmp_path / ".git" / "info" / "exclude"]
    result = within(5, lambda: walk(tmp_path), fifos)
    assert [f.path for f in result.files] == ["a.py"]
    assert {s.path: s.reason for s in result.skipped} == {
        ".git": "denied",
        ".gitignore": "not-regular",
    }


# --- names that are not UTF-8 -----------------------------------------------------------------


def test_names_that_are_not_utf8_are_skipped_under_an_escaped_name(tmp_path: Path) -> None:
    root = os.fsencode(tmp_path)
    write(tmp_path, "ok.py")
    write(tmp_path, ".gitignore", "*.log\n")
    for name in (b"a\xff.py", b"b\xfe.log", b"c\xe9.png"):
        with open(os.path.join(root, name), "w") as fh:
            fh.write("x = 1\n")
    os.makedirs(os.path.join(root, b"d\xfe", b"sub"))
    with open(os.path.join(root, b"d\xfe", b"sub", b"in.py"), "w") as fh:
        fh.write("x = 1\n")
    os.symlink(b"ok.py", os.path.join(root, b"link\xff.py"))
    os.symlink(b"gone\xff.py", os.path.join(root, b"dangling.py"))  # the target is quoted

    result = walk(tmp_path)
    assert [f.path for f in result.files] == [".gitignore", "ok.py"]
    bad_file = ("undecodable-name", "the file name is not valid UTF-8; rename it to index it")
    bad_folder = (
        "undecodable-name",
        "the folder name is not valid UTF-8; rename it to index what it holds",
    )
    assert {s.path: (s.reason, s.detail) for s in result.skipped} == {
        "a\\xff.py": bad_file,
        "b\\xfe.log": ("ignored", ""),
        "c\\xe9.png": ("binary", "binary extension .png"),
        "dangling.py": ("broken-symlink", "-> gone\\xff.py"),
        "d\\xfe": bad_folder,
        "link\\xff.py": bad_file,
    }
    for skipped in result.skipped:  # every record is text that tables and JSON accept
        (skipped.path + skipped.detail).encode("utf-8")


def test_printable_path() -> None:
    assert printable_path("src/plain.py") == "src/plain.py"
    assert printable_path("caf\u00e9/\u00fc.py") == "caf\u00e9/\u00fc.py"  # valid UTF-8 stays
    assert printable_path(os.fsdecode(b"d\xfe/a\xff.py")) == "d\\xfe/a\\xff.py"
    assert printable_path("odd\ud800") == "odd\\ud800"


# --- the index's own folders ------------------------------------------------------------------


def test_excluded_folders_are_left_out_by_identity(tmp_path: Path) -> None:
    write(tmp_path, "main.py")
    write(tmp_path, ".idx/r-1234/manifest.json", "{}")
    write(tmp_path, "plain/inner/keep.py")
    (tmp_path / "alias").symlink_to(".idx", target_is_directory=True)
    result = walk(tmp_path, exclude_dirs=[tmp_path / "plain" / ".." / ".idx", tmp_path])
    assert [f.path for f in result.files] == ["main.py", "plain/inner/keep.py"]
    assert {s.path: (s.reason, s.detail) for s in result.skipped} == {
        ".idx": ("denied", INDEX_FOLDER),
        "alias": ("denied", INDEX_FOLDER),
    }


def test_cache_tagged_folders_are_left_out(tmp_path: Path) -> None:
    write(tmp_path, "main.py")
    write(tmp_path, "old-index/r-1234/manifest.json", "{}")
    write_cache_tag(tmp_path / "old-index" / "r-1234")
    write(tmp_path, "notes/CACHEDIR.TAG", "not a signature\n")  # a plain file of that name
    write(tmp_path, "notes/keep.py")
    result = walk(tmp_path)
    assert [f.path for f in result.files] == ["main.py", "notes/CACHEDIR.TAG", "notes/keep.py"]
    assert {s.path: (s.reason, s.detail) for s in result.skipped} == {
        "old-index/r-1234": ("denied", CACHE_FOLDER)
    }
    (tmp_path / "piped").mkdir()
    os.mkfifo(tmp_path / "piped" / "CACHEDIR.TAG")
    assert within(5, lambda: skips(tmp_path), [tmp_path / "piped" / "CACHEDIR.TAG"]) == {
        "old-index/r-1234": "denied",
        "piped/CACHEDIR.TAG": "not-regular",
    }


def _walk_as_nobody(root: Path) -> dict[str, str] | None:
    """Walk in a forked child that has dropped root, so permissions really apply.

    Returns None when privileges cannot be dropped here.
    """
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        code = 1
        try:
            os.close(read_fd)
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            result = walk(root)
            os.write(write_fd, json.dumps({s.path: s.reason for s in result.skipped}).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as fh:
        data = fh.read()
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        return None
    return json.loads(data)


def test_unreadable_directory_is_skipped(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        write(tmp_path, "ok.py")
        write(tmp_path, "locked/secret.py")
        (tmp_path / "locked").chmod(0)
        try:
            result = walk(tmp_path)
        finally:
            (tmp_path / "locked").chmod(stat.S_IRWXU)
        assert [f.path for f in result.files] == ["ok.py"]
        [entry] = result.skipped
        assert (entry.path, entry.reason) == ("locked", "unreadable")
        assert entry.detail
        return
    # As root chmod does not block reads, so walk from a child process that drops to `nobody`.
    # pytest's tmp_path sits under a 0700 directory, hence a separate world-traversable one.
    root = Path(tempfile.mkdtemp(prefix="walk-perm-"))
    try:
        root.chmod(0o755)
        write(root, "ok.py")
        write(root, "locked/secret.py")
        (root / "ok.py").chmod(0o644)
        (root / "locked").chmod(0)
        skipped = _walk_as_nobody(root)
    finally:
        shutil.rmtree(root)
    if skipped is None:
        pytest.skip("running as root and cannot drop privileges, so chmod cannot block reads")
    assert skipped == {"locked": "unreadable"}


def test_root_errors(tmp_path: Path) -> None:
    file_root = write(tmp_path, "file.py")
    with pytest.raises(WalkError, match="not a directory.*file.py"):
        walk(file_root)
    with pytest.raises(WalkError, match="does not exist.*missing"):
        walk(tmp_path / "missing")


def test_empty_directory(tmp_path: Path) -> None:
    result = walk(tmp_path)
    assert result.files == [] and result.skipped == []


def test_walked_file_fields_and_order(tmp_path: Path) -> None:
    for rel in ["b/z.py", "a.py", "b/a.py", "c/d/e.py"]:
        write(tmp_path, rel, "abc")
    result = walk(tmp_path)
    assert [f.path for f in result.files] == ["a.py", "b/a.py", "b/z.py", "c/d/e.py"]
    first = result.files[0]
    assert first.size == 3
    assert first.abs_path == tmp_path.resolve() / "a.py"
    assert first.mtime_ns == (tmp_path / "a.py").stat().st_mtime_ns


def test_skip_reasons_cover_all_codes() -> None:
    assert set(SKIP_REASONS) == {
        "ignored",
        "denied",
        "too-large",
        "binary",
        "minified",
        "generated-docs",
        "symlink-outside",
        "symlink-loop",
        "broken-symlink",
        "symlink-duplicate",
        "unreadable",
        "vanished",
        "not-regular",
        "undecodable-name",
    }


def test_a_package_json_ignored_only_by_the_gitignore_beside_it_is_walked(tmp_path: Path) -> None:
    # zod's packages/zod/.gitignore holds `**/package.json` for the manifests its build writes
    # below; the one beside it is tracked and names the package's modules.
    write(tmp_path, "pkg/.gitignore", "**/package.json\n*.js\n")
    write(tmp_path, ".gitignore", "other/package.json\n")
    for rel in ["pkg/package.json", "pkg/v4/package.json", "pkg/a.js", "other/package.json"]:
        write(tmp_path, rel, "{}\n")
    found = paths(tmp_path)
    assert "pkg/package.json" in found
    assert not {"pkg/v4/package.json", "pkg/a.js", "other/package.json"} & set(found)
    configured = walk(tmp_path, extra_ignores=["package.json"]).files
    assert "pkg/package.json" not in [f.path for f in configured]
    # The live index decides a changed path as the walk does.
    live = classify_paths(tmp_path, ["pkg/package.json", "pkg/v4/package.json"])
    assert [f.path for f in live.files] == ["pkg/package.json"]
    assert [s.path for s in live.skipped] == ["pkg/v4/package.json"]


# An OLE compound file's header as Word writes it: the signature, minor version 0x3E,
# major version 3, the little-endian byte-order mark, 512-byte sectors, 64-byte mini sectors.
_OLE_HEADER = (
    b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
    + bytes(16)
    + b"\x3e\x00\x03\x00\xfe\xff\x09\x00\x06\x00"
    + bytes(10)
    + b"\x01\x00\x00\x00"
    + bytes(8)
    + b"\x00\x10\x00\x00"
    + b"\xfe\xff\xff\xff"
    + bytes(4)
    + b"\xfe\xff\xff\xff"
    + bytes(4)
)


def test_a_doc_file_is_read_by_its_content_not_its_extension(tmp_path: Path) -> None:
    # towncrier's news fragments (aiohttp's CHANGES/*.doc) are text; Word's .doc is OLE.
    note = "Modify documentation for Resolvers to make it clear that the resolver is not used.\n"
    text_doc = write(tmp_path, "CHANGES/3642.doc", note)
    word_doc = write(tmp_path, "docs/manual.doc", _OLE_HEADER + b"\xff" * (512 - len(_OLE_HEADER)))
    assert paths(tmp_path) == ["CHANGES/3642.doc", "docs/manual.doc"]
    assert read_source(text_doc) == (note, None)
    text, skipped = read_source(word_doc)
    assert text is None and skipped is not None
    assert (skipped.reason, skipped.detail) == (
        "binary",
        "an OLE compound file (such as a Word .doc)",
    )


def test_a_text_doc_is_indexed_and_a_word_doc_is_skipped_once(
    tmp_path: Path, indexed: Callable[[dict[str, str]], Service]
) -> None:
    write(tmp_path / "repo", "docs/manual.doc", _OLE_HEADER + bytes(512 - len(_OLE_HEADER)))
    service = indexed({"CHANGES/3642.doc": "The asynchronous resolver is not the default.\n"})
    hits = service.search("asynchronous resolver default").hits
    assert [hit.path for hit in hits][:1] == ["CHANGES/3642.doc"]
    assert [(s["path"], s["reason"]) for s in service.skipped()] == [("docs/manual.doc", "binary")]
