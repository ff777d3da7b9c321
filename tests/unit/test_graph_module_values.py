"""Module-level variables as other files meet them: an imported value's methods are its
type's (Python's `console = Console()`, TypeScript's `export const app = new App()`), an
exported object of functions names them (`export const Jwt = { sign }`), a bare call of a
variable is of whatever it holds, never another file's function of that name, and a class
declared inside a function is no other file's type. Every method
name here is defined on two classes, so no edge can come from a name being unique."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings
from tests.unit.test_graph_resolution import at, edges_at, graph

PYTHON = {
    "pkg/__init__.py": "from .box import HEAVY\n",
    "pkg/box.py": """\
class Box:
    def substitute(self):
        pass


class Other:
    def substitute(self):
        pass


def make_box() -> Box:
    return Box()


DOUBLE: Box = Box()
HEAVY = Box()
MADE = make_box()
EITHER = Box()
EITHER = Other()
""",
    "pkg/use.py": """\
from pkg import HEAVY as heavy
from . import box
from .box import DOUBLE, EITHER, MADE


def run():
    DOUBLE.substitute()
    heavy.substitute()
    box.HEAVY.substitute()
    MADE.substitute()
    EITHER.substitute()
""",
    "pkg/calls.py": """\
from .box import make_box


def handler():
    return 1


def run(make):
    handler = make()
    handler()
""",
}


def test_an_imported_module_variable_has_the_type_it_is_bound_to(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, PYTHON)
    substitute = ("pkg/box.py::Box.substitute", True)
    assert edges_at(rows, "pkg/use.py", 7) == {substitute}  # `DOUBLE: Box = Box()`
    assert edges_at(rows, "pkg/use.py", 8) == {substitute}  # re-exported by the package
    assert edges_at(rows, "pkg/use.py", 9) == {substitute}  # through its module
    assert edges_at(rows, "pkg/use.py", 10) == {substitute}  # what `make_box` returns
    # Bound to a Box and then to an Other: the variable says nothing, and no edge is certain.
    assert not {certain for _, certain in edges_at(rows, "pkg/use.py", 11)} & {True}


def test_a_bare_call_of_a_variable_is_no_call_of_another_function_of_its_name(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, PYTHON)
    (row,) = at(rows, "pkg/calls.py", 10)
    assert (row["callee"], row["rule"]) == ("", "call of the variable handler: whatever it holds")


TYPESCRIPT = {
    "src/app.ts": """\
export class App {
  get(path: string): void {}
}
export class Router {
  get(path: string): void {}
}
export const app = new App()
""",
    "src/jwt.ts": """\
export function sign(payload: string): string { return payload }
export function verifyToken(token: string): boolean { return true }
""",
    "src/other.ts": """\
export function sign(payload: string): string { return payload }
export function verifyToken(token: string): boolean { return false }
export function auth(user: string): boolean { return true }
""",
    "src/index.ts": """\
import { sign, verifyToken } from './jwt'
export const Jwt = { sign, verify: verifyToken }
""",
    "src/main.ts": """\
import { app } from './app'
import { Jwt } from './index'
export function main(makeAuth: () => (u: string) => boolean): void {
  app.get('/')
  Jwt.sign('x')
  Jwt.verify('y')
  const auth = makeAuth()
  auth('me')
}
""",
}


def test_an_imported_typescript_value_and_an_object_of_functions(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, TYPESCRIPT)
    assert edges_at(rows, "src/main.ts", 4) == {("src/app.ts::App.get", True)}
    assert edges_at(rows, "src/main.ts", 5) == {("src/jwt.ts::sign", True)}
    assert edges_at(rows, "src/main.ts", 6) == {("src/jwt.ts::verifyToken", True)}
    (row,) = at(rows, "src/main.ts", 8)  # not other.ts's `auth`, the one function so named
    assert (row["callee"], row["rule"]) == ("", "call of the variable auth: whatever it holds")


JAVASCRIPT = {
    "package.json": '{"name": "koa", "exports": {".": {"require": "./lib/application.js"}}}',
    "lib/application.js": "module.exports = class Application {\n  use (fn) { return this }\n}\n",
    "lib/router.js": "module.exports = class Router {\n  use (fn) { return this }\n}\n",
    "lib/utils.js": """\
function isString (x) { return typeof x === 'string' }
function isObj (x) { return x !== null }
export default { isString, isObject: isObj }
""",
    "lib/cjs.js": "function toStr (x) { return String(x) }\nmodule.exports = { str: toStr }\n",
    "lib/other.js": """\
export function isString (x) { return false }
export function isObject (x) { return false }
export function str (x) { return '' }
""",
    "lib/use.js": """\
import utils from './utils.js'
const cjs = require('./cjs')
export function check (v) {
  utils.isString(v)
  utils.isObject(v)
  cjs.str(v)
}
""",
    "__tests__/app/form.test.js": """\
it('reads a custom form', () => {
  class FormData {
    append (key, value) {}
  }
  const form = new FormData()
  form.append('a', 1)
})
""",
    "__tests__/app/spec.test.js": """\
function post () {
  const form = new FormData()
  form.append('a', 1)
}
""",
    "__tests__/app/use.test.js": """\
const Koa = require('../..')
function run () {
  const app = new Koa()
  app.use(() => {})
}
""",
}


def test_javascript_objects_of_functions_and_a_folder_required_as_a_package(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, JAVASCRIPT)
    assert edges_at(rows, "lib/use.js", 4) == {("lib/utils.js::isString", True)}
    assert edges_at(rows, "lib/use.js", 5) == {("lib/utils.js::isObj", True)}
    assert edges_at(rows, "lib/use.js", 6) == {("lib/cjs.js::toStr", True)}
    # `require('../..')`: the folder's package.json names lib/application.js
    use = ("lib/application.js::module.exports.use", True)
    assert edges_at(rows, "__tests__/app/use.test.js", 4) == {use}
    # A class a test declares inside its function is no other file's type: `new FormData()`
    # elsewhere is the global's.
    form_append = ("__tests__/app/form.test.js::reads a custom form.FormData.append", True)
    assert edges_at(rows, "__tests__/app/form.test.js", 6) == {form_append}
    assert form_append not in edges_at(rows, "__tests__/app/spec.test.js", 3)


RETURNED = {
    "lib/utils.js": """\
const typeOfTest = type => thing => typeof thing === type
const isString = typeOfTest('string')
function check (x) { return isString(x) }
export default { isString, check }
""",
    "lib/other.js": "export function isString (x) { return false }\n",
    "lib/use.js": "import utils from './utils.js'\nfunction t (v) {\n  utils.isString(v)\n}\n",
    "pkg/__init__.py": "",
    "pkg/make.py": """\
def make():
    def inner():
        pass

    return inner


def use():
    handler = make()
    handler()
""",
    "pkg/other.py": "def handler():\n    pass\n",
    "src/handle.ts": """\
export const handle = (app: string): ((e: string) => string) => {
  return (e) => app + e
}
""",
    "src/run.ts": """\
import { handle } from './handle'
export function run(): string {
  const handler = handle('a')
  return handler('b')
}
""",
}


def test_a_variable_bound_to_a_call_that_returns_a_function_calls_into_it(
    tmp_path: Path, settings: Settings
) -> None:
    # Probable, not certain: where the function's return type is declared, a type-aware
    # resolver stops at the variable instead.
    rows = graph(tmp_path, settings, RETURNED)
    made = {("lib/utils.js::typeOfTest", False)}
    assert edges_at(rows, "lib/utils.js", 3) == made  # the arrow `typeOfTest` returns
    assert edges_at(rows, "lib/use.js", 3) == made  # through the default export's object
    assert edges_at(rows, "pkg/make.py", 10) == {("pkg/make.py::make.inner", False)}
    # A declared return type is what the caller of the result calls: no edge into the code.
    (row,) = at(rows, "src/run.ts", 4)
    assert (row["callee"], row["rule"]) == ("", "call of the variable handler: whatever it holds")


def test_export_star_passes_on_every_name_but_the_default(
    tmp_path: Path, settings: Settings
) -> None:
    # got's index: `export default got` (a value) beside `export * from './options.js'`, whose
    # own default is a class: importing the index's default is no call of that class.
    files = {
        "source/options.ts": "export default class Options {\n  merge(): void {}\n}\n",
        "source/index.ts": (
            "import create from './create.js'\nconst got = create('x')\nexport default got\n"
            "export * from './options.js'\n"
        ),
        "source/create.ts": "export default function create(d: string): string { return d }\n",
        "test/a.ts": (
            "import got from '../source/index.js'\nexport function t(): void {\n  got('u')\n}\n"
        ),
    }
    rows = graph(tmp_path, settings, files)
    (row,) = at(rows, "test/a.ts", 3)
    assert row["callee"] == "" and row["rule"].startswith("no definition: default in")


def test_a_python_submodule_named_through_an_imported_package(
    tmp_path: Path, settings: Settings
) -> None:
    # typer's vendored click: `from . import _click` ... `_click.utils.echo()`, and a test's
    # `import typer` ... `typer._click.exceptions.Exit()`.
    files = {
        "typer/__init__.py": "",
        "typer/_click/__init__.py": "from .utils import echo as echo\n",
        "typer/_click/utils.py": "def echo(m):\n    pass\n",
        "typer/_click/exceptions.py": "class Exit(Exception):\n    pass\n",
        "typer/other.py": "def echo(m):\n    pass\n\n\nclass Exit(Exception):\n    pass\n",
        "typer/comp.py": (
            "from . import _click\n\n\ndef run():\n    _click.utils.echo('x')\n"
            "    _click.exceptions.Exit()\n"
        ),
        "tests/test_a.py": "import typer\n\n\ndef test_a():\n    typer._click.exceptions.Exit()\n",
    }
    rows = graph(tmp_path, settings, files)
    assert edges_at(rows, "typer/comp.py", 5) == {("typer/_click/utils.py::echo", True)}
    exit_ = {("typer/_click/exceptions.py::Exit", True)}
    assert edges_at(rows, "typer/comp.py", 6) == exit_
    assert edges_at(rows, "tests/test_a.py", 5) == exit_
