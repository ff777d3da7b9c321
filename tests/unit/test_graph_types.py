"""Python type evidence the resolver reads: a module imported with `from pkg import mod`, a
class defined inside a function, a class attribute typing `self.x`. Every class name here is
defined twice, so no edge can come from a name being unique in the project."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings
from app.service import Service
from app.store.graph_tables import GRAPH_EDGES
from app.store.store import Store
from tests.unit.test_graph import _edge_set
from tests.unit.test_graph_resolution import at, edges_at, graph

FILES = {
    "pkg/__init__.py": "",
    "pkg/tree.py": """\
class Node:
    def add(self, x):
        return x

    def check(self):
        return []
""",
    "pkg/mail.py": """\
class Backend:
    def open(self):
        return 1
""",
    "pkg/client.py": """\
class Factory:
    def get(self, path):
        return path
""",
    "pkg/other.py": """\
class Node:
    def add(self, x):
        return x


class Backend:
    def open(self):
        return 2


class Model:
    def check(self):
        return []


class Cache:
    def get(self, k):
        return k

    def add(self, x):
        return x

    def open(self):
        return 0

    def check(self):
        return []
""",
    "pkg/where.py": """\
from pkg import tree


class WhereNode(tree.Node):
    pass


def build():
    clause = WhereNode()
    clause.add(1)
""",
    "tests/test_mail.py": """\
from pkg import mail, tree
from pkg.client import Factory


def test_open():
    backend = mail.Backend()
    backend.open()


def test_local_model():
    class Model(tree.Node):
        pass

    Model.check()


class CacheTests:
    factory = Factory()

    def test_get(self):
        self.factory.get("/")
""",
}


def test_a_module_imported_from_its_package_types_its_classes(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, FILES)
    assert edges_at(rows, "tests/test_mail.py", 7) == {("pkg/mail.py::Backend.open", True)}
    assert edges_at(rows, "pkg/where.py", 10) == {("pkg/tree.py::Node.add", True)}


def test_a_class_defined_in_a_function_is_the_type_its_calls_name(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, FILES)
    assert edges_at(rows, "tests/test_mail.py", 14) == {("pkg/tree.py::Node.check", True)}


def test_a_class_attribute_types_self_attribute_in_its_methods(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, FILES)
    found = edges_at(rows, "tests/test_mail.py", 21)
    assert found == {("pkg/client.py::Factory.get", True)}, at(rows, "tests/test_mail.py", 21)


INHERITED = {
    "pkg/__init__.py": "",
    "pkg/client.py": """\
class Client:
    def get(self, path):
        return path

    def post(self, path):
        return path
""",
    "pkg/other.py": """\
class Client:
    def get(self, path):
        return path

    def post(self, path):
        return path
""",
    "pkg/testcases.py": """\
from pkg.client import Client


def hashed(test, path):
    return path


class SimpleTestCase:
    client_class = Client
    hashed = hashed

    def setup(self):
        self.client = self.client_class()


class TestCase(SimpleTestCase):
    pass
""",
    "tests/test_views.py": """\
from pkg.testcases import TestCase


class ViewTests(TestCase):
    def test_get(self):
        self.client.get("/")
        self.client.post("/")
        self.hashed("a")
""",
}


def test_an_attribute_set_in_a_base_class_types_it_in_subclasses(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, INHERITED)
    assert edges_at(rows, "tests/test_views.py", 6) == {("pkg/client.py::Client.get", True)}
    assert edges_at(rows, "tests/test_views.py", 7) == {("pkg/client.py::Client.post", True)}


def test_a_function_bound_in_a_class_body_is_its_method(tmp_path: Path, settings: Settings) -> None:
    rows = graph(tmp_path, settings, INHERITED)
    assert edges_at(rows, "tests/test_views.py", 8) == {("pkg/testcases.py::hashed", True)}


def test_a_name_bound_to_a_function_calls_that_function(tmp_path: Path, settings: Settings) -> None:
    files = {
        "trans.py": "def gettext(s):\n    return s\n",
        "models.py": (
            "from trans import gettext\n\n_ = gettext\n\n\ndef label():\n    return _('x')\n"
        ),
    }
    rows = graph(tmp_path, settings, files)
    assert edges_at(rows, "models.py", 7) == {("trans.py::gettext", True)}


def test_an_edit_of_a_base_class_attribute_re_resolves_its_subclasses_calls(
    tmp_path: Path, settings: Settings
) -> None:
    repo = tmp_path / "repo"
    files = dict(INHERITED)
    files["pkg/cases.py"] = (
        "from pkg.testcases import SimpleTestCase\n\n\nclass TestCase(SimpleTestCase):\n    pass\n"
    )
    files["tests/test_views.py"] = files["tests/test_views.py"].replace(
        "pkg.testcases", "pkg.cases"
    )
    # The test file names nothing of testcases.py: only the hierarchy leads there.
    files["pkg/testcases.py"] = files["pkg/testcases.py"].split("\n\nclass TestCase")[0]
    for i in range(12):  # unrelated files, so one edit is a small share of the project
        files[f"pkg/extra{i}.py"] = f"def helper{i}():\n    return abs({i})\n"
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    service = Service(repo, settings)
    service.index(with_vectors=False)
    base = repo / "pkg/testcases.py"
    base.write_text(base.read_text().replace("pkg.client", "pkg.other"))
    report = service.index(with_vectors=False)
    assert report.graph["resolved_calls"] < report.graph["calls"]  # an update, not a rebuild
    fresh = Service(repo, Settings(index_dir=tmp_path / "fresh"))
    fresh.index(with_vectors=False)
    assert _edge_set(service) == _edge_set(fresh)
    rows = Store.open(service.index_dir).read_table(GRAPH_EDGES).to_pylist()
    assert edges_at(rows, "tests/test_views.py", 6) == {("pkg/other.py::Client.get", True)}


def test_a_module_level_alias_is_what_importing_it_imports(
    tmp_path: Path, settings: Settings
) -> None:
    files = {
        "measure.py": "class Distance:\n    pass\n\n\nD = Distance\n",
        "other.py": "class D:\n    pass\n",
        "more.py": "class D:\n    pass\n",
        "use.py": "from measure import D\n\n\ndef run():\n    return D(1)\n",
    }
    rows = graph(tmp_path, settings, files)
    assert edges_at(rows, "use.py", 5) == {("measure.py::Distance", True)}


def test_a_method_of_a_class_named_through_a_module_is_found_in_its_bases(
    tmp_path: Path, settings: Settings
) -> None:
    files = {
        "app/__init__.py": "",
        "app/base.py": "class View:\n    @classmethod\n    def as_view(cls):\n        return cls\n",
        "app/handlers.py": "class Handler:\n    def as_view(self):\n        return self\n",
        "app/views.py": "from app.base import View\n\n\nclass AuthorCreate(View):\n    pass\n",
        "app/urls.py": "from . import views\n\nurls = [views.AuthorCreate.as_view()]\n",
    }
    rows = graph(tmp_path, settings, files)
    assert edges_at(rows, "app/urls.py", 3) == {("app/base.py::View.as_view", True)}


GENERICS = {
    "base.py": """\
import typing
from typing import Generic, TypeVar

T = TypeVar("T")


class Base(Generic[T]):
    def start(self) -> None: ...


class Other(Generic[T]):
    def start(self) -> None: ...


class Runner(Base[int]):
    def go(self):
        self.start()


class Headers(typing.MutableMapping[str, str]):
    def keys(self): ...


class Manager(Generic[T]):
    def __init__(self, x): ...


Alias = Manager[int]


def use(h: Headers):
    Runner().start()
    Alias(1)
    h.pop("a")
""",
}


def test_a_generic_base_is_a_base_and_a_generic_alias_its_class(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, GENERICS)
    assert edges_at(rows, "base.py", 17) == {("base.py::Base.start", True)}  # self.start()
    assert ("base.py::Base.start", True) in edges_at(rows, "base.py", 32)  # Runner().start()
    assert edges_at(rows, "base.py", 33) == {("base.py::Manager", True)}  # `Alias = Manager[int]`
    # A method of typing's MutableMapping: outside the project, never a guess by its name.
    assert [r["rule"] for r in at(rows, "base.py", 34)] == [
        "inherited from a class outside the project pop on Headers"
    ]


SELF_RETURNS = {
    "models.py": """\
from typing import Self


class Base:
    @classmethod
    def validate(cls, data) -> Self: ...


class Page(Base):
    def render(self): ...


class Other(Base):
    def render(self): ...


def use():
    page = Page.validate({})
    page.render()
""",
}


def test_a_method_returning_self_returns_the_class_it_is_called_on(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, SELF_RETURNS)
    assert edges_at(rows, "models.py", 19) == {("models.py::Page.render", True)}


PARAMETER_ATTRIBUTES = {
    "writer.py": """\
from typing import Any


class Payload:
    def close(self): ...


class Other:
    def close(self): ...


class Writer:
    def __init__(self, payload: Payload, other, value: Any):
        self._payload = payload
        self._other = other
        self._value = value

    def finish(self):
        self._payload.close()
        self._other.close()
        self._value.close()
""",
}


def test_an_attribute_set_from_an_annotated_parameter_has_its_type(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, PARAMETER_ATTRIBUTES)
    assert edges_at(rows, "writer.py", 19) == {("writer.py::Payload.close", True)}
    # No annotation, or `Any`: no type, so a guess by name (never certain).
    for line in (20, 21):
        assert not any(certain for _, certain in edges_at(rows, "writer.py", line))


ANNOTATED_NAMES = {
    "app.py": """\
from dataclasses import dataclass


class Client:
    def send(self): ...


class Other:
    def send(self): ...


@dataclass
class Config:
    client: Client

    def run(self):
        self.client.send()


def make(): ...


def use(config: Config):
    client: Client = None
    client.send()
    config.client.send()
""",
}


def test_annotated_names_and_dataclass_fields_have_their_types(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, ANNOTATED_NAMES)
    for line in (17, 25, 26):  # a field through self, an annotated local, a field of a param
        assert edges_at(rows, "app.py", line) == {("app.py::Client.send", True)}, line


def test_a_return_type_written_through_its_module_types_the_call_s_value(
    tmp_path: Path, settings: Settings
) -> None:
    # aiohttp's tests: `stream = self._make_one()`, `_make_one(...) -> streams.StreamReader`.
    files = {
        "pkg/__init__.py": "",
        "pkg/streams.py": "import typing\nfrom contextlib import contextmanager\n\n\n"
        "class StreamReader:\n    def feed_data(self, d):\n        return d\n\n"
        "    @contextmanager\n"
        "    def opened(self) -> typing.Iterator[StreamReader]:\n"
        "        yield self\n\n\n"
        "class Other:\n    def feed_data(self, d):\n        return d\n",
        "tests/test_streams.py": "from pkg import streams\n\n\n"
        "class TestStreamReader:\n"
        "    def _make_one(self) -> streams.StreamReader:\n"
        "        return streams.StreamReader()\n\n"
        "    def test_feed(self) -> None:\n"
        "        stream = self._make_one()\n"
        "        stream.feed_data(b'x')\n"
        "        with stream.opened() as opened:\n"
        "            opened.feed_data(b'x')\n",
    }
    rows = graph(tmp_path, settings, files)
    test = "tests/test_streams.py"
    assert edges_at(rows, test, 10) == {("pkg/streams.py::StreamReader.feed_data", True)}
    # What a `@contextmanager` yields is no Iterator (httpx's `with client.stream(...) as r`):
    # `typing.Iterator[...]` claims no type, so the call is not "a method of typing.Iterator".
    assert not any("Iterator" in r["rule"] for r in at(rows, test, 12))


# Angular's and NestJS's injected services: `constructor(private readonly users: UserService)`
# declares the field `this.users`, typed in every method.
INJECTED_TS = {
    "src/user.service.ts": ("export class UserService {\n  logout(): void {}\n}\n"),
    "src/articles.service.ts": (
        "export class ArticlesService<T> {\n  favorite(slug: string): void {}\n}\n"
    ),
    "src/settings.component.ts": (
        'import { UserService } from "./user.service";\n'
        'import { ArticlesService } from "./articles.service";\n\n'
        "export class SettingsComponent {\n"
        "  constructor(\n"
        "    private readonly userService: UserService,\n"
        "    readonly articles: ArticlesService<string>,\n"
        "    plain: UserService,\n"
        "  ) {}\n\n"
        "  logout(): void {\n"
        "    this.userService.logout();\n"  # 12
        '    this.articles.favorite("a");\n'  # 13
        "    this.plain.logout();\n"  # 14: no parameter property, no field
        "  }\n"
        "}\n"
    ),
}


def test_a_constructor_parameter_property_types_its_field(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, INJECTED_TS)
    path = "src/settings.component.ts"
    assert edges_at(rows, path, 12) == {("src/user.service.ts::UserService.logout", True)}
    assert edges_at(rows, path, 13) == {("src/articles.service.ts::ArticlesService.favorite", True)}
    assert ("src/user.service.ts::UserService.logout", True) not in edges_at(rows, path, 14)


# PHP 8's constructor promotion, Symfony's and Laravel's injected services.
PROMOTED_PHP = {
    "src/UserRepository.php": (
        "<?php\nnamespace App;\nclass UserRepository\n{\n"
        "    public function find(int $id): void {}\n}\n"
    ),
    "src/Other.php": (
        "<?php\nnamespace App;\nclass Other\n{\n    public function find(int $id): void {}\n}\n"
    ),
    "src/UserController.php": (
        "<?php\nnamespace App;\nclass UserController\n{\n"
        "    public function __construct(private readonly UserRepository $users)\n    {\n"
        "        $users->find(0);\n"  # 7: the parameter, a local of the constructor
        "    }\n\n"
        "    public function show(int $id): void\n    {\n"
        "        $this->users->find($id);\n"  # 12: the field it declares
        "    }\n}\n"
    ),
}


def test_a_promoted_constructor_parameter_types_its_field(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, PROMOTED_PHP)
    want = {("src/UserRepository.php::UserRepository.find", True)}
    assert edges_at(rows, "src/UserController.php", 12) == want
    assert edges_at(rows, "src/UserController.php", 7) == want
