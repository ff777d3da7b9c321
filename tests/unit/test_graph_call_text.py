"""What the call graph names a call: the called name with its receiver apart (arguments,
blocks and strings elided), qualified names called with generic arguments, Swift's implicit
members, PHP's global functions, and Ruby's `obj.extend(Mod)`; real tree-sitter and LanceDB."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings
from app.parse.call_text import receiver_text, split_called
from app.store.graph_tables import GRAPH_EDGES
from tests.unit.test_graph_resolution import at, build, graph

CHAINS = {
    # kotlinx-coroutines' shape: a call on what a constructor with a long message returns.
    "src/Handler.kt": """\
package demo

fun handle(cause: Throwable) {
    val e = RuntimeException("Exception while trying to handle (x) " + cause.message.toString(),
        cause).also { it.fill() }
}
""",
    "test/schema.test.ts": """\
test("parse", () => {
  expect(schema.parse({ first: "a", rest: [1, 2] })).toEqual({ first: "a" });
});
""",
    "spec/mash_spec.rb": """\
describe "mash" do
  it "raises" do
    expect do
      subject.new(provence: 'Ontario').state
    end.to raise_error(ArgumentError)
  end
end
""",
    "src/Node.php": """\
<?php
class Node {
    public function compile($compiler) {
        $compiler->raw(sprintf('(is_string($%s = ', $left))->subcompile($this->getNode('left'));
    }
}
""",
}


def test_a_call_on_a_computed_receiver_reads_as_its_name_after_the_receiver_shape(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, CHAINS)
    texts = {(r["path"], r["callee_text"]) for r in rows}
    for path, text in (
        ("src/Handler.kt", "RuntimeException().also"),
        ("test/schema.test.ts", "expect().toEqual"),
        ("spec/mash_spec.rb", "expect{}.to"),
        ("spec/mash_spec.rb", "subject.new().state"),
        ("src/Node.php", "$compiler->raw().subcompile"),
    ):
        assert (path, text) in texts, sorted(t for p, t in texts if p == path)


def test_receiver_text_elides_nested_brackets_strings_and_keeps_words_apart() -> None:
    assert receiver_text('f(a, ")").g{ it(1) }[0]', "kotlin") == "f().g{}"
    assert receiver_text("(slot as Slot)", "kotlin") == "(slot as Slot)"
    assert receiver_text("((a + b) * f(x))", "python") == "((a+b)*f())"
    assert receiver_text("b.builder() // off, (x)\n  .setA(true)", "java") == "b.builder().setA()"
    assert receiver_text("Graph::<u32, u32>", "rust") == "Graph"
    assert receiver_text("$c" + "->write('x')" * 20, "php").endswith("->write()…")
    assert receiver_text("value as Array", "kotlin") == "value as Array"
    assert receiver_text("x.find('(').map(|c: &'a str| c)", "rust") == "x.find().map()"
    assert receiver_text("expect do\n  x.y(1)\nend", "ruby") == "expect{}"


def test_comment_marks_inside_strings_and_regex_literals_are_no_comments() -> None:
    assert receiver_text('"http://example.org/a".split("/")', "javascript") == '"".split()'
    assert receiver_text('"#fff".lower()', "python") == '"".lower()'
    assert receiver_text("'a#b'.chars.first # why\n  .upcase", "ruby") == "''.chars.first.upcase"
    # A regex literal is elided like a string: its brackets open no group.
    assert receiver_text("/\\/\\/[(]/g.test(s).x", "javascript") == "/(?:)/g.test().x"
    assert receiver_text("s.replace(/a(b/gi, '').trim()", "typescript") == "s.replace().trim()"
    # After a name, `/` divides; a comment after it is still a comment.
    assert receiver_text("(a / b) // half\n  .toFixed(2)", "javascript") == "(a/b).toFixed()"


def test_split_called_takes_the_name_after_the_last_separator() -> None:
    assert split_called("CLI::detail::checked_multiply<T>") == ("CLI::detail", "checked_multiply")
    assert split_called("std::get<0>") == ("std", "get")
    assert split_called("f<int>") == ("", "f")
    assert split_called("JsonConvert.DeserializeObject<Dictionary<string, int>>") == (
        "JsonConvert",
        "DeserializeObject",
    )
    assert split_called("State?.ToString") == ("State", "ToString")
    assert split_called("\\is_int") == ("", "is_int")
    assert split_called("\\App\\util") == ("App", "util")
    assert split_called(".init") == (".", "init")
    for dynamic in ("handlers[k]", "f()", "super", "self.1", "(*self)", "$fn"):
        assert split_called(dynamic) is None, dynamic


QUALIFIED = {
    "include/detail.hpp": """\
namespace CLI {
namespace detail {
template <typename T> T checked_multiply(T a, T b) { return a * b; }
}
}
""",
    "src/app.cpp": """\
#include "detail.hpp"
int area(int a, int b) {
    return CLI::detail::checked_multiply<int>(a, b);
}
""",
    "src/Widget.php": """\
<?php
class Widget {
    public function count() { return 1; }
    public function size($items) { return \\count($items); }
}
""",
    "Sources/App/Pool.swift": """\
struct Pool {
    init(size: Int) {}
    static func make() -> Pool { return .init(size: 1) }
}
""",
}


def test_qualified_calls_with_generic_arguments_are_named_calls(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, QUALIFIED)
    multiply = at(rows, "src/app.cpp", 3)
    assert [r["callee_text"] for r in multiply] == ["CLI::detail.checked_multiply"], multiply
    assert [r["callee"] for r in multiply] == ["include/detail.hpp::detail.checked_multiply"]
    assert [r["rule"] for r in multiply] == ["namespace-member"]
    # PHP's `\count($items)` is the global function, never the class's own `count` method.
    assert [r["callee"] for r in at(rows, "src/Widget.php", 4)] == [""]
    assert [r["callee_text"] for r in at(rows, "src/Widget.php", 4)] == ["count"]
    (implicit,) = at(rows, "Sources/App/Pool.swift", 3)
    assert (implicit["callee_text"], implicit["callee"]) == (".init", "")
    assert implicit["rule"] == "init: a member of the type the context expects"


HASHIE = {
    "lib/hashie/extensions/deep_merge.rb": """\
module Hashie
  module Extensions
    module DeepMerge
      def deep_merge(other_hash, &block)
        copy = _deep_dup(self)
        copy.extend(Hashie::Extensions::DeepMerge) unless copy.respond_to?(:deep_merge!)
        copy.deep_merge!(other_hash, &block)
        Hashie::Utils.safe_dup(copy)
      end

      def deep_merge!(other_hash, &block)
        self
      end
    end
  end
end
""",
    "lib/hashie/extensions/coercion.rb": """\
module Hashie
  module Extensions
    module Coercion
      def self.included(base)
        base.extend ClassMethods
        base.coerce_key(:a, String)
      end

      module ClassMethods
        def coerce_key(*attrs)
          attrs
        end
      end
    end
  end
end
""",
    "lib/hashie/utils.rb": """\
module Hashie
  module Utils
    def self.safe_dup(value)
      value
    end
  end
end
""",
    "lib/hashie/mash.rb": """\
module Hashie
  class Mash
    def deep_merge!(other)
      self
    end
  end
end
""",
}


def test_ruby_extend_makes_the_modules_methods_probable(tmp_path: Path, settings: Settings) -> None:
    service, store = build(tmp_path, settings, HASHIE)
    rows = store.read_table(GRAPH_EDGES).to_pylist()
    path = "lib/hashie/extensions/deep_merge.rb"
    (edge,) = at(rows, path, 7)
    assert edge["callee"] == f"{path}::DeepMerge.deep_merge!"
    assert (edge["rule"], 0.7 <= edge["confidence"] < 0.9) == ("extended-receiver", True)
    coercion = "lib/hashie/extensions/coercion.rb"
    assert [r["callee"] for r in at(rows, coercion, 6)] == [f"{coercion}::ClassMethods.coerce_key"]
    # The module has no `respond_to?`: that call stays as it was, unresolved.
    assert [r["callee"] for r in at(rows, path, 6) if "respond_to" in r["callee_text"]] == [""]
    callees = {e.symbol: e.tier for e in service.callees("DeepMerge.deep_merge").entries}
    # `Hashie::Utils.safe_dup` is the module's class method (`def self.safe_dup`): certain.
    assert callees == {"DeepMerge.deep_merge!": "probable", "Utils.safe_dup": "certain"}
