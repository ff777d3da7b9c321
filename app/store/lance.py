"""LanceDB, imported without the start-up cost of a client repolens never calls.

`import lancedb` imports lance_namespace, whose generated REST client decorates 366 methods
with pydantic's `validate_call` and defines hundreds of pydantic models. Each builds its
validator at once: about 0.4 s on two cores, a fifth of a warm restart, for a client that
talks to a catalogue server (repolens's indexes are local folders). While lancedb is
imported, validators are built at first use instead (`validate_call` at the method's first
call; models through pydantic's `defer_build`), so everything behaves the same if anything
ever calls it.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

_lock = threading.Lock()
_module: ModuleType | None = None


def lancedb() -> ModuleType:
    """The lancedb module, imported once; threads asking meanwhile wait for the whole import
    (sys.modules holds a half-imported module while another thread imports it)."""
    global _module
    if _module is not None:
        return _module
    with _lock:
        if _module is None:
            import pydantic

            eager = pydantic.validate_call
            config = pydantic.BaseModel.model_config
            pydantic.validate_call = _deferred(eager)  # type: ignore[assignment]
            # The client's hundreds of request and response models: schemas built on first
            # use (pydantic's own defer_build), not at import.
            pydantic.BaseModel.model_config = {**config, "defer_build": True}
            try:
                import lancedb as module
            finally:
                pydantic.validate_call = eager
                pydantic.BaseModel.model_config = config
            _module = module
    return _module


def _deferred(eager: Callable[..., Any]) -> Callable[..., Any]:
    """A `validate_call` that builds its validator on the first call."""

    def validate_call(func: Any = None, /, **options: Any) -> Any:
        def decorate(method: Callable[..., Any]) -> Callable[..., Any]:
            built: list[Callable[..., Any]] = []

            @functools.wraps(method)
            def checked(*args: Any, **kwargs: Any) -> Any:
                if not built:
                    built.append(eager(**options)(method))
                return built[0](*args, **kwargs)

            return checked

        return decorate if func is None else decorate(func)

    return validate_call
