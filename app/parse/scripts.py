"""A shell file's own top-level code is its program: one definition named after the file.

`rbenv-version-name` is mostly commands outside any function; read as glue, its code had no
name, ranked below every definition and called functions as `<module>`. As a definition of
kind `script` around the file's functions, named `rbenv-version-name` (`install` for
`install.sh`; `deploy.sh` when the file defines a `deploy` function), its own lines are its
chunks, its opening comment block its documentation, and the calls they make are its calls.
A command reaches it only by the file's name (`rbenv-version-name`, `./install.sh`), never
by the script's name alone (the call graph's `project-program` rule).
"""

from __future__ import annotations

from collections.abc import Sequence

from tree_sitter import Node

from app.parse.definitions import Definition, Found
from app.parse.text import clip_doc, strip_comment

SCRIPT_KIND = "script"
SCRIPT_LANGUAGES = frozenset({"bash"})
# Top-level nodes that do not make a file a program: its functions and its comments.
_NOT_PROGRAM = frozenset({"function_definition", "comment"})
_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh", ".bats")
_SHEBANG = "#!"
# Bash's builtins (its manual's list): the shell runs these before any program on PATH, so a
# project script of one of these names (`bin/test`) is never what `test -f x` runs.
SHELL_BUILTINS = frozenset(
    {
        ".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command",
        "compgen", "complete", "compopt", "continue", "declare", "dirs", "disown", "echo",
        "enable", "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash",
        "help", "history", "jobs", "kill", "let", "local", "logout", "mapfile", "popd",
        "printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "set", "shift",
        "shopt", "source", "suspend", "test", "times", "trap", "true", "type", "typeset",
        "ulimit", "umask", "unalias", "unset", "wait",
    }
)  # fmt: skip


def script_name(path: str) -> str:
    """`libexec/rbenv-version-name` -> `rbenv-version-name`, `bin/install.sh` -> `install`,
    `.bashrc` -> `bashrc`."""
    name = path.rpartition("/")[2].lstrip(".") or path
    for suffix in _SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def with_script(found: Found, root: Node, path: str, last_line: int) -> Found:
    """`found` with the file's program as one more definition around everything else, when
    its top level holds any statement that is not a function or a comment."""
    if not any(child.type not in _NOT_PROGRAM for child in root.named_children):
        return found
    name = script_name(path)
    if any(d.qualified == name for d in found.definitions):  # `deploy()` in deploy.sh
        name = path.rpartition("/")[2]
    script = Definition(
        kind=SCRIPT_KIND,
        name=name,
        core=root,
        start_byte=0,
        end_byte=root.end_byte,
        start_line=1,
        end_line=max(1, last_line),
        core_line=1,
        qualified=name,
        lead_line=1,
        children=list(found.roots),
    )
    for d in found.roots:
        d.enclosing = script  # the layout nests them; their names stay global, as in the shell
    return Found([script, *found.definitions], [script], found.comment_lines, found.attribute_lines)


def script_doc(lines: Sequence[str]) -> str:
    """The comment block that opens the file, after its `#!` line (rbenv's `# Summary: Show
    the current Ruby version`); "" when code comes first."""
    rows: list[str] = []
    for i, line in enumerate(lines):
        text = line.strip()
        if i == 0 and text.startswith(_SHEBANG):
            continue
        if not text.startswith("#"):
            if rows or text:
                break
            continue  # blank lines before the block
        rows.append(line)
    return clip_doc(strip_comment("\n".join(rows))) if rows else ""


def script_signature(lines: Sequence[str]) -> str:
    """The file's first line that says something: not its `#!` line, not blank."""
    for i, line in enumerate(lines):
        if line.strip() and not (i == 0 and line.startswith(_SHEBANG)):
            return line.rstrip()
    return ""
