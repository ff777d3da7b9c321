"""Every language names a member `Owner.member`: the namespace stays apart (in the parent),
constructors read `Owner.constructor`, and the display and the name matching read that."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.indexer.chunk import parse_file
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

CSHARP = """namespace Vendor.Package.Inline
{
    public class Strong
    {
        public Strong(string text) { }
        public string Render(string text) { return "<b>" + text + "</b>"; }
    }
}
"""
CSHARP_FILE_SCOPED = """namespace Vendor.Package.Inline;

public class Emphasis
{
    public string Render(string text) { return "<i>" + text + "</i>"; }
}
"""
PHP = """<?php
namespace Vendor\\Package\\Node;

class Strong
{
    public function render($text) { return '<b>' . $text . '</b>'; }
}
function helper() { return 1; }
"""
JAVA = """package org.apache.csv;
public class Parser {
    public Parser(String s) { }
    public int parse(String s) { return 1; }
}
"""
CPP = """namespace CLI {
class App {
  public:
    App(int a) {}
    int parse(int argc) { return argc; }
};
int App::run() { return 1; }
}
"""
RUBY = """module Hashie
  class Mash
    def fetch(key)
      1
    end
  end
end
class Hashie::Dash
  def property(name)
    2
  end
end
"""
RUST = """pub struct Url { s: String }
mod net {
    impl Url {
        pub fn parse(s: &str) -> Url { Url { s: s.to_string() } }
    }
}
"""
GO = "package mux\ntype Router struct{}\nfunc (r *Router) Handle(p string) {}\n"
KOTLIN = "package org.koin.core\nclass Koin {\n    fun get(name: String): Int { return 1 }\n}\n"
SWIFT = "struct Chunked {\n    func next() -> Int { return 1 }\n}\n"


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        (
            "Strong.cs",
            CSHARP,
            {"Strong": "Vendor.Package.Inline", "Strong.constructor": "Strong",
             "Strong.Render": "Strong"},
        ),
        (
            "Emphasis.cs",
            CSHARP_FILE_SCOPED,
            {"Emphasis": "Vendor.Package.Inline", "Emphasis.Render": "Emphasis"},
        ),
        (
            "Strong.php",
            PHP,
            {"Strong": "Vendor.Package.Node", "Strong.render": "Strong",
             "Node.helper": "Vendor.Package.Node"},
        ),
        (
            "Parser.java",
            JAVA,
            {"Parser": "", "Parser.constructor": "Parser", "Parser.parse": "Parser"},
        ),
        (
            "app.cpp",
            CPP,
            {"App": "CLI", "App.constructor": "App", "App.parse": "App", "App.run": "App"},
        ),
        (
            "mash.rb",
            RUBY,
            {"Mash": "Hashie", "Mash.fetch": "Mash", "Dash": "Hashie", "Dash.property": "Dash"},
        ),
        ("url.rs", RUST, {"Url.parse": "Url"}),
        ("mux.go", GO, {"Router.Handle": "Router"}),
        ("Koin.kt", KOTLIN, {"Koin.get": "Koin"}),
        ("Chunked.swift", SWIFT, {"Chunked.next": "Chunked"}),
    ],
)  # fmt: skip
def test_members_read_owner_dot_member(path: str, text: str, expected: dict[str, str]) -> None:
    parents = {s.qualified_name: s.parent for s in parse_file(path, text).symbols}
    assert {name: parents.get(name) for name in expected} == expected


def test_a_namespaced_member_is_shown_and_found_as_owner_member(indexed: Indexed) -> None:
    service = indexed(
        {
            "src/Inline/Strong.cs": CSHARP,
            "src/Inline/Emphasis.cs": CSHARP_FILE_SCOPED,
            "src/Parser.java": JAVA,
        }
    )
    hits = service.search("how does Strong.Render wrap the text?").hits
    assert hits[0].path == "src/Inline/Strong.cs"  # a small class is one chunk
    assert hits[0].qualified_name == "Strong"
    reasons = [s.reason for s in hits[0].explanation.signals if s.name == "exact-name"]
    assert reasons == ["the query names `strong.render`, defined here"]
    found = [row["symbol"] for row in service.symbol("Render")]
    assert set(found[:2]) == {"Strong.Render", "Emphasis.Render"}
    hits = service.search("what does `new Parser(s)` do with its argument?").hits
    assert hits[0].path == "src/Parser.java"
    assert any("parser.constructor" in s.reason for s in hits[0].explanation.signals)
