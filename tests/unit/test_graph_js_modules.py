"""JS/TS imports of the project's own package names: a package.json's `exports` (conditions,
subpaths, patterns, `main`), tsconfig `paths` (through `extends`, JSONC), `.js` naming `.ts`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.core.settings import Settings
from app.parse.manifests import manifest_imports
from app.service import Service
from app.store.graph_tables import GRAPH_EDGES
from app.store.store import Store
from tests.unit.test_graph_resolution import build

LIB_PACKAGE = {
    "name": "@demo/lib",
    "type": "module",
    "exports": {
        "./package.json": "./package.json",
        ".": {"@demo/source": "./src/index.ts", "import": "./dist/index.js"},
        "./extra": {"import": "./dist/extra.js", "default": "./src/extra.ts"},
        "./feat/*": "./src/feat/*",
    },
}

TSCONFIG = """\
{
  // comments and trailing commas, as tsconfig files are written
  "compilerOptions": {
    /* the apps' sources by name */
    "paths": {
      "@demo/app": ["./packages/app/src"],
      "@demo/app/*": ["./packages/app/src/*"],
    },
  },
}
"""

MONOREPO = {
    "package.json": json.dumps({"name": "demo-root", "private": True}),
    "tsconfig.json": TSCONFIG,
    "packages/corelib/package.json": json.dumps(LIB_PACKAGE),
    "packages/corelib/src/index.ts": (
        'import * as z from "./external.js";\nexport * from "./external.js";\nexport { z };\n'
    ),
    "packages/corelib/src/external.ts": 'export * from "./schemas.js";\n',
    "packages/corelib/src/schemas.ts": (
        "export function string(): void {}\nexport function object(): void {}\n"
    ),
    "packages/corelib/src/extra.ts": "export function extra(): void {}\n",
    "packages/corelib/src/feat/one.ts": "export function one(): void {}\n",
    "packages/corelib/tests/use.test.ts": """\
import * as z from "@demo/lib";
import { z as zz } from "@demo/lib";
import { extra } from "@demo/lib/extra";
import { one } from "@demo/lib/feat/one.js";
import { render } from "react";

export function check(): void {
  z.string();
  zz.object();
  extra();
  one();
  render();
}
""",
    "packages/app/tsconfig.json": (
        '{\n  // the root config\'s paths apply\n  "extends": "../../tsconfig.json"\n}\n'
    ),
    "packages/app/src/index.ts": "export function boot(): void {}\n",
    "packages/app/src/util/fmt.ts": "export function fmt(): void {}\n",
    "packages/app/src/main.ts": """\
import { boot } from "@demo/app";
import { fmt } from "@demo/app/util/fmt";

export function main(): void {
  boot();
  fmt();
}
""",
    "packages/js/package.json": json.dumps({"name": "jslib", "main": "./lib/main.js"}),
    "packages/js/lib/main.js": "function hello() {}\nmodule.exports = { hello };\n",
    "packages/js/lib/part.js": "export function part() {}\n",
    "packages/js/app.js": """\
const { hello } = require("jslib");
import { part } from "jslib/lib/part.js";

function run() {
  hello();
  part();
}
""",
}


def rows_at(rows: list[dict[str, Any]], path: str, line: int) -> list[tuple[str, str]]:
    return sorted((r["callee"], r["rule"]) for r in rows if r["path"] == path and r["line"] == line)


def certain(rows: list[dict[str, Any]], path: str, line: int) -> set[str]:
    return {
        r["callee"]
        for r in rows
        if r["path"] == path and r["line"] == line and r["callee"] and r["confidence"] >= 0.9
    }


def test_a_package_imports_itself_and_its_subpaths_by_name(
    tmp_path: Path, settings: Settings
) -> None:
    _, store = build(tmp_path, settings, MONOREPO)
    rows = store.read_table(GRAPH_EDGES).to_pylist()
    use = "packages/corelib/tests/use.test.ts"
    # The source condition the project holds, not the built output it does not.
    assert certain(rows, use, 8) == {"packages/corelib/src/schemas.ts::string"}
    # `export { z }` of a namespace import, through two barrels.
    assert certain(rows, use, 9) == {"packages/corelib/src/schemas.ts::object"}
    assert certain(rows, use, 10) == {"packages/corelib/src/extra.ts::extra"}
    assert certain(rows, use, 11) == {"packages/corelib/src/feat/one.ts::one"}  # a pattern, .js
    assert rows_at(rows, use, 12) == [("", "external import")]  # react stays outside


def test_tsconfig_paths_through_extends_name_the_project_s_sources(
    tmp_path: Path, settings: Settings
) -> None:
    _, store = build(tmp_path, settings, MONOREPO)
    rows = store.read_table(GRAPH_EDGES).to_pylist()
    main = "packages/app/src/main.ts"
    assert certain(rows, main, 5) == {"packages/app/src/index.ts::boot"}
    assert certain(rows, main, 6) == {"packages/app/src/util/fmt.ts::fmt"}


def test_a_package_without_exports_is_found_by_main_and_by_path(
    tmp_path: Path, settings: Settings
) -> None:
    _, store = build(tmp_path, settings, MONOREPO)
    rows = store.read_table(GRAPH_EDGES).to_pylist()
    assert certain(rows, "packages/js/app.js", 5) == {"packages/js/lib/main.js::hello"}
    assert certain(rows, "packages/js/app.js", 6) == {"packages/js/lib/part.js::part"}
    external = [r for r in rows if not r["callee"] and "external" in r["rule"]]
    where = [(r["path"], r["line"]) for r in external]
    assert where == [("packages/corelib/tests/use.test.ts", 12)]


def test_an_unreadable_manifest_names_nothing_and_breaks_nothing() -> None:
    assert manifest_imports("package.json", "{ not json") == ()
    assert manifest_imports("package.json", '["a list"]') == ()
    assert manifest_imports("tsconfig.json", '{"compilerOptions": {"paths": 3}}') == ()
    assert manifest_imports("package.json", json.dumps({"exports": "./a.js"})) == ()  # no name


def test_a_changed_package_json_moves_the_edges_as_a_rebuild_would(
    tmp_path: Path, settings: Settings
) -> None:
    files = dict(MONOREPO)
    for i in range(12):  # unrelated files, so one edit is a small share of the project
        files[f"packages/other/f{i}.ts"] = f"export function f{i}(): void {{}}\n"
    files["packages/corelib/src/extra2.ts"] = "export function extra(): void {}\n"
    service, store = build(tmp_path, settings, files)
    # The package's folder (corelib) is no part of its name (@demo/lib): only the manifest
    # says which calls the edit moves.
    package = dict(LIB_PACKAGE, exports={**LIB_PACKAGE["exports"], "./extra": "./src/extra2.ts"})
    (service.root / "packages/corelib/package.json").write_text(json.dumps(package))
    service.index(with_vectors=False)
    live = Store.open(service.index_dir).read_table(GRAPH_EDGES).to_pylist()
    assert certain(live, "packages/corelib/tests/use.test.ts", 10) == {
        "packages/corelib/src/extra2.ts::extra"
    }
    fresh = Service(service.root, Settings(index_dir=tmp_path / "fresh"))
    fresh.index(with_vectors=False)
    rebuilt = Store.open(fresh.index_dir).read_table(GRAPH_EDGES).to_pylist()
    assert _edges(live) == _edges(rebuilt)


def _edges(rows: list[dict[str, Any]]) -> set[tuple[Any, ...]]:
    return {(r["path"], r["line"], r["callee"], r["confidence"], r["rule"]) for r in rows}


REACH = {
    "a/model.ts": (
        "export class Schema {\n  parse(x: any): any {\n    return x;\n  }\n}\n"
        # No declared return type: `s = make()` below is of a type the graph does not know.
        "export function make() {\n  return new Schema();\n}\n"
    ),
    "a/index.ts": 'export * from "./model";\n',
    "b/other.ts": "export class Other {\n  parse(x: any): any {\n    return x;\n  }\n}\n",
    "c/lonely.ts": "export class Lonely {\n  only(): void {}\n}\n",
    "use.ts": """\
import { make } from "./a/index";

export function f(): void {
  const s = make();
  s.parse(1);
  s.only();
}
""",
    "lib/model.js": "class Schema {\n  parse(x) {}\n}\nfunction make() {\n"
    "  return new Schema();\n}\nmodule.exports = { make };\n",
    "lib/other.js": "class Other {\n  parse(x) {}\n}\n",
    "lib/app.js": "const { make } = require('./model');\n\nfunction run() {\n"
    "  make().parse(1);\n}\n",
}


def test_a_method_of_an_unknown_receiver_is_the_one_the_imports_reach(
    tmp_path: Path, settings: Settings
) -> None:
    _, store = build(tmp_path, settings, REACH)
    rows = store.read_table(GRAPH_EDGES).to_pylist()
    # Two classes define parse; only one is reachable through use.ts's imports: probable.
    assert rows_at(rows, "use.ts", 5) == [("a/model.ts::Schema.parse", "reachable-method")]
    assert ("lib/model.js::Schema.parse", "reachable-method") in rows_at(rows, "lib/app.js", 4)
    assert ("lib/other.js::Other.parse", "ambiguous-method") not in rows_at(rows, "lib/app.js", 4)
    assert max(r["confidence"] for r in rows if r["path"] == "use.ts" and r["line"] == 5) < 0.9
    # The one method of its name, in a module use.ts never reaches: no longer probable.
    assert rows_at(rows, "use.ts", 6) == [("c/lonely.ts::Lonely.only", "unreachable-method")]
    assert max(r["confidence"] for r in rows if r["path"] == "use.ts" and r["line"] == 6) < 0.7


def test_an_import_added_elsewhere_moves_what_a_file_reaches_as_a_rebuild_would(
    tmp_path: Path, settings: Settings
) -> None:
    files = dict(REACH)
    for i in range(12):  # unrelated files, so one edit is a small share of the project
        files[f"other/f{i}.ts"] = f"export function f{i}(): void {{}}\n"
    files["a/index.ts"] = 'export * from "./model";\nimport * as extra from "./extra";\n'
    files["a/extra.ts"] = "export const tag = 1;\n"
    service, _ = build(tmp_path, settings, files)
    # use.ts names nothing of extra.ts, yet now reaches b/other.ts through it.
    (service.root / "a/extra.ts").write_text(
        'import { Other } from "../b/other";\nexport const tag = new Other();\n'
    )
    service.index(with_vectors=False)
    live = Store.open(service.index_dir).read_table(GRAPH_EDGES).to_pylist()
    assert {c for c, _ in rows_at(live, "use.ts", 5)} == {
        "a/model.ts::Schema.parse",
        "b/other.ts::Other.parse",
    }
    fresh = Service(service.root, Settings(index_dir=tmp_path / "fresh"))
    fresh.index(with_vectors=False)
    rebuilt = Store.open(fresh.index_dir).read_table(GRAPH_EDGES).to_pylist()
    assert _edges(live) == _edges(rebuilt)


NESTED = {
    "lib/iso.ts": "export function datetime(): void {}\n",
    "lib/core.ts": "export function toDotPath(): void {}\n",
    "lib/enum.ts": "export class ZodEnum {\n  exclude(): void {}\n}\n"
    "export function make(): ZodEnum {\n  return new ZodEnum();\n}\n",
    "lib/external.ts": 'export * as iso from "./iso";\nexport * as core from "./core";\n'
    'export * from "./enum";\n',
    "lib/index.ts": (
        'import * as z from "./external";\nexport { z };\nexport * from "./external";\n'
    ),
    "other/enum.ts": "export class OtherEnum {\n  exclude(): void {}\n}\n",
    "use.ts": """\
import * as z from "./lib/index";

export function f(): void {
  z.iso.datetime();
  z.core.toDotPath();
  const FoodEnum = z.make();
  FoodEnum.exclude();
}
""",
    "use.js": """\
import * as z from "./lib/index.js";

export function g() {
  z.iso.datetime();
}
""",
}


def test_namespaces_inside_namespaces_and_capitalised_values(
    tmp_path: Path, settings: Settings
) -> None:
    _, store = build(tmp_path, settings, NESTED)
    rows = store.read_table(GRAPH_EDGES).to_pylist()
    assert certain(rows, "use.ts", 4) == {"lib/iso.ts::datetime"}
    assert certain(rows, "use.ts", 5) == {"lib/core.ts::toDotPath"}
    assert certain(rows, "use.js", 4) == {"lib/iso.ts::datetime"}
    # A capitalised value is no type: its method is found through what `z.make()` declares
    # it returns (a ZodEnum), not read as a type named FoodEnum.
    assert rows_at(rows, "use.ts", 7) == [("lib/enum.ts::ZodEnum.exclude", "typed-receiver")]


def test_a_spread_object_is_no_builtin_and_a_factory_s_callback_sees_its_own_names(
    tmp_path: Path, settings: Settings
) -> None:
    files = {
        "iso.ts": "export function datetime(): void {}\n",
        "use.ts": """\
import * as _iso from "./iso";

const z = { ..._iso };
const plain = {};

export function h(): void {
  z.datetime();
  plain.hasOwnProperty("a");
}

export const Maker = factory("Maker", (inst: any) => {
  const fastpass = (shape: any) => shape;
  fastpass(inst);
});

export const First = factory("First", (inst: any) => {
  inst._zod.parse = (payload: any) => payload;
});
export const Outer = factory("Outer", (inst: any) => {
  const fastpass2 = (x: any) => x;
  inst._zod.parse = (payload: any) => {
    fastpass2(payload);
  };
});
""",
    }
    _, store = build(tmp_path, settings, files)
    rows = store.read_table(GRAPH_EDGES).to_pylist()
    assert rows_at(rows, "use.ts", 7) != [("", "builtin receiver: Object")]
    assert rows_at(rows, "use.ts", 8) == [("", "builtin receiver: Object")]
    assert rows_at(rows, "use.ts", 13) == [("use.ts::Maker.fastpass", "local-scope")]
    # A callback assigned onto an object still sees the locals of the function around it,
    # though an earlier one of the same name (`inst._zod.parse`) stands for both in the graph.
    assert rows_at(rows, "use.ts", 22) == [("use.ts::Outer.fastpass2", "local-scope")]


def test_a_definition_a_call_names_is_no_target_of_a_bare_call(
    tmp_path: Path, settings: Settings
) -> None:
    # trpc's and zod's tests: `test("FormData", ...)` and `test("parse", ...)` took
    # `new FormData()` and `parse(x)` anywhere in the project as calls of themselves.
    files = {
        "src/parse.test.ts": "describe('parsing', () => {\n"
        "  function helper() { return 1; }\n"
        "  test('parse', () => {\n"
        "    expect(helper()).toBe(1);\n"
        "  });\n"
        "});\n"
        "test('FormData', () => {});\n",
        "src/client.ts": "export function send(body: string) {\n"
        "  const f = new FormData();\n"
        "  return parse(body) + helper();\n"
        "}\n",
    }
    _, store = build(tmp_path, settings, files)
    rows = store.read_table(GRAPH_EDGES).to_pylist()
    assert rows_at(rows, "src/client.ts", 2) == [
        ("", "the language's own: FormData is a JavaScript global")
    ]
    assert rows_at(rows, "src/client.ts", 3) == [("", "no definition"), ("", "no definition")]
    # Inside the `describe` block its own helper is in scope.
    assert ("src/parse.test.ts::parsing.helper", "local-scope") in rows_at(
        rows, "src/parse.test.ts", 4
    )


REACT_APP = {
    "components/skeleton.tsx": (
        'export function Skeleton() {\n  return <div className="pulse" />\n}\n'
    ),
    "components/icons.tsx": (
        'import { Loader2, X } from "lucide-react"\n'
        "export type Icon = typeof X\n"
        "export const Icons = { spinner: Loader2, close: X }\n"
    ),
    "components/post-item.tsx": """\
import { Skeleton } from "./skeleton"
import { Icons } from "./icons"

export function PostItem({ name }) {
  const Icon = Icons[name]
  return (
    <div>
      <Icon />
      <Icons.spinner />
    </div>
  )
}

PostItem.Skeleton = function PostItemSkeleton() {
  return <Skeleton />
}
""",
    "app/page.jsx": """\
import { PostItem } from "../components/post-item"

export default function Page() {
  return <main><PostItem name="close" /><PostItem.Skeleton /></main>
}
""",
}


def test_a_jsx_element_calls_its_component(tmp_path: Path, settings: Settings) -> None:
    # `<PostItem />` renders, so calls, the component (in .tsx and .jsx alike); `<div>` is
    # HTML's. A bare name never reaches a method (`PostItem.Skeleton = ...` is no name in
    # scope: `<Skeleton />` in it is the imported one) nor a TS `type` (`Icon` here is a
    # local holding an element of `Icons`).
    _, store = build(tmp_path, settings, REACT_APP)
    rows = store.read_table(GRAPH_EDGES).to_pylist()
    assert rows_at(rows, "app/page.jsx", 4) == [
        ("components/post-item.tsx::PostItem", "import"),
        ("components/post-item.tsx::PostItem.Skeleton", "class-member"),
    ]
    assert certain(rows, "components/post-item.tsx", 15) == {"components/skeleton.tsx::Skeleton"}
    assert [callee for callee, _ in rows_at(rows, "components/post-item.tsx", 8)] == [""]
    assert rows_at(rows, "components/skeleton.tsx", 2) == []  # `<div>`: no call


DEFAULT_EXPORTS = {
    "src/hooks/useAuth.ts": (
        "const useAuth = () => {\n  return 1\n}\n"
        "export { useAuth as auth }\nexport default useAuth\n"
    ),
    "src/hooks/make.js": "export default function make() {\n  return 1\n}\n",
    "src/hooks/index.ts": 'export { default as make } from "./make.js"\n',
    "src/app.ts": """\
import useAuth from "./hooks/useAuth"
import { make } from "./hooks"

export function run() {
  useAuth()
  make()
}
""",
}


def test_a_default_import_is_the_modules_default_export(tmp_path: Path, settings: Settings) -> None:
    # `import useAuth from "./hooks/useAuth"` was a guess by name (probable), or nothing
    # where two definitions share it: the module's `export default useAuth` (or `export
    # default function make`) names what the import is, through a barrel too.
    _, store = build(tmp_path, settings, DEFAULT_EXPORTS)
    rows = store.read_table(GRAPH_EDGES).to_pylist()
    assert rows_at(rows, "src/app.ts", 5) == [("src/hooks/useAuth.ts::useAuth", "import")]
    assert rows_at(rows, "src/app.ts", 6) == [("src/hooks/make.js::make", "re-export")]


CUSTOM_HOOK = {
    "src/hooks/useToast.ts": """\
export function useToast() {
  const show = (text: string) => text
  function hide() {
    return 0
  }
  return { show, hide }
}
""",
    "src/Form.tsx": """\
import { useToast } from "./hooks/useToast"

export function Form({ onDone }) {
  const { show, hide } = useToast()
  const { other } = makeThings()
  show("saved")
  hide()
  other()
  onDone()
}
""",
}


def test_a_name_unpacked_from_a_project_functions_result(
    tmp_path: Path, settings: Settings
) -> None:
    # `const { show } = useToast()`: the hook's own `show`, which it returns (a guess on the
    # shape of the code, probable); unpacked from anything else, what the value holds.
    _, store = build(tmp_path, settings, CUSTOM_HOOK)
    rows = store.read_table(GRAPH_EDGES).to_pylist()
    assert rows_at(rows, "src/Form.tsx", 6) == [
        ("src/hooks/useToast.ts::useToast.show", "returned-member")
    ]
    assert rows_at(rows, "src/Form.tsx", 7) == [
        ("src/hooks/useToast.ts::useToast.hide", "returned-member")
    ]
    assert [callee for callee, _ in rows_at(rows, "src/Form.tsx", 8)] == [""]
    assert [callee for callee, _ in rows_at(rows, "src/Form.tsx", 9)] == [""]
