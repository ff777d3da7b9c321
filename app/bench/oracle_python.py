"""The Python oracle: jedi's `Script.goto` (imports followed) at each sampled call's name."""

from __future__ import annotations

from itertools import groupby
from pathlib import Path
from typing import Any

from app.bench.oracle import Site, Target

_DEFINITION_TYPES = frozenset({"function", "class"})


def _targets(names: list[Any], root: Path) -> list[Target]:
    out: list[Target] = []
    for name in names:
        module = name.module_path
        line = name.line or 0
        if module is None or name.in_builtin_module() or not line:
            out.append(Target("", line, name.name))
            continue
        try:
            relative = Path(module).resolve().relative_to(root).as_posix()
        except ValueError:  # the standard library, site-packages, typeshed's stubs
            relative = ""
        if not relative and str(module).endswith(".pyi"):
            out.append(_through_stub(name.full_name or "", root) or Target("", line, name.name))
            continue
        out.append(Target(relative, line, name.name))
    return out


def _through_stub(full_name: str, root: Path) -> Target | None:
    """A definition jedi found in a stub package it ships (django-stubs for Django itself),
    as the project's own module of that dotted name, when the project has one."""
    parts = full_name.split(".")
    for base in (root, root / "src"):
        for cut in range(len(parts) - 1, 0, -1):
            folder = base.joinpath(*parts[:cut])
            for file in (folder.with_suffix(".py"), folder / "__init__.py"):
                if file.is_file():
                    path = file.relative_to(root).as_posix()
                    return Target(path, 0, parts[-1], ".".join(parts[cut:]))
    return None


def _answer(script: Any, site: Site, root: Path) -> list[Target]:
    """Where the called name goes; a name bound to a variable or parameter is followed to
    what it holds (`handler = self.on_error` ... `handler()`) with `infer`."""
    names = script.goto(site.name_line, site.name_column, follow_imports=True)
    if names and all(n.type in _DEFINITION_TYPES for n in names):
        return _targets(names, root)
    inferred = [
        n for n in script.infer(site.name_line, site.name_column) if n.type in _DEFINITION_TYPES
    ]
    return _targets(inferred or names, root) if (inferred or names) else []


def jedi_answers(root: Path, sites: list[Site]) -> list[list[Target] | None]:
    """One answer per site, in order (None where jedi itself failed on the site)."""
    import jedi

    root = root.resolve()
    project = jedi.Project(root)
    out: list[list[Target] | None] = []
    for path, group in groupby(sites, key=lambda s: s.path):
        file = root / path
        code = file.read_text(encoding="utf-8", errors="replace")
        script = jedi.Script(code, path=file, project=project)
        for site in group:
            try:
                out.append(_answer(script, site, root))
            except Exception:  # jedi raises on odd code it cannot infer through
                out.append(None)
    return out
