"""A standard-library method name on a receiver of unknown type is no probable call of the
project's one method of that name (Rust, Java, Kotlin, C#, Go, C++, Ruby, PHP), while a
receiver whose type the resolver knows still reaches that method; real tree-sitter parses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.core.settings import Settings
from tests.unit.test_graph_resolution import at, graph

# Each project: a class whose method has a standard-library name (and one of its own name),
# called on line 1 of `go` through an unknown receiver, on line 2 through a typed one, and
# on line 3 its own-named method through an unknown receiver.
CASES = {
    "rust": ("src/lib.rs", "Matching.len", "Matching.pairs", {
        "src/lib.rs": """\
pub struct Matching { n: usize }
impl Matching {
    pub fn len(&self) -> usize { self.n }
    pub fn pairs(&self) -> usize { self.n }
}
pub fn build() -> Vec<usize> { Vec::new() }
pub fn go(m: &Matching) -> usize {
    let a = build().len();
    let b = m.len();
    let c = build().pairs();
    a + b + c
}
"""}),
    "java": ("src/demo/Use.java", "Matching.size", "Matching.pairs", {
        "src/demo/Matching.java": """\
package demo;

public class Matching {
    public int size() { return 0; }
    public int pairs() { return 0; }
}
""",
        "src/demo/Use.java": """\
package demo;

class Use {
    java.util.List<Integer> build() { return null; }
    int go(Matching m) {
        int a = build().size();
        int b = m.size();
        int c = build().pairs();
        return a + b + c;
    }
}
"""}),
    "kotlin": ("src/Use.kt", "Matching.isEmpty", "Matching.pairs", {
        "src/Matching.kt": """\
class Matching {
    fun isEmpty(): Boolean = true
    fun pairs(): Int = 0
}
""",
        "src/Use.kt": """\
fun build(): List<Int> = listOf()
fun go(m: Matching): Int {
    val a = build().isEmpty()
    val b = m.isEmpty()
    val c = build().pairs()
    return c
}
"""}),
    "csharp": ("Use.cs", "Matching.Add", "Matching.Pairs", {
        "Matching.cs": """\
public class Matching
{
    public void Add(int x) {}
    public int Pairs() { return 0; }
}
""",
        "Use.cs": """\
public class Use
{
    System.Collections.Generic.List<int> Build() { return null; }
    public void Go(Matching m)
    {
        Build().Add(1);
        m.Add(1);
        Build().Pairs();
    }
}
"""}),
    "go": ("use.go", "Matching.Error", "Matching.Pairs", {
        "matching.go": """\
package demo

type Matching struct{}

func (m *Matching) Error() string { return "" }

func (m *Matching) Pairs() int { return 0 }
""",
        "use.go": """\
package demo

func build() error { return nil }

func Go(m *Matching) {
	_ = build().Error()
	_ = m.Error()
	_ = build().Pairs()
}
"""}),
    "cpp": ("use.cpp", "Matching.empty", "Matching.pairs", {
        "matching.hpp": """\
class Matching {
  public:
    bool empty() const { return true; }
    int pairs() const { return 0; }
};
""",
        "use.cpp": """\
#include <vector>
#include "matching.hpp"
std::vector<int> build();
int go(Matching &m) {
    bool a = build().empty();
    bool b = m.empty();
    int c = build().pairs();
    return a + b + c;
}
"""}),
    "ruby": ("lib/use.rb", "Matching.merge", "Matching.pairs", {
        "lib/matching.rb": """\
class Matching
  def merge(other)
    other
  end

  def pairs
    0
  end
end
""",
        "lib/use.rb": """\
def build
  {}
end

def go
  m = Matching.new
  build.merge({})
  m.merge({})
  build.pairs
end
"""}),
    "php": ("src/use.php", "Matching.count", "Matching.pairs", {
        "src/Matching.php": """\
<?php
class Matching
{
    public function count() { return 0; }
    public function pairs() { return 0; }
}
""",
        "src/use.php": """\
<?php
function build() { return new ArrayIterator([]); }
function go(Matching $m) {
    $a = build()->count();
    $b = $m->count();
    $c = build()->pairs();
}
"""}),
}  # fmt: skip


def _defined(files: dict[str, str], qualified: str) -> str:
    """The id of `Class.method` in the one file that defines the class."""
    cls = qualified.split(".")[0]
    path = next(
        p
        for p, t in files.items()
        if f"class {cls}" in t or f"struct {cls}" in t or (f"type {cls}" in t)
    )
    return f"{path}::{qualified}"


def _calls_of(rows: list[dict[str, Any]], method: str) -> list[dict[str, Any]]:
    """The rows of one line's calls of `method` (not those of `build()` before it)."""
    return [r for r in rows if r["callee_text"].endswith(method)]


@pytest.mark.parametrize("language", sorted(CASES))
def test_a_standard_library_name_on_an_unknown_receiver_is_no_probable_edge(
    tmp_path: Path, settings: Settings, language: str
) -> None:
    path, builtin, own, files = CASES[language]
    rows = graph(tmp_path, settings, files)
    method = builtin.split(".")[1]
    lines = files[path].splitlines()
    line = 1 + next(
        i
        for i, text in enumerate(lines)
        if f"uild().{method}(" in text
        or (f"build.{method}(" in text)
        or f"uild()->{method}(" in text
    )
    unknown = _calls_of(at(rows, path, line), method)
    assert {(r["callee"], r["confidence"] >= 0.9) for r in unknown} == {
        (_defined(files, builtin), False)
    }, unknown
    assert [(r["rule"], r["confidence"] < 0.7) for r in unknown] == [("builtin-method-name", True)]
    # The resolver knows this receiver's type: the project's method, certain.
    typed = _calls_of(at(rows, path, line + 1), method)
    assert [(r["callee"], r["rule"]) for r in typed] == [
        (_defined(files, builtin), "typed-receiver")
    ], typed
    # A name the standard library does not define stays the probable lone method.
    own_rules = [r["rule"] for r in _calls_of(at(rows, path, line + 2), own.split(".")[1])]
    assert own_rules == ["unique-method"], at(rows, path, line + 2)
