"""C, C++ and Rust calls the compilers' own answers showed us resolving wrongly or not at all
(`graph-oracle --language c|cpp|rust`, RESULTS 2026-12-06): a member defined outside its
class inside a namespace, the standard library's `std::`, one name defined once per platform
folder, receivers typed through fields and what methods return, a Rust impl in another
module than its type, `super::` and inline modules. Real tree-sitter, the index and the
resolver."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings
from tests.unit.test_graph_resolution import at, edges_at, graph

CPP = {
    "include/cli/StringTools.hpp": """\
namespace cli {
namespace detail {
inline std::string &trim(std::string &str) { return str; }
}  // namespace detail
}  // namespace cli
""",
    "include/cli/ConfigFwd.hpp": """\
namespace cli {
class ConfigBase {
  public:
    std::string from_config(std::string line) const;
};
}  // namespace cli
""",
    "include/cli/Config.hpp": """\
namespace cli {
inline std::string ConfigBase::from_config(std::string line) const {
    detail::trim(line);
    return std::to_string(line.size());
}
}  // namespace cli
""",
    "include/cli/Timer.hpp": """\
class Timer {
  public:
    std::string to_string() const { return ""; }
};
""",
    "include/cli/App.hpp": """\
class Option {
  public:
    std::string get_name() const { return ""; }
    int count() const { return 0; }
};
class Error {
  public:
    std::string get_name() const { return ""; }
};
class App {
    Option *help_ptr_{nullptr};
    App *parent_ = nullptr;
  public:
    int count() const { return 0; }
    Option *get_option(std::string name) { return help_ptr_; }
    std::string help_name() { return parent_->help_ptr_->get_name(); }
    int counted(std::string name) { return get_option(name)->count(); }
};
""",
}

C = {
    "src/unix/thread.c": "void uv_mutex_lock(int *m) { }\n",
    "src/win/thread.c": "void uv_mutex_lock(int *m) { }\n",
    "src/unix/loop.c": "void uv_loop_init(int *m) {\n    uv_mutex_lock(m);\n}\n",
    "src/threadpool.c": "void post(int *m) {\n    uv_mutex_lock(m);\n}\n",
}


def test_a_member_defined_outside_its_class_sees_the_namespaces_around_it(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, CPP)
    # `ConfigBase::from_config` is written inside `namespace cli {` (its class in another
    # file): `detail::trim` is `cli::detail::trim`.
    target = "include/cli/StringTools.hpp::detail.trim"
    assert edges_at(rows, "include/cli/Config.hpp", 3) == {(target, True)}


def test_std_names_the_standard_library_not_a_project_method_of_that_name(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, CPP)
    std = [
        r for r in at(rows, "include/cli/Config.hpp", 4) if r["callee_text"].endswith("to_string")
    ]
    assert [r["callee"] for r in std] == [""]  # never `Timer.to_string`
    assert std[0]["rule"] == "external module std (the C++ standard library's to_string)"


SPECIALISED_STD = {
    "include/buffer.h": """\
class memory_buffer {
  public:
    void move(memory_buffer &other) { }
};
""",
    "include/stopwatch.h": """\
namespace std {
template <> struct formatter<stopwatch> { int format(int x) { return x; } };
}  // namespace std
""",
    "include/widget.h": """\
class Widget { };
namespace std {
void swap(Widget &a, Widget &b) { }
}  // namespace std
""",
    "src/pool.cc": """\
void post(Widget &a, Widget &b, memory_buffer &m) {
    auto taken = std::move(m);
    std::swap(a, b);
}
""",
}


def test_a_project_that_opens_namespace_std_owns_only_what_it_defines_there(
    tmp_path: Path, settings: Settings
) -> None:
    # spdlog opens `namespace std` to specialise `formatter`; its `std::move(...)` calls went
    # to its bundled fmt's only `move` method (probable, `unique-method`).
    rows = graph(tmp_path, settings, SPECIALISED_STD)
    moved = at(rows, "src/pool.cc", 2)
    assert [(r["callee"], r["rule"]) for r in moved] == [
        ("", "external module std (the C++ standard library's move)")
    ]
    assert edges_at(rows, "src/pool.cc", 3) == {("include/widget.h::std.swap", True)}


GLOBAL_SCOPE_CALLS = {
    "include/os-inl.h": """\
int helper(int x) { return x; }
namespace spdlog {
namespace os {
int helper(int x) { return x + 1; }
bool fsync(FILE *fp) {
    return ::fsync(fileno(fp)) == 0;
}
int twice(int x) { return ::helper(x) + helper(x); }
}  // namespace os
}  // namespace spdlog
""",
}


def test_a_call_qualified_by_the_global_namespace_is_no_namespace_member(
    tmp_path: Path, settings: Settings
) -> None:
    # spdlog's `os::fsync` calls the C library's `::fsync`: it was read as calling itself.
    rows = graph(tmp_path, settings, GLOBAL_SCOPE_CALLS)
    synced = [r for r in at(rows, "include/os-inl.h", 6) if r["callee_text"].endswith("fsync")]
    assert [(r["callee"], r["rule"]) for r in synced] == [
        ("", "outside the project: the global namespace's fsync")
    ]
    assert edges_at(rows, "include/os-inl.h", 8) == {
        ("include/os-inl.h::helper", False),  # `::helper`: the one outside the namespaces
        ("include/os-inl.h::os.helper", True),
    }


CASTS = {
    "src/handle.cc": """\
int width(void *p) { return 4; }
void *open_handle(void *p) {
    auto h = reinterpret_cast<long>(p);
    return static_cast<char *>(dynamic_cast<void *>(const_cast<void *>(p))) + width(p);
}
""",
}


def test_a_cast_is_no_call(tmp_path: Path, settings: Settings) -> None:
    # `reinterpret_cast<HANDLE>(...)` is an operator, as `sizeof` is: the call graph listed it
    # among spdlog's calls with no definition.
    rows = graph(tmp_path, settings, CASTS)
    assert [r["callee_text"] for r in at(rows, "src/handle.cc", 3)] == []
    assert [(r["callee_text"], r["callee"]) for r in at(rows, "src/handle.cc", 4)] == [
        ("width", "src/handle.cc::width")
    ]


LOWERCASE_TYPES = {
    "include/spdlog/async_logger.h": """\
namespace spdlog {
class async_logger {
  public:
    void flush_() { }
    sink *first_sink() { return nullptr; }
};
class sink {
  public:
    void flush_() { }
    int size() { return 0; }
};
}  // namespace spdlog
""",
    "tests/flush.cpp": """\
namespace spdlog {
void flush_all(async_logger *logger, sink &s, std::string name) {
    logger->flush_();
    s.flush_();
    name.size();
    logger->first_sink()->size();
}
}  // namespace spdlog
""",
}


def test_a_declared_lower_case_type_types_its_variable(tmp_path: Path, settings: Settings) -> None:
    # The grammar says `async_logger *logger` declares a type whatever its case; only a
    # capitalised one used to type `logger`, so `logger->flush_()` was a guess between the
    # two `flush_` methods, and a `std::string`'s `size()` a guess at the project's `size`;
    # a lower-case return type (`sink *first_sink()`) did not type the chain after it.
    rows = graph(tmp_path, settings, LOWERCASE_TYPES)
    assert edges_at(rows, "tests/flush.cpp", 3) == {
        ("include/spdlog/async_logger.h::async_logger.flush_", True)
    }
    assert edges_at(rows, "tests/flush.cpp", 4) == {
        ("include/spdlog/async_logger.h::sink.flush_", True)
    }
    [sized] = at(rows, "tests/flush.cpp", 5)
    assert (sized["callee"], sized["rule"]) == (
        "",
        "method of std::string, the C++ standard library's",
    )
    # What a method declares it returns, lower case too, types the chain's next call.
    assert edges_at(rows, "tests/flush.cpp", 6) == {
        ("include/spdlog/async_logger.h::async_logger.first_sink", True),
        ("include/spdlog/async_logger.h::sink.size", True),
    }


MADE_VALUES = {
    "include/spdlog/details/circular_q.h": """\
namespace spdlog {
namespace details {
template <typename T>
class circular_q {
  public:
    void push_back(T &&item) { }
};
circular_q<int> make_queue(int n) { return {}; }
}  // namespace details
}  // namespace spdlog
""",
    "include/spdlog/details/backtracer.h": """\
namespace spdlog {
namespace details {
class backtracer {
    circular_q<log_msg_buffer> messages_;
  public:
    void push_back(const log_msg &msg);
};
}  // namespace details
}  // namespace spdlog
""",
    "include/spdlog/details/backtracer-inl.h": """\
namespace spdlog {
namespace details {
SPDLOG_INLINE void backtracer::push_back(const log_msg &msg) {
    messages_.push_back(log_msg_buffer{msg});
}
}  // namespace details
}  // namespace spdlog
""",
    "include/spdlog/details/mpmc_blocking_q.h": """\
namespace spdlog {
namespace details {
template <typename T>
class mpmc_blocking_queue {
  public:
    void enqueue(T &&item) { q_.push_back(std::move(item)); }
  private:
    spdlog::details::circular_q<T> q_;
};
}  // namespace details
}  // namespace spdlog
""",
    "include/spdlog/logger.h": """\
namespace spdlog {
class logger {
  public:
    void push_back(int x) { }
};
}  // namespace spdlog
""",
    "bench/bench.cpp": """\
void run() {
    auto shared = std::make_shared<spdlog::logger>("level-off");
    shared->push_back(1);
    auto made = new spdlog::logger();
    made->push_back(2);
    auto queue = spdlog::details::make_queue(8);
    queue.push_back(3);
}
""",
}


def test_a_cpp_value_is_typed_by_what_made_it(tmp_path: Path, settings: Settings) -> None:
    # `push_back` is defined by three classes: each call was a guess between them. A member
    # defined outside its class sees the class's fields (and any member a field whose type is
    # named two namespaces deep); `auto` takes the type made by
    # `std::make_shared<T>` or `new T`, or what the called function says it returns.
    rows = graph(tmp_path, settings, MADE_VALUES)
    queue_push = ("include/spdlog/details/circular_q.h::circular_q.push_back", True)
    assert edges_at(rows, "include/spdlog/details/backtracer-inl.h", 4) == {queue_push}
    # A field's type named two namespaces deep.
    assert edges_at(rows, "include/spdlog/details/mpmc_blocking_q.h", 6) == {queue_push}
    logger_push = ("include/spdlog/logger.h::logger.push_back", True)
    assert edges_at(rows, "bench/bench.cpp", 3) == {logger_push}
    assert edges_at(rows, "bench/bench.cpp", 5) == {logger_push}
    assert edges_at(rows, "bench/bench.cpp", 7) == {queue_push}


USING_BASE = {
    "include/fmt/format.h": """\
namespace fmt {
namespace detail {
template <typename T> class buffer {
  public:
    void append(const T *begin, const T *end) { }
};
}  // namespace detail
template <typename T> class basic_memory_buffer : public detail::buffer<T> {
  public:
    using detail::buffer<T>::append;
    template <typename Range> void append(const Range &range) { }
    void grow(size_t size) { }
};
}  // namespace fmt
""",
    "src/fmt_helper.cc": """\
inline void append_string_view(const char *p, fmt::basic_memory_buffer<char> &dest) {
    dest.append(p, p + 3);
    dest.grow(8);
}
""",
}


def test_a_using_declaration_puts_the_bases_overloads_beside_the_classs_own(
    tmp_path: Path, settings: Settings
) -> None:
    # fmt's `basic_memory_buffer` brings `buffer<T>::append` in beside its own `append`; GCC
    # picks between them by the arguments' types, so the class's own was no certain edge.
    rows = graph(tmp_path, settings, USING_BASE)
    assert edges_at(rows, "src/fmt_helper.cc", 2) == {
        ("include/fmt/format.h::basic_memory_buffer.append", False),
        ("include/fmt/format.h::buffer.append", False),
    }
    assert edges_at(rows, "src/fmt_helper.cc", 3) == {
        ("include/fmt/format.h::basic_memory_buffer.grow", True)
    }


NAMESPACED_OUTSIDE = {
    "include/spdlog/async_logger.h": """\
namespace spdlog {
class async_logger {
  protected:
    void flush_();
    void backend_flush_() { }
};
}  // namespace spdlog
""",
    "src/async_logger.cpp": """\
void spdlog::async_logger::flush_() {
    backend_flush_();
}
""",
}


def test_a_member_defined_outside_with_its_namespaces_belongs_to_its_class(
    tmp_path: Path, settings: Settings
) -> None:
    # `void spdlog::async_logger::flush_()` names its class with the namespace the class is
    # written in (`async_logger` inside `namespace spdlog {`): its own `backend_flush_()`
    # was a guess by name, not the class's method.
    rows = graph(tmp_path, settings, NAMESPACED_OUTSIDE)
    assert edges_at(rows, "src/async_logger.cpp", 2) == {
        ("include/spdlog/async_logger.h::async_logger.backend_flush_", True)
    }


UNNAMED = {
    "src/a.cc": """\
namespace {
int Format64(int x) { return x; }
double fma(double a, double b, double c) { return a * b + c; }
}
int Use() { return Format64(1); }
double Mix() {
  using std::fma;
  return fma(1.0, 2.0, 3.0);
}
""",
    "src/b.cc": (
        "namespace {\nint Format64(int x) { return x + 1; }\n}\n"
        "int Other() { return Format64(2); }\n"
    ),
    "src/c.cc": "int Third() { return Format64(3); }\n",
}


def test_an_unnamed_namespace_is_its_source_file_s_own(tmp_path: Path, settings: Settings) -> None:
    rows = graph(tmp_path, settings, UNNAMED)
    assert edges_at(rows, "src/a.cc", 5) == {("src/a.cc::(anonymous).Format64", True)}
    assert edges_at(rows, "src/b.cc", 4) == {("src/b.cc::(anonymous).Format64", True)}
    # `using std::fma;` puts the standard library's beside it: a guess, no more
    fma = at(rows, "src/a.cc", 8)
    assert [(r["callee"], r["confidence"] < 0.7) for r in fma] == [
        ("src/a.cc::(anonymous).fma", True)
    ]
    # no other file sees either: nothing to call, no guess
    assert [r["callee"] for r in at(rows, "src/c.cc", 1)] == [""]


NESTED = {
    "include/tools.hpp": (
        "namespace CLI {\nnamespace detail {\n"
        "inline bool valid(char c) { return c != '-'; }\n}\n}\n"
    ),
    "include/split.hpp": (
        "namespace CLI {\nnamespace detail {\n"
        "inline bool split(char c) { return valid(c); }\n}\n}\n"
    ),
}


def test_a_namespace_s_function_in_another_header_is_seen_from_inside_it(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, NESTED)
    found = {(r["callee"], r["rule"]) for r in at(rows, "include/split.hpp", 3)}
    assert found == {("include/tools.hpp::detail.valid", "namespace-member")}


def test_fields_and_return_types_type_a_cpp_call_chain(tmp_path: Path, settings: Settings) -> None:
    rows = graph(tmp_path, settings, CPP)
    path = "include/cli/App.hpp"
    # `parent_->help_ptr_->get_name()`: App's field `parent_` is an `App *`, its `help_ptr_`
    # an `Option *`; `Error.get_name` is no candidate.
    assert edges_at(rows, path, 16) == {(f"{path}::Option.get_name", True)}
    # `get_option(name)->count()`: `get_option` returns an `Option *`, not the App's `count`.
    counted = [r for r in at(rows, path, 17) if r["callee_text"].endswith("count")]
    assert {(r["callee"], r["rule"]) for r in counted} == {(f"{path}::Option.count", "return-type")}


def test_of_one_c_name_per_platform_folder_the_callers_own_folder_is_probable(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, C)
    near = at(rows, "src/unix/loop.c", 2)
    assert [(r["callee"], r["rule"]) for r in near] == [
        ("src/unix/thread.c::uv_mutex_lock", "nearest-name")
    ]
    assert 0.7 <= round(near[0]["confidence"], 3) < 0.9  # probable: the build may pick another
    # From a folder both are equally far from: still a guess between the two.
    assert {r["callee"] for r in at(rows, "src/threadpool.c", 2)} == {
        "src/unix/thread.c::uv_mutex_lock",
        "src/win/thread.c::uv_mutex_lock",
    }


MACROS = {
    "absl/log/absl_log.h": """\
#ifndef ABSL_LOG_ABSL_LOG_H_
#define ABSL_LOG_ABSL_LOG_H_
#define ABSL_LOG(severity) ABSL_LOG_INTERNAL_LOG_IMPL(_##severity)
#endif  // ABSL_LOG_ABSL_LOG_H_
""",
    "absl/log/internal/log_impl.h": """\
#define ABSL_LOG_INTERNAL_LOG_IMPL(severity) \\
  ::absl::log_internal::LogMessage(severity)
""",
    "src/unix/internal.h": """\
#if defined(__linux__)
int uv__iou_fs_close(int loop, int req);
#else
#define uv__iou_fs_close(loop, req) 0
#endif
""",
    "src/unix/linux.c": """\
int uv__iou_fs_close(int loop, int req) { return loop + req; }
""",
    "src/unix/fs.c": """\
#include "internal.h"
int uv__fs_close(int fd) { return uv__iou_fs_close(0, fd); }
""",
    "app/main.cc": """\
#include "absl/log/absl_log.h"
void Report() { ABSL_LOG(INFO); }
""",
}


def test_a_one_line_macro_is_called_but_one_build_s_stand_in_is_not(
    tmp_path: Path, settings: Settings
) -> None:
    # abseil's public `ABSL_LOG` is a one-line alias of an internal macro: the call of it
    # was unresolved ("no definition") and the alias called nothing. A one-line macro in an
    # `#else` branch (libuv's stand-in for the Linux function) is no target: GCC's call graph
    # of the Linux build calls the function, and the macro is no symbol.
    rows = graph(tmp_path, settings, MACROS)
    assert edges_at(rows, "app/main.cc", 2) == {("absl/log/absl_log.h::ABSL_LOG", False)}
    assert edges_at(rows, "absl/log/absl_log.h", 3) == {
        ("absl/log/internal/log_impl.h::ABSL_LOG_INTERNAL_LOG_IMPL", False)
    }
    assert edges_at(rows, "src/unix/fs.c", 2) == {("src/unix/linux.c::uv__iou_fs_close", False)}


SPLIT = {
    "include/shapes/square.hpp": """\
namespace shapes {
struct Shape { virtual double area() const { return 0; } };
struct Square : Shape {
    double side() const { return 1; }
    double area() const override;
};
}  // namespace shapes
""",
    "src/square.cpp": """\
#include "shapes/square.hpp"
namespace shapes {
double Square::area() const { return side() * side(); }
}  // namespace shapes
""",
    "src/main.cpp": """\
#include "shapes/square.hpp"
double use() {
    shapes::Square sq;
    return sq.area();
}
""",
}


def test_a_class_in_include_and_its_members_defined_in_src_are_one_class(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, SPLIT)
    # `sq.area()`: Square's own `area`, defined in src/, not the base's it overrides.
    assert edges_at(rows, "src/main.cpp", 4) == {("src/square.cpp::Square.area", True)}
    # Inside `Square::area`, `side()` is the class's member, declared in the header.
    assert edges_at(rows, "src/square.cpp", 3) == {("include/shapes/square.hpp::Square.side", True)}


RUST = {
    "Cargo.toml": '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/lib.rs": "pub mod data;\npub mod graph_impl;\n",
    "src/graph_impl/stable.rs": """\
use super::index_twice;
pub fn pair(v: &mut Vec<u32>) -> u32 {
    index_twice(v, 0, 1)
}
""",
    "src/algo/matching.rs": "pub fn try_match() -> bool { false }\n",
    "src/algo/iso.rs": """\
mod matching {
    pub fn try_match() -> bool { true }
}
pub fn is_isomorphic() -> bool {
    self::matching::try_match() && matching::try_match()
}
""",
    "src/graph_impl/mod.rs": """\
pub struct Graph { nodes: Vec<u32> }
impl Graph {
    pub fn add_node(&mut self, w: u32) -> usize { self.nodes.push(w); self.nodes.len() - 1 }
}
pub fn index_twice(v: &mut Vec<u32>, a: usize, b: usize) -> u32 { v[a] + v[b] }
""",
    "src/data.rs": """\
use crate::graph_impl::Graph;
pub trait Build { fn add_node(&mut self, w: u32) -> usize; fn grow(&mut self) -> usize; }
impl Build for Graph {
    fn add_node(&mut self, w: u32) -> usize {
        self.add_node(w)
    }
    fn grow(&mut self) -> usize { Build::add_node(self, 0) }
}
pub fn build(g: &mut Graph) -> usize { g.grow() }
""",
}


def test_a_rust_impl_in_another_module_joins_its_type_and_its_own_methods_come_first(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, RUST)
    # Inside `impl Build for Graph` (src/data.rs, the struct in src/graph_impl/),
    # `self.add_node(w)` is Graph's own method, not the trait method it is written in.
    inherent = "src/graph_impl/mod.rs::Graph.add_node"
    assert edges_at(rows, "src/data.rs", 5) == {(inherent, True)}
    # `g.grow()` on a `&mut Graph`: the trait impl's method, now a member of Graph.
    assert edges_at(rows, "src/data.rs", 9) == {("src/data.rs::Graph.grow", True)}


def test_rust_super_and_an_inline_module_are_the_modules_they_name(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, RUST)
    # `use super::index_twice;` in src/graph_impl/stable.rs: src/graph_impl/mod.rs's.
    assert edges_at(rows, "src/graph_impl/stable.rs", 3) == {
        ("src/graph_impl/mod.rs::index_twice", True)
    }
    # `mod matching { ... }` in the calling file, not src/algo/matching.rs.
    assert edges_at(rows, "src/algo/iso.rs", 5) == {("src/algo/iso.rs::matching.try_match", True)}


ALIASES = {
    "Cargo.toml": '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/lib.rs": "pub mod graph;\npub mod matrix;\n",
    "src/graph.rs": """\
pub struct NodeIndex(usize);
impl NodeIndex {
    pub fn index(&self) -> usize { self.0 }
}
pub struct EdgeIndex(usize);
impl EdgeIndex {
    pub fn index(&self) -> usize { self.0 }
}
""",
    "src/matrix.rs": """\
use crate::graph::NodeIndex as GraphNodeIndex;
pub type NodeIndex<Ix = usize> = GraphNodeIndex<Ix>;
type Index = NodeIndex;
pub fn position(a: NodeIndex, b: Index) -> usize {
    a.index() + b.index()
}
""",
}


def test_a_rust_type_alias_types_its_values_as_the_type_it_names(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, ALIASES)
    # `a: NodeIndex`, an alias of an imported alias of graph::NodeIndex; `b: Index`, an alias
    # of that alias: both NodeIndex's `index`, not EdgeIndex's.
    found = {(r["callee"], round(r["confidence"], 3) >= 0.9) for r in at(rows, "src/matrix.rs", 5)}
    assert found == {("src/graph.rs::NodeIndex.index", True)}


CPP_ALIASES = {
    "include/cli/Option.hpp": """\
namespace cli {
class Option;
using Option_p = std::unique_ptr<Option>;
typedef Option *OptionPtr;
class Option {
  public:
    int count() const { return 0; }
};
class App {
    std::vector<Option_p> options_;
    std::shared_ptr<Option> help_;
  public:
    int count() const { return 0; }
    int total() {
        int n = 0;
        for (const Option_p &opt : options_) { n += opt->count(); }
        OptionPtr first = nullptr;
        return n + first->count() + help_->count();
    }
};
}  // namespace cli
""",
    # An alias inside a function is that function's own: it names nothing elsewhere.
    "bench/sizes.cpp": "int sizes() {\n    using Option_p = Other;\n    return 0;\n}\n",
}


def test_cpp_type_aliases_and_smart_pointers_type_their_values(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, CPP_ALIASES)
    path = "include/cli/Option.hpp"
    # `Option_p` is a `std::unique_ptr<Option>`, `OptionPtr` an `Option *`, `help_` a
    # `std::shared_ptr<Option>`: each `->count()` is Option's, not the App's own `count`.
    assert edges_at(rows, path, 16) == {(f"{path}::Option.count", True)}
    on_18 = [(r["callee"], r["rule"]) for r in at(rows, path, 18)]
    assert on_18 == [(f"{path}::Option.count", "typed-receiver")] * 2


NAMESPACE_PATHS = {
    "include/log/details/registry.h": """\
namespace log { namespace details {
class registry {
  public:
    static registry &instance();
    void flush_all();
};
class worker { public: void flush_all(); };
namespace os {
class clock { public: void tick(); };
class timer { public: void tick(); };
}  // namespace os
} }  // namespace log::details
""",
    "src/registry.cc": """\
namespace log { namespace details {
registry &registry::instance() { static registry s; return s; }
void registry::flush_all() {}
void worker::flush_all() {}
namespace os {
void clock::tick() {}
void timer::tick() {}
}
} }
namespace log {
void flush_every() { details::registry::instance().flush_all(); }
void drop_all() { log::details::registry::instance().flush_all(); }
void wait(log::details::os::clock &c) {
    c.tick();
    log::details::os::clock d;
    d.tick();
}
}  // namespace log
""",
}


def test_a_cpp_namespace_path_types_a_call_chain_and_a_variable(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, NAMESPACE_PATHS)
    path = "src/registry.cc"
    # `details::registry::instance().flush_all()`: the path names the class `registry`, whose
    # `instance()` returns a `registry &` (said where it is defined, in another folder than
    # the class): its `flush_all`, not the worker's.
    for line in (11, 12):
        flushed = [r for r in at(rows, path, line) if r["callee_text"].endswith("flush_all")]
        assert [(r["callee"], r["rule"]) for r in flushed] == [
            (f"{path}::registry.flush_all", "return-type")
        ]
    # A type three namespaces deep types its parameter and its variable.
    assert edges_at(rows, path, 14) == {(f"{path}::clock.tick", True)}
    assert edges_at(rows, path, 16) == {(f"{path}::clock.tick", True)}


FIELD_LOOPS = {
    "include/log/registry.h": """\
namespace log {
class logger { public: void flush(); };
class sink { public: void flush(); };
class registry {
  public:
    void flush_all();
    void drop(const std::string &name);
  private:
    std::unordered_map<std::string, std::shared_ptr<logger>> loggers_;
    std::map<int, sink *> sinks_;
    std::vector<sink *> plain_;
};
}  // namespace log
""",
    "src/registry.cc": """\
namespace log {
void logger::flush() {}
void sink::flush() {}
void registry::flush_all() {
    for (auto &l : loggers_) { l.second->flush(); }
    for (const auto &kv : sinks_) { kv.second->flush(); }
    for (auto *s : plain_) { s->flush(); }
    for (auto &[name, lg] : loggers_) { lg->flush(); }
}
void registry::drop(const std::string &name) {
    loggers_[name]->flush();
    loggers_.erase(name);
    loggers_.at(name)->flush();
    sinks_.find(1)->second->flush();
    plain_.front()->flush();
}
}  // namespace log
""",
}


def test_a_cpp_loop_over_a_field_types_its_items_and_a_map_s_are_pairs(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, FIELD_LOOPS)
    path = "src/registry.cc"
    # `auto` items of a field defined in the class's header: a map's item is a pair whose
    # `.second` is the map's value (a `shared_ptr<logger>`, a `sink *`), a vector's its element.
    assert edges_at(rows, path, 5) == {(f"{path}::logger.flush", True)}
    assert edges_at(rows, path, 6) == {(f"{path}::sink.flush", True)}
    assert edges_at(rows, path, 7) == {(f"{path}::sink.flush", True)}
    # A map's item taken apart (`auto &[name, lg]`): the second name holds the value.
    assert edges_at(rows, path, 8) == {(f"{path}::logger.flush", True)}
    # `m[k]` is a value; the map's own methods are the standard library's, no guess of ours.
    assert edges_at(rows, path, 11) == {(f"{path}::logger.flush", True)}
    erased = at(rows, path, 12)
    assert [(r["callee"], r["rule"]) for r in erased] == [("", "builtin receiver: a container")]
    # A container's methods that give an item: `at()` a map's value, `find()` an iterator to a
    # pair, `front()` a vector's element.
    assert edges_at(rows, path, 13) == {(f"{path}::logger.flush", True)}
    assert edges_at(rows, path, 14) == {(f"{path}::sink.flush", True)}
    assert edges_at(rows, path, 15) == {(f"{path}::sink.flush", True)}


AUTO_RESULTS = {
    "include/cli/App.hpp": """\
namespace cli {
class Option { public: int count() const { return 0; } };
class App {
  public:
    Option *get_option(const char *name) { return nullptr; }
    int count() const { return 0; }
};
int use(App *app) {
    auto opt = app->get_option("x");
    return opt->count();
}
}  // namespace cli
""",
}


def test_a_cpp_auto_variable_holds_what_the_method_it_is_set_from_returns(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, AUTO_RESULTS)
    path = "include/cli/App.hpp"
    # `auto opt = app->get_option("x")`: `get_option` returns an `Option *`, so `opt->count()`
    # is Option's, not a guess between it and the App's own `count`.
    assert edges_at(rows, path, 10) == {(f"{path}::Option.count", True)}


FIELDS = {
    "src/lib.rs": """\
pub struct Label;
impl Label { pub fn is_inner(&self) -> bool { true } }
pub struct Other;
impl Other { pub fn is_inner(&self) -> bool { false } }
pub struct Matching { first: Label, rest: Vec<Label> }
impl Matching {
    pub fn check(&self) -> usize {
        if self.first.is_inner() { self.rest.len() } else { 0 }
    }
}
pub trait Nullable { fn as_ref(&self) -> bool; fn is_null(&self) -> bool; }
impl<T> Nullable for Option<T> {
    fn as_ref(&self) -> bool { true }
    fn is_null(&self) -> bool { false }
}
pub fn peek(o: Option<Label>) -> bool { o.as_ref() }
pub fn empty(o: Option<Label>) -> bool { o.is_null() }
""",
}


def test_a_rust_struct_field_types_the_calls_made_through_it(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, FIELDS)
    on_8 = {(r["callee"], r["rule"]) for r in at(rows, "src/lib.rs", 8)}
    # `self.first.is_inner()`: Label's, not Other's; `self.rest.len()`: Vec's, none of ours.
    assert ("src/lib.rs::Label.is_inner", "typed-receiver") in on_8
    assert all(callee != "src/lib.rs::Other.is_inner" for callee, _ in on_8)
    # The project's trait on std's `Option`: `as_ref` is Option's own (inherent methods come
    # first), `is_null` the trait's, probable (the type is std's), never certain.
    assert [r["callee"] for r in at(rows, "src/lib.rs", 16)] == [""]
    on_17 = [(r["callee"], r["rule"]) for r in at(rows, "src/lib.rs", 17)]
    assert on_17 == [("src/lib.rs::Option.is_null", "extended-receiver")]


LOOPS = {
    "src/lib.rs": """\
pub struct Label;
impl Label { pub fn is_inner(&self) -> bool { true } }
pub struct LinkedList;
impl LinkedList { pub fn push_front(&mut self) {} pub fn is_inner(&self) -> bool { false } }
pub struct M { labels: Vec<Label>, list: LinkedList }
impl M {
    pub fn walk(&mut self, more: &[Label]) -> usize {
        for l in &self.labels { l.is_inner(); }
        for l in more.iter() { l.is_inner(); }
        self.list.push_front();
        more.len()
    }
}
""",
    "include/app.hpp": """\
class Option { public: int count() const { return 0; } };
class App {
    std::set<Option *> need_options_;
  public:
    int count() const { return 0; }
    int f(std::vector<Option *> v) {
        int n = 0;
        for (auto &opt : need_options_) { n += opt->count(); }
        return n + v.size();
    }
};
""",
}


def test_a_loop_over_a_standard_container_walks_its_items(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, LOOPS)
    label = "src/lib.rs::Label.is_inner"
    assert edges_at(rows, "src/lib.rs", 8) == {(label, True)}  # `for l in &self.labels`
    assert edges_at(rows, "src/lib.rs", 9) == {(label, True)}  # `for l in more.iter()`
    # The project's own `LinkedList` is no standard container: its method, typed.
    assert edges_at(rows, "src/lib.rs", 10) == {("src/lib.rs::LinkedList.push_front", True)}
    # `more.len()` on a slice: the slice's own method, none of the project's.
    assert [r["rule"] for r in at(rows, "src/lib.rs", 11)] == ["builtin receiver: a container"]
    # C++: `for (auto &opt : need_options_)` over a `std::set<Option *>`.
    assert edges_at(rows, "include/app.hpp", 8) == {("include/app.hpp::Option.count", True)}
    assert [r["rule"] for r in at(rows, "include/app.hpp", 9)] == ["builtin receiver: a container"]
