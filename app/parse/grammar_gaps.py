"""What a grammar cannot read, taken out of its way before the parse; every node still points
at the file as written (only whole tokens become spaces, so bytes and lines keep their places).

Rust items written inside an item-level macro call: `cfg_rt! { pub fn spawn() ... }`,
`doc! { macro_rules! select { ... } }`. To tree-sitter the braces hold one token tree, so the
functions, types and macros in them would be neither chunks, symbols nor call targets.

Such a call is opened: its name, `!` and braces become spaces and the text is parsed again.
A call whose body does not parse as items (`bitflags! { pub struct Flags: u32 { ... } }`,
`cfg_if! { if #[cfg(unix)] { ... } }`) is left as written.

C and C++ annotation macros: `ABSL_NAMESPACE_BEGIN` on a line of its own, `class
ABSL_ATTRIBUTE_OWNER flat_hash_map`, `ABSL_CONST_INIT static`, `UV_EXTERN int uv_run(...)`,
`const C& c ABSL_ATTRIBUTE_LIFETIME_BOUND)`, `void Lock() ABSL_LOCKS_EXCLUDED(mu_);`, between
a return type and the name (`void SPDLOG_INLINE thread_pool::post_log(`, read as the name's
scope: `SPDLOG_INLINEthread_pool.post_log`), before a brace opening a line's code
(`SPDLOG_TRY { sink->log(msg); }`, a `try` where exceptions are on, read as an expression
with its `;` missing: the function ended there; a signature's `SPDLOG_NOEXCEPT {` under it),
and nullability after a `*` (`char* absl_nonnull Cord::data()`, `T* _Nullable p`). The
grammar reads each as a stray name, and the declaration around it as an error (abseil: 685 of
859 files). Such a name (capitals with an underscore; after a `*` or `&`, any word but the
language's own) in one of those places becomes spaces, with its arguments, as does a C
header's `extern "C" {` and `}` for C++ readers; the file keeps the change only when its
parse has fewer errors.

C and C++ conditionals whose branches each open a brace the others open again (jq's
`#ifdef WIN32` / `int umain(...) {` / `#else` / `int main(...) {` / `#endif`, libuv's `#if X`
/ `for (;!y;) {` / `#else` / `for (;;) {`): the grammar reads every branch, the braces no
longer balance, and the definitions from there on are lost (libuv's `uv__async_io`, jq's
`main`). Such a group's branches but its last become spaces, a group at a time, each kept only
when the parse has fewer errors: the code read is the `#else` branch's. Where errors remain,
the directive lines of groups whose branches each balance their braces become spaces, every
branch read (libuv's `# ifdef HW_NCPUONLINE` inside an initializer list made its whole
`core.c` one error); every group at once, then a group at a time, each kept when the parse
has fewer errors.

Kotlin newer than the grammar, and one of its gaps: `when` entries that test a range
(kotlinx-coroutines' `BufferedChannel.toString`: `in s..<r -> "receive"` / `in r..<s ->
"send"`; the grammar knows no `..<`, from Kotlin 1.9, and reads an `in` opening a line as the
entry above going on) made the 3,100-line `BufferedChannel.kt` one error, its class and
members lost; so did `object : ExecutorService by executor {}` (delegation outside a class
header) and `$$"..."` (2.1's multi-dollar strings) in other files. In a file with errors,
such syntax is rewritten byte for byte as syntax the grammar reads alike (`_kotlin_newer_syntax`
lists them), kept when the parse has fewer errors.

Kotlin's primary constructor written on the line under its class's header (`public class
EnumJsonAdapter<T : Enum<T>>` / `internal constructor(`, Square's style): the grammar ends the
declaration at the line break and reads the rest of the file as errors (moshi: the class, its
members' owner and their calls lost). Its modifiers, annotations and `constructor` keyword
become spaces, leaving the parameters in parentheses, which the grammar reads there.

Haskell conditionals: the grammar reads an `#if` group's first branch and takes everything
from `#else` (or `#elif`) to `#endif` as one directive, so a definition written only there
(aeson's `KeyMap` over a `HashMap` under `#else`, bytestring's pure fallbacks of its C calls)
was no chunk and no symbol. The directive lines of such groups become spaces, so that every
branch is read (a definition in two branches is one node to the call graph): every group
at once, or else a group at a time, kept when the parse has no more errors than before.

C# and Swift conditionals whose branches are alternatives of one construct: serilog's
`void Write(...)` / `#if FEATURE_DEFAULT_INTERFACE` / `{ ... }` / `#else` / `;` / `#endif`,
Newtonsoft.Json's `#if HAVE_ASYNC_DISPOSABLE` inside a class's base list. The grammar reads
every branch, and the declaration around them breaks: serilog's whole `ILogger.cs` was one
error (its methods became functions of the namespace, a statement `if` a function), and
Newtonsoft's `JsonReader` a class named `HAVE_ASYNC_DISPOSABLE`. In a file with errors, the
directive lines become spaces, with every branch kept or all branches of a group but one:
every group at once, then a group at a time; the reading kept has the fewest error bytes,
and among those the one that blanks the fewest words of code. A Swift macro named with a
leading `_` (`#_sourceLocation`, Swift Testing's default for a helper's parameter) is read
as the name it holds: its `#` becomes a space.

Swift newer than the grammar (5.9-6.2's ownership and typed throws): `throws(E)`,
`@_lifetime(borrow self)`, `__owned` and `__consuming`, and `unsafe`, `consume` and `copy`
before an expression. Each is an error to the grammar, and in a file that keeps a plain
fallback for older compilers (`#if compiler(<6.2)` / a stub / `#else` / the real code), the
reading with the fewest errors was the stub's: swift-collections' `RigidArray.swift` kept 2 of
its 40 definitions. In a file with errors, such syntax becomes spaces (`_swift_newer_syntax`),
kept when the parse has fewer errors; the conditionals are read after.

C# 14's extension blocks, `extension(double) { public static bool IsFinite(double x) ... }` or
`extension<T>(IEnumerable<T> source) { ... }` in a static class: the grammar read the first as
a method named `extension` holding local functions, and the rest of the class as errors
(Humanizer's `PolyfillShims.cs`). In a file with errors, each block's head is read as a nested
class named by its receiver's type, `class double` or `class IEnumerable<T>` (its members
become `Shims.double.IsFinite`), kept when the parse has fewer errors."""

from __future__ import annotations

import re

from tree_sitter import Node, Tree

from app.parse.definitions import parser_for

# Calls nested in an opened one (`cfg_rt! { cfg_unstable! { ... } }`) open on the next round.
MAX_ROUNDS = 4
# C conditionals tried one by one (a parse each) in a file the grammar could not read.
MAX_CONDITIONALS = 32
# Bytes parsed again, at most, trying a file's groups one at a time: catch.hpp (658 KB, 306
# groups) gets 6 tries, not 32 (2.8 s).
REPARSE_BYTES = 4_000_000
# Groups tried in a row without fewer errors before the rest are left as the grammar reads
# them (an error that no conditional causes: jq's vendored decNumber.c).
MAX_MISSES = 8
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b", re.MULTILINE)
_ITEM_CONTAINERS = {"source_file", "declaration_list"}
# A body without one of these words holds no item: not worth a parse.
_ITEM_WORD = re.compile(
    rb"\b(?:fn|struct|enum|union|trait|impl|mod|type|const|static|use|macro_rules)\b"
)


def parse(language: str, src: bytes) -> tuple[Tree, bytes]:
    """The file's tree and the bytes it was parsed from: `src` itself, or `src` with Rust's
    item-wrapping macro calls opened or C and C++ annotation macros made spaces. Text shown
    to a reader (signatures, chunks) is read from `src` as written, not from these bytes."""
    tree = parser_for(language).parse(src)
    if language in {"c", "cpp"}:
        tree, src = _without(language, src, tree, _annotations(src) + _cplusplus_guards(src))
        if tree.root_node.has_error:
            for spans in _brace_splitting_branches(src)[:MAX_CONDITIONALS]:
                tree, src = _without(language, src, tree, spans)
        return _one_reading(language, src, tree, one_branch=False)
    if language == "kotlin":
        spans = _kotlin_constructors(src) if tree.root_node.has_error else []
        tree, src = _without(language, src, tree, spans)
        edits = _kotlin_newer_syntax(src) if tree.root_node.has_error else []
        return _with(language, src, tree, edits)
    if language == "haskell":
        return _every_branch(language, src, tree)
    if language == "swift":
        tree, src = _without(language, src, tree, _swift_internal_macros(src))
        tree, src = _without(language, src, tree, _swift_newer_syntax(src))
    if language == "csharp" and tree.root_node.has_error:
        tree, src = _with(language, src, tree, _csharp_extension_blocks(src))
    if language in {"csharp", "swift"}:
        return _one_reading(language, src, tree)
    if language == "typescript" and tree.root_node.has_error:
        return _with(language, src, tree, _typescript_signatures(src))
    if language != "rust":
        return tree, src
    refused: set[int] = set()  # start bytes of calls whose body is not items
    for _ in range(MAX_ROUNDS):
        calls = [c for c in _item_calls(tree.root_node) if c[0] not in refused]
        if not calls:
            break
        opened, new = _opened(language, src, calls)
        broken = [c for c in calls if _broken(new.root_node, c)]
        if broken:
            refused.update(c[0] for c in broken)
            calls = [c for c in calls if c not in broken]
            if not calls:
                break
            opened, new = _opened(language, src, calls)
            if any(_broken(new.root_node, c) for c in calls):
                refused.update(c[0] for c in calls)
                continue
        src, tree = opened, new
    return tree, src


def _item_calls(root: Node) -> list[tuple[int, int, int]]:
    """(start, end of the opening `{`, end) of every macro call in item position whose braces
    hold something that looks like an item."""
    found: list[tuple[int, int, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.named_children:
            if child.type in _ITEM_CONTAINERS:
                stack.append(child)
            elif child.type in {"mod_item", "impl_item", "trait_item"}:
                body = child.child_by_field_name("body")
                if body is not None:
                    stack.append(body)
            elif child.type == "macro_invocation" and (call := _braced(child)):
                found.append(call)
    return found


def _braced(call: Node) -> tuple[int, int, int] | None:
    body = call.children[-1] if call.children else None
    if body is None or body.type != "token_tree" or body.child_count < 2:
        return None
    opening, closing = body.children[0], body.children[-1]
    if opening.type != "{" or closing.type != "}" or not body.text:
        return None
    if not _ITEM_WORD.search(body.text):
        return None
    end = call.end_byte
    after = call.next_sibling
    if after is not None and after.type == ";" and after.start_byte == end:
        end = after.end_byte  # `foo! { ... };`
    return call.start_byte, opening.end_byte, end


def _opened(language: str, src: bytes, calls: list[tuple[int, int, int]]) -> tuple[bytes, Tree]:
    spans = []
    for start, head_end, end in calls:
        spans += [(start, head_end), (src.rindex(b"}", start, end), end)]
    opened = _spaced(src, spans)
    return opened, parser_for(language).parse(opened)


def _spaced(src: bytes, spans: list[tuple[int, int]]) -> bytes:
    """`src` with every byte of `spans` a space, line breaks kept."""
    out = bytearray(src)
    for start, end in spans:
        for i in range(start, end):
            if out[i] not in b"\r\n":
                out[i] = 0x20
    return bytes(out)


def _broken(root: Node, call: tuple[int, int, int]) -> bool:
    """Whether the parse has an error or a missing token within the opened call's bytes."""
    return _error_within(root, call[0], call[2])


def _error_within(root: Node, start: int, end: int) -> bool:
    """Whether an error or a missing token of the parse overlaps bytes `start`..`end`."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.end_byte <= start or node.start_byte >= end:
            continue
        if node.type == "ERROR" or node.is_missing:
            return True
        if node.has_error:
            stack.extend(node.children)
    return False


_CAPS = r"[A-Z][A-Z0-9]*_[A-Z0-9_]*"  # `ABSL_CONST_INIT`, `UV_EXTERN`: not `DWORD`, not `kMax`
_ARGS = r"(?:[ \t]*\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))"  # `(mu)`, `("use F(x)")`
# A pointer's or reference's qualifier written as a macro, between `*` and the name it declares:
# Clang's `_Nonnull`, abseil's `char* absl_nonnull Cord::InlineRep::set_data(...)`. Never one of
# the language's own words (`T* const p`, `T& operator=`).
_POINTER_WORDS = (
    rb"(?:const|volatile|restrict|__restrict|__restrict__|operator|this|new|delete|return"
    rb"|sizeof|decltype|typename|template|struct|class|enum|union)"
)
_ANNOTATIONS = re.compile(
    rb"^[ \t]*(?P<alone>" + _CAPS.encode() + _ARGS.encode() + rb"?)[ \t]*(?://[^\n]*)?\r?$"
    rb"|^[ \t]*(?P<block>" + _CAPS.encode() + rb")[ \t]*(?=\{)"  # `SPDLOG_TRY {`, `X_NOEXCEPT {`
    rb"|^[ \t]*(?P<lead>" + _CAPS.encode() + _ARGS.encode() + rb"?)[ \t]+(?=[A-Za-z_])"
    rb"|\b(?:class|struct|union)[ \t]+(?P<tag>" + _CAPS.encode() + rb")[ \t]+(?=[A-Za-z_])"
    rb"|(?<=[\w)\]])[ \t]+(?P<tail>" + _CAPS.encode() + _ARGS.encode() + rb"?)"
    rb"(?=[ \t]*(?:[)\],;{=]|\r?$))"
    rb"|(?<=[\w>])[ \t]+(?P<mid>" + _CAPS.encode() + rb")"
    rb"(?=[ \t]+(?:[A-Za-z_]\w*(?:<[^<>()\n]*>)?::)*~?[A-Za-z_]\w*[ \t]*\()"  # `void X pool::f(`
    rb"|(?<=[*&])[ \t]*(?P<pointer>(?!" + _POINTER_WORDS + rb"\b)[A-Za-z_]\w*)\s+"
    rb"(?!" + _CAPS.encode() + rb"\b)(?=[A-Za-z_~]|::)",  # `const K& k ABSL_X(this)`: a name
    re.MULTILINE,
)
# Kotlin: `internal constructor(`, `@Inject constructor(` opening a line.
_KOTLIN_CONSTRUCTOR = re.compile(
    rb"^[ \t]*(?P<keywords>(?:(?:public|internal|private|protected)[ \t]+"
    rb"|@[\w.]+(?:\([^()\n]*\))?[ \t]+)*constructor)(?=[ \t]*\()",
    re.MULTILINE,
)
_KOTLIN_HEADER = re.compile(rb"\b(?:class|object)[ \t]+[`\w]")
# What _kotlin_newer_syntax rewrites.
_KOTLIN_RANGE_UNTIL = re.compile(rb"\.\.<")
_KOTLIN_LINE_IN = re.compile(rb"^[ \t]+(?=in[ \t])", re.MULTILINE)
_KOTLIN_OBJECT_BY = re.compile(rb"\bobject[ \t]*:[^{}\n=]*?[ \t](?P<by>by)[ \t]")
_KOTLIN_DOLLARS = re.compile(rb"(?<![\w\\\"$])\$+(?=\"\"\"|\")")
_KOTLIN_STAR_REFERENCE = re.compile(rb"<[*, \t]+>(?=::)")
_KOTLIN_BINARY = re.compile(rb"\b0[bB](?=[01_]*[01]\b)")
_KOTLIN_GUARD = re.compile(
    rb"^[ \t]*!?(?:is|in)[ \t](?:(?!->)[^\n])*?[ \t](?P<guard>if)(?=[ \t(])", re.MULTILINE
)
# A word before a trailing macro that makes it an expression: `return MAX(a, b);` is a call.
_EXPRESSION_WORDS = {b"return", b"else", b"case", b"throw", b"sizeof", b"new", b"delete"}
# A C header's greeting to C++ readers: `extern "C" {` under `#ifdef __cplusplus`, and its `}`
# under another. The brace opens in one conditional and closes in the next, which the grammar
# cannot follow: the whole header became one error (libuv's `uv.h`).
_CPLUSPLUS_GUARD = re.compile(
    rb"^[ \t]*#[ \t]*(?:ifdef[ \t]+__cplusplus|if[ \t]+defined[ \t]*\(?[ \t]*__cplusplus\b.*)"
    rb"[ \t]*\r?\n[ \t]*(?P<brace>extern[ \t]+\"C\"[ \t]*\{|\})",
    re.MULTILINE,
)


# Swift's macros whose name starts with `_`, which the grammar does not know:
# `sourceLocation: SourceLocation = #_sourceLocation`, Swift Testing's idiom for a helper's
# parameter, broke the declaration around it (swift-argument-parser's test helpers).
# A line opening with `<` (a generic call signature) below a line that ends a type, blank and
# comment lines between: its first byte of indentation.
_TS_NEXT_SIGNATURE = re.compile(
    rb"(?<=[\w)\]}>])[ \t]*\n(?:[ \t]*(?://[^\n]*)?\n)*(?P<indent>[ \t])[ \t]*<(?=[\w\n])"
)
_SWIFT_INTERNAL_MACRO = re.compile(rb"(?<![\w#])#(?=_\w)")
# C# 14's extension block head: `extension<T>(IEnumerable<T> source)` opening a line.
_CSHARP_EXTENSION = re.compile(
    rb"^[ \t]*(?P<head>extension[ \t]*(?:<[^<>()\n]*>)?[ \t]*\()"
    rb"(?P<type>[^()\n]*?)(?P<tail>(?:[ \t]+@?\w+)?[ \t]*\))(?=[ \t]*(?:\r?\n|\{|where\b))",
    re.MULTILINE,
)
# What _swift_newer_syntax makes spaces.
_SWIFT_TYPED_THROWS = re.compile(rb"\bthrows(?P<type>\([^()\n]*\))")
_SWIFT_LIFETIME = re.compile(rb"@_?lifetime\([^()\n]*\)")
_SWIFT_OWNERSHIP = re.compile(rb"\b__(?:owned|consuming|shared)\b")
_SWIFT_OPERATORS = re.compile(rb"(?<=[=(,\s])(?:consume|unsafe|copy)[ \t]+(?=[\w.(&\[])")


def _annotations(src: bytes) -> list[tuple[int, int]]:
    spans = []
    for match in _ANNOTATIONS.finditer(src):
        groups = ("alone", "block", "lead", "tag", "tail", "mid", "pointer")
        name = next(group for group in groups if match.group(group))
        start, end = match.span(name)
        if _in_directive(src, start):
            continue
        if name in ("tail", "mid") and _word_before(src, match.start()) in _EXPRESSION_WORDS:
            continue
        spans.append((start, end))
    return spans


def _swift_internal_macros(src: bytes) -> list[tuple[int, int]]:
    """The `#` of each use of a macro whose name starts with `_` (`#_sourceLocation`)."""
    return [(match.start(), match.start() + 1) for match in _SWIFT_INTERNAL_MACRO.finditer(src)]


def _swift_newer_syntax(src: bytes) -> list[tuple[int, int]]:
    """Spans of Swift the grammar does not know whose spaces read alike: a typed throw's
    `(E)`, a `@_lifetime(...)` attribute, `__owned`, `__shared` and `__consuming`, and
    `unsafe`, `consume` or `copy` with the space after it before an expression."""
    spans = [match.span("type") for match in _SWIFT_TYPED_THROWS.finditer(src)]
    for pattern in (_SWIFT_LIFETIME, _SWIFT_OWNERSHIP, _SWIFT_OPERATORS):
        spans += [match.span() for match in pattern.finditer(src)]
    return spans


def _csharp_extension_blocks(src: bytes) -> list[tuple[int, bytes]]:
    """Edits that read each extension block's head as a class named by its receiver's
    type: `extension<T>(IEnumerable<T> source)` as `class     IEnumerable<T>        `."""
    edits = []
    for match in _CSHARP_EXTENSION.finditer(src):
        head, tail = match.span("head"), match.span("tail")
        edits.append((head[0], b"class".ljust(head[1] - head[0])))
        edits.append((tail[0], b" " * (tail[1] - tail[0])))
    return edits


def _typescript_signatures(src: bytes) -> list[tuple[int, bytes]]:
    """Edits that end each generic call signature before the next (`<I>(h: H<I>): [H<I>]` on
    one line of an interface, `<I, I2>(...)` opening the next, hono's handler interfaces):
    without a `;` the grammar reads `[H<I>] <I2>(...)` as one type going on, and the rest of
    the file as one error. The next signature's first byte of indentation becomes `;`."""
    return [(match.start("indent"), b";") for match in _TS_NEXT_SIGNATURE.finditer(src)]


def _kotlin_newer_syntax(src: bytes) -> list[tuple[int, bytes]]:
    """Edits, each the same length as what it replaces, that turn Kotlin the grammar does not
    know into Kotlin it does, definitions and calls in place:
    - `s..<r` (1.9's rangeUntil) as `s.. r`;
    - a line-initial `in` as `!in` (a byte of its indentation): below another `when` entry
      the grammar reads `in r..s ->` as that entry's expression going on;
    - `object : Deferred<T> by deferred {}` as `object : Deferred<T> , deferred {}` (the
      grammar knows delegation in a class header only);
    - `$$"...$x..."` (2.1's multi-dollar strings) as `  "...$x..."`;
    - `Channel<*>::receive` as `Channel   ::receive`;
    - `0b1010` as `0x1010`;
    - a `when` entry's guard, `is Join if dialect is OracleDialect ->` (2.1), as a second
      condition, `is Join ,  dialect is OracleDialect ->`."""
    edits = [(match.end() - 1, b" ") for match in _KOTLIN_RANGE_UNTIL.finditer(src)]
    edits += [(match.end() - 1, b"!") for match in _KOTLIN_LINE_IN.finditer(src)]
    edits += [(match.start("by"), b", ") for match in _KOTLIN_OBJECT_BY.finditer(src)]
    edits += [(m.start(), b" " * len(m.group())) for m in _KOTLIN_DOLLARS.finditer(src)]
    edits += [(m.start(), b" " * len(m.group())) for m in _KOTLIN_STAR_REFERENCE.finditer(src)]
    edits += [(match.start() + 1, b"x") for match in _KOTLIN_BINARY.finditer(src)]
    edits += [(match.start("guard"), b", ") for match in _KOTLIN_GUARD.finditer(src)]
    return edits


def _kotlin_constructors(src: bytes) -> list[tuple[int, int]]:
    """A primary constructor's keywords on the line under a class header (that line names
    a class or object, or closes its type parameters, and opens no body)."""
    spans = []
    for match in _KOTLIN_CONSTRUCTOR.finditer(src):
        end = match.start()
        while end and src[end - 1] in b" \t\r\n":
            end -= 1
        header = src[src.rfind(b"\n", 0, end) + 1 : end]
        if b"{" not in header and (_KOTLIN_HEADER.search(header) or header.endswith(b">")):
            spans.append(match.span("keywords"))
    return spans


def _conditionals(
    src: bytes, single: bool = False
) -> list[tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
    """Each `#if` group that has an `#else` or `#elif` (`single`: every group), innermost
    first: (its directive lines, its branches), each a (start, end) byte span."""
    groups: list[tuple[list[tuple[int, int]], list[tuple[int, int]]]] = []
    stack: list[list[tuple[int, int]]] = []  # per open group: its directive lines so far
    for match in _DIRECTIVE.finditer(src):
        word, line_end = match.group(1), src.find(b"\n", match.end())
        line = (match.start(), len(src) if line_end < 0 else line_end + 1)
        if word.startswith(b"if"):
            stack.append([line])
        elif stack and word in (b"elif", b"else"):
            stack[-1].append(line)
        elif stack:  # `#endif`
            directives = [*stack.pop(), line]
            if single or len(directives) > 2:
                branches = [(a[1], b[0]) for a, b in zip(directives, directives[1:], strict=False)]
                groups.append((directives, branches))
    return groups


def _brace_splitting_branches(src: bytes) -> list[list[tuple[int, int]]]:
    """For each `#if` group with an `#else` or `#elif` whose branches do not balance their
    braces: the spans of the group but its last branch's lines (the directives too, so
    that what is left reads as plain code)."""
    return [
        [(directives[0][0], branches[-1][0]), directives[-1]]
        for directives, branches in _conditionals(src)
        if any(_braces(src[a:b]) for a, b in branches)
    ]


def _every_branch(language: str, src: bytes, tree: Tree) -> tuple[Tree, bytes]:
    """`src` with the directive lines of its `#if` groups that have an `#else` made spaces,
    all at once or else a group at a time, kept when the parse has no more errors."""
    groups = [directives for directives, _ in _conditionals(src)]
    if not groups:
        return tree, src
    errors = _errors(tree.root_node)
    opened = _spaced(src, [line for group in groups for line in group])
    new = parser_for(language).parse(opened)
    if _errors(new.root_node) <= errors:
        return new, opened
    for group in groups[:MAX_CONDITIONALS]:
        opened = _spaced(src, group)
        new = parser_for(language).parse(opened)
        if _errors(new.root_node) <= errors:
            tree, src = new, opened
    return tree, src


def _one_reading(
    language: str, src: bytes, tree: Tree, one_branch: bool = True
) -> tuple[Tree, bytes]:
    """`src` with the directive lines of its `#if` groups made spaces, and with them (with
    `one_branch`) every branch of a group but one where that reads better (module docstring)."""
    if not tree.root_node.has_error:
        return tree, src
    groups = _conditionals(src, single=True)
    if not one_branch:  # every branch read: only where each balances its own braces
        groups = [(d, bs) for d, bs in groups if not any(_braces(src[a:b]) for a, b in bs)]
    if not groups:
        return tree, src
    errors = _errors(tree.root_node)
    directives = [line for group, _ in groups for line in group]
    at_once = [directives]
    if one_branch:
        at_once += [
            directives + [b for _, bs in groups if len(bs) > 1 for b in _all_but(bs, keep)]
            for keep in (0, -1)
        ]
    tree, src, errors = _best_reading(language, src, tree, errors, at_once)
    tried, most, misses = 0, min(MAX_CONDITIONALS, max(1, REPARSE_BYTES // len(src))), 0
    for group, branches in groups:
        if not errors or tried == most or misses == MAX_MISSES:
            break
        if not _error_within(tree.root_node, group[0][0], group[-1][1]):
            continue  # the grammar reads this one: no parse spent on it
        tried += 1
        readings = [group]
        if one_branch and len(branches) > 1:
            readings += [group + _all_but(branches, keep) for keep in range(len(branches))]
        before = errors
        tree, src, errors = _best_reading(language, src, tree, errors, readings)
        misses = misses + 1 if errors == before else 0
    return tree, src


def _all_but(branches: list[tuple[int, int]], keep: int) -> list[tuple[int, int]]:
    kept = branches[keep]
    return [branch for branch in branches if branch != kept]


def _best_reading(
    language: str, src: bytes, tree: Tree, errors: int, readings: list[list[tuple[int, int]]]
) -> tuple[Tree, bytes, int]:
    """The reading (spans made spaces) with the fewest error bytes, fewer than `errors`, and
    among those the one that blanks the fewest words; `tree` and `src` when none has."""
    best: tuple[tuple[int, int], Tree, bytes] | None = None
    for spans in readings:
        opened = _spaced(src, spans)
        new = parser_for(language).parse(opened)
        key = (_errors(new.root_node), sum(len(src[a:b].split()) for a, b in spans))
        if key[0] < errors and (best is None or key < best[0]):
            best = (key, new, opened)
    if best is None:
        return tree, src, errors
    return best[1], best[2], best[0][0]


def _braces(code: bytes) -> int:
    """Braces opened less braces closed (strings and comments are not told apart: a guess)."""
    return code.count(b"{") - code.count(b"}")


def _cplusplus_guards(src: bytes) -> list[tuple[int, int]]:
    return [match.span("brace") for match in _CPLUSPLUS_GUARD.finditer(src)]


def _without(
    language: str, src: bytes, tree: Tree, spans: list[tuple[int, int]]
) -> tuple[Tree, bytes]:
    """`src` with `spans` made spaces, when its parse has fewer errors than `tree`'s."""
    if not spans or not tree.root_node.has_error:
        return tree, src
    opened = _spaced(src, spans)
    new = parser_for(language).parse(opened)
    if _errors(new.root_node) < _errors(tree.root_node):
        return new, opened
    return tree, src


def _with(
    language: str, src: bytes, tree: Tree, edits: list[tuple[int, bytes]]
) -> tuple[Tree, bytes]:
    """`src` with each edit's bytes put at its place, when its parse has fewer errors than
    `tree`'s (a byte for a byte: bytes and lines keep their places)."""
    if not edits or not tree.root_node.has_error:
        return tree, src
    changed = bytearray(src)
    for at, text in edits:
        changed[at : at + len(text)] = text
    new = parser_for(language).parse(bytes(changed))
    if _errors(new.root_node) < _errors(tree.root_node):
        return new, bytes(changed)
    return tree, src


def _in_directive(src: bytes, at: int) -> bool:
    """Whether `at` is on a preprocessor line (`#define X ABSL_Y`, `#if ABSL_Z(...)`)."""
    line_start = src.rfind(b"\n", 0, at) + 1
    return src[line_start:at].lstrip().startswith(b"#")


def _word_before(src: bytes, at: int) -> bytes:
    head = src[max(0, at - 16) : at].rstrip()
    word = re.search(rb"\w+$", head)
    return word.group() if word else b""


def _errors(root: Node) -> int:
    """Bytes inside error nodes, one for each missing token: one error that swallows a whole
    header weighs more than a few that each cost a line."""
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR":
            count += node.end_byte - node.start_byte
        elif node.is_missing:
            count += 1
        elif node.has_error:
            stack.extend(node.children)
    return count
