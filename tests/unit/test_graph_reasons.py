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
