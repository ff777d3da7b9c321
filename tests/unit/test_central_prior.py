"""Centrality as a prior: for a question that names no identifier, a definition the call
graph shows called from many places carries a `central` factor, and --explain says so."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.search import central
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

HELPER = (
    "def normalise_name(text):\n"
    '    """Lower-case a name and strip its spaces."""\n'
    "    return text.strip().lower()\n"
)
CALLER = (
    "from pkg.names import normalise_name\n\n\n"
    "def {name}(record):\n"
    '    """Store the {name} of a record."""\n'
    "    return normalise_name(record.{name})\n"
)


def test_a_definition_called_from_many_places_carries_the_prior(
    indexed: Indexed, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"pkg/names.py": HELPER}
    for name in ("title", "author", "editor", "publisher"):
        files[f"pkg/{name}.py"] = CALLER.format(name=name)
    service = indexed(files)
    monkeypatch.setattr(central, "WEIGHT", 0.1)
    hits = service.search("how are names cleaned before they are stored", k=10).hits
    factors = {h.symbol: {s.name: s.factor for s in h.explanation.signals} for h in hits}
    assert factors["normalise_name"]["central"] == pytest.approx(min(central.MOST, 5**0.1))
    assert "central" not in factors["title"]  # nothing calls it
    named = service.search("where is normalise_name defined", k=10).hits
    assert all("central" not in {s.name for s in h.explanation.signals} for h in named)
