"""Which project files a JS/TS import names: relative specifiers (`./a.js` may name `a.ts`),
and bare ones the project gives itself (tsconfig `paths`, a package.json's `exports`)."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Collection, Mapping
from typing import Any

from app.graph.facts import FileFacts
from app.parse.manifests import EXPORTS, EXTENDS, PATHS, is_manifest

_TS_EXT = (".ts", ".tsx", ".d.ts", ".mts", ".cts")
_JS_EXT = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".d.ts", ".mts", ".cts")
# A `.js` specifier names the `.ts` file it is compiled from (TypeScript's rule), and so on.
_COMPILED = {".js": (".ts", ".tsx"), ".jsx": (".tsx",), ".mjs": (".mts",), ".cjs": (".cts",)}
_CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
MAX_EXTENDS = 8

Entries = list[tuple[str, str]]  # (pattern or specifier, target path from the root)


def _package_name(specifier: str) -> str:
    """`@trpc/server/http` -> `@trpc/server`, `zod/v4` -> `zod` (npm's two forms of a name)."""
    parts = specifier.split("/")
    return "/".join(parts[:2]) if specifier.startswith("@") else parts[0]


def _match(entries: Entries, specifier: str) -> list[str]:
    """Targets of the entry an import matches: the exact one, else the pattern with the
    longest prefix (`*` replaced by what it stands for), as TypeScript and Node pick."""
    exact = [target for key, target in entries if key == specifier]
    if exact:
        return exact
    best = -1
    out: list[str] = []
    for key, target in entries:
        prefix, star, suffix = key.partition("*")
        fits = star and specifier.startswith(prefix) and specifier.endswith(suffix)
        if not fits or len(prefix) < best or len(specifier) < len(prefix) + len(suffix):
            continue
        if len(prefix) > best:
            best, out = len(prefix), []
        middle = specifier[len(prefix) : len(specifier) - len(suffix)]
        out.append(target.replace("*", middle, 1))
    return out


class JsModules:
    """The project's JS/TS module names, from the facts of its files and manifests."""

    def __init__(self, files: Mapping[str, FileFacts]) -> None:
        self.files = files
        self.packages: dict[str, Entries] = {}  # package.json's folder -> its exports
        self.named: dict[str, list[str]] = {}  # package name -> folders of that name
        self.configs: dict[str, Entries] = {}  # tsconfig path -> its paths
        self.extends: dict[str, list[str]] = defaultdict(list)  # tsconfig -> configs it extends
        for path, facts in files.items():
            if facts.language == "json" and is_manifest(path):
                self._read(path, facts)
        self._resolved: dict[tuple[str, str], list[str] | None] = {}

    def _read(self, path: str, facts: FileFacts) -> None:
        folder = posixpath.dirname(path)
        for imp in facts.imports:
            target = posixpath.normpath(posixpath.join(folder, imp.module))
            if imp.name == EXPORTS:
                self.packages.setdefault(folder, []).append((imp.alias, target))
                named = self.named.setdefault(_package_name(imp.alias), [])
                if folder not in named:
                    named.append(folder)
            elif imp.name == PATHS:
                self.configs.setdefault(path, []).append((imp.alias, target))
            elif imp.name == EXTENDS and imp.module.startswith("."):
                parent = target if target.endswith(".json") else target + ".json"
                self.extends[path].append(parent)

    def file(self, target: str) -> str | None:
        """The project file a path names: as written, with an extension, as a folder's index,
        or the TypeScript source a `.js` name is compiled from."""
        stem, ext = posixpath.splitext(target)
        candidates = [target, *(stem + e for e in _COMPILED.get(ext, ()))]
        candidates += [target + e for e in _JS_EXT]
        if ext in _COMPILED:
            candidates += [stem + e for e in _JS_EXT]
        candidates += [f"{target}/index{e}" for e in _JS_EXT]
        return next((c for c in candidates if c in self.files and not is_manifest(c)), None)

    def resolve(self, importer: str, specifier: str) -> list[str] | None:
        """Project files an import names; None when it lies outside the project (asked for
        every import of every call's file: kept per folder and specifier)."""
        key = (posixpath.dirname(importer), specifier)
        if key not in self._resolved:
            self._resolved[key] = self._resolve(key[0], specifier)
        return self._resolved[key]

    def _resolve(self, folder: str, specifier: str) -> list[str] | None:
        if specifier.startswith("."):
            target = posixpath.normpath(posixpath.join(folder, specifier))
            found = self.file(target) or self._package_folder("" if target == "." else target)
            return [found] if found else None
        if specifier.startswith("/") or not (self.packages or self.configs):
            return None
        return self._resolve_bare(folder, specifier)

    def _package_folder(self, folder: str) -> str | None:
        """`require('../..')` from a test: a folder with a package.json means the file its
        `exports` or `main` give for the package itself (Node's folder import), else its
        index."""
        entries = self.packages.get(folder, [])
        for name, folders in self.named.items():
            if folder in folders:
                for target in _match(entries, name):
                    if found := self.file(target):
                        return found
        return self.file(posixpath.join(folder, "index")) if not folder else None

    def _resolve_bare(self, folder: str, specifier: str) -> list[str] | None:
        for target in _match(self._paths(folder), specifier):
            if found := self.file(target):
                return [found]
        for package in self._packages_seen_from(folder, _package_name(specifier)):
            for target in _match(self.packages[package], specifier):
                if found := self.file(target):
                    return [found]
        return None

    def _paths(self, folder: str) -> Entries:
        """The `paths` a file's nearest tsconfig gives (its own, else the nearest config it
        extends that has some)."""
        config = self._nearest_config(folder)
        seen: set[str] = set()
        while config and config not in seen and len(seen) < MAX_EXTENDS:
            seen.add(config)
            if entries := self.configs.get(config):
                return entries
            config = next(iter(self.extends.get(config, [])), "")
        return []

    def _nearest_config(self, folder: str) -> str:
        while True:
            for name in _CONFIG_NAMES:
                path = posixpath.join(folder, name) if folder else name
                if path in self.configs or path in self.extends:
                    return path
            if not folder:
                return ""
            folder = posixpath.dirname(folder)

    def _packages_seen_from(self, folder: str, name: str) -> list[str]:
        """Folders of the packages named so, in the order a name is looked for: the
        importer's own package (a package may import itself by name) and its ancestors
        first, then the rest."""

        def inside(package: str) -> bool:
            return not package or folder == package or folder.startswith(package + "/")

        folders = self.named.get(name, [])
        return sorted(folders, key=lambda p: (not inside(p), -len(p) if inside(p) else 0, p))

    def touches(self, changed: Collection[str]) -> bool:
        """Whether a change can move what a bare import names in ways the names of the
        changed files do not show: a manifest, or a file a package names exactly."""
        exact = {
            target
            for entries in (*self.packages.values(), *self.configs.values())
            for key, target in entries
            if "*" not in key
        }
        for path in changed:
            if is_manifest(path):
                return True
            stem = posixpath.splitext(path)[0]
            for target in exact:
                if path == target or stem in (target, posixpath.splitext(target)[0]):
                    return True
                if posixpath.dirname(path) == target:  # the folder's index
                    return True
        return False


class Reach:
    """Which files each JS/TS file reaches through its imports, transitively (re-exports
    included): the modules whose classes its objects can come from. Built once, on first
    use, as bit sets over the import graph's strongly connected components."""

    def __init__(self, modules: JsModules) -> None:
        self.modules = modules
        self._index: dict[str, int] = {}
        self._bits: list[int] = []

    def reaches(self, importer: str, target: str) -> bool:
        if not self._bits:
            self._build()
        i, j = self._index.get(importer), self._index.get(target)
        return i is not None and j is not None and bool(self._bits[i] >> j & 1)

    def _build(self) -> None:
        paths = [p for p, f in self.modules.files.items() if f.language in _JS_LANGUAGES]
        self._index = {p: i for i, p in enumerate(paths)}
        edges: list[list[int]] = [[] for _ in paths]
        for i, path in enumerate(paths):
            for imp in self.modules.files[path].imports:
                for target in self.modules.resolve(path, imp.module) or []:
                    if (j := self._index.get(target)) is not None:
                        edges[i].append(j)
        self._bits = _closure(edges)


_JS_LANGUAGES = frozenset({"javascript", "typescript", "tsx"})


def _closure(edges: list[list[int]]) -> list[int]:
    """Per node, the bit set of the nodes it reaches (itself included): Tarjan's components,
    found iteratively, each the union of its members and of the components it points to."""
    n = len(edges)
    index, low, comp = [-1] * n, [0] * n, [-1] * n
    stack: list[int] = []
    on_stack = [False] * n
    comp_bits: list[int] = []  # per component, in the order found (successors first)
    counter = 0
    for start in range(n):
        if index[start] != -1:
            continue
        work = [(start, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            if child < len(edges[node]):
                work.append((node, child + 1))
                nxt = edges[node][child]
                if index[nxt] == -1:
                    work.append((nxt, 0))
                elif on_stack[nxt]:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                members, bits = [], 0
                while True:
                    top = stack.pop()
                    on_stack[top] = False
                    comp[top] = len(comp_bits)
                    members.append(top)
                    bits |= 1 << top
                    if top == node:
                        break
                for m in members:
                    for nxt in edges[m]:
                        if comp[nxt] != len(comp_bits):
                            bits |= comp_bits[comp[nxt]]
                comp_bits.append(bits)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return [comp_bits[comp[i]] for i in range(n)]


def imports_moved(
    old: Mapping[str, dict[str, Any]], new: Mapping[str, FileFacts], changed: Collection[str]
) -> bool:
    """Whether a change moves the JS/TS import graph (a file added or removed, or the modules
    one imports): what every file reaches may then change, which the names of the changed
    files do not show."""
    for path in changed:
        before = FileFacts.from_row(old[path]) if path in old else None
        after = new.get(path)
        facts = after or before
        if facts is None or facts.language not in _JS_LANGUAGES:
            continue
        if before is None or after is None:
            return True
        if {i.module for i in before.imports} != {i.module for i in after.imports}:
            return True
    return False
