"""Which language a file is written in, which grammar parses it, which have definition queries."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

QUERY_DIR = Path(__file__).parent / "queries"

# Extension (lower case, with the dot) -> language name. Languages without a grammar or query
# here are still "text we know": the chunker cuts them into line windows.
EXTENSIONS: dict[str, str] = {
    ".py": "python", ".pyi": "python", ".pyw": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hpp": "cpp", ".hh": "cpp",
    ".hxx": "cpp", ".h++": "cpp", ".ipp": "cpp", ".tpp": "cpp", ".inl": "cpp",
    ".cs": "csharp",
    ".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby", ".ru": "ruby",
    ".php": "php",
    ".kt": "kotlin", ".kts": "kotlin",
    ".swift": "swift",
    ".scala": "scala", ".sc": "scala",
    ".lua": "lua",
    ".sh": "bash", ".bash": "bash", ".zsh": "bash", ".ksh": "bash", ".bats": "bash",
    ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown",
    ".yaml": "yaml", ".yml": "yaml",
    ".toml": "toml",
    ".json": "json", ".jsonc": "json", ".json5": "json",
    # Known text formats without definition support: line windows.
    ".txt": "text", ".rst": "rst", ".adoc": "asciidoc", ".org": "org",
    ".html": "html", ".htm": "html", ".xml": "xml", ".svg": "xml", ".xsd": "xml",
    ".css": "css", ".scss": "scss", ".sass": "sass", ".less": "less",
    ".vue": "vue", ".svelte": "svelte",
    ".sql": "sql", ".graphql": "graphql", ".gql": "graphql", ".proto": "proto",
    ".ini": "ini", ".cfg": "ini", ".conf": "ini", ".properties": "ini", ".env": "ini",
    ".csv": "csv", ".tsv": "csv",
    ".r": "r", ".pl": "perl", ".pm": "perl", ".ex": "elixir", ".exs": "elixir",
    ".erl": "erlang", ".hs": "haskell", ".ml": "ocaml", ".mli": "ocaml", ".clj": "clojure",
    ".dart": "dart", ".zig": "zig", ".nim": "nim", ".jl": "julia", ".groovy": "groovy",
    ".gradle": "groovy", ".tf": "hcl", ".hcl": "hcl", ".nix": "nix", ".vim": "vim",
    ".ps1": "powershell", ".bat": "batch", ".cmd": "batch", ".cmake": "cmake", ".mk": "make",
    ".bzl": "starlark", ".tex": "latex", ".m": "objc", ".mm": "objc", ".fs": "fsharp",
    ".elm": "elm", ".sol": "solidity", ".v": "verilog", ".vhd": "vhdl", ".asm": "asm",
    ".s": "asm",
}  # fmt: skip

# Whole file names (no useful extension) -> language name.
FILENAMES: dict[str, str] = {
    "Dockerfile": "dockerfile", "Containerfile": "dockerfile",
    "Makefile": "make", "GNUmakefile": "make", "makefile": "make",
    "CMakeLists.txt": "cmake",
    "Rakefile": "ruby", "Gemfile": "ruby", "Podfile": "ruby", "Vagrantfile": "ruby",
    "Guardfile": "ruby", "Brewfile": "ruby",
    "Jenkinsfile": "groovy", "BUILD": "starlark", "WORKSPACE": "starlark",
    ".bashrc": "bash", ".bash_profile": "bash", ".zshrc": "bash", ".profile": "bash",
    ".gitignore": "text", ".dockerignore": "text", ".gitattributes": "text",
    ".editorconfig": "ini", ".npmrc": "ini",
    "LICENSE": "text", "LICENCE": "text", "COPYING": "text", "NOTICE": "text",
    "README": "text", "CHANGELOG": "text", "AUTHORS": "text", "CONTRIBUTORS": "text",
}  # fmt: skip

# Language name -> tree-sitter-language-pack grammar name (for get_parser/get_language).
GRAMMARS: dict[str, str] = {
    "python": "python", "javascript": "javascript", "typescript": "typescript", "tsx": "tsx",
    "go": "go", "rust": "rust", "java": "java", "c": "c", "cpp": "cpp", "csharp": "csharp",
    "ruby": "ruby", "php": "php", "kotlin": "kotlin", "swift": "swift", "scala": "scala",
    "lua": "lua", "bash": "bash", "elixir": "elixir", "haskell": "haskell", "zig": "zig",
    "yaml": "yaml", "toml": "toml", "json": "json",
}  # fmt: skip

# Language -> query file stem under queries/ (TSX shares the TypeScript query).
QUERY_FILES: dict[str, str] = {lang: lang for lang in GRAMMARS} | {"tsx": "typescript"}

# Languages whose query finds definitions (code); the rest of GRAMMARS find data sections.
CODE_LANGUAGES = frozenset(GRAMMARS) - {"yaml", "toml", "json"}
DATA_LANGUAGES = frozenset({"yaml", "toml", "json"})
# Prose read by section, each under its own headings (app.indexer.headings), and all prose.
SECTION_LANGUAGES = frozenset({"markdown", "rst", "asciidoc", "org"})
PROSE_LANGUAGES = SECTION_LANGUAGES | {"text"}
# Stylesheets: how a page looks, not what the code does.
STYLE_LANGUAGES = frozenset({"css", "scss", "sass", "less"})


def language_for_path(path: str) -> str | None:
    """Language name for a repo-relative path, or None when it is no text format we know."""
    name = PurePosixPath(path.replace("\\", "/")).name
    if name in FILENAMES:
        return FILENAMES[name]
    lower = name.lower()
    dot = lower.rfind(".")
    if dot < 0:
        return None
    return EXTENSIONS.get(lower[dot:])


# A `.h` header is C unless its text is C++: a template, a namespace, a class, an access label,
# `std::`, or a standard header included without `.h` (`#include <vector>`). `extern "C"`, the
# C header's guard for C++ readers, is no sign.
_CPP_IN_HEADER = re.compile(
    r"^[ \t]*(?:template[ \t]*<|namespace\b|class[ \t]+\w|(?:public|private|protected)[ \t]*:"
    r"|#[ \t]*include[ \t]*<[a-z_]+>)|\bstd::\w",
    re.MULTILINE,
)


# A script without an extension names its interpreter on its first line: `#!/bin/sh`,
# `#!/usr/bin/env bash`, `#!/usr/bin/env -S python3 -u`, `#!/usr/local/bin/ruby`.
_SHEBANG = re.compile(r"#![ \t]*\S*/(?:env[ \t]+(?:-\S+[ \t]+)*)?([a-z]+)")
INTERPRETERS: dict[str, str] = {
    "sh": "bash", "bash": "bash", "dash": "bash", "ksh": "bash", "zsh": "bash",
    "python": "python", "node": "javascript", "nodejs": "javascript", "ruby": "ruby",
    "php": "php", "lua": "lua", "luajit": "lua", "elixir": "elixir",
}  # fmt: skip


def language_for_text(path: str, text: str) -> str | None:
    """`language_for_path`, with a `.h` header that holds C++ read as C++, and a file with
    no known extension or name read as the language of the interpreter its `#!` line names."""
    language = language_for_path(path)
    if language == "c" and path.lower().endswith(".h") and _CPP_IN_HEADER.search(text):
        return "cpp"
    if language is None and text.startswith("#!"):
        found = _SHEBANG.match(text)
        return INTERPRETERS.get(found.group(1)) if found else None
    return language


def grammar_for(language: str) -> str | None:
    """The get_parser() name for a language, or None when we parse it without tree-sitter."""
    return GRAMMARS.get(language)


def has_definitions(language: str) -> bool:
    """True when a tree-sitter query finds the language's definitions (or data sections)."""
    return language in QUERY_FILES


def query_path(language: str) -> Path | None:
    """Path of the .scm query for a language, or None."""
    stem = QUERY_FILES.get(language)
    return QUERY_DIR / f"{stem}.scm" if stem else None
