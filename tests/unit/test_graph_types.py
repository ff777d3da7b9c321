"""Python type evidence the resolver reads: a module imported with `from pkg import mod`, a
class defined inside a function, a class attribute typing `self.x`. Every class name here is
defined twice, so no edge can come from a name being unique in the project."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings
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
