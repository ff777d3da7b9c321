"""What a query says about itself (a version asked for, names spelled out) moves real hits."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app.core.settings import Settings
from app.search import diversity, rerank, versions
from app.search.tokenize import quoted_texts, without_listings
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

RETRY = '''def retry_delay(attempt):
    """How long to wait before retry number `attempt`: {how}."""
    return {formula}
'''


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("In Zod 4, where is a union resolved?", ["4"]),
        ("what changed in v2 of the API", ["2"]),
        ("version 3 of the parser", ["3"]),
        ("With `httpx.Timeout(5.0, connect=10.0)`, how", []),
        ("a 302 or 303 redirect", []),
        ("Zod 4.1.12 release", []),
    ],
)
def test_versions_a_query_asks_about(query: str, asked: list[str]) -> None:
    assert rerank.versions_asked(query) == asked


def test_version_folders_and_name_keys() -> None:
    assert rerank.version_folder("src/v4/core/schemas.ts") == "4"
    assert rerank.version_folder("v3/types.ts") == "3"
    assert rerank.version_folder("lib/version.py") == rerank.version_folder("v2.py") == ""
    assert rerank.name_key("_stringbool") == rerank.name_key("$Stringbool") == "stringbool"
    assert rerank.name_key("__init__") == "init__" and rerank.name_key("_") == "_"


def test_the_version_the_query_asks_about_wins(tmp_path: Path, settings: Settings) -> None:
    for version, how, formula in [
        ("v1", "doubling, capped", "min(2 ** attempt, 30)"),
        ("v2", "doubling, capped, with jitter", "min(2 ** attempt, 30) * random()"),
    ]:
        folder = tmp_path / "repo" / "lib" / version
        folder.mkdir(parents=True)
        (folder / "retry.py").write_text(RETRY.format(how=how, formula=formula))
    service = Service(tmp_path / "repo", settings)
    service.index()
    for asked, other in (("1", "2"), ("2", "1")):
        hits = service.search(f"In Retrylib {asked}, how long is the wait before a retry?").hits
        assert hits[0].path == f"lib/v{asked}/retry.py"
        demoted = next(hit for hit in hits if hit.path == f"lib/v{other}/retry.py")
        signal = next(s for s in demoted.explanation.signals if s.name == "other-version")
        assert signal.factor == rerank.OTHER_VERSION_FACTOR and f"v{other}/" in signal.reason
    # No version asked: the newest of the side-by-side versions is the one meant.
    plain = service.search("how long is the wait before a retry?").hits
    older = next(hit for hit in plain if hit.path == "lib/v1/retry.py")
    signal = next(s for s in older.explanation.signals if s.name == "other-version")
    assert signal.reason == "an older version of lib/v2/retry.py; no version asked"
    newest = next(hit for hit in plain if hit.path == "lib/v2/retry.py")
    assert not any(s.name == "other-version" for s in newest.explanation.signals)
    assert plain.index(newest) < plain.index(older)


def test_older_versions_in_sibling_version_folders() -> None:
    manual = [f"docs/manual/{v}/manual.yml" for v in ("v1.5", "v1.10", "v1.6", "dev")]
    paths = [*manual, "docs/manual/v1.5/extra.yml", "src/main.c", "sig/v1.7/a.asc"]
    newer = versions.newer_versions(paths)
    # `dev` beside numbered versions is the newest; v1.10 is newer than v1.6 (not by text).
    assert newer == {path: "docs/manual/dev/manual.yml" for path in manual[:3]}
    docusaurus = ["site/version-9.x/intro.md", "site/version-10.x/intro.md"]
    assert versions.newer_versions(docusaurus) == {docusaurus[0]: docusaurus[1]}
    assert versions.newer_versions(["a/3.9.15/fix.patch", "a/3.11.0/fix.patch"]) == {
        "a/3.9.15/fix.patch": "a/3.11.0/fix.patch"
    }
    # Not versions: bare numbers (test cases, days), development names with no numbered
    # sibling, a version folder holding the file alone.
    assert versions.newer_versions(["cases/1/app.py", "cases/2/app.py"]) == {}
    assert versions.newer_versions(["dev/app.py", "main/app.py", "lib/v2/x.go"]) == {}
    assert versions.version_rank("v2") == (0, (2,)) and versions.version_rank("src") is None


def test_a_newer_version_added_to_a_live_index_demotes_the_older(
    tmp_path: Path, settings: Settings
) -> None:
    # The searcher keeps the version families between searches; a publish that adds a file
    # must make them be read again (the first search already read them without it).
    folder = tmp_path / "repo" / "docs" / "v1.5"
    folder.mkdir(parents=True)
    (folder / "retry.py").write_text(RETRY.format(how="doubling", formula="2 ** attempt"))
    service = Service(tmp_path / "repo", settings)
    service.index()
    question = "how long is the wait before a retry?"
    alone = service.search(question).hits
    assert not any(s.name == "other-version" for hit in alone for s in hit.explanation.signals)
    newer = tmp_path / "repo" / "docs" / "v1.6"
    newer.mkdir()
    # Different enough not to be folded as a copy of the older one (app/search/copies.py).
    how = "doubling from a configured base, capped at a configured ceiling, with full jitter"
    formula = "random.uniform(0, min(settings.base * 2 ** attempt, settings.ceiling))"
    (newer / "retry.py").write_text(RETRY.format(how=how, formula=formula))
    service.index()
    hits = service.search(question).hits
    older = next(hit for hit in hits if hit.path == "docs/v1.5/retry.py")
    said = [s.reason for s in older.explanation.signals if s.name == "other-version"]
    assert said == ["an older version of docs/v1.6/retry.py; no version asked"]
    assert hits[0].path == "docs/v1.6/retry.py"


def test_a_legacy_copy_is_found_only_beside_its_current_file() -> None:
    indexed = {"fields.py", "api/handlers.go", "pkg/v1/models.py"}.__contains__
    assert rerank.legacy_copy_of("v1/fields.py", indexed) == "fields.py"
    assert rerank.legacy_copy_of("V1/fields.py", indexed) == "fields.py"
    assert rerank.legacy_copy_of("v1/utils.py", indexed) == ""  # no current copy
    # Go keeps a newer major version in `v2/`: only version 1 is read as the older copy.
    assert rerank.legacy_copy_of("api/v2/handlers.go", indexed) == ""
    assert rerank.legacy_copy_of("pkg/v1/models.py", indexed) == ""  # itself, not a copy
    assert rerank.legacy_copy_of("fields.py", indexed) == ""


def test_the_current_file_beats_its_legacy_copy(tmp_path: Path, settings: Settings) -> None:
    for folder, how, formula in [
        ("lib/v1", "doubling, capped", "min(2 ** attempt, 30)"),
        ("lib", "doubling, capped, with jitter", "min(2 ** attempt, 30) * random()"),
        ("lib/v2", "doubling, capped, with jitter", "min(2 ** attempt, 30) * random()"),
    ]:
        (tmp_path / "repo" / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / "repo" / folder / "retry.py").write_text(RETRY.format(how=how, formula=formula))
    service = Service(tmp_path / "repo", settings)
    service.index()
    hits = service.search("how long is the wait before a retry?").hits
    legacy = next(hit for hit in hits if hit.path == "lib/v1/retry.py")
    signal = next(s for s in legacy.explanation.signals if s.name == "other-version")
    assert signal.factor == rerank.OTHER_VERSION_FACTOR
    assert signal.reason == "an older version of lib/v2/retry.py; no version asked"
    assert hits.index(legacy) == len(hits) - 1  # below the current file and the v2/ copy
    others = [hit for hit in hits if hit is not legacy]
    assert not any(s.name == "other-version" for hit in others for s in hit.explanation.signals)
    # Asked about version 1, the legacy copy is what the question is about.
    asked = service.search("In Retrylib 1, how long is the wait before a retry?").hits
    assert asked[0].path == "lib/v1/retry.py"


def test_a_public_name_finds_its_private_implementation(indexed: Indexed) -> None:
    service = indexed(
        {
            "api.ts": "export function _stringbool(params: Params) {\n"
            "  const truthy = params.truthy ?? ['true', '1', 'yes', 'on'];\n"
            "  return makeCodec(truthy, params.case ?? 'insensitive');\n"
            "}\n",
            "notes.ts": "// Accepted strings: true and false values, case sensitivity and codecs.\n"
            "export const truthyStrings = ['true', '1', 'yes', 'on'];\n",
        }
    )
    hits = service.search("Which strings does `z.stringbool()` accept as true?").hits
    assert hits[0].symbol == "_stringbool"
    assert any(s.name == "exact-name" for s in hits[0].explanation.signals)


def test_owner_member_names_in_an_issue_reach_their_definition(
    tmp_path: Path, settings: Settings
) -> None:
    repo = tmp_path / "repo"
    (repo / "mark").mkdir(parents=True)
    (repo / "mark" / "expression.py").write_text(
        "class Expression:\n"
        "    def __init__(self, code):\n"
        "        self.code = code\n\n"
        "    @classmethod\n"
        "    def compile(cls, text):\n"
        "        return cls(build(text))\n"
    )
    for n in range(30):  # prose that shares the issue's words outranks the class for both
        (repo / f"notes{n}.md").write_text(
            f"# Release {n}\n\nFixed a crash of the interpreter on a debug build, an "
            "assertion failure in the compiler, reported with a short reproducer.\n"
        )
    service = Service(repo, settings)
    service.index()
    issue = (
        "Pytest crashes the interpreter on debug build\nShort reproducer\n"
        '>>> Expression.compile("False")\npython: Python/compile.c:3559: compiler_nameop: '
        "Assertion failed.\n[1] 29440 abort (core dumped) python"
    )
    hits = service.search(issue, k=5).hits
    assert hits[0].qualified_name == "Expression"
    reasons = [s.reason for s in hits[0].explanation.signals if s.name == "exact-name"]
    assert reasons == ["the query names `expression.compile`, defined here"]


def test_a_class_called_in_the_query_names_its_constructor(
    tmp_path: Path, settings: Settings
) -> None:
    body = "".join(f"        step_{n} = value * {n}\n" for n in range(25))
    methods = "".join(
        f"    def {name}(self, value):\n{body}        return value\n\n"
        for name in ("__init__", "merge", "as_dict")
    )
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "config.py").write_text(f"class Limits:\n    '''Bounds.'''\n\n{methods}")
    (repo / "client.js").write_text(
        f"class Pool {{\n  constructor(size) {{\n{body.replace('        ', '    ')}  }}\n}}\n"
    )
    service = Service(repo, settings)
    service.index()
    for query, chunk, pair in [
        ("With `Limits(5.0, connect=10.0)`, how are the values resolved?", "Limits.__init__", ""),
        ("what does new Pool(4) set up", "Pool", "pool.constructor"),  # one chunk: a small class
    ]:
        hits = {hit.qualified_name: hit for hit in service.search(query, k=10).hits}
        assert chunk in hits, (query, list(hits))
        reasons = [s.reason for s in hits[chunk].explanation.signals]
        assert f"the query names `{pair or chunk.lower()}`, defined here" in reasons
    # The class head is named too, but the constructor has its own chunk: the head gets no boost.
    ranked = service.search("With `config.Limits(5, connect=10)`, how are the values resolved?")
    names = [hit.qualified_name for hit in ranked.hits]
    assert names.index("Limits.__init__") < names.index("Limits"), names
    head = next(hit for hit in ranked.hits if hit.qualified_name == "Limits")
    factors = {s.name: s.factor for s in head.explanation.signals}
    assert factors["exact-name"] == 1.0


SLASHES = (
    "package mux\n\n"
    "// StrictSlash defines the trailing slash behavior for new routes.\n"
    "func (r *Router) StrictSlash(value bool) *Router {\n"
    "\tr.strictSlash = value\n"
    "\treturn r\n"
    "}\n\n"
    "// KeepSlash is StrictSlash under another name.\n"
    "func (r *Router) KeepSlash(value bool) *Router {\n"
    "\treturn r.StrictSlash(value)\n"
    "}\n\n"
    "// redirectSlash redirects /path to /path/ and back when strict slash is on.\n"
    "func redirectSlash(w Writer, req *Request, strictSlash bool, tpl string) {\n"
    "\tpath := req.URL.Path\n"
    '\tif strictSlash && strings.HasSuffix(tpl, "/") != strings.HasSuffix(path, "/") {\n'
    '\t\tif strings.HasSuffix(tpl, "/") {\n'
    '\t\t\tpath += "/"\n'
    "\t\t} else {\n"
    "\t\t\tpath = path[:len(path)-1]\n"
    "\t\t}\n"
    "\t\tRedirect(w, req, path, 301)\n"
    "\t}\n"
    "}\n"
)


def test_a_named_setter_or_wrapper_yields_to_the_code_that_does_the_work(
    indexed: Indexed,
) -> None:
    service = indexed({"mux.go": SLASHES})
    for named, thin in (("StrictSlash", "accessor"), ("KeepSlash", "wrapper")):
        query = f"How does `{named}(true)` make /path and /path/ redirect to each other?"
        hits = service.search(query, k=5).hits
        assert hits[0].symbol == "redirectSlash", (named, [h.symbol for h in hits])
        front = next(hit for hit in hits if hit.symbol == named)
        # What the query and the chunk say (its file's other chunks aside: diversity.SIGNALS).
        signals = front.explanation.signals
        factors = {s.name: s.factor for s in signals if s.name not in diversity.SIGNALS}
        assert factors == {"exact-name": 1.0, thin: rerank.THIN_FACTOR}


def test_a_pasted_package_listing_does_not_steer_an_issue_search(indexed: Indexed) -> None:
    packages = [
        "attrs",
        "pluggy",
        "zipp",
        "wcwidth",
        "packaging",
        "six",
        "toml",
        "numpy",
        "pandas",
        "scipy",
        "requests",
        "urllib3",
        "certifi",
        "chardet",
        "idna",
        "jinja2",
        "markupsafe",
        "click",
        "flask",
        "werkzeug",
        "itsdangerous",
        "babel",
        "docutils",
        "sphinx",
        "alabaster",
        "imagesize",
        "snowballstemmer",
        "pygments",
        "pytz",
        "tornado",
    ]
    files = {
        "src/skipping.py": "def evaluate_xfail_marks(item):\n"
        '    """Evaluate xfail marks on item, also those added while the test runs."""\n'
        '    for mark in item.iter_markers(name="xfail"):\n'
        "        return Xfail(mark.kwargs.get('reason', ''))\n"
    }
    for n in range(30):  # pinned dependencies, each naming some of the same packages
        pins = "".join(f'    "{name}=={n}.0",\n' for name in packages[n : n + 8])
        files[f"pins_{n}.py"] = f"PINS_{n} = [\n{pins}]\n"
    listing = "".join(f"{name:<20} {n}.{n + 1}.0\n" for n, name in enumerate(packages))
    issue = (
        "Dynamically adding an xfail marker no longer ignores the failure\n\n"
        f"Package              Version\n-------------------- -------\n{listing}\n"
        "request.node.add_marker(pytest.mark.xfail(reason='xfail'))\n"
    )
    service = indexed(files)
    result = service.search(issue, k=5)
    assert result.hits[0].path == "src/skipping.py", [hit.path for hit in result.hits]
    assert result.hits[0].explanation.bm25_rank == 1  # 6th when the listing counts
    assert result.query == issue


@pytest.mark.parametrize(
    ("line", "listed"),
    [
        ("attrs                         19.3.0", True),
        ("aiohttp   3.6.2   /Users/me/src/aiohttp", True),
        ("importlib-metadata==1.3.0\r", True),
        ("-------------- -------", True),
        ("Python 3.8.1", True),
        ("Pytest 6.0.1rc0 and MacOS 10.14.5", False),
        ("assert 0", False),
        ("    def test_xfail_test(request):", False),
    ],
)
def test_listing_lines(line: str, listed: bool) -> None:
    assert (without_listings(f"before\n{line}\nafter") == "before\n\nafter") is listed


def test_a_long_dotted_line_does_not_stall_the_listing_filter() -> None:
    line = "pkg 1" + ".1" * 50_000 + " and more words"  # not a listing line; once took minutes
    started = time.perf_counter()
    assert without_listings(line) == line
    assert time.perf_counter() - started < 5  # a guard against backtracking, not a benchmark


DIGEST = '''class DigestAuth(Auth):
    _ALGORITHMS = {
        "MD5": hashlib.md5,
        "SHA": hashlib.sha1,
        "SHA-256": hashlib.sha256,
        "SHA-512": hashlib.sha512,
    }

    def __init__(self, username, password):
        self._username = to_bytes(username)
        self._password = to_bytes(password)
        self._nonce_count = 1

    def auth_flow(self, request):
        """Send the request; on a 401 with a Digest challenge, answer it and send again."""
        response = yield request
        if response.status_code != 401 or "www-authenticate" not in response.headers:
            return
        for auth_header in response.headers.get_list("www-authenticate"):
            if auth_header.lower().startswith("digest "):
                break
        else:
            return
        challenge = self._parse_challenge(request, response, auth_header)
        self._nonce_count = 1
        request.headers["Authorization"] = self._build_auth_header(request, challenge)
        yield request

    def _parse_challenge(self, request, response, auth_header):
        scheme, _, fields = auth_header.partition(" ")
        header_dict = parse_http_list(fields)
        realm = header_dict["realm"].encode()
        nonce = header_dict["nonce"].encode()
        algorithm = header_dict.get("algorithm", "MD5")
        opaque = header_dict["opaque"].encode() if "opaque" in header_dict else None
        qop = header_dict["qop"].encode() if "qop" in header_dict else None
        return Challenge(realm, nonce, algorithm, opaque, qop)

    def _build_auth_header(self, request, challenge):
        hash_func = self._ALGORITHMS[challenge.algorithm.upper()]
        digest = lambda data: hash_func(data).hexdigest().encode()
        a1 = b":".join((self._username, challenge.realm, self._password))
        a2 = b":".join((request.method.encode(), request.url.raw_path))
        response = digest(b":".join((digest(a1), challenge.nonce, digest(a2))))
        return f"Digest response={response.decode()}"
'''


def test_a_named_class_cut_into_members_gives_its_boost_up_to_them(indexed: Indexed) -> None:
    service = indexed({"auth.py": DIGEST})
    hits = service.search("How does `DigestAuth` answer a 401 challenge from the server?").hits
    assert hits[0].qualified_name == "DigestAuth.auth_flow", [h.qualified_name for h in hits]
    head = next(hit for hit in hits if hit.qualified_name == "DigestAuth")
    signal = next(s for s in head.explanation.signals if s.name == "exact-name")
    assert signal.factor == 1.0
    assert signal.reason.endswith("no boost: its members have chunks of their own")


def test_a_mixed_case_name_meets_only_its_own_spelling(indexed: Indexed) -> None:
    service = indexed(
        {
            "query.py": "class QuerySet:\n"
            '    """A lazy database lookup for a set of objects."""\n\n'
            "    def filter(self, *args, **kwargs):\n"
            "        return self._filter_or_exclude(False, args, kwargs)\n",
            "admin.py": "def queryset(request, queryset):\n"
            '    """Return the filtered queryset."""\n'
            "    return queryset.filter(owner=request.user)\n\n\n"
            "def xfail(reason):\n"
            "    raise XFailed(reason)\n\n\n"
            "class Xfail:\n"
            "    reason: str\n",
        }
    )

    def boosted(query: str) -> set[str]:
        return {
            hit.qualified_name
            for hit in service.search(query, k=10).hits
            if any(s.name == "exact-name" for s in hit.explanation.signals)
        }

    assert boosted("how does a QuerySet filter its rows?") == {"QuerySet"}  # not `queryset`
    assert boosted("why does my_test.xfail not mark it?") == {"xfail", "Xfail"}  # loose case


@pytest.mark.parametrize(
    ("query", "texts"),
    [
        ("How does calling next('route') skip the remaining handlers?", ["route"]),
        ('It logs "The log levels set are restored" twice', ["The log levels set are restored"]),
        ("""File "/usr/lib/python3.8/site.py", line 3, in 'main' and "42" """, ["main"]),
        ("don't quote, it's fine", []),
    ],
)
def test_quoted_texts(query: str, texts: list[str]) -> None:
    assert quoted_texts(query) == texts


def test_a_quoted_literal_lifts_the_few_chunks_that_hold_it(indexed: Indexed) -> None:
    files = {
        "route.js": "Route.prototype.dispatch = function dispatch(req, res, done) {\n"
        "  var idx = 0;\n"
        "  next();\n"
        "  function next(err) {\n"
        "    if (err && err === 'route') return done();\n"
        "    var layer = stack[idx++];\n"
        "    if (!layer) return done(err);\n"
        "    layer.handle_request(req, res, next);\n"
        "  }\n"
        "};\n\n"
        "// Register handlers for every method: calling next skips to the remaining handlers of\n"
        "// the current route, one after another, for each handler registered on this route.\n"
        "Route.prototype.all = function all() {\n"
        "  var handles = flatten(slice.call(arguments));\n"
        "  for (var i = 0; i < handles.length; i++) this.stack.push(new Layer(handles[i]));\n"
        "  return this;\n"
        "};\n"
    }
    for n in range(6):  # "'GET'" is held by too many chunks to tell anything
        files[f"verb{n}.js"] = f"function verb{n}(req) {{\n  return req.method === 'GET';\n}}\n"
    service = indexed(files)
    hits = service.search("How does calling next('route') skip the remaining handlers?").hits
    assert hits[0].qualified_name == "Route.prototype.dispatch", [h.qualified_name for h in hits]
    reasons = [s.reason for s in hits[0].explanation.signals if s.name == "quoted"]
    assert reasons == ["its code holds the quoted `route`"]
    common = service.search("why is 'GET' compared with the request method?").hits
    assert not any(s.name == "quoted" for hit in common for s in hit.explanation.signals)


FLOW_KT = (
    "package flow\n\n"
    "/**\n"
    + "".join(
        f" * A cold stream, line {n}: values are emitted only when collected.\n" for n in range(45)
    )
    + " */\n"
    "public interface Flow<out T> {\n"
    "    /** Accepts the given collector and emits values into it. */\n"
    "    public suspend fun collect(collector: FlowCollector<T>)\n"
    "}\n"
)
BUILDERS_KT = (
    "package flow\n\n"
    "/** Creates a cold flow from the given suspendable block. */\n"
    "public fun <T> flow(block: suspend FlowCollector<T>.() -> Unit): Flow<T> {\n"
    "    val safe = SafeFlow(block)\n"
    "    return safe.checked()\n"
    "}\n\n"
    "/** A flow that emits nothing. */\n"
    "public fun <T> emptyFlow(): Flow<T> {\n"
    "    val none = EmptyFlow\n"
    "    return none.checked()\n"
    "}\n"
)


def test_a_query_that_is_one_name_finds_that_type_head(indexed: Indexed) -> None:
    # `Flow` alone is a look-up of the type: its head is the answer even though its members
    # have chunks of their own; the builder `flow()` is spelled otherwise.
    service = indexed({"Flow.kt": FLOW_KT, "Builders.kt": BUILDERS_KT})
    hits = service.search("Flow").hits
    assert hits[0].path == "Flow.kt" and hits[0].qualified_name == "Flow"
    factors = {s.name: s.factor for s in hits[0].explanation.signals}
    assert factors["exact-name"] == rerank.EXACT_NAME_FACTOR
    builder = next(hit for hit in hits if hit.symbol == "flow")
    assert "exact-name" not in {s.name for s in builder.explanation.signals}
    # Inside a question the same head stays unboosted (the members do the work).
    question = service.search("How does a Flow collect its values?").hits
    head = next(hit for hit in question if hit.qualified_name == "Flow")
    assert "exact-name" not in {s.name for s in head.explanation.signals}


def test_a_class_without_a_body_yields_in_a_question_not_when_looked_up(
    indexed: Indexed,
) -> None:
    service = indexed(
        {
            "error/MissingPropertyException.kt": (
                "package error\n\n/** Missing property error: the property is unknown. */\n"
                "class MissingPropertyException(msg: String) : Exception(msg)\n"
            ),
            "Koin.kt": (
                "class Koin {\n"
                "    /** Reads a property; an unknown property is a missing property error. */\n"
                "    fun getProperty(key: String): String {\n"
                "        val value = properties[key]\n"
                '        return value ?: throw MissingPropertyException("no property $key")\n'
                "    }\n"
                "}\n"
            ),
        }
    )
    question = service.search("Where is the missing property error raised?").hits
    assert question[0].qualified_name == "Koin", [h.qualified_name for h in question]
    empty = next(h for h in question if h.symbol == "MissingPropertyException")
    assert {s.name: s.factor for s in empty.explanation.signals}["empty"] == rerank.THIN_FACTOR
    hits = service.search("MissingPropertyException").hits
    assert hits[0].symbol == "MissingPropertyException"
    factors = {s.name: s.factor for s in hits[0].explanation.signals}
    assert factors["exact-name"] == rerank.EXACT_NAME_FACTOR


VALUE_CLASS = """package values;

/** A {what} value. */
public final class {name} {{
    private final int left;
    private final int right;

    public {name}(final int left, final int right) {{
        this.left = left;
        this.right = right;
    }}

    /** The left part. */
    public int getLeft() {{
        return left;
    }}

    /** The right part. */
    public int getRight() {{
        return right;
    }}

    /** Equal when both parts are. */
    @Override
    public boolean equals(final Object other) {{
        if (!(other instanceof {name})) {{
            return false;
        }}
        final {name} that = ({name}) other;
        return left == that.left && right == that.right;
    }}

    /** Both parts, in brackets. */
    @Override
    public String toString() {{
        return "(" + left + ", " + right + ")";
    }}

    @Override
    public int hashCode() {{
        return 31 * left + right;
    }}
}}
"""
HASH_CODE_BUILDER = """package builder;

/** Builds a good hash code for any class, following the rules laid out in Effective Java. */
public class HashCodeBuilder {
    private final int multiplier;
    private int total;

    /** Appends a field's hash code to the running total. */
    public HashCodeBuilder append(final Object object) {
        total = total * multiplier + (object == null ? 0 : object.hashCode());
        return this;
    }

    /** The hash code built so far. */
    public int toHashCode() {
        return total;
    }
}
"""


def test_a_name_defined_many_times_is_boosted_less(indexed: Indexed) -> None:
    # Thirty classes (long enough for their methods to get chunks of their own) override
    # `hashCode`, as in Apache Commons Lang: naming it cannot tell them apart, and a full
    # boost for each buries the builder the question is about under all thirty.
    names = [f"Value{number}" for number in range(30)]
    files = {
        f"values/{name}.java": VALUE_CLASS.format(name=name, what=name.lower()) for name in names
    }
    files["builder/HashCodeBuilder.java"] = HASH_CODE_BUILDER
    service = indexed(files)
    hits = service.search("hash code builder for a consistent hashCode implementation").hits
    # With x3 for each, all thirty rank above it; now it is in the first ten.
    assert any(hit.symbol == "HashCodeBuilder" for hit in hits), [h.symbol for h in hits]
    common = next(hit for hit in hits if hit.symbol == "hashCode")
    factor = {s.name: s.factor for s in common.explanation.signals}["exact-name"]
    assert factor == pytest.approx(1 + 2 * rerank.COMMON_NAME_MOST / len(names))
    # A name defined once keeps the whole boost.
    rare = service.search("How does HashCodeBuilder combine the fields?").hits[0]
    assert rare.symbol == "HashCodeBuilder"
    factors = {s.name: s.factor for s in rare.explanation.signals}
    assert factors["exact-name"] == rerank.EXACT_NAME_FACTOR
