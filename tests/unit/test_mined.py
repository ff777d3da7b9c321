"""`eval mined`: questions built from doc comments and commit subjects, the doc-stripped copy
the engine searches, and the whole run over a small repository indexed for real."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from app.bench import mined
from app.bench.runner import BM25, ENGINE, mined_questions, run_mined
from app.core.settings import Settings
from app.service import Service

PY = '''"""Module docstring stays."""


def parse_header(text):
    """Split one raw header line into its name and its value.

    More words that are not the first sentence.
    """
    name, _, value = text.partition(":")
    return name.strip(), value.strip()


def short():
    """Too short to ask."""
    return 1


# Read the whole body of a chunked stream into memory.
@cached
def read_body(stream):
    return b"".join(stream)


class Cookies:
    """A jar that stores cookies per domain and path."""

    def clear(self):
        """@param nothing: a tag line is not prose at all."""
        self.jar = {}
'''

RUST = """/// Adds an edge between two nodes and returns its index.
/// Panics if either node does not exist.
#[inline]
pub fn add_edge(a: usize, b: usize) -> usize {
    a + b
}
"""

JS = """/**
 * Match the request path against every registered route in order.
 */
function matchRoute(routes, path) {
  return routes.find((r) => r.test(path));
}
"""


def test_strip_docs_blanks_docs_keeps_lines_and_finds_first_sentences() -> None:
    out = mined.strip_docs("pkg/http.py", PY)
    assert out.text.count("\n") == PY.count("\n")
    assert "Split one raw header" not in out.text and "chunked stream" not in out.text
    assert "Module docstring stays." in out.text  # not a definition's doc
    assert "@cached" in out.text  # decorators between the comment and the def stay
    compile(out.text, "http.py", "exec")  # a body that was only a docstring is still valid
    found = {d.qualified: d.sentence for d in out.documented}
    assert found == {
        "parse_header": "Split one raw header line into its name and its value.",
        "read_body": "Read the whole body of a chunked stream into memory.",
        "Cookies": "A jar that stores cookies per domain and path.",
    }
    one = mined.strip_docs("pkg/http.py", PY, only={20})  # read_body's def line only
    assert "chunked stream" not in one.text and "Split one raw header" in one.text
    assert len(one.documented) == 3  # every documented definition is still listed
    rust = mined.strip_docs("src/graph.rs", RUST)
    assert "Adds an edge" not in rust.text and "#[inline]" in rust.text
    assert [d.sentence for d in rust.documented] == [
        "Adds an edge between two nodes and returns its index."
    ]
    js = mined.strip_docs("lib/router.js", JS)
    assert "Match the request" not in js.text and js.text.count("\n") == JS.count("\n")
    assert [d.qualified for d in js.documented] == ["matchRoute"]


JAVA = """package retrofit2.converter.protobuf;

public final class ProtoConverterFactory {
  /**
   * Create an instance which uses {@code registry} when deserializing, as
   * <b>{@link Retrofit#callAdapter}</b> does.
   *
   * @param registry the extensions
   */
  public static ProtoConverterFactory createWithRegistry(ExtensionRegistryLite registry) {
    return new ProtoConverterFactory(registry);
  }
}
"""


def test_doc_questions_read_javadoc_tags_as_their_text() -> None:
    # A user types `registry`, not `{@code registry}`.
    out = mined.strip_docs("src/ProtoConverterFactory.java", JAVA)
    assert [d.sentence for d in out.documented] == [
        "Create an instance which uses registry when deserializing, as Retrofit#callAdapter does."
    ]


def test_near_identical_docs_ask_nothing() -> None:
    twins = """class Client:
    def send(self, request):
        \"\"\"Send a single request without handling any redirects.\"\"\"
        return request


class AsyncClient:
    async def send(self, request):
        \"\"\"Send a single request, without handling any redirects.\"\"\"
        return request

    def close(self):
        \"\"\"Close every pooled connection of this client now.\"\"\"
"""
    files = {"c.py": mined.strip_docs("c.py", twins)}
    assert [q.question for q in mined.doc_questions("demo", files)] == [
        "Close every pooled connection of this client now."
    ]


RAISING = {
    "httpx/_urlparse.py": """def validate_path(path, has_scheme):
    if path.startswith("//"):
        raise InvalidURL("Relative URLs cannot have a path starting with '//'")
    if not path:
        raise InvalidURL(f"Invalid URL component {path!r}, it is empty")


def check(value):
    if value is None:
        raise ValueError("Value must not be None at all")
    raise ValueError("Value must not be None at all")
""",
    "src/router.go": """package mux

func uniqueVars(s1, s2 []string) error {
	for _, v1 := range s1 {
		return fmt.Errorf("mux: duplicated route variable %q", v1)
	}
	return errors.New("too short")
}
""",
    "src/Machine.kt": """class Machine {
    fun fire(trigger: String) {
        throw IllegalStateException("No transitions are permitted for trigger $trigger here")
    }
}
""",
    "src/graph.rs": """impl Graph {
    pub fn add_edge(&mut self, a: usize, b: usize) {
        panic!("Graph::add_edge: node indices out of bounds");
    }
}
""",
    "tests/test_urls.py": """def test_it():
    raise AssertionError("this message is only in a test file")
""",
}


def test_error_questions_paste_a_raised_message_and_point_at_its_raiser() -> None:
    questions = {q.question: q for q in mined.error_questions("demo", RAISING)}
    assert sorted(questions) == [
        "IllegalStateException: No transitions are permitted for trigger x here",
        "InvalidURL: Invalid URL component x, it is empty",
        "InvalidURL: Relative URLs cannot have a path starting with '//'",
        "error: mux: duplicated route variable x",
        "thread 'main' panicked at src/graph.rs:3:9:\nGraph::add_edge: node indices out of bounds",
    ]  # not raised twice, not in tests, not too short ("too short")
    gold = questions["error: mux: duplicated route variable x"].gold[0]
    assert (gold.path, gold.symbol, gold.start_line) == ("src/router.go", "uniqueVars", 3)
    raiser = questions["IllegalStateException: No transitions are permitted for trigger x here"]
    assert raiser.kind == "error" and raiser.gold[0].symbol == "Machine.fire"


def test_doc_questions_point_at_the_definition_and_skip_tests() -> None:
    files = {
        "pkg/http.py": mined.strip_docs("pkg/http.py", PY),
        "tests/test_http.py": mined.strip_docs("tests/test_http.py", PY),
    }
    questions = {q.question: q for q in mined.doc_questions("demo", files)}
    assert len(questions) == 3  # the copy under tests/ asks nothing
    q = questions["Split one raw header line into its name and its value."]
    assert q.kind == "doc" and q.corpus == "demo"
    # A type's own description is asked apart: its answer is the type's head.
    assert questions["A jar that stores cookies per domain and path."].kind == "doc-type"
    gold = q.gold[0]
    assert (gold.path, gold.symbol, gold.start_line, gold.end_line) == (
        "pkg/http.py",
        "parse_header",
        4,
        10,
    )
    cookies = questions["A jar that stores cookies per domain and path."].gold[0]
    assert cookies.start_line == 24 and cookies.end_line == 26  # the class head only


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
    )


def make_history(tmp_path: Path) -> Path:
    repo = tmp_path / "proj"
    (repo / "pkg").mkdir(parents=True)
    git(repo.parent, "init", "-q", "-b", "main", str(repo))
    (repo / "pkg" / "http.py").write_text(PY)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "Add the header parser and cookie jar")
    (repo / "pkg" / "http.py").write_text(PY.replace('partition(":")', 'partition("=")'))
    git(repo, "commit", "-qam", "Split headers on equals signs instead")
    (repo / "pkg" / "http.py").write_text(PY.replace("self.jar = {}", "self.jar = dict()"))
    git(repo, "commit", "-qam", "tidy")  # under four words: no question
    git(repo, "checkout", "-q", "-b", "side", "HEAD~1")
    (repo / "pkg" / "more.py").write_text("def extra():\n    return 2\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "Add an extra helper function here")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "-m", "Merge the side branch into main now", "side")
    return repo


def test_commit_subjects_ask_for_the_definitions_they_changed(tmp_path: Path) -> None:
    repo = make_history(tmp_path)
    texts = {
        "pkg/http.py": (repo / "pkg" / "http.py").read_text(),
        "pkg/more.py": (repo / "pkg" / "more.py").read_text(),
    }
    questions = {q.question: q for q in mined.commit_questions("proj", repo, texts)}
    assert "tidy" not in questions and "Merge the side branch into main now" not in questions
    split = questions["Split headers on equals signs instead"]
    assert split.kind == "commit" and [g.symbol for g in split.gold] == ["parse_header"]
    assert [g.symbol for g in questions["Add an extra helper function here"].gold] == ["extra"]
    # the first commit touched four definitions: a sweep, more than GOLD_MOST
    assert "Add the header parser and cookie jar" not in questions
    assert mined.commit_questions("plain", tmp_path / "proj" / "pkg", {}) == []  # no texts
    (tmp_path / "bare").mkdir()
    assert mined.commit_questions("bare", tmp_path / "bare", texts) == []  # not a checkout


def test_a_commit_whose_diff_is_no_utf8_still_asks(tmp_path: Path) -> None:
    """A Latin-1 file in the history (a `.properties` bundle, an old README) made `git show`
    undecodable and stopped `eval mined` on a real application."""
    repo = make_history(tmp_path)
    (repo / "pkg" / "messages.properties").write_bytes("greeting=Caf\xe9\n".encode("latin-1"))
    (repo / "pkg" / "http.py").write_text(PY.replace("self.jar = {}", "self.jar = {} "))
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "Keep cookies in a jar with French messages")
    texts = {"pkg/http.py": (repo / "pkg" / "http.py").read_text()}
    questions = {q.question: q for q in mined.commit_questions("proj", repo, texts)}
    assert "Keep cookies in a jar with French messages" in questions


def test_sample_is_deterministic_and_capped(tmp_path: Path) -> None:
    repo = make_history(tmp_path)
    many = [q for i in range(30) for q in mined_questions("proj", repo, 100)[0][:1]]
    renamed = [
        type(q)(f"{q.id}-{i}", q.corpus, q.question, q.kind, q.gold) for i, q in enumerate(many)
    ]
    first, second = mined.sample(renamed, 7), mined.sample(list(reversed(renamed)), 7)
    assert first == second and len(first) == 7
    assert mined.sample(renamed[:3], 7) == sorted(renamed[:3], key=lambda q: q.id)


def test_run_mined_searches_a_copy_without_the_docs(tmp_path: Path, settings: Settings) -> None:
    repo = make_history(tmp_path)
    services: list[tuple[Path, Service]] = []

    def make_searcher(name: str, root: Path):  # type: ignore[no-untyped-def]
        service = Service(root, settings)
        service.index()
        services.append((root, service))
        searcher = service.searcher()
        units = [
            mined_unit(row["path"], row["start_line"], row["end_line"], row["text"])
            for row in searcher.corpus.live_rows()
        ]
        return (lambda q, k: search(service, q, k)), units, sorted(searcher.store.files())

    rep = run_mined([("proj", repo)], make_searcher, limit=10)
    copy = mined.scratch_dir(repo)
    assert services[0][0].resolve() == copy.resolve()
    indexed = "\n".join(row["text"] for row in services[0][1].searcher().corpus.live_rows())
    assert "Split one raw header" not in indexed and "def parse_header" in indexed
    kinds = {q.kind for q in rep.scores[ENGINE].questions}
    assert kinds == {"doc", "doc-type", "commit"}
    assert rep.scores[ENGINE].by_corpus["ALL"].questions == len(rep.results[BM25]) == 5
    assert rep.scores[ENGINE].by_corpus["ALL"].top5 > 0.5  # the engine finds most of them
    few = run_mined([("proj", repo)], make_searcher, limit=1)  # one question: one doc blanked
    (asked,) = few.scores[ENGINE].questions
    indexed = "\n".join(row["text"] for row in services[-1][1].searcher().corpus.live_rows())
    assert sum(s in indexed for s in ("Split one raw", "chunked stream", "A jar that")) >= 2
    again = run_mined([("proj", repo)], make_searcher, limit=10)
    assert again.results[ENGINE] == rep.results[ENGINE]  # same questions, same index


def mined_unit(path: str, start: int, end: int, text: str):  # type: ignore[no-untyped-def]
    from app.bench.baselines import TextUnit

    return TextUnit(path, start, end, text)


def search(service: Service, question: str, k: int):  # type: ignore[no-untyped-def]
    from app.bench.devbench import ResultChunk

    hits = service.search(question, k=k).hits
    return [ResultChunk(h.path, h.start_line, h.end_line, h.text) for h in hits]


@pytest.fixture(autouse=True)
def _scratch_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The doc-stripped copies go under this test's tmp_path, not the shared temp dir."""
    monkeypatch.setattr(mined.tempfile, "gettempdir", lambda: str(tmp_path / "scratch"))


def test_mined_roots_take_names_or_folder_names() -> None:
    from app.bench.evaluate import _mined_roots

    assert _mined_roots(["zod=/c/zod/package/src", "/c/a/lib", "/c/b/lib", "/c/httpx"]) == [
        ("zod", Path("/c/zod/package/src")),
        ("a-lib", Path("/c/a/lib")),
        ("b-lib", Path("/c/b/lib")),
        ("httpx", Path("/c/httpx")),
    ]
