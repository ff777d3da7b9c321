"""The module names a project gives itself: a package.json's `exports` (or `main`) and a
tsconfig's `paths`, read as the imports the resolver follows for a bare specifier (`zod/v4`);
a go.mod's module path, which the project's own Go imports start with; a Cargo.toml's crate
name, which its tests, benches and examples import the library by (`use petgraph::Graph`)."""

from __future__ import annotations

import json
import posixpath
import re
import tomllib
from typing import Any

from app.core.models import Import

# Import.name of each record; Import.alias holds the specifier (or pattern), module the target.
EXPORTS = "exports"  # package.json: `zod/v4` -> ./src/v4/index.ts, one record per target
PATHS = "paths"  # tsconfig: `@trpc/server/*` -> ./packages/server/src/*
EXTENDS = "extends"  # tsconfig: the config it extends (module), alias ""
GO_MODULE = "go.mod"  # go.mod: the module path (module), alias ""
CARGO = "Cargo.toml"  # Cargo.toml: the library's root file (module), alias the crate's name
_GO_MODULE_LINE = re.compile(r"^\s*module\s+\"?([^\s\"/][^\s\"]*)\"?\s*(?://.*)?$", re.M)
_CONFIG = re.compile(r"^[tj]sconfig(\.[\w.-]+)?\.json$")
# Fields that name a package's entry when it has no `exports`, in the order tools read them.
_ENTRY_FIELDS = ("source", "types", "typings", "module", "main")
# A JSONC comment or a string (kept), for reading tsconfig files.
_JSONC = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.S)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def is_manifest(path: str) -> bool:
    name = posixpath.basename(path)
    return name in ("package.json", GO_MODULE, CARGO) or bool(_CONFIG.match(name))


def manifest_imports(path: str, text: str) -> tuple[Import, ...]:
    """The records of one package.json or tsconfig; () for anything unreadable."""
    name = posixpath.basename(path)
    try:
        if name == "package.json":
            return _package(json.loads(text))
        if _CONFIG.match(name):
            return _tsconfig(json.loads(_strip_jsonc(text)))
        if name == GO_MODULE and (found := _GO_MODULE_LINE.search(text)):
            line = text.count("\n", 0, found.start()) + 1
            return (Import(found.group(1), GO_MODULE, "", line),)
        if name == CARGO:
            return _cargo(tomllib.loads(text))
    except (ValueError, TypeError, AttributeError):  # tomllib.TOMLDecodeError is a ValueError
        return ()
    return ()


def _cargo(data: dict[str, Any]) -> tuple[Import, ...]:
    """The crate's library: its name as code writes it (`[lib] name`, else the package's with
    `-` as `_`) and its root file (`[lib] path`, else `src/lib.rs`); () for a workspace's own
    manifest or a crate without a name."""
    lib, package = data.get("lib"), data.get("package")
    lib = lib if isinstance(lib, dict) else {}
    package = package if isinstance(package, dict) else {}
    name = lib.get("name") or package.get("name")
    root = lib.get("path") or "src/lib.rs"
    if not isinstance(name, str) or not name or not isinstance(root, str):
        return ()
    return (Import(root.removeprefix("./"), CARGO, name.replace("-", "_"), 1),)


def _strip_jsonc(text: str) -> str:
    def keep_strings(m: re.Match[str]) -> str:
        return m.group(0) if m.group(0).startswith('"') else " "

    return _TRAILING_COMMA.sub(r"\1", _JSONC.sub(keep_strings, text))


def _package(data: dict[str, Any]) -> tuple[Import, ...]:
    name = data.get("name")
    if not isinstance(name, str) or not name:
        return ()
    exports = data.get("exports")
    out: list[Import] = []
    if exports is None:  # no map: the entry fields, and any file by its path in the package
        for entry in _ENTRY_FIELDS:
            if isinstance(target := data.get(entry), str):
                out.append(Import(target, EXPORTS, name, 1))
        out.append(Import("./index", EXPORTS, name, 1))
        out.append(Import("./*", EXPORTS, f"{name}/*", 1))
        return tuple(out)
    if not isinstance(exports, dict) or not all(str(k).startswith(".") for k in exports):
        exports = {".": exports}  # a string, a list, or conditions of the package itself
    for key, value in exports.items():
        specifier = name if key == "." else name + "/" + key.removeprefix("./")
        out.extend(Import(target, EXPORTS, specifier, 1) for target in _targets(value))
    return tuple(out)


def _targets(value: Any) -> list[str]:
    """Every file a condition tree may name, in the order written (the resolver takes the
    first the project holds: a source condition before the built output it is missing)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for v in value for t in _targets(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _targets(v)]
    return []


def _tsconfig(data: dict[str, Any]) -> tuple[Import, ...]:
    out: list[Import] = []
    parents = data.get("extends")
    for parent in [parents] if isinstance(parents, str) else parents or []:
        if isinstance(parent, str):
            out.append(Import(parent, EXTENDS, "", 1))
    options = data.get("compilerOptions") or {}
    base = options.get("baseUrl")
    base = base if isinstance(base, str) else "."
    for pattern, targets in (options.get("paths") or {}).items():
        for target in targets if isinstance(targets, list) else []:
            if isinstance(target, str):
                out.append(Import(posixpath.join(base, target), PATHS, pattern, 1))
    if "baseUrl" in options:  # any bare name may be a file under baseUrl
        out.append(Import(posixpath.join(base, "*"), PATHS, "*", 1))
    return tuple(out)
