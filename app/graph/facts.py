"""What the graph keeps of one parsed file (symbols, imports, calls, bases), as a table row."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from app.core.models import Attribute, CallSite, Import, Inheritance, ParsedFile, Symbol
from app.parse.call_text import IMPLICIT_MEMBER
from app.parse.calls import has_calls


def symbol_id(path: str, qualified: str) -> str:
    """`path::Class.method`; `path::` stands for a file's module-level code."""
    return f"{path}::{qualified}"


# What a definition's kind says it is: a type whose members calls reach through it.
CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "trait", "impl", "type"})


def call_text(call: CallSite) -> str:
    """How a call reads in the graph: `receiver.name`, the name alone, Swift's `.init`, or
    the called expression of a call that names nothing (`handlers[k]`)."""
    if not call.callee or not call.receiver:
        return call.callee or call.receiver
    return f"{call.receiver}{'' if call.receiver == IMPLICIT_MEMBER else '.'}{call.callee}"


def keeps_facts(parsed: ParsedFile) -> bool:
    """Whether the graph keeps a parsed file: every file of a language it reads calls in, since
    a barrel of re-exports or an empty `__init__.py` still names a module of the project."""
    return bool(parsed.symbols or parsed.calls or parsed.imports) or has_calls(parsed.language)


def split_id(sid: str) -> tuple[str, str]:
    path, _, qualified = sid.rpartition("::")
    return path, qualified


@dataclass(frozen=True, slots=True)
class FileFacts:
    path: str
    language: str
    symbols: tuple[Symbol, ...]
    imports: tuple[Import, ...]
    calls: tuple[CallSite, ...]
    bases: tuple[Inheritance, ...]
    attributes: tuple[Attribute, ...] = ()

    @classmethod
    def from_parsed(cls, parsed: ParsedFile) -> FileFacts:
        return cls(
            parsed.path,
            parsed.language,
            parsed.symbols,
            parsed.imports,
            parsed.calls,
            parsed.bases,
            parsed.attributes,
        )

    def to_row(self) -> dict[str, Any]:
        # Tuples, not dicts: a generated file's 20,000 calls stay a small blob.
        data = {
            "symbols": [
                [s.name, s.kind, s.qualified_name, s.start_line, s.end_line, s.parent]
                for s in self.symbols
            ],
            "imports": [[i.module, i.name, i.alias, i.line] for i in self.imports],
            "calls": [
                [
                    c.caller,
                    c.callee,
                    c.receiver,
                    c.line,
                    *([c.receiver_type] if c.receiver_type else []),
                ]
                for c in self.calls
            ],
            "bases": [[b.child, b.base, b.line] for b in self.bases],
            "attributes": [[a.owner, a.name, a.type_text] for a in self.attributes],
        }
        return {"path": self.path, "language": self.language, "facts": json.dumps(data)}

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> FileFacts:
        data = json.loads(row["facts"])
        path, lang = row["path"], row["language"]
        return cls(
            path,
            lang,
            tuple(Symbol(n, k, q, path, a, b, p, lang) for n, k, q, a, b, p in data["symbols"]),
            tuple(Import(*i) for i in data["imports"]),
            tuple(CallSite(*c) for c in data["calls"]),
            tuple(Inheritance(*b) for b in data["bases"]),
            tuple(Attribute(*a) for a in data.get("attributes", ())),
        )

    def names(self) -> set[str]:
        """Every name this file defines or imports: what a change to it can re-resolve."""
        out = {s.name for s in self.symbols} | {i.alias for i in self.imports}
        out |= {i.name for i in self.imports}
        out |= {a.name for a in self.attributes if not a.owner}  # `export { a as string }`
        return out
