"""Stack traces pasted in a query: frames parsed, mapped into the repository, and the
functions they ran lifted in a real search."""

from __future__ import annotations

from collections.abc import Callable

from app.search import rerank
from app.search.traceback import (
    frames,
    named_paths,
    names_by_file,
    pasted_errors,
    repository_path,
    type_names,
)
from app.service import Service

PYTHON_TRACE = """INTERNALERROR> Traceback (most recent call last):
INTERNALERROR>   File "/site/_pytest/main.py", line 191, in wrap_session
INTERNALERROR>     session.exitstatus = doit(config, session) or 0
INTERNALERROR>   File "/site/_pytest/_io/saferepr.py", line 60, in repr
INTERNALERROR>     s = _format_repr_exception(exc, x)
INTERNALERROR>   File "/site/_pytest/_io/saferepr.py", line 23, in _format_repr_exception
INTERNALERROR>     exc_info, obj.__class__.__name__, id(obj)
INTERNALERROR>   File "/home/me/project/test_it.py", line 6, in __repr__
INTERNALERROR>     raise
INTERNALERROR> RuntimeError: No active exception to reraise
"""


def test_frames_come_innermost_first() -> None:
    assert frames(PYTHON_TRACE) == [
        ("/home/me/project/test_it.py", "__repr__"),
        ("/site/_pytest/_io/saferepr.py", "_format_repr_exception"),
        ("/site/_pytest/_io/saferepr.py", "repr"),
        ("/site/_pytest/main.py", "wrap_session"),
    ]
    node = """TypeError: handler is not a function
    at Layer.handle [as handle_request] (/app/node_modules/express/lib/router/layer.js:95:5)
    at next (/app/node_modules/express/lib/router/route.js:137:13)
    at async Promise.all (index 0)"""
    assert frames(node) == [
        ("/app/node_modules/express/lib/router/layer.js", "handle_request"),
        ("/app/node_modules/express/lib/router/route.js", "next"),
    ]
    assert frames("no trace here, just File names like main.py") == []


def test_a_frame_path_is_the_repository_file_with_the_longest_shared_tail() -> None:
    by_name = names_by_file(
        ["src/_pytest/main.py", "src/_pytest/_io/saferepr.py", "src/_pytest/__init__.py",
         "src/_pytest/mark/__init__.py", "testing/main.py"]
    )  # fmt: skip
    site = "/site/_pytest/"
    assert repository_path(site + "_io/saferepr.py", by_name) == "src/_pytest/_io/saferepr.py"
    assert repository_path(site + "main.py", by_name) == "src/_pytest/main.py"
    assert repository_path(site + "mark/__init__.py", by_name) == "src/_pytest/mark/__init__.py"
    assert repository_path("/elsewhere/__init__.py", by_name) is None  # two, none closer
    assert repository_path("/tmp/saferepr.py", by_name) == "src/_pytest/_io/saferepr.py"  # one
    assert repository_path("/usr/lib/python3.8/reprlib.py", by_name) is None
    windows = "C:\\Python38\\Lib\\site-packages\\_pytest\\main.py"  # two main.py here
    assert repository_path(windows, by_name) == "src/_pytest/main.py"
    doubled = windows.replace("\\", "\\\\")  # as a Python string literal shows it
    assert repository_path(doubled, by_name) == "src/_pytest/main.py"


def test_the_functions_a_pasted_trace_ran_lead_the_results(
    indexed: Callable[[dict[str, str]], Service],
) -> None:
    saferepr = (
        "def _format_repr_exception(exc, obj):\n"
        "    try:\n"
        "        exc_info = _try_repr_or_str(exc)\n"
        "    except BaseException as exc:\n"
        "        exc_info = 'unpresentable exception ({})'.format(_try_repr_or_str(exc))\n"
        "    return '<[{} raised in repr()] {} object at 0x{:x}>'.format(\n"
        "        exc_info, type(obj).__name__, id(obj)\n"
        "    )\n\n\n"
        "def repr(x):\n"
        "    try:\n"
        "        return builtin_repr(x)\n"
        "    except Exception as exc:\n"
        "        return _format_repr_exception(exc, x)\n"
    )
    main = (
        "def wrap_session(config, doit):\n"
        "    '''Run the session: an exception raised in it, in __repr__ or elsewhere, is an\n"
        "    INTERNALERROR, reported when the exception is raised.'''\n"
        "    try:\n"
        "        session.exitstatus = doit(config, session) or 0\n"
        "    except Exception:\n"
        "        config.notify_exception(excinfo)  # INTERNALERROR, exception, session\n"
    )
    service = indexed({"src/_pytest/_io/saferepr.py": saferepr, "src/_pytest/main.py": main})
    issue = "INTERNALERROR when an exception is raised in __repr__\n\n" + PYTHON_TRACE
    hits = service.search(issue, k=5).hits
    assert hits[0].qualified_name == "_format_repr_exception", [h.qualified_name for h in hits]
    signal = next(s for s in hits[0].explanation.signals if s.name == "traceback")
    assert signal.factor == rerank.TRACEBACK_FACTOR
    assert signal.reason == (
        "the stack trace's innermost frames ran "
        "`_format_repr_exception in src/_pytest/_io/saferepr.py`"
    )
    traced = {
        h.qualified_name for h in hits if any(s.name == "traceback" for s in h.explanation.signals)
    }
    assert traced == {"_format_repr_exception", "repr"}  # the two innermost; not wrap_session


def test_a_pasted_error_s_type_and_the_words_its_raiser_holds() -> None:
    pasted = "httpx.InvalidURL: Relative URLs cannot have a path starting with '//'"
    assert pasted_errors(pasted) == [
        ("httpx.InvalidURL", ["Relative URLs cannot have a path starting with"])
    ]
    php = 'Twig\\Error\\LoaderError: Unable to find template "base.html.twig" (looked into: /srv).'
    assert pasted_errors(php) == [("Twig\\Error\\LoaderError", ["Unable to find template"])]
    assert type_names("Twig\\Error\\LoaderError") == ["Twig", "Error", "LoaderError"]
    trace = "E       TypeError: Header value must be str or bytes, not <class 'int'>"
    assert pasted_errors(trace) == [("TypeError", ["Header value must be str or bytes, not"])]
    # Go's `panic:` names no type; runtime values (quoted, numbers, paths) split the message.
    assert pasted_errors('panic: mux: duplicated route variable "id" at 3 in /srv/app.go') == [
        ("", ["mux: duplicated route variable"])
    ]
    # Rust's panic, since 1.73 (the message on the line below the place) and before.
    panic = "thread 'main' panicked at src/graph/mod.rs:701:9:\nEdge references unknown node"
    assert pasted_errors(panic) == [("", ["Edge references unknown node"])]
    old = "thread 'main' panicked at 'node indices out of bounds', src/graph/mod.rs:9:5"
    assert pasted_errors(old) == [("", ["node indices out of bounds"])]
    # A question with a colon is no error; neither is a capitalised word before one.
    assert pasted_errors("How does the router match a path: a question, not an error") == []
    assert pasted_errors("Note: this is a question about how routing works") == []


URLS = {
    "httpx/_exceptions.py": (
        "class InvalidURL(Exception):\n"
        '    """URL is improperly formed or cannot be parsed."""\n\n'
        "    def __init__(self, message: str) -> None:\n"
        "        super().__init__(message)\n"
    ),
    "httpx/_urlparse.py": (
        "def validate_path(path: str, has_scheme: bool, has_authority: bool) -> None:\n"
        "    if has_scheme or has_authority:\n"
        "        if path and not path.startswith('/'):\n"
        "            raise InvalidURL('For absolute URLs, path must be empty or begin with /')\n"
        "    else:\n"
        "        if path.startswith('//'):\n"
        "            raise InvalidURL(\"Relative URLs cannot have a path starting with '//'\")\n"
    ),
    "httpx/_config.py": (
        "def check_proxy(name: str, scheme: str) -> None:\n"
        "    if scheme not in ('http', 'https', 'socks5'):\n"
        "        raise ValueError(f'Proxy {name} must use a known scheme')\n"
    ),
    "httpx/_urls.py": (
        "class URL:\n"
        "    @property\n"
        "    def is_relative_url(self) -> bool:\n"
        '        """Return True for relative URLs, which have no scheme: a path starting\n'
        '        with a slash or not."""\n'
        "        return not self.is_absolute_url\n"
    ),
}


def test_a_pasted_error_leads_to_the_code_that_raises_it(
    indexed: Callable[[dict[str, str]], Service],
) -> None:
    # As a user pastes it: the exception class named was the top hit (exact name, x3), the
    # function raising the message below it.
    service = indexed(URLS)
    pasted = "httpx.InvalidURL: Relative URLs cannot have a path starting with '//'"
    hits = service.search(pasted, k=3).hits
    assert hits[0].qualified_name == "validate_path", [h.qualified_name for h in hits]
    said = "its code holds the pasted error's `Relative URLs cannot have a path starting with`"
    assert [(s.name, s.factor, s.reason) for s in hits[0].explanation.signals] == [
        ("pasted-error", rerank.PASTED_ERROR_FACTOR, said)
    ]
    named = [h for h in hits if h.qualified_name == "InvalidURL"]
    assert all(s.name != "exact-name" for h in named for s in h.explanation.signals)
    # A value written bare in the message: the longest stretch the raiser holds is looked for.
    hits = service.search("ValueError: Proxy corp-gateway must use a known scheme", k=3).hits
    assert hits[0].qualified_name == "check_proxy", [h.qualified_name for h in hits]
    reasons = [s.reason for s in hits[0].explanation.signals]
    assert reasons == ["its code holds the pasted error's `must use a known scheme`"]


def test_paths_a_report_names_are_found_but_not_urls_or_calls() -> None:
    report = (
        "SKIPPED [1] src/_pytest/skipping.py:238: unconditional skip; res.json() is fine, see "
        "https://docs.pytest.org/en/6.0.0/logging.html and ~/proj/conftest.py, e.g. and/or "
        'File "/usr/lib/python3.8/site-packages/_pytest/main.py", then src/_pytest/skipping.py'
        " and C:\\proj\\src\\app.py"
    )
    assert named_paths(report) == [
        "src/_pytest/skipping.py",
        "~/proj/conftest.py",
        "/usr/lib/python3.8/site-packages/_pytest/main.py",
        "C:\\proj\\src\\app.py",
    ]


def test_a_file_the_query_names_lifts_its_chunks_unless_it_names_many(
    indexed: Callable[[dict[str, str]], Service],
) -> None:
    files = {
        "src/pkg/outcomes.py": (
            "def skip(reason):\n"
            '    """Skip the running test with the given reason; the skip location is where\n'
            '    this is called."""\n'
            "    raise Skipped(reason, location=caller())\n"
        ),
        "src/pkg/skipping.py": (
            "def makereport(item, call):\n"
            '    """Build the report of a test that ran."""\n'
            "    report = Report(item, call)\n"
            "    if item.marked_xfail and not item.config.runxfail:\n"
            "        report.outcome = 'xfailed'\n"
            "    return report\n"
        ),
        "src/pkg/a.py": "def a():\n    return 1\n",
        "src/pkg/b.py": "def b():\n    return 2\n",
    }
    service = indexed(files)
    issue = "--runxfail breaks the skip location reported. The bug is in src/pkg/skipping.py"
    hits = service.search(issue, k=5).hits
    assert hits[0].path == "src/pkg/skipping.py", [h.path for h in hits]
    named = [s for s in hits[0].explanation.signals if s.name == "named-file"]
    assert [(s.factor, s.reason) for s in named] == [
        (rerank.NAMED_FILE_FACTOR, "the query names its file, src/pkg/skipping.py")
    ]
    assert not any(s.name == "named-file" for h in hits[1:] for s in h.explanation.signals)

    many = issue + " or src/pkg/outcomes.py, src/pkg/a.py, src/pkg/b.py"
    signals = [s.name for h in service.search(many, k=5).hits for s in h.explanation.signals]
    assert "named-file" not in signals
