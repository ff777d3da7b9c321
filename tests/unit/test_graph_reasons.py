"""Unresolved reasons that were false on real code (the oracle's disagreements on zod and
express): each call here names a project definition and must reach it (real tree-sitter)."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings
from app.service import Service
from tests.unit.test_graph import _edge_set
from tests.unit.test_graph_resolution import at, build, edges_at, graph

# zod's shape: a function and an interface of one name, the interface typing module-level
# consts (`core.$constructor<T>`) whose `init` the function attaches.
CONSTRUCTOR_TS = {
    "src/core/core.ts": (
        "export interface $constructor<T, D = any> {\n"  # 1
        "  init(inst: T, def: D): void;\n"
        "}\n"
        "export function $constructor<T>(name: string, setup: (inst: T, def: any) => void) {\n"
        "  function init(inst: T, def: any) {\n"  # 5
        "    setup(inst, def);\n"
        "  }\n"
        "  return { name, init } as any;\n"
        "}\n"
    ),
    "src/core/schemas.ts": (
        'import * as core from "./core.js";\n'  # 1
        "export const $ZodType: core.$constructor<any> = "
        'core.$constructor("$ZodType", (inst, def) => {\n'
        "  inst.def = def;\n"
        "});\n"
        "export const $ZodString: core.$constructor<any> = "
        'core.$constructor("$ZodString", (inst, def) => {\n'
        "  $ZodType.init(inst, def);\n"  # 6
        "});\n"
    ),
    "src/core/index.ts": 'export * from "./core.js";\nexport * from "./schemas.js";\n',
    "src/classic/schemas.ts": (
        'import * as core from "../core/index.js";\n'  # 1
        "export const ZodType: core.$constructor<any> = "
        'core.$constructor("ZodType", (inst, def) => {\n'
        "  core.$ZodType.init(inst, def);\n"  # 3
        "});\n"
    ),
}
INIT = "src/core/core.ts::$constructor.init"


def test_a_module_level_const_s_declared_type_gives_its_methods(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, CONSTRUCTOR_TS)
    assert edges_at(rows, "src/core/schemas.ts", 6) == {(INIT, True)}  # the same module
    assert edges_at(rows, "src/classic/schemas.ts", 3) == {(INIT, True)}  # through a barrel


# express's shape: `module.exports = function` required under a name, then `new Name()`.
EXPORTS_JS = {
    "lib/router/index.js": (
        "var proto = module.exports = function(options) {\n  return { options: options };\n};\n"
    ),
    "lib/view.js": "module.exports = View;\nfunction View(name) {\n  this.name = name;\n}\n",
    "lib/application.js": (
        "var Router = require('./router');\n"  # 1
        "var View = require('./view');\n"
        "exports.lazy = function lazy() {\n"
        "  this._router = new Router({});\n"  # 4
        "  return new View('x');\n"  # 5
        "};\n"
    ),
}


def test_a_required_module_s_exported_function_is_what_its_name_calls(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, EXPORTS_JS)
    assert edges_at(rows, "lib/application.js", 4) == {
        ("lib/router/index.js::module.exports", True)
    }, at(rows, "lib/application.js", 4)
    assert edges_at(rows, "lib/application.js", 5) == {("lib/view.js::View", True)}, at(
        rows, "lib/application.js", 5
    )


def test_a_classmethod_s_call_of_cls_makes_its_class(tmp_path: Path, settings: Settings) -> None:
    # pydantic's `return cls(value)` in a classmethod was "call of the parameter cls".
    files = {
        "types.py": (
            "class Secret:\n    def __init__(self, value):\n        self.value = value\n\n"
            "    @classmethod\n    def validate(cls, value):\n        return cls(value)\n\n\n"
            "def build(cls):\n    return cls()\n"  # 11: a free function's `cls` is a parameter
        )
    }
    rows = graph(tmp_path, settings, files)
    assert edges_at(rows, "types.py", 7) == {("types.py::Secret", True)}
    assert edges_at(rows, "types.py", 11) == set()
    assert "parameter" in at(rows, "types.py", 11)[0]["rule"]


def test_a_name_imported_from_a_project_module_as_a_value_says_so(
    tmp_path: Path, settings: Settings
) -> None:
    # Django's `from django.utils.translation import gettext_lazy as _` where translation
    # binds `gettext_lazy = lazy(gettext, str)`: the project holds the name, as no definition.
    files = {
        "trans.py": "def lazy(f):\n    return f\n\n\ndef gettext(s):\n    return s\n\n\n"
        "gettext_lazy = lazy(gettext)\n",
        "models.py": 'from trans import gettext_lazy as _\n\nLABEL = _("name")\n',
    }
    rows = at(graph(tmp_path, settings, files), "models.py", 3)
    assert [r["rule"] for r in rows] == [
        "no definition: gettext_lazy in trans is no function or class "
        "(a value, or imported from outside)"
    ]


# zod v3's shape: `z.string()` is `export { stringType as string }` of
# `const stringType = ZodString.create`, behind a barrel's `export *`.
RENAMED_TS = {
    "src/types.ts": (
        "export class ZodString {\n"
        "  static create = (params?: string): ZodString => {\n"  # 2
        "    return new ZodString();\n"
        "  };\n"
        "}\n"
        "const stringType = ZodString.create;\n"
        "export { stringType as string };\n"
    ),
    "src/index.ts": 'export * from "./types.js";\n',
    "src/app.ts": 'import * as z from "./index.js";\n\nexport const s = z.string();\n',
}


def test_a_local_export_of_a_module_level_alias_is_what_importers_call(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, RENAMED_TS)
    assert edges_at(rows, "src/app.ts", 3) == {("src/types.ts::ZodString.create", True)}, at(
        rows, "src/app.ts", 3
    )


def test_an_edit_of_a_declared_type_or_an_exported_alias_equals_a_rebuild(
    tmp_path: Path, settings: Settings
) -> None:
    files = {**CONSTRUCTOR_TS, **RENAMED_TS}
    files["src/types.ts"] += "export class ZodNumber {\n  static create = () => 1;\n}\n"
    for i in range(12):  # unrelated files, so an edit is re-resolved incrementally
        files[f"src/extra{i}.ts"] = f"export function helper{i}(): number {{\n  return {i};\n}}\n"
    service, _ = build(tmp_path, settings, files)
    repo = service.root
    edits = [
        (
            "src/types.ts",
            "const stringType = ZodString.create;",
            "const stringType = ZodNumber.create;",
        ),
        ("src/core/schemas.ts", "$ZodType: core.$constructor<any>", "$ZodType: core.Other<any>"),
    ]
    for path, old, new in edits:
        (repo / path).write_text((repo / path).read_text().replace(old, new))
        report = service.index(with_vectors=False)
        assert report.graph["resolved_calls"] < report.graph["calls"]
        fresh = Service(repo, Settings(index_dir=tmp_path / f"fresh-{path.replace('/', '-')}"))
        fresh.index(with_vectors=False)
        assert _edge_set(service) == _edge_set(fresh), path


def test_a_test_case_s_methods_are_no_name_guess_for_other_code(
    tmp_path: Path, settings: Settings
) -> None:
    # healthchecks (Django): each `self.client.get(...)` of 550 test methods and every
    # `request.GET.get(...)` were guessed to call the seven API test cases' own `get` helpers.
    files = {
        "hc/api/tests/test_auth.py": (
            "from django.test import TestCase\n\n\n"
            "class AuthTestCase(TestCase):\n"
            "    def get(self, key):\n"  # 5
            '        return self.client.get("/api/v3/checks/", HTTP_X_API_KEY=key)\n'
            "\n"
            "    def test_it_rejects_a_wrong_key(self):\n"
            '        r = self.get("X" * 32)\n'  # 9: its own helper, through self
            "        self.assertEqual(r.status_code, 401)\n"
        ),
        "hc/api/tests/test_badges.py": (
            "from django.test import TestCase\n\n\n"
            "class BadgesTests(TestCase):\n"
            "    def test_it_works(self):\n"
            '        r = self.client.get("/badges/")\n'  # 6: Django's test client
        ),
        "hc/api/views.py": (
            "def checks(request):\n"
            '    tag = request.GET.get("tag")\n'  # 2: Django's QueryDict
            "    return tag\n"
        ),
        "hc/lib/cache.py": (
            "class Cache:\n"
            "    def fetch(self, key):\n"
            "        return key\n\n\n"
            "def lookup(store):\n"
            "    return store.fetch(1)\n"  # 7: a library method is still guessed by name
        ),
    }
    rows = graph(tmp_path, settings, files)
    own = edges_at(rows, "hc/api/tests/test_auth.py", 9)
    assert own == {("hc/api/tests/test_auth.py::AuthTestCase.get", True)}
    for path, line, reason in [
        # (Django's test client is an outside base's attribute: said first when so.)
        (
            "hc/api/tests/test_badges.py",
            6,
            "self.client: inherited from a class outside the project",
        ),
        ("hc/api/views.py", 2, "only test cases define get, reached through their own `self`"),
    ]:
        assert edges_at(rows, path, line) == set(), at(rows, path, line)
        assert [r["rule"] for r in at(rows, path, line)] == [reason]
    assert edges_at(rows, "hc/lib/cache.py", 7) == {("hc/lib/cache.py::Cache.fetch", False)}
    assert [r["rule"] for r in at(rows, "hc/lib/cache.py", 7)] == ["unique-method"]
    # A test file's helper class is no test case (aiohttp's `TestClient` in test_utils.py,
    # used through pytest fixtures): its methods are still guessed by name.
    helper = {
        "aiohttp/test_utils.py": (
            "class TestClient:\n    def ws_connect(self, path):\n        return path\n"
        ),
        "tests/test_ws.py": "async def test_send(aiohttp_client):\n"
        '    await aiohttp_client.ws_connect("/")\n',
    }
    rows = graph(tmp_path / "helper", settings, helper)
    want = {("aiohttp/test_utils.py::TestClient.ws_connect", False)}
    assert edges_at(rows, "tests/test_ws.py", 2) == want
    # A library method that test cases name too is a guess among them: uncertain, not
    # the probable "only method of that name" (`self.client.post` -> HttpTransport.post).
    posting = {
        path: text.replace("get", "post")
        for path, text in files.items()
        if path.startswith("hc/api/")
    }
    posting["hc/api/transports.py"] = (
        "class HttpTransport:\n    def post(self, url):\n        return url\n"
    )
    rows = graph(tmp_path / "again", settings, posting)
    assert [r["rule"] for r in at(rows, "hc/api/views.py", 2)] == ["ambiguous-method"]
    want = {("hc/api/transports.py::HttpTransport.post", False)}
    assert edges_at(rows, "hc/api/views.py", 2) == want


def test_an_attribute_only_an_outside_base_gives_calls_nothing_of_the_project(
    tmp_path: Path, settings: Settings
) -> None:
    # healthchecks: 424 `self.client.post(...)` (Django's `TestCase.client`) were guessed to
    # call the one `HttpTransport.post` of the project.
    files = {
        "hc/transports.py": "class HttpTransport:\n    def post(self, url):\n        return url\n",
        "hc/tests/test_api.py": (
            "from django.test import TestCase\n\n\n"
            "class ApiTestCase(TestCase):\n"
            "    def setUp(self):\n"
            "        self.transport = make()\n\n"
            "    def test_it_posts(self):\n"
            '        self.client.post("/api/")\n'  # 9: the outside base's attribute
            '        self.transport.post("/hook/")\n'  # 10: set in setUp, of no known type
            "\n"
            "    def test_it_runs(self):\n"
            '        self.runner.post("/x/")\n'  # 13: set on another object elsewhere
        ),
        "hc/setup.py": "def configure(case, runner):\n    case.runner = runner\n",
    }
    rows = graph(tmp_path, settings, files)
    path = "hc/tests/test_api.py"
    assert edges_at(rows, path, 9) == set(), at(rows, path, 9)
    reasons = [r["rule"] for r in at(rows, path, 9)]
    assert reasons == ["self.client: inherited from a class outside the project"]
    # What the project sets, on `self` or on any object, is still guessed by name.
    post = {("hc/transports.py::HttpTransport.post", False)}
    assert edges_at(rows, path, 10) == post
    assert edges_at(rows, path, 13) == post


def test_a_value_an_outside_call_returns_has_methods_from_outside(
    tmp_path: Path, settings: Settings
) -> None:
    # `server.listen()` on what `http.createServer()` returns, `r.json()` on requests'
    # response: no guess at the project's one `listen` or `json`.
    files = {
        "lib/app.js": (
            "const http = require('node:http')\nclass App {\n  listen () {\n"
            "    const server = http.createServer(() => {})\n    return server.listen(1)\n"
            "  }\n}\nmodule.exports = App\n"
        ),
        "pkg/__init__.py": "",
        "pkg/c.py": (
            "import requests\n\n\nclass C:\n    def json(self):\n        pass\n\n\n"
            "def get():\n    r = requests.get('u')\n    return r.json()\n"
        ),
    }
    rows = graph(tmp_path, settings, files)
    for path, line, made in (
        ("lib/app.js", 5, "http.createServer"),
        ("pkg/c.py", 11, "requests.get"),
    ):
        (row,) = at(rows, path, line)
        assert (row["callee"], row["rule"]) == (
            "",
            f"method of what {made}() returns, from outside the project",
        )
    # `copy.deepcopy(field)` hands back a copy of the project's own value: no such claim.
    copied = {
        "f.py": (
            "import copy\n\n\nclass Field:\n    def bind(self):\n        pass\n\n\n"
            "def clone(field):\n    a = copy.deepcopy(field)\n    a.bind()\n"
        ),
    }
    rows = graph(tmp_path / "copy", settings, copied)
    assert "from outside the project" not in at(rows, "f.py", 11)[0]["rule"]


def test_typing_cast_gives_its_first_argument_s_type(tmp_path: Path, settings: Settings) -> None:
    # model2vec's `cast(SafeOpenProtocol, safetensors.safe_open(...))`: the project's type,
    # not what the outside call returns.
    files = {
        "m.py": (
            "from typing import cast\n\nimport safetensors\n\n\nclass Proto:\n"
            "    def get(self):\n        pass\n\n\nclass Other:\n    def get(self):\n"
            "        pass\n\n\ndef load(path):\n"
            "    f = cast(Proto, safetensors.safe_open(path))\n    return f.get()\n"
        ),
    }
    rows = graph(tmp_path, settings, files)
    assert edges_at(rows, "m.py", 18) == {("m.py::Proto.get", True)}
