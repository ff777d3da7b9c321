"""Chunker tests: real tree-sitter parses of small, realistic files in every language."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.core.models import Chunk, ParsedFile, Symbol
from app.core.paths import in_test_module
from app.indexer.chunk import coverage, parse_file
from app.parse import grammar_gaps
from app.parse.languages import (
    GRAMMARS,
    grammar_for,
    has_definitions,
    language_for_path,
    language_for_text,
    query_path,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "chunk"


def parse_fixture(name: str, **options: int) -> tuple[ParsedFile, str]:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    parsed = parse_file(f"src/{name}", text, **options)
    check_well_formed(parsed, text)
    return parsed, text


def check_well_formed(parsed: ParsedFile, text: str) -> None:
    """In line order, no overlaps (but window overlaps), exact text, every non-blank line."""
    lines = text.split("\n")
    covered: set[int] = set()
    previous_end = 0
    for chunk in parsed.chunks:
        assert 1 <= chunk.start_line <= chunk.end_line <= len(lines)
        if chunk.kind == "window":
            assert chunk.start_line > previous_end - chunk.line_count
        else:
            assert chunk.start_line > previous_end, (chunk.start_line, previous_end)
        previous_end = max(previous_end, chunk.end_line)
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        assert chunk.path == parsed.path and chunk.language == parsed.language
        assert 1 <= chunk.part <= chunk.parts
        covered.update(range(chunk.start_line, chunk.end_line + 1))
    missing = [n for n, line in enumerate(lines, 1) if line.strip() and n not in covered]
    assert not missing, f"uncovered lines {missing[:10]}"


def layout(parsed: ParsedFile) -> list[tuple[int, int, str, str]]:
    return [(c.start_line, c.end_line, c.kind, c.qualified_name) for c in parsed.chunks]


def chunk(parsed: ParsedFile, qualified: str, part: int = 1) -> Chunk:
    found = [c for c in parsed.chunks if c.qualified_name == qualified and c.part == part]
    assert len(found) == 1, [c.qualified_name for c in parsed.chunks]
    return found[0]


def symbol(parsed: ParsedFile, qualified: str) -> Symbol:
    found = [s for s in parsed.symbols if s.qualified_name == qualified]
    assert len(found) == 1, [s.qualified_name for s in parsed.symbols]
    return found[0]


def spans(parsed: ParsedFile) -> list[tuple[str, str, int, int]]:
    return [(s.qualified_name, s.kind, s.start_line, s.end_line) for s in parsed.symbols]


def symbol_rows(parsed: ParsedFile) -> list[tuple[str, str, str, int, int]]:
    return [(s.kind, s.qualified_name, s.parent, s.start_line, s.end_line) for s in parsed.symbols]


# --- languages ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("lib/router/index.js", "javascript"),
        ("src/a.mjs", "javascript"),
        ("src/a.cjs", "javascript"),
        ("src/App.jsx", "javascript"),
        ("src/v4/core/schemas.ts", "typescript"),
        ("src/a.mts", "typescript"),
        ("src/a.cts", "typescript"),
        ("src/App.tsx", "tsx"),
        ("httpx/_client.py", "python"),
        ("mux.go", "go"),
        ("src/lib.rs", "rust"),
        ("A.java", "java"),
        ("a.c", "c"),
        ("a.h", "c"),
        ("a.cpp", "cpp"),
        ("a.hpp", "cpp"),
        ("Program.cs", "csharp"),
        ("lib/a.rb", "ruby"),
        ("Gemfile", "ruby"),
        ("index.php", "php"),
        ("Main.kt", "kotlin"),
        ("a.swift", "swift"),
        ("a.scala", "scala"),
        ("a.lua", "lua"),
        ("scripts/build.sh", "bash"),
        ("README.md", "markdown"),
        ("ci.yml", "yaml"),
        ("pyproject.toml", "toml"),
        ("package.json", "json"),
        ("notes.txt", "text"),
        ("Dockerfile", "dockerfile"),
        ("style.CSS", "css"),
        ("image.png", None),
        ("LICENSE", "text"),
        ("no_extension", None),
    ],
)
def test_language_for_path(path: str, language: str | None) -> None:
    assert language_for_path(path) == language


C_HEADER = """#ifndef UV_H
#define UV_H
#ifdef __cplusplus
extern "C" {
#endif
/* A class of handles. */
typedef struct uv_loop_s uv_loop_t;
UV_EXTERN int uv_run(uv_loop_t*, int mode);
#ifdef __cplusplus
}
#endif
#endif
"""

CPP_HEADER = """#ifndef ABSL_STATUS_STATUSOR_H_
#define ABSL_STATUS_STATUSOR_H_
#include <utility>
namespace absl {
// Holds a value or an error.
template <typename T>
class StatusOr {
 public:
  bool ok() const { return status_.ok(); }
 private:
  Status status_;
};
}  // namespace absl
#endif
"""


def test_a_header_holding_cpp_is_cpp() -> None:
    # `.h` is C by its name; the C grammar cannot read a class or a template, so a C++
    # header would be nothing but glue. `extern "C"` is how C headers greet C++ readers.
    assert language_for_text("uv.h", C_HEADER) == "c"
    assert language_for_text("absl/status/statusor.h", CPP_HEADER) == "cpp"
    assert language_for_text("a.c", CPP_HEADER) == "c"  # only a header is guessed
    for marker in ("std::vector<int> v;", "  public:", "namespace x {", "#include <vector>"):
        assert language_for_text("a.h", f"int a;\n{marker}\n") == "cpp"
    parsed = parse_file("absl/status/statusor.h", CPP_HEADER)
    assert parsed.language == "cpp"
    assert symbol(parsed, "StatusOr.ok").parent == "StatusOr"
    assert parse_file("uv.h", C_HEADER).language == "c"


@pytest.mark.parametrize(
    ("first_line", "language"),
    [
        ("#!/bin/sh", "bash"),
        ("#!/usr/bin/env bash", "bash"),
        ("#!/usr/bin/env zsh", "bash"),
        ("#! /usr/bin/python3.11", "python"),
        ("#!/usr/bin/env -S python3 -u", "python"),
        ("#!/usr/local/bin/ruby -w", "ruby"),
        ("#!/usr/bin/env node", "javascript"),
        ("#!/usr/bin/perl", None),  # no grammar: the caller's line windows
        ("# not a shebang", None),
    ],
)  # fmt: skip
def test_a_script_without_an_extension_is_read_by_its_shebang(
    first_line: str, language: str | None
) -> None:
    assert language_for_text("libexec/rbenv-version", f"{first_line}\nx\n") == language
    # A known extension or file name wins: `#!` in a `.txt` or a README is text.
    assert language_for_text("notes.txt", f"{first_line}\n") == "text"
    assert language_for_text("README", f"{first_line}\n") == "text"


def test_a_shebang_script_gets_its_language_s_definitions() -> None:
    text = '#!/usr/bin/env bash\nset -e\n\nversion_exists() {\n  [ -d "$1" ]\n}\n'
    parsed = parse_file("libexec/rbenv-version-name", text)
    assert parsed.language == "bash"
    assert symbol(parsed, "version_exists").start_line == 4


ANNOTATED_H = """namespace absl {
ABSL_NAMESPACE_BEGIN
class ABSL_ATTRIBUTE_OWNER Mutex {
 public:
  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION();
  ABSL_MUST_USE_RESULT bool TryLock() { return Grab(); }
 private:
  int waiters_ ABSL_GUARDED_BY(mu_);
};
ABSL_CONST_INIT static int count = 0;
int Size(const Mutex& m ABSL_ATTRIBUTE_LIFETIME_BOUND) { return MAX_OF(Count(m), 1); }
ABSL_NAMESPACE_END
}  // namespace absl
"""


def test_annotation_macros_do_not_hide_cpp_definitions() -> None:
    # Each capitalised macro is a stray name to the grammar, and the class around it an
    # error; taken out of its way (as spaces), the class, its methods and the function parse.
    parsed = parse_file("absl/synchronization/mutex.h", ANNOTATED_H)
    assert [s.qualified_name for s in parsed.symbols] == [
        "absl",
        "Mutex",
        "Mutex.TryLock",  # `Lock()` is only declared here
        "absl.Size",
    ]
    mutex = chunk(parsed, "Mutex")
    assert mutex.text.startswith("class ABSL_ATTRIBUTE_OWNER Mutex {")  # as written
    assert mutex.signature == "class ABSL_ATTRIBUTE_OWNER Mutex {"
    assert chunk(parsed, "absl.Size").signature.startswith(
        "int Size(const Mutex& m ABSL_ATTRIBUTE_LIFETIME_BOUND) {"
    )
    # A macro called in an expression is a call, as written; the annotations are not calls.
    assert [(c.caller, c.callee) for c in parsed.calls] == [
        ("Mutex.TryLock", "Grab"),
        ("absl.Size", "MAX_OF"),
        ("absl.Size", "Count"),
    ]
    for text in (ANNOTATED_H, ANNOTATED_H.replace("\n", "\r\n")):  # Windows line endings too
        tree, _ = grammar_gaps.parse("cpp", text.encode())
        assert not tree.root_node.has_error


NULLABILITY_CC = """\
inline char* absl_nonnull Cord::set_data(size_t n) { return Reset(n); }
inline CordRep* absl_nullable
Cord::tree() const { return tree_; }
int* _Nullable Find(const char* absl_nullable key, int* const out) { return out; }
"""


def test_nullability_annotations_do_not_join_the_names_they_qualify() -> None:
    # `char* absl_nonnull Cord::set_data`: a macro between `*` and the name once glued itself
    # to the definition's name (`absl_nonnullCord.set_data`); `* const` is the language's own.
    parsed = parse_file("strings/cord.cc", NULLABILITY_CC, "cpp")
    assert [s.qualified_name for s in parsed.symbols] == ["Cord.set_data", "Cord.tree", "Find"]
    assert chunk(parsed, "Cord.set_data").signature.startswith("inline char* absl_nonnull Cord")


INLINE_MACRO_CC = """\
namespace spdlog {
SPDLOG_INLINE thread_pool::thread_pool(size_t n) : q_(n) {}

void SPDLOG_INLINE thread_pool::post_log(async_logger_ptr &&worker) { post_async_msg_(worker); }

std::future<void> SPDLOG_INLINE thread_pool::post_flush(async_logger_ptr &&worker) {
    return post_async_msg_(worker);
}

template <typename Mutex>
void SPDLOG_INLINE spdlog::sinks::base_sink<Mutex>::flush() { flush_(); }

static CRITICAL_SECTION_GUARD lock_all() { return guard(); }
}  // namespace spdlog
"""


def test_a_macro_between_a_return_type_and_the_name_is_no_part_of_the_name() -> None:
    # `void SPDLOG_INLINE thread_pool::post_log(`: the grammar read the macro as the scope
    # of the name, with a `::` missing, and the definitions were `SPDLOG_INLINEthread_pool.*`
    # (abseil's tests: `ABSL_ATTRIBUTE_NOINLINETestWithReturnAddress`).
    parsed = parse_file("include/spdlog/details/thread_pool-inl.h", INLINE_MACRO_CC, "cpp")
    assert [s.qualified_name for s in parsed.symbols] == [
        "spdlog",
        "thread_pool.constructor",
        "thread_pool.post_log",
        "thread_pool.post_flush",
        "spdlog.sinks.base_sink.flush",
        "spdlog.lock_all",
    ]
    assert chunk(parsed, "thread_pool.post_flush").signature.startswith(
        "std::future<void> SPDLOG_INLINE thread_pool::post_flush("
    )
    assert [c.caller for c in parsed.calls if c.callee == "post_async_msg_"] == [
        "thread_pool.post_log",
        "thread_pool.post_flush",
    ]


STATEMENT_MACRO_CC = """\
namespace spdlog {
SPDLOG_INLINE void logger::sink_it_(const details::log_msg &msg) {
    for (auto &sink : sinks_) {
        SPDLOG_TRY { sink->log(msg); }
        SPDLOG_LOGGER_CATCH(msg.source)
    }
    if (should_flush_(msg)) {
        flush_();
    }
}

SPDLOG_INLINE level::level_enum level_from_str(const std::string &name)
    SPDLOG_NOEXCEPT {
    return to_level(name);
}
}  // namespace spdlog
"""


def test_a_macro_before_a_brace_is_no_statement() -> None:
    # `SPDLOG_TRY { ... }` (a `try` when exceptions are on) and a signature's `SPDLOG_NOEXCEPT`
    # on the line of the body's brace: the grammar read an expression with its `;` missing,
    # and `sink_it_` ended at the macro; its last call (`flush_()`) belonged to no definition.
    parsed = parse_file("include/spdlog/logger-inl.h", STATEMENT_MACRO_CC, "cpp")
    assert [(s.qualified_name, s.end_line) for s in parsed.symbols] == [
        ("spdlog", 16),
        ("logger.sink_it_", 10),
        ("spdlog.level_from_str", 15),
    ]
    callers = {c.callee: c.caller for c in parsed.calls}
    assert callers["flush_"] == "logger.sink_it_"
    assert callers["to_level"] == "spdlog.level_from_str"


def test_grammars_and_queries() -> None:
    assert grammar_for("csharp") == "csharp"
    assert grammar_for("markdown") is None
    assert has_definitions("tsx") and not has_definitions("css")
    for language in GRAMMARS:
        path = query_path(language)
        assert path is not None and path.is_file(), language


# --- Python ------------------------------------------------------------------------------


def test_python() -> None:
    parsed, _ = parse_fixture("sample.py")
    assert parsed.strategy == "tree-sitter" and parsed.language == "python"
    assert layout(parsed) == [
        (1, 7, "glue", ""),
        (10, 18, "function", "default_port"),  # comment and decorator absorbed
        (21, 30, "class", "Small"),  # <= 40 lines: one chunk
        (33, 37, "class", "Client"),  # the head: docstring and fields
        (39, 42, "method", "Client.__init__"),
        (44, 46, "method", "Client.is_closed"),
        (48, 56, "method", "Client._redirect_method"),
        (58, 58, "glue", ""),  # a field between methods
        (60, 63, "method", "Client.send"),
        (65, 68, "method", "Client.close"),
        (70, 72, "method", "Client.reset"),
        (74, 75, "glue", ""),  # trailing fields
        (78, 79, "glue", ""),
    ]
    assert chunk(parsed, "Client.send").parent == "Client"
    assert [c.parent for c in parsed.chunks if c.kind == "glue"] == ["", "Client", "Client", ""]
    port = chunk(parsed, "default_port")
    assert port.symbol == "default_port"
    assert port.signature == "def default_port(scheme: str) -> int:"
    assert port.doc == "Return the default port for `scheme`."
    redirect = chunk(parsed, "Client._redirect_method")
    assert redirect.doc == "Follow a redirect: 301, 302 and 303 turn a POST into a GET."
    assert chunk(parsed, "Client.is_closed").signature == "def is_closed(self) -> bool:"
    assert chunk(parsed, "Client").doc == "A client with enough code to be cut per method."
    assert symbol_rows(parsed) == [
        ("function", "default_port", "", 12, 18),
        ("function", "default_port.lookup", "default_port", 15, 16),
        ("class", "Small", "", 21, 30),
        ("method", "Small.grow", "Small", 26, 27),
        ("method", "Small.shrink", "Small", 29, 30),
        ("class", "Client", "", 33, 75),
        ("method", "Client.__init__", "Client", 39, 42),
        ("method", "Client.is_closed", "Client", 45, 46),
        ("method", "Client._redirect_method", "Client", 49, 56),
        ("method", "Client.send", "Client", 60, 63),
        ("method", "Client.close", "Client", 65, 68),
        ("method", "Client.reset", "Client", 70, 72),
    ]
    assert all(s.path == "src/sample.py" and s.language == "python" for s in parsed.symbols)


# --- JavaScript (Express idioms) ---------------------------------------------------------


def test_javascript_commonjs_idioms() -> None:
    parsed, _ = parse_fixture("sample.js")
    assert layout(parsed) == [
        (1, 9, "glue", ""),  # header, require(), `var app = exports = module.exports = {}`
        (11, 20, "function", "exports.compileTrust"),  # JSDoc one blank line above joins
        (22, 29, "method", "res.send"),
        (31, 34, "method", "Layer.prototype.match"),
        (36, 40, "function", "module.exports"),
        (42, 45, "method", "req.ip"),
        (47, 47, "method", "req.secure"),
        (49, 74, "method", "proto.handle"),
        (76, 79, "variable", "api"),
        (81, 89, "class", "Router"),
        (91, 93, "function", "restore"),
    ]
    trust = chunk(parsed, "exports.compileTrust")
    assert (trust.symbol, trust.parent) == ("compileTrust", "")
    assert trust.doc.startswith('Compile "trust proxy" setting.')
    send = chunk(parsed, "res.send")
    assert (send.symbol, send.parent, send.doc) == ("send", "res", "Send a response.")
    assert send.signature == "res.send = function send(body) {"
    match = chunk(parsed, "Layer.prototype.match")
    assert (match.symbol, match.parent) == ("match", "Layer")
    assert chunk(parsed, "module.exports").symbol == "exports"
    ip = chunk(parsed, "req.ip")
    assert (ip.symbol, ip.parent) == ("ip", "req")
    assert ip.signature == "defineGetter(req, 'ip', function ip() {"
    assert chunk(parsed, "req.secure").symbol == "secure"  # named by the string argument
    assert chunk(parsed, "api").signature == "const api = {"
    trim = symbol(parsed, "proto.handle.trim_prefix")
    assert (trim.name, trim.kind, trim.parent, trim.start_line) == (
        "trim_prefix",
        "function",
        "proto.handle",
        63,
    )
    assert symbol(parsed, "api.get").parent == "api"
    assert symbol(parsed, "api.post").kind == "method"
    assert symbol(parsed, "Router.handler").kind == "method"  # class field holding an arrow
    assert symbol(parsed, "Router.create").parent == "Router"


CONFIG_OBJECT_TS = """\
export const authOptions: NextAuthOptions = {
  adapter: PrismaAdapter(db),
  callbacks: {
    async session({ token, session }) {
      return session
    },
    jwt: async ({ token }) => token,
  },
}

const settings = { retries: 3, timeout: { connect: 5 } }
"""


def test_a_configuration_objects_functions_are_its_members() -> None:
    # `callbacks: { session() {} }` one level down: the functions were free functions named
    # `session` and `jwt` (a bare `session()` call anywhere could reach them), the object no
    # definition. An object of plain values stays no definition.
    for path in ("lib/auth.ts", "lib/auth.js"):
        text = (
            CONFIG_OBJECT_TS.replace(": NextAuthOptions", "")
            if path.endswith("js")
            else CONFIG_OBJECT_TS
        )
        parsed = parse_file(path, text)
        assert [(s.qualified_name, s.kind, s.parent) for s in parsed.symbols] == [
            ("authOptions", "variable", ""),
            ("authOptions.session", "method", "authOptions"),
            ("authOptions.jwt", "method", "authOptions"),
        ]


def test_long_function_gives_its_named_functions_chunks_of_their_own() -> None:
    parsed, _ = parse_fixture("sample.js", max_chunk_lines=15)
    spans = [
        (c.start_line, c.end_line, c.qualified_name, c.parent)
        for c in parsed.chunks
        if 49 <= c.start_line <= 74
    ]
    assert spans == [
        (49, 53, "proto.handle", "proto"),
        (55, 61, "proto.handle.next", "proto.handle"),
        (63, 74, "proto.handle.trim_prefix", "proto.handle"),  # with the closing `};`
    ]
    head = chunk(parsed, "proto.handle")
    assert head.signature == "proto.handle = function handle(req, res, out) {"


def test_long_function_keeps_its_own_code_between_named_functions() -> None:
    helper = "".join(f"        step_{n} = value * {n}\n" for n in range(6))
    source = (
        "def total(items):\n"
        "    count = 0\n\n"
        f"    def weigh(value):\n{helper}        return step_5\n\n"
        "    for item in items:\n"
        "        count += weigh(item)\n"
        "    return count\n"
    )
    parsed = parse_file("sums.py", source, max_chunk_lines=8)
    spans = [(c.start_line, c.end_line, c.kind, c.qualified_name) for c in parsed.chunks]
    assert spans == [
        (1, 2, "function", "total"),
        (4, 11, "function", "total.weigh"),
        (13, 15, "function", "total"),  # the function's own code again, not glue
    ]
    # within the limit, the function stays one chunk with its helper inside
    whole = parse_file("sums.py", source, max_chunk_lines=120)
    assert [(c.start_line, c.end_line) for c in whole.chunks] == [(1, 15)]


def test_javascript_test_suites_are_cut_per_test() -> None:
    tests = "\n".join(
        f'  test("case {i}", () => {{\n    expect({i}).toBe({i});\n  }});\n' for i in range(15)
    )
    text = f'import {{ test }} from "vitest";\n\ndescribe("math", () => {{\n{tests}}});\n'
    parsed = parse_file("math.test.js", text)
    check_well_formed(parsed, text)
    assert layout(parsed)[:4] == [
        (1, 1, "glue", ""),
        (3, 3, "module", "math"),
        (4, 6, "function", "math.case 0"),
        (8, 10, "function", "math.case 1"),
    ]
    assert chunk(parsed, "math.case 14").text.endswith("  });\n});")


# --- TypeScript (Zod idioms) -------------------------------------------------------------


def test_typescript() -> None:
    parsed, _ = parse_fixture("sample.ts")
    assert layout(parsed) == [
        (1, 2, "glue", ""),
        (4, 8, "interface", "ParseOptions"),
        (10, 10, "type", "Issue"),
        (12, 15, "enum", "Mode"),
        (17, 17, "glue", ""),  # a plain constant
        (19, 26, "function", "$ZodString"),  # the whole `export const ... ;` statement
        (28, 32, "function", "parse"),  # overload signatures folded in
        (34, 42, "class", "Shape"),
        (44, 44, "module", "Geometry"),  # namespaces are always cut per member
        (45, 48, "function", "Geometry.distance"),
        (50, 50, "function", "double"),
        (52, 54, "class", "Registry"),
    ]
    zod = chunk(parsed, "$ZodString")
    assert zod.signature.startswith('export const $ZodString = core.$constructor("$ZodString",')
    assert zod.text.rstrip().endswith("});")
    assert chunk(parsed, "ParseOptions").doc == "Options accepted by every parser."
    assert chunk(parsed, "parse").signature == "export function parse(schema: unknown): unknown {"
    assert chunk(parsed, "Geometry.distance").parent == "Geometry"
    assert symbol(parsed, "inst._zod.parse").parent == "$ZodString"
    assert [s.qualified_name for s in parsed.symbols if s.name == "parse"] == [
        "inst._zod.parse",
        "parse",
    ]
    assert symbol(parsed, "Shape.area").kind == "method"  # abstract
    assert symbol(parsed, "Shape.onResize").kind == "method"  # arrow-function field


def test_tsx() -> None:
    parsed, _ = parse_fixture("sample.tsx")
    assert parsed.language == "tsx"
    assert layout(parsed) == [
        (1, 1, "glue", ""),
        (3, 3, "type", "Props"),
        (5, 7, "function", "Button"),
        (9, 13, "function", "Panel"),
    ]


# --- Go, Rust ----------------------------------------------------------------------------


def test_go() -> None:
    parsed, _ = parse_fixture("sample.go")
    assert layout(parsed) == [
        (1, 10, "glue", ""),  # package, imports and the var block
        (12, 16, "struct", "Router"),
        (18, 21, "interface", "Matcher"),
        (23, 23, "type", "BuildVarsFunc"),
        (25, 33, "method", "Router.ServeHTTP"),
        (35, 40, "function", "cleanPath"),
    ]
    serve = chunk(parsed, "Router.ServeHTTP")
    assert (serve.symbol, serve.parent) == ("ServeHTTP", "Router")
    assert serve.doc == "ServeHTTP dispatches the handler registered in the matched route."
    assert serve.signature == (
        "func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {"
    )
    assert chunk(parsed, "Router").signature == "type Router struct {"
    assert symbol(parsed, "Router.ServeHTTP").start_line == 26


def test_rust() -> None:
    parsed, _ = parse_fixture("sample.rs")
    assert layout(parsed) == [
        (1, 1, "glue", ""),
        (3, 8, "struct", "Point"),  # doc comment and #[derive] absorbed
        (10, 15, "impl", "Point"),
        (17, 21, "impl", "Point"),  # impl Trait for Point
        (23, 25, "trait", "Shape"),
        (27, 30, "enum", "Color"),
        (32, 36, "function", "square"),  # macro_rules!
        (38, 38, "glue", ""),
        (40, 44, "function", "distance"),
    ]
    point = parsed.chunks[1]
    assert (point.doc, point.signature) == ("A point in the plane.", "pub struct Point {")
    assert [c.signature for c in parsed.chunks if c.kind == "impl"] == [
        "impl Point {",
        "impl fmt::Display for Point {",
    ]
    assert symbol(parsed, "Point.new").parent == "Point"
    assert symbol(parsed, "Point.fmt").kind == "method"
    assert symbol(parsed, "Shape.area").parent == "Shape"


RUST_WRAPPED = """#[cfg(feature = "rt")]
cfg_rt! {
    /// Runs the closure on a thread where blocking is fine.
    pub fn spawn_blocking(f: F) -> JoinHandle {
        let rt = Handle::current();
        rt.spawn_blocking(f)
    }

    cfg_unstable! {
        pub fn yield_now() {}
    }
}

impl Handle {
    cfg_io! {
        pub fn io(&self) -> &IoHandle { &self.io }
    };
}

doc! {macro_rules! select {
    ($($t:tt)*) => { $crate::select_internal!($($t)*) }
}}

cfg_if! {
    if #[cfg(unix)] { fn pipe() -> Fd { sys::pipe() } } else { fn pipe() -> Fd { todo() } }
}
"""


def test_rust_items_inside_an_item_macro_call_are_definitions() -> None:
    # `cfg_rt! { ... }` is one token tree to the grammar: its items are opened and parsed in
    # place, a nested call too; `cfg_if!`'s body is no item and stays glue, as written.
    parsed = parse_file("blocking.rs", RUST_WRAPPED)
    assert layout(parsed) == [
        (1, 2, "glue", ""),
        (3, 7, "function", "spawn_blocking"),
        (9, 9, "glue", ""),
        (10, 12, "function", "yield_now"),  # the closing braces, trivial lines, absorbed
        (14, 18, "impl", "Handle"),
        (20, 22, "function", "select"),
        (24, 26, "glue", ""),
    ]
    spawn = chunk(parsed, "spawn_blocking")
    assert spawn.doc == "Runs the closure on a thread where blocking is fine."
    assert spawn.signature == "pub fn spawn_blocking(f: F) -> JoinHandle {"
    assert spawn.text.startswith("    /// Runs the closure")  # the file as written
    assert symbol(parsed, "Handle.io").start_line == 16
    assert [(c.caller, c.callee, c.line) for c in parsed.calls] == [
        ("spawn_blocking", "current", 5),
        ("spawn_blocking", "spawn_blocking", 6),
    ]
    assert not any(s.name == "pipe" for s in parsed.symbols)


# --- Java, Kotlin, C# --------------------------------------------------------------------


def test_java() -> None:
    parsed, _ = parse_fixture("Sample.java")
    assert layout(parsed) == [
        (1, 3, "glue", ""),
        (5, 27, "class", "Cart"),  # Javadoc + annotation absorbed; small: one chunk
        (29, 31, "interface", "Priced"),
        (33, 33, "enum", "Currency"),
        (35, 35, "class", "Money"),  # record
    ]
    cart = chunk(parsed, "Cart")
    assert (cart.doc, cart.signature) == ("A shopping cart.", "public class Cart {")
    assert symbol_rows(parsed)[:5] == [
        ("class", "Cart", "", 8, 27),
        ("method", "Cart.constructor", "Cart", 12, 14),  # not `Cart.Cart`
        ("method", "Cart.total", "Cart", 17, 20),
        ("class", "Cart.Item", "Cart", 22, 26),
        ("method", "Cart.Item.price", "Cart.Item", 23, 25),
    ]


def test_java_big_class_is_cut_per_method() -> None:
    method = (
        "    /** Step {0}. */\n    @Override\n    public int step{0}() {{\n        return {0};\n"
    )
    methods = "\n".join(method.format(i) + "    }\n" for i in range(10))
    text = f"package p;\n\npublic class Steps {{\n    private int n;\n\n{methods}}}\n"
    parsed = parse_file("Steps.java", text)
    check_well_formed(parsed, text)
    assert layout(parsed)[:4] == [
        (1, 1, "glue", ""),
        (3, 4, "class", "Steps"),  # the head, without its trailing blank line
        (6, 10, "method", "Steps.step0"),
        (12, 16, "method", "Steps.step1"),
    ]
    step = chunk(parsed, "Steps.step0")
    assert (step.doc, step.signature, step.parent) == ("Step 0.", "public int step0() {", "Steps")
    assert parsed.chunks[-1].qualified_name == "Steps.step9"
    assert parsed.chunks[-1].text.endswith("    }\n}")  # the closing brace stays with it


def test_kotlin() -> None:
    parsed, _ = parse_fixture("sample.kt")
    assert layout(parsed) == [
        (1, 3, "glue", ""),
        (5, 12, "class", "Vec"),
        (14, 16, "interface", "Shape"),
        (18, 22, "class", "Registry"),  # object
        (24, 24, "enum", "Color"),
        (26, 26, "function", "String.shout"),  # extension function
        (28, 30, "function", "distance"),
    ]
    assert chunk(parsed, "Vec").doc == "A 2D vector."
    shout = chunk(parsed, "String.shout")
    assert (shout.symbol, shout.parent) == ("shout", "String")
    assert symbol(parsed, "Vec.Companion.zero").parent == "Vec.Companion"
    assert symbol(parsed, "Registry.register").kind == "method"


KOTLIN_MEMBER_EXTENSIONS = """\
class Table {
    fun <T> Table.array(name: String): List<T> = emptyList()
    fun String.quoted(): String = "'$this'"
}
"""


def test_kotlin_member_extensions_are_named_once_by_their_class() -> None:
    parsed = parse_file("Table.kt", KOTLIN_MEMBER_EXTENSIONS)
    names = {s.qualified_name: s.parent for s in parsed.symbols}
    # On its own class: `Table.array`, not `Table.Table.array`; on another type: kept apart.
    assert names == {"Table": "", "Table.array": "Table", "Table.String.quoted": "Table.String"}


def test_csharp_file_scoped_namespace() -> None:
    parsed, _ = parse_fixture("sample.cs")
    assert layout(parsed) == [
        (1, 1, "glue", ""),
        (3, 3, "module", "Shop.Billing"),
        (5, 25, "class", "Invoice"),  # the namespace stays apart, in the parent
        (27, 30, "interface", "IPayable"),
        (32, 32, "class", "Receipt"),
        (34, 34, "enum", "Status"),
    ]
    invoice = chunk(parsed, "Invoice")
    assert (invoice.symbol, invoice.parent, invoice.doc) == (
        "Invoice",
        "Shop.Billing",
        "Computes invoices.",
    )
    assert invoice.signature == "public class Invoice {"
    line = symbol(parsed, "Invoice.Line.Print")
    assert line.parent == "Invoice.Line"
    assert symbol(parsed, "Shop.Billing").end_line == 34  # `namespace X;` reaches the end


def test_csharp_block_namespace() -> None:
    text = "namespace Shop {\n    class A {\n        void M() {}\n    }\n}\n"
    parsed = parse_file("A.cs", text)
    check_well_formed(parsed, text)
    assert layout(parsed) == [(1, 1, "module", "Shop"), (2, 5, "class", "A")]
    assert symbol(parsed, "A.M").kind == "method" and symbol(parsed, "A").parent == "Shop"


# --- C, C++ ------------------------------------------------------------------------------


def test_c() -> None:
    parsed, _ = parse_fixture("sample.c")
    assert layout(parsed) == [
        (1, 1, "glue", ""),
        (3, 7, "struct", "buffer"),
        (9, 12, "struct", "point_t"),  # typedef struct {...} point_t;
        (14, 14, "enum", "color"),
        (16, 16, "glue", ""),  # a prototype
        (18, 24, "function", "dup_string"),  # pointer declarator
        (26, 30, "function", "main"),
    ]
    dup = chunk(parsed, "dup_string")
    assert (dup.doc, dup.signature) == (
        "Duplicate a string.",
        "static char *dup_string(const char *s) {",
    )


MACROS_H = """#define UV__ERR(x) (-(x))

/* Counts the handle as active. */
#define uv__handle_start(h)                                       \\
  do {                                                            \\
    if (((h)->flags & UV_HANDLE_ACTIVE) != 0) break;              \\
    (h)->flags |= UV_HANDLE_ACTIVE;                               \\
    uv__active_handle_add(h);                                     \\
  }                                                               \\
  while (0)

#define MAX_PATH 4096
"""


@pytest.mark.parametrize("path", ["uv-common.h", "uv-common.hpp"])
def test_a_macro_over_several_lines_is_a_definition(path: str) -> None:
    # A one-line macro is an alias: its line stays in the glue, as does an object-like one.
    parsed = parse_file(path, MACROS_H)
    assert layout(parsed) == [
        (1, 1, "glue", ""),
        (3, 10, "function", "uv__handle_start"),
        (12, 12, "glue", ""),
    ]
    # Both function-like macros are symbols (the finder lists them); a constant is not.
    assert [(s.name, s.start_line, s.end_line) for s in parsed.symbols] == [
        ("UV__ERR", 1, 1),
        ("uv__handle_start", 4, 10),
    ]
    assert chunk(parsed, "uv__handle_start").signature == "#define uv__handle_start(h)"
    # The body is one token to the grammar; its calls are read all the same, where written.
    assert [(c.caller, c.callee, c.line) for c in parsed.calls] == [
        ("uv__handle_start", "uv__active_handle_add", 8)
    ]


ONE_LINE_MACROS = """namespace absl {
#define ABSL_LOG(severity) ABSL_LOG_INTERNAL_LOG_IMPL(_##severity)
#define ABSL_LOG_INTERNAL_LOG_IMPL(s) ::absl::log_internal::Log(s)
int Flush(int s) { return ABSL_LOG(s); }
}  // namespace absl
"""


def test_a_one_line_macro_is_a_symbol_and_a_call_target() -> None:
    # abseil's public `ABSL_LOG` is a one-line alias: `symbols ABSL_LOG` found nothing and a
    # call of it was unresolved. The preprocessor knows no namespace: the macro is not
    # `absl.ABSL_LOG`. Its line stays in the namespace's chunk; the calls it makes are its own.
    parsed = parse_file("absl_log.h", ONE_LINE_MACROS)
    assert layout(parsed) == [
        (1, 3, "module", "absl"),
        (4, 4, "function", "absl.Flush"),
        (5, 5, "glue", ""),
    ]
    macros = [s for s in parsed.symbols if s.name.startswith("ABSL")]
    assert [(s.qualified_name, s.kind, s.parent, s.start_line) for s in macros] == [
        ("ABSL_LOG", "function", "", 2),
        ("ABSL_LOG_INTERNAL_LOG_IMPL", "function", "", 3),
    ]
    assert [(c.caller, c.callee, c.line) for c in parsed.calls] == [
        ("ABSL_LOG", "ABSL_LOG_INTERNAL_LOG_IMPL", 2),
        ("ABSL_LOG_INTERNAL_LOG_IMPL", "Log", 3),
        ("absl.Flush", "ABSL_LOG", 4),
    ]


def test_cpp() -> None:
    parsed, _ = parse_fixture("sample.cpp")
    assert layout(parsed) == [
        (1, 1, "glue", ""),
        (3, 3, "module", "geo"),
        (5, 14, "class", "Shape"),  # template<> absorbed; namespace geo in the parent
        (16, 18, "struct", "Size"),
        (20, 20, "glue", ""),
        (22, 25, "method", "Widget.name"),  # Widget::name
        (27, 29, "function", "add"),
    ]
    name = chunk(parsed, "Widget.name")
    assert (name.symbol, name.parent) == ("name", "Widget")
    assert chunk(parsed, "Shape").signature == "template <typename T> class Shape {"
    assert symbol(parsed, "Shape.area").parent == "Shape"
    assert symbol(parsed, "Shape").parent == "geo"


# --- Ruby, PHP ---------------------------------------------------------------------------


def test_ruby() -> None:
    parsed, _ = parse_fixture("sample.rb")
    assert layout(parsed) == [
        (1, 1, "glue", ""),
        (3, 3, "module", "Shop"),
        (4, 20, "class", "Cart"),  # the final `end` of the module joins it
        (22, 24, "function", "helper"),
    ]
    cart = chunk(parsed, "Cart")
    assert (cart.doc, cart.signature, cart.parent) == (
        "A shopping cart.",
        "class Cart < Base",
        "Shop",
    )
    empty = symbol(parsed, "Cart.empty")  # def self.empty
    assert (empty.kind, empty.parent) == ("method", "Cart")


def test_php() -> None:
    parsed, _ = parse_fixture("sample.php")
    assert layout(parsed) == [
        (1, 1, "glue", ""),
        (3, 5, "module", "App.Models"),
        (7, 13, "function", "Models.format_name"),  # the namespace's last part as owner
        (15, 18, "interface", "HasName"),
        (20, 26, "trait", "Greets"),
        (28, 38, "class", "User"),
    ]
    assert chunk(parsed, "Models.format_name").doc == "Formats a name."
    assert chunk(parsed, "Models.format_name").parent == "App.Models"
    assert symbol(parsed, "User.name").parent == "User"
    assert symbol(parsed, "User").parent == "App.Models"
    assert symbol(parsed, "Greets.greet").kind == "method"


# --- Swift, Scala, Lua, Bash -------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        (
            "a.swift",
            "import Foundation\n\nclass Cart {\n  func total() -> Int { return 1 }\n}\n\n"
            "struct Item { var price: Int }\n\nfunc helper() {}\n",
            [(1, 1, "glue", ""), (3, 5, "class", "Cart"), (7, 7, "struct", "Item"),
             (9, 9, "function", "helper")],
        ),
        (
            "a.scala",
            "package p\n\nobject Main {\n  def run(): Unit = println(1)\n}\n\n"
            "trait Shape { def area: Double }\n",
            [(1, 1, "glue", ""), (3, 5, "class", "Main"), (7, 7, "trait", "Shape")],
        ),
        (
            "a.lua",
            "local M = {}\n\nfunction M.add(a, b)\n  return a + b\nend\n\n"
            "local function helper()\nend\n\nreturn M\n",
            [(1, 1, "glue", ""), (3, 5, "method", "M.add"), (7, 8, "function", "helper"),
             (10, 10, "glue", "")],
        ),
        (
            "build.sh",
            "#!/bin/sh\nset -e\n\n# Build it.\nbuild() {\n  make all\n}\n\nbuild\n",
            # Its own lines are the script (named with `.sh`: it defines a `build`).
            [(1, 2, "script", "build.sh"), (4, 7, "function", "build"),
             (9, 9, "script", "build.sh")],
        ),
    ],
)  # fmt: skip
def test_more_languages(path: str, text: str, expected: list[tuple[int, int, str, str]]) -> None:
    parsed = parse_file(path, text)
    check_well_formed(parsed, text)
    assert parsed.strategy == "tree-sitter"
    assert layout(parsed) == expected


SCALA_VALUES = """object Decoder {
  /** Decodes a character. */
  implicit final val decodeChar: Decoder[Char] = new Decoder[Char] {
    final def apply(c: HCursor): Result[Char] = c.value
  }
  implicit final lazy val decodeInt: Decoder[Int] = decodeLong.map(_.toInt)
  lazy val table: Map[String, Int] = {
    val a = 1
    Map("a" -> a)
  }
}
"""


def test_a_scala_value_that_carries_logic_is_a_definition() -> None:
    # As Kotlin's properties with accessors: an instance with a body, or a block; a plain
    # one-line value (`decodeInt`) is not.
    parsed = parse_file("Decoder.scala", SCALA_VALUES)
    assert [(s.qualified_name, s.kind, s.start_line) for s in parsed.symbols] == [
        ("Decoder", "class", 1),
        ("Decoder.decodeChar", "method", 3),
        ("Decoder.decodeChar.apply", "function", 4),
        ("Decoder.table", "method", 7),
    ]


LUA_MODULE = """local M = {}

M.sources = {
  --- Counts the language server's diagnostics.
  nvim_lsp = function()
    return 1
  end,
  other = 3,
}

local Job = setmetatable({
  start = function(self)
    return self
  end,
}, {})

local gen_size = (function()
  local units = { "", "K" }
  return function(size)
    return size .. units[1]
  end
end)()

M.sleep = a.wrap(function(ms, callback)
  callback()
end, 2)

local colors = { red = 1, blue = 2 }

return { setup = function() end }
"""


def test_lua_tables_of_functions_closures_and_wrapped_functions() -> None:
    # A table that holds functions, bound to a name, is a class with those members (Lua's
    # modules and metatable classes); a closure made once, or a function handed to a
    # wrapper, is the name's function. A table of plain values stays glue.
    parsed = parse_file("lua/m.lua", LUA_MODULE)
    check_well_formed(parsed, LUA_MODULE)
    assert spans(parsed) == [
        ("M.sources", "class", 3, 9),
        ("M.sources.nvim_lsp", "method", 5, 7),
        ("Job", "class", 11, 15),
        ("Job.start", "method", 12, 14),
        ("gen_size", "function", 17, 22),
        ("M.sleep", "method", 24, 26),
        ("setup", "function", 30, 30),
    ]
    assert "Counts the language server" in chunk(parsed, "M.sources").text
    assert all("colors" not in s.qualified_name for s in parsed.symbols)


def test_a_lua_table_annotated_as_a_class_is_a_class() -> None:
    # LuaLS annotations (`---@class`, `---@field`) right above `local Job = {}` declare the
    # class whose methods follow; a `---@type` or plain comment does not.
    text = (
        "---@class Job\n---@field command string Command to run\nlocal Job = {}\n"
        "Job.__index = Job\n\nfunction Job:start()\n  return self\nend\n\n"
        "---@type table<string, string>\nlocal cache = {}\n"
    )
    parsed = parse_file("lua/job.lua", text)
    check_well_formed(parsed, text)
    assert spans(parsed) == [("Job", "class", 3, 3), ("Job.start", "method", 6, 8)]
    assert chunk(parsed, "Job").doc.startswith("@class Job\n@field command string")


ELIXIR_MODULE = '''defmodule MyApp.Repo do
  @moduledoc """
  The repository.
  """

  @doc "Fetches one row by id."
  @callback get(queryable :: t, id :: term) :: t | nil

  @doc """
  Counts rows.

  Zero for an empty table.
  """
  @spec count(list) :: non_neg_integer
  def count([]), do: 0
  def count([_ | rest]), do: 1 + count(rest)

  defp helper(x) when is_atom(x) do
    x
  end

  defmacro __using__(opts) do
    quote do
      unquote(opts)
    end
  end
end
'''


def test_elixir_definitions_clauses_and_docs() -> None:
    # A function's clauses are one definition; `@doc` documents it (as does a one-line
    # `@doc "..."`), `@spec` stays with it; a behaviour's `@callback` is a definition.
    parsed = parse_file("lib/my_app/repo.ex", ELIXIR_MODULE)
    check_well_formed(parsed, ELIXIR_MODULE)
    assert spans(parsed) == [
        ("MyApp.Repo", "module", 1, 27),
        ("Repo.get", "function", 7, 7),
        ("Repo.count", "function", 15, 16),
        ("Repo.helper", "function", 18, 20),
        ("Repo.__using__", "function", 22, 26),
    ]
    chunks = {c.qualified_name: c for c in parsed.chunks}
    assert (chunks["Repo.get"].start_line, chunks["Repo.get"].doc) == (6, "Fetches one row by id.")
    count = chunks["Repo.count"]
    assert (count.start_line, count.signature) == (9, "def count([]), do: 0")
    assert count.doc == "Counts rows.\n\nZero for an empty table."
    assert chunks["Repo.helper"].thin == ""


HASKELL_MODULE = """module Data.Stack (Stack, push, size) where

-- | A stack of values.
data Stack a = Stack [a]

-- | \\(O(1)\\). Push a value.
--
-- > push 1 empty

-- See Note: laziness
push :: a -> Stack a -> Stack a
push x (Stack xs) = Stack (x : xs)
{-# INLINE push #-}

size :: Stack a -> Int
size (Stack []) = 0
size (Stack (_ : xs)) = 1 + size (Stack xs)
  where
    helper = id

(<+>) :: Stack a -> Stack a -> Stack a
Stack a <+> Stack b = Stack (a ++ b)

class Sized f where
  -- | How many.
  count :: f a -> Int

instance Sized Stack where
  count = size
"""


def test_haskell_signatures_equations_and_haddock() -> None:
    # The type signature and every equation are one definition, named without parentheses
    # for an operator; a `where` binding is the function's own; a Haddock block one blank
    # line above (with plain comments between) documents it; a pragma below stays with it.
    parsed = parse_file("src/Data/Stack.hs", HASKELL_MODULE)
    check_well_formed(parsed, HASKELL_MODULE)
    assert spans(parsed) == [
        ("Stack", "type", 4, 4),
        ("push", "function", 11, 12),
        ("size", "function", 15, 19),
        ("<+>", "function", 21, 22),
        ("Sized", "interface", 24, 26),
        ("Sized.count", "method", 26, 26),
        ("Stack", "impl", 28, 29),  # named by its type, as Rust's `impl Sized for Stack`
        ("Stack.count", "method", 29, 29),
    ]
    chunks = {(c.qualified_name, c.start_line): c for c in parsed.chunks}
    push = chunks["push", 6]
    assert push.end_line == 13  # with its INLINE pragma
    assert push.signature == "push :: a -> Stack a -> Stack a"
    assert push.doc.startswith("\\(O(1)\\). Push a value.")
    assert chunks["Stack", 3].doc == "A stack of values."


ZIG_FILE = """const std = @import("std");

/// A fixed-size buffer.
pub const Buffer = struct {
    data: []u8,

    /// Makes an empty one.
    pub fn init(data: []u8) Buffer {
        return .{ .data = data };
    }
};

pub const Mode = union(enum) { fixed: usize, growing };
pub const Kind = enum { a, b };

test "init keeps the slice" {
    var raw: [4]u8 = undefined;
    try std.testing.expect(Buffer.init(&raw).data.len == 4);
}
"""


def test_zig_types_functions_and_tests() -> None:
    parsed = parse_file("src/buffer.zig", ZIG_FILE)
    check_well_formed(parsed, ZIG_FILE)
    assert spans(parsed) == [
        ("Buffer", "struct", 4, 11),
        ("Buffer.init", "method", 8, 10),
        ("Mode", "struct", 13, 13),
        ("Kind", "enum", 14, 14),
        ('test "init keeps the slice"', "function", 16, 19),
    ]
    assert parsed.chunks[1].doc == "A fixed-size buffer."
    assert in_test_module("zig", "function", 'test "init keeps the slice"', "")
    assert not in_test_module("zig", "method", "Buffer.init", "Buffer")


def test_zig_functions_in_the_struct_a_type_function_returns_are_its_methods() -> None:
    text = (
        "pub fn Pool(comptime T: type) type {\n    return struct {\n        value: T,\n\n"
        "        pub fn acquire(self: *@This()) void {\n            _ = self;\n        }\n"
        "    };\n}\n\npub fn helper(x: u32) u32 {\n    return twice(x);\n}\n\n"
        "fn twice(x: u32) u32 {\n    return x * 2;\n}\n"
    )
    parsed = parse_file("src/pool.zig", text)
    kinds = {s.qualified_name: s.kind for s in parsed.symbols}
    # Zig's style names a function that returns a type in TitleCase; camelCase ones do not.
    assert kinds == {"Pool": "function", "Pool.acquire": "method", "helper": "function",
                     "twice": "function"}  # fmt: skip


# --- rules shared by all languages -------------------------------------------------------


def test_large_definition_is_split_in_parts() -> None:
    body = "\n".join(f"    total += {i}" for i in range(300))
    head = "# Sum things.\ndef big(total: int) -> int:\n    '''Adds.'''\n"
    text = f"{head}{body}\n    return total\n"
    parsed = parse_file("big.py", text, max_chunk_lines=120)
    check_well_formed(parsed, text)
    parts = parsed.chunks
    assert [c.part for c in parts] == [1, 2, 3]
    assert all(c.parts == 3 and c.line_count <= 120 for c in parts)
    assert parts[0].start_line == 1  # part 1 starts at the absorbed comment
    assert parts[-1].end_line == 304
    assert {(c.symbol, c.qualified_name, c.signature, c.doc) for c in parts} == {
        ("big", "big", "def big(total: int) -> int:", "Adds.")
    }
    assert [s.qualified_name for s in parsed.symbols] == ["big"]


def test_big_container_head_and_glue_parts() -> None:
    fields = "\n".join(f"    f{i} = {i}" for i in range(150))
    text = f"class Config:\n{fields}\n\n    def load(self) -> None:\n        pass\n"
    parsed = parse_file("config.py", text, max_chunk_lines=100)
    check_well_formed(parsed, text)
    assert [(c.kind, c.qualified_name, c.part, c.parts) for c in parsed.chunks] == [
        ("class", "Config", 1, 2),
        ("class", "Config", 2, 2),
        ("method", "Config.load", 1, 1),
    ]
    glue_text = "\n".join(f"X{i} = {i}" for i in range(130))
    parsed = parse_file("consts.py", glue_text, window_lines=60)
    check_well_formed(parsed, glue_text)
    assert [(c.kind, c.start_line, c.end_line) for c in parsed.chunks] == [
        ("glue", 1, 60),
        ("glue", 61, 120),
        ("glue", 121, 130),
    ]


def test_comment_absorption_needs_adjacency() -> None:
    text = "# Not attached.\n\n# Attached.\n# Still attached.\ndef f():\n    return 1\n"
    parsed = parse_file("f.py", text)
    check_well_formed(parsed, text)
    assert layout(parsed) == [(1, 1, "glue", ""), (3, 6, "function", "f")]
    assert parsed.chunks[1].doc == "Attached.\nStill attached."
    assert symbol(parsed, "f").start_line == 5


def test_decorators_and_docstring() -> None:
    text = (
        "class A:\n"
        "    @staticmethod\n"
        "    @functools.cache\n"
        "    def make(x: int,\n"
        "             y: int) -> 'A':\n"
        '        r"""Build an A.\n\n        Twice."""\n'
        "        return A()\n"
    )
    parsed = parse_file("a.py", text)
    check_well_formed(parsed, text)
    assert layout(parsed) == [(1, 9, "class", "A")]
    make = symbol(parsed, "A.make")
    assert (make.kind, make.start_line, make.end_line) == ("method", 4, 9)


def test_syntax_error_file_still_chunks() -> None:
    text = "def broken(:\n    pass\n\nclass Ok:\n    def m(self):\n        return 1\n\nx = = 2\n"
    parsed = parse_file("bad.py", text)
    check_well_formed(parsed, text)
    assert "Ok" in [c.qualified_name for c in parsed.chunks]
    garbage = "}{ ) ( ]][[ function class def <<< >>> \x00 \ufffd\n" * 50
    for path in ("g.js", "g.ts", "g.go", "g.rs", "g.java", "g.cpp", "g.rb", "g.php", "g.kt"):
        check_well_formed(parse_file(path, garbage), garbage)


@pytest.mark.parametrize("path", ["empty.py", "empty.md", "empty.txt", "empty.json", "x.unknown"])
def test_empty_file(path: str) -> None:
    for text in ("", "\n\n  \n"):
        parsed = parse_file(path, text)
        assert parsed.chunks == () and parsed.symbols == ()
        assert coverage(parsed, text) == (0, 0)


def test_one_megabyte_single_line_is_fast() -> None:
    text = "var a=1;" * 131072  # 1 MiB, no newline: minified
    started = time.perf_counter()
    parsed = parse_file("dist/app.min.js", text)
    assert time.perf_counter() - started < 1.0
    assert parsed.strategy == "lines"
    assert [(c.kind, c.start_line, c.end_line) for c in parsed.chunks] == [("window", 1, 1)]
    for path in ("big.md", "big.json", "big.txt", "big.py"):
        started = time.perf_counter()
        check_well_formed(parse_file(path, text), text)
        assert time.perf_counter() - started < 1.0


def test_odd_text_never_raises() -> None:
    text = "def f():\n    return '\udcff'\n\x0c\n\u2028x = 1\n"
    parsed = parse_file("odd.py", text)
    check_well_formed(parsed, text)
    assert parse_file("odd.py", text, language="no-such-language").strategy == "lines"


# --- windows, Markdown, data files -------------------------------------------------------


def test_windows_fallback() -> None:
    text = "\n".join(f"line {i}" for i in range(1, 131)) + "\n"
    parsed = parse_file("notes.txt", text, window_lines=60, window_overlap=10)
    check_well_formed(parsed, text)
    assert parsed.strategy == "lines" and parsed.language == "text"
    assert [(c.kind, c.start_line, c.end_line) for c in parsed.chunks] == [
        ("window", 1, 60),
        ("window", 51, 110),
        ("window", 101, 130),
    ]
    css = parse_file("site.css", "body { color: red; }\n")
    assert (css.language, css.strategy, css.symbols) == ("css", "lines", ())
    unknown = parse_file("data.weird", "a\nb\n")  # the pipeline's "text" fallback
    assert (unknown.language, unknown.strategy) == ("text", "lines")


def test_markdown_sections() -> None:
    parsed, _ = parse_fixture("sample.md", max_chunk_lines=30, window_lines=20)
    assert parsed.strategy == "sections"
    rows = [(c.start_line, c.end_line, c.symbol, c.parent, c.part, c.parts) for c in parsed.chunks]
    assert rows == [
        (1, 3, "", "", 1, 1),  # front matter and text before the first heading
        (5, 7, "Project", "", 1, 1),
        (9, 17, "Install", "Project", 1, 1),  # the `# not a heading` in the fence is code
        (19, 22, "Usage", "Project", 1, 1),
        (24, 26, "Advanced", "Project > Usage", 1, 1),
        (28, 47, "Reference", "", 1, 2),  # 35 lines > 30: cut into 20-line parts
        (48, 62, "Reference", "", 2, 2),
    ]
    assert {c.kind for c in parsed.chunks} == {"section"}
    assert chunk(parsed, "Project > Usage > Advanced").signature == "### Advanced"
    assert chunk(parsed, "Reference").signature == "Reference"  # setext heading


def test_markdown_titles_read_without_their_badges_links_and_tags() -> None:
    text = (
        "# Kit [![CI](https://ci.example/badge.svg)](https://ci.example) [![v][1]][2]\n\nIntro.\n\n"
        '## Using [`Annotated`][typing.Annotated] <a name="using"></a>\n\nText.\n\n'
        "## `Option<T>` and <b>maps</b>\n\nMore.\n\n"
        '# <img alt="kit logo" src="logo.svg" width="20" />\n\nLast.\n'
    )
    parsed = parse_file("README.md", text)
    assert [(c.symbol, c.parent) for c in parsed.chunks] == [
        ("Kit", ""),
        ("Using `Annotated`", "Kit"),
        ("`Option<T>` and maps", "Kit"),  # a code span keeps its `<T>`
        ("kit logo", ""),  # a title that is only an image reads as its alternative text
    ]


def test_data_files_one_section_per_top_level_key() -> None:
    yaml = "# CI\nname: ci\non:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: x\n"
    parsed = parse_file(".github/workflows/ci.yml", yaml)
    check_well_formed(parsed, yaml)
    assert [(c.start_line, c.end_line, c.kind, c.symbol) for c in parsed.chunks] == [
        (1, 2, "glue", ""),  # one-line keys are values: glue
        (3, 5, "section", "on"),
        (6, 8, "section", "jobs"),
    ]
    toml = '[project]\nname = "x"\nversion = "1"\n\n[tool.ruff]\nline-length = 100\n'
    parsed = parse_file("pyproject.toml", toml)
    check_well_formed(parsed, toml)
    assert [(c.start_line, c.end_line, c.symbol) for c in parsed.chunks] == [
        (1, 3, "project"),
        (5, 6, "tool.ruff"),
    ]
    json = '{\n  "name": "x",\n  "scripts": {\n    "test": "jest"\n  }\n}\n'
    parsed = parse_file("package.json", json)
    check_well_formed(parsed, json)
    assert [(c.start_line, c.end_line, c.kind, c.symbol) for c in parsed.chunks] == [
        (1, 2, "glue", ""),
        (3, 6, "section", "scripts"),  # the closing brace joins the last section
    ]
    assert parsed.symbols == ()


# --- coverage ----------------------------------------------------------------------------


def test_coverage() -> None:
    parsed, text = parse_fixture("sample.py")
    covered, total = coverage(parsed, text)
    nonblank = [n for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    assert total == len(nonblank)
    glue = {
        n for c in parsed.chunks if c.kind == "glue" for n in range(c.start_line, c.end_line + 1)
    }
    assert covered == len([n for n in nonblank if n not in glue])
    assert 0 < covered < total
    windows = parse_file("notes.txt", text)
    assert coverage(windows, text) == (0, total)


def test_a_short_swift_extension_is_cut_into_its_members() -> None:
    # An extension stores no fields: its head is the `extension X {` line, and a question
    # names the method it adds (`uniqued(on:)`), so even a short one gets member chunks.
    text = (
        "extension Sequence {\n"
        "  /// Drops repeated elements, keeping the first of each.\n"
        "  public func uniqued() -> [Element] {\n"
        "    var seen = Set<Element>()\n"
        "    return filter { seen.insert($0).inserted }\n"
        "  }\n"
        "\n"
        "  public func count(of e: Element) -> Int {\n"
        "    return reduce(0) { $0 + ($1 == e ? 1 : 0) }\n"
        "  }\n"
        "}\n"
        "\n"
        "struct Pair {\n"
        "  var a: Int\n"
        "  func sum() -> Int { return a + a }\n"
        "}\n"
    )
    parsed = parse_file("Unique.swift", text)
    check_well_formed(parsed, text)
    assert layout(parsed) == [
        (1, 1, "impl", "Sequence"),
        (2, 6, "method", "Sequence.uniqued"),
        (8, 11, "method", "Sequence.count"),
        (13, 16, "struct", "Pair"),  # a short type with fields stays whole
    ]
    assert chunk(parsed, "Sequence.uniqued").parent == "Sequence"


def test_an_opened_macro_call_keeps_every_byte_in_place() -> None:
    # Windows line endings and a non-ASCII comment in the call's head: only the name, `!` and
    # braces become spaces, so the opened text has the same length and the same lines.
    text = RUST_WRAPPED.replace("cfg_rt! {", "cfg_rt! /* é */ {").replace("\n", "\r\n")
    tree, opened = grammar_gaps.parse("rust", text.encode("utf-8"))
    assert len(opened) == len(text.encode("utf-8"))
    assert opened.count(b"\r\n") == text.count("\r\n")
    assert not tree.root_node.has_error
    parsed = parse_file("blocking.rs", text)
    assert symbol(parsed, "spawn_blocking").start_line == 4
    assert symbol(parsed, "Handle.io").start_line == 16


GUARDED_H = """#ifndef UV_H
#define UV_H
#ifdef __cplusplus
extern "C" {
#endif

struct uv_loop_s {
  void* data;
};

UV_EXTERN int uv_loop_init(uv_loop_t* loop);

static int uv_is_ready(const uv_loop_t* loop) {
  return loop->data != NULL;
}

#ifdef __cplusplus
}
#endif
#endif
"""


def test_a_c_header_greeting_cpp_readers_still_parses() -> None:
    # The brace of `extern "C" {` opens under one `#ifdef` and closes under another; to the
    # grammar the whole header was one error and nothing in it a definition.
    parsed = parse_file("include/uv.h", GUARDED_H)
    assert parsed.language == "c"
    assert [s.qualified_name for s in parsed.symbols] == ["uv_loop_s", "uv_is_ready"]
    assert chunk(parsed, "uv_is_ready").signature == (
        "static int uv_is_ready(const uv_loop_t* loop) {"
    )
    tree, _ = grammar_gaps.parse("c", GUARDED_H.encode())
    assert not tree.root_node.has_error


C_SPLIT_BRACES = """\
#include <unistd.h>

void drain(int fd) {
  char buf[64];
#if HAVE_EVFILT_USER
  for (;!user_events;) {
#else
  for (;;) {
#endif
    if (read(fd, buf, sizeof(buf)) != -1)
      break;
  }
}

#ifdef WIN32
int wmain(int argc, wchar_t* argv[]) {
  return umain(argc, 0);
}
int umain(int argc, char* argv[]) {
#else
int main(int argc, char* argv[]) {
#endif
  drain(0);
  return 0;
}

static int after(void) {
#if defined(X)
  return 1;
#else
  return 0;
#endif
}
"""


def test_c_conditionals_that_split_a_brace_still_parse() -> None:
    # Each branch opens the brace the other opens again: read whole, the braces no longer
    # balance and the definitions after them were lost or swallowed. The `#else` branch is
    # read; a conditional that balances its braces stays as written.
    parsed = parse_file("src/drain.c", C_SPLIT_BRACES)
    assert [(s.qualified_name, s.start_line, s.end_line) for s in parsed.symbols] == [
        ("drain", 3, 13),
        ("main", 21, 25),
        ("after", 27, 33),
    ]
    tree, read = grammar_gaps.parse("c", C_SPLIT_BRACES.encode())
    assert not tree.root_node.has_error
    assert read.count(b"\n") == C_SPLIT_BRACES.count("\n")
    assert b"#if defined(X)" in read  # balanced: left as written


C_DIRECTIVE_IN_INITIALIZER = """\
unsigned int uv_available_parallelism(void) {
  long rc = -1;
#if defined(__OpenBSD__)
  static int mib[][2] = {
# ifdef HW_NCPUONLINE
    { CTL_HW, HW_NCPUONLINE },
# endif
    { CTL_HW, HW_NCPU }
  };
  rc = sysctl_count(mib);
#endif
  return (unsigned) rc;
}

int uv_cpumask_size(void) {
  return -1;
}
"""


def test_a_c_directive_inside_an_initializer_still_parses() -> None:
    # The grammar reads no directive inside an initializer list: libuv's
    # `uv_available_parallelism` was no definition (its whole `core.c` one error). The
    # directive lines of a group whose branches each balance their braces become spaces.
    parsed = parse_file("src/unix/core.c", C_DIRECTIVE_IN_INITIALIZER)
    assert [(s.qualified_name, s.start_line, s.end_line) for s in parsed.symbols] == [
        ("uv_available_parallelism", 1, 13),
        ("uv_cpumask_size", 15, 17),
    ]
    tree, read = grammar_gaps.parse("c", C_DIRECTIVE_IN_INITIALIZER.encode())
    assert not tree.root_node.has_error
    assert b"{ CTL_HW, HW_NCPUONLINE }," in read  # every branch's code is kept
    assert b"# ifdef" not in read


HASKELL_CPP = """\
module Data.KeyMap (KeyMap, size, toList) where

#ifdef USE_ORDEREDMAP
import qualified Data.Map as M

-- | A map from keys to values.
newtype KeyMap v = KeyMap (M.Map Key v)

-- | Return the number of key-value mappings in this map.
size :: KeyMap v -> Int
size (KeyMap m) = M.size m
#else
import qualified Data.HashMap.Strict as H

-- | A map from keys to values.
newtype KeyMap v = KeyMap (H.HashMap Key v)

-- | Return the number of key-value mappings in this map.
size :: KeyMap v -> Int
size (KeyMap m) = H.size m

-- | Only the hash map can say this.
fromHashMap :: H.HashMap Key v -> KeyMap v
fromHashMap = KeyMap
#endif

toList :: KeyMap v -> [(Key, v)]
toList = undefined
"""


def test_haskell_definitions_under_else_are_read() -> None:
    # The grammar reads a conditional's first branch and takes `#else` to `#endif` as one
    # directive, so what only the `#else` branch defines was glue, no symbol: every branch is
    # read (a definition in both is one node to the call graph).
    parsed = parse_file("src/Data/KeyMap.hs", HASKELL_CPP)
    check_well_formed(parsed, HASKELL_CPP)
    assert [(s.qualified_name, s.start_line) for s in parsed.symbols] == [
        ("KeyMap", 7),
        ("size", 10),
        ("KeyMap", 16),
        ("size", 19),
        ("fromHashMap", 23),
        ("toList", 27),
    ]
    chunks = {(c.qualified_name, c.start_line): c for c in parsed.chunks}
    assert chunks["fromHashMap", 22].doc == "Only the hash map can say this."
    assert chunks["size", 18].signature == "size :: KeyMap v -> Int"
    tree, read = grammar_gaps.parse("haskell", HASKELL_CPP.encode())
    assert not tree.root_node.has_error
    assert read.count(b"\n") == HASKELL_CPP.count("\n")


CSHARP_CONDITIONALS = """\
namespace Serilog
{
    public interface ILogger
    {
        /// <summary>Write an event to the log.</summary>
        void Write(LogEvent logEvent)
#if FEATURE_DEFAULT_INTERFACE
        {
            if (!IsEnabled(logEvent.Level)) return;
            Dispatch(logEvent);
        }
#else
            ;
#endif

        bool IsEnabled(LogEventLevel level)
#if FEATURE_DEFAULT_INTERFACE
            => true;
#else
            ;
#endif
    }

    public abstract partial class JsonReader
#if HAVE_ASYNC_DISPOSABLE
        : IAsyncDisposable
#endif
    {
#if HAVE_ASYNC_DISPOSABLE
        ValueTask IAsyncDisposable.DisposeAsync()
        {
            Dispose(true);
            return default;
        }
#endif

        public virtual Task<bool> ReadAsync()
        {
            return Task.FromResult(Read());
        }
    }
}
"""

SWIFT_CONDITIONAL = """\
final class GenerateManualTests: XCTestCase {
  #if os(macOS)
  override func setUp() {
    super.setUp()
  }
  #endif

  func testColorManual() throws {
    try assertGenerateManual(command: "color")
  }
}
"""


def test_csharp_and_swift_conditionals_keep_their_owners() -> None:
    # Read with every branch, a conditional in a class's base list broke the declaration: the
    # class was named `HAVE_ASYNC_DISPOSABLE`, and Swift's methods under a `#if` became
    # functions of no type. The directives are read as spaces, and where the branches are
    # alternatives of one construct, one branch is read.
    parsed = parse_file("src/ILogger.cs", CSHARP_CONDITIONALS)
    check_well_formed(parsed, CSHARP_CONDITIONALS)
    assert [(s.qualified_name, s.start_line, s.end_line) for s in parsed.symbols] == [
        ("Serilog", 1, 42),
        ("ILogger", 3, 22),
        ("ILogger.Write", 6, 11),
        ("ILogger.IsEnabled", 16, 18),
        ("JsonReader", 24, 41),
        ("JsonReader.DisposeAsync", 30, 34),
        ("JsonReader.ReadAsync", 37, 40),
    ]
    tree, read = grammar_gaps.parse("csharp", CSHARP_CONDITIONALS.encode())
    assert not tree.root_node.has_error
    assert read.count(b"\n") == CSHARP_CONDITIONALS.count("\n")
    swift = parse_file("Tests/GenerateManualTests.swift", SWIFT_CONDITIONAL)
    assert [(s.qualified_name, s.kind) for s in swift.symbols] == [
        ("GenerateManualTests", "class"),
        ("GenerateManualTests.setUp", "method"),
        ("GenerateManualTests.testColorManual", "method"),
    ]


SWIFT_TEST_HELPER = """\
private func expectIndexEqual(
  _ sut: SplitArguments, at index: Int,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  try #require(index < sut.elements.endIndex, sourceLocation: sourceLocation)
}

struct SplitArgumentTests {
  @Test func empty() throws {
    try expectIndexEqual(SplitArguments(arguments: []), at: 0)
  }
}
"""


def test_a_swift_macro_named_with_an_underscore_parses() -> None:
    # `#_sourceLocation` (Swift Testing's default for a helper's parameter) is no name the
    # grammar knows: the helper and everything after it were one error.
    parsed = parse_file("Tests/SplitArgumentTests.swift", SWIFT_TEST_HELPER)
    assert [(s.qualified_name, s.kind) for s in parsed.symbols] == [
        ("expectIndexEqual", "function"),
        ("SplitArgumentTests", "struct"),
        ("SplitArgumentTests.empty", "method"),
    ]
    tree, read = grammar_gaps.parse("swift", SWIFT_TEST_HELPER.encode())
    assert not tree.root_node.has_error
    assert b"=  _sourceLocation" in read  # the `#` a space: bytes keep their places


SWIFT_NEWER_SYNTAX = """\
#if compiler(<6.2)
@available(*, unavailable, message: "RigidArray requires a Swift 6.2 toolchain")
public struct RigidArray<Element: ~Copyable>: ~Copyable {
  public init() {}
}
#else
public struct RigidArray<Element: ~Copyable>: ~Copyable {
  internal var _count: Int

  package init(_storage: UnsafeMutableBufferPointer<Element>, count: Int) {
    unsafe self._ptr = _storage.baseAddress.unsafelyUnwrapped
    self._count = count
  }
}

extension RigidArray where Element: ~Copyable {
  public var span: Span<Element> {
    @_lifetime(borrow self)
    get { unsafe Span(_unsafeElements: _items) }
  }

  public mutating func append<E: Error>(
    count: Int, initializingWith body: (inout OutputSpan<Element>) throws(E) -> Void
  ) throws(E) {
    try body(&span)
  }

  public __consuming func removeAll(keepingCapacity: __owned Bool) -> Self {
    _ = consume self
    return Self()
  }
}
#endif
"""


def test_swift_newer_than_the_grammar_keeps_the_real_code_over_its_fallback() -> None:
    # `unsafe`, `throws(E)`, `@_lifetime(...)`, `__consuming` and `consume` were errors, so
    # the reading with the fewest errors blanked the `#else` branch and kept the stub for old
    # compilers: 2 definitions of 8 (swift-collections' RigidArray: 2 of 40).
    parsed = parse_file("Sources/RigidArray.swift", SWIFT_NEWER_SYNTAX)
    check_well_formed(parsed, SWIFT_NEWER_SYNTAX)
    assert [(s.qualified_name, s.kind, s.start_line) for s in parsed.symbols] == [
        ("RigidArray", "struct", 2),
        ("RigidArray.init", "method", 4),
        ("RigidArray", "struct", 7),
        ("RigidArray.init", "method", 10),
        ("RigidArray", "impl", 16),
        ("RigidArray.span", "method", 17),
        ("RigidArray.append", "method", 22),
        ("RigidArray.removeAll", "method", 28),
    ]
    tree, read = grammar_gaps.parse("swift", SWIFT_NEWER_SYNTAX.encode())
    assert not tree.root_node.has_error
    assert len(read) == len(SWIFT_NEWER_SYNTAX.encode())
    assert b"    _ = " + b" " * 8 + b"self" in read  # `consume ` as spaces, in place
    assert b") throws    {" in read


CSHARP_EXTENSION_BLOCKS = """\
namespace Humanizer;

internal static class PolyfillShims
{
    extension(ArgumentNullException)
    {
        public static void ThrowIfNull(object? argument) => Check(argument);
    }

    extension<T>(IEnumerable<T> source) where T : class
    {
        public bool IsEmpty => !source.Any();

        public T FirstOrFallback(T fallback) => source.FirstOrDefault() ?? fallback;
    }

    public static void Check(object? value) { }
}
"""


def test_csharp_extension_blocks_hold_their_members() -> None:
    # C# 14: the grammar read the first block as a method named `extension` with local
    # functions, and the rest of the class as errors.
    parsed = parse_file("src/PolyfillShims.cs", CSHARP_EXTENSION_BLOCKS)
    check_well_formed(parsed, CSHARP_EXTENSION_BLOCKS)
    assert [(s.qualified_name, s.kind) for s in parsed.symbols] == [
        ("Humanizer", "module"),
        ("PolyfillShims", "class"),
        ("PolyfillShims.ArgumentNullException", "class"),
        ("PolyfillShims.ArgumentNullException.ThrowIfNull", "method"),
        ("PolyfillShims.IEnumerable", "class"),
        ("PolyfillShims.IEnumerable.IsEmpty", "method"),
        ("PolyfillShims.IEnumerable.FirstOrFallback", "method"),
        ("PolyfillShims.Check", "method"),
    ]
    tree, read = grammar_gaps.parse("csharp", CSHARP_EXTENSION_BLOCKS.encode())
    assert not tree.root_node.has_error
    assert b"    class        IEnumerable<T>         where T" in read


TS_GENERIC_SIGNATURES = """\
export interface Handlers<E> {
  <I extends Input = {}>(handler1: H<E, I>): [H<E, I>]

  // two handlers
  <
    I extends Input = {},
    I2 extends Input = I,
  >(handler1: H<E, I>, handler2: H<E, I2>): [H<E, I>, H<E, I2>]
}

export class Factory<E> {
  createHandlers = (...handlers: any) => handlers
}

export const createMiddleware = <E extends Env = any>(middleware: M<E>): M<E> => middleware
"""


def test_typescript_generic_call_signatures_one_per_line_keep_the_rest_of_the_file() -> None:
    # hono's handler interfaces: without a `;` between them the grammar read the second
    # signature as the first one's type going on, and everything after as one error.
    parsed = parse_file("src/factory.ts", TS_GENERIC_SIGNATURES)
    check_well_formed(parsed, TS_GENERIC_SIGNATURES)
    assert [s.qualified_name for s in parsed.symbols if not s.parent] == [
        "Handlers",
        "Factory",
        "createMiddleware",
    ]
    tree, read = grammar_gaps.parse("typescript", TS_GENERIC_SIGNATURES.encode())
    assert not tree.root_node.has_error
    assert b"\n; <\n    I extends" in read and len(read) == len(TS_GENERIC_SIGNATURES)
    # JSX lines open with `<` too: a .tsx file is read as written.
    source = TS_GENERIC_SIGNATURES.encode()
    assert grammar_gaps.parse("tsx", source)[1] == source


def test_a_csharp_conditional_that_parses_stays_as_written() -> None:
    source = "class A\n{\n#if NET6_0\n    void B() { }\n#else\n    void C() { }\n#endif\n}\n"
    tree, read = grammar_gaps.parse("csharp", source.encode())
    assert read == source.encode()
    assert [s.qualified_name for s in parse_file("A.cs", source).symbols] == ["A", "A.B", "A.C"]


KOTLIN_CONSTRUCTOR_BELOW = """\
public class EnumJsonAdapter<T : Enum<T>>
internal constructor(
  private val enumType: Class<T>,
) : JsonAdapter<T?>() {
  constructor(type: Class<T>, x: Int) : this(type)

  public fun withUnknownFallback(fallback: T?): EnumJsonAdapter<T> {
    return EnumJsonAdapter(enumType)
  }
}
"""


def test_a_kotlin_constructor_under_its_class_header_still_parses() -> None:
    # The grammar ended the class at the line break before `internal constructor(`: the
    # class was lost and its methods read as free functions.
    parsed = parse_file("EnumJsonAdapter.kt", KOTLIN_CONSTRUCTOR_BELOW)
    assert [(s.qualified_name, s.start_line) for s in parsed.symbols] == [
        ("EnumJsonAdapter", 1),
        ("EnumJsonAdapter.constructor", 5),
        ("EnumJsonAdapter.withUnknownFallback", 7),
    ]
    tree, read = grammar_gaps.parse("kotlin", KOTLIN_CONSTRUCTOR_BELOW.encode())
    assert not tree.root_node.has_error
    assert read.count(b"\n") == KOTLIN_CONSTRUCTOR_BELOW.count("\n")
    assert b"constructor(type" in read  # a secondary constructor in the body stays


KOTLIN_NEWER_SYNTAX = """\
internal open class BufferedChannel<E>(capacity: Int) : Channel<E> {
    override fun toString(): String {
        val state = when (position) {
            in s..<r -> "receive"
            in r..<s -> "send"
            else -> "cont"
        }
        val kind = when (cell) {
            is Waiter if cell.isActive -> "waiting"
            else -> "other"
        }
        return state + kind + $$"$flags" + 0b1010
    }

    fun delegate(deferred: Deferred<E>): Deferred<E> = object : Deferred<E> by deferred {}

    fun register() = select(BufferedChannel<*>::registerSelectForSend)
}
"""


def test_kotlin_s_newer_syntax_keeps_the_file_s_definitions() -> None:
    # kotlinx-coroutines' BufferedChannel.kt (3,100 lines) was one parse error: the grammar
    # knows no `..<` and reads a line-initial `in` as the `when` entry above going on; nor
    # does it know `object : T by x`, `$$"..."`, `T<*>::f`, `0b...` or a `when` guard.
    parsed = parse_file("BufferedChannel.kt", KOTLIN_NEWER_SYNTAX)
    assert [(s.qualified_name, s.start_line) for s in parsed.symbols] == [
        ("BufferedChannel", 1),
        ("BufferedChannel.toString", 2),
        ("BufferedChannel.delegate", 15),
        ("BufferedChannel.register", 17),
    ]
    tree, read = grammar_gaps.parse("kotlin", KOTLIN_NEWER_SYNTAX.encode())
    assert not tree.root_node.has_error
    assert len(read) == len(KOTLIN_NEWER_SYNTAX.encode())  # every byte in its place
    assert chunk(parsed, "BufferedChannel").text.count("..<") == 2  # shown as written


VERSION_NAME = """\
#!/usr/bin/env bash
# Summary: Show the current Ruby version
set -e

if [ -z "$RBENV_VERSION" ]; then
  RBENV_VERSION="$(rbenv-version-file-read)"
fi

version_exists() {
  [ -d "${RBENV_ROOT}/versions/$1" ]
}

version_exists "$RBENV_VERSION" && echo "$RBENV_VERSION"
"""


def test_a_shell_files_own_code_is_a_script_named_after_the_file() -> None:
    parsed = parse_file("libexec/rbenv-version-name", VERSION_NAME)
    check_well_formed(parsed, VERSION_NAME)
    assert layout(parsed) == [
        (1, 7, "script", "rbenv-version-name"),
        (9, 11, "function", "version_exists"),  # a function keeps a chunk of its own
        (13, 13, "script", "rbenv-version-name"),
    ]
    head = parsed.chunks[0]
    assert head.doc == "Summary: Show the current Ruby version"  # the opening comment block
    assert head.signature == "# Summary: Show the current Ruby version"  # not the `#!` line
    # The function's name stays global, as the shell sees it; the script holds it.
    symbols = {s.qualified_name: s for s in parsed.symbols}
    assert symbols["version_exists"].parent == ""
    assert symbols["rbenv-version-name"].kind == "script"
    assert (symbols["rbenv-version-name"].start_line, symbols["rbenv-version-name"].end_line) == (
        1,
        13,
    )
    assert {c.caller for c in parsed.calls if c.line == 13} == {"rbenv-version-name"}
    # The file's name without the shell's suffix; a file of functions only has no script.
    assert parse_file("bin/install.sh", "#!/bin/sh\nmake install\n").chunks[0].symbol == "install"
    library = parse_file("lib/log.sh", '# Logging.\nlog() {\n  echo "$*"\n}\n')
    assert [(c.kind, c.symbol) for c in library.chunks] == [("function", "log")]
