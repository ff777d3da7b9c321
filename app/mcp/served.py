"""The repositories one server answers for, chosen by a `repo` argument, and the check that
keeps every path argument inside them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

if TYPE_CHECKING:
    from app.core.settings import Settings
    from app.indexer.worker import IndexWorker
    from app.service import Service

# Stopping waits this long for a model still loading: a load maps the file (about a second)
# and reading the prefix stops at once when cancelled; only a first run's assembly of the
# model takes longer, and that thread is a daemon, left to the process's end.
PRELOAD_WAIT_S = 5.0


@dataclass
class Served:
    """Services by name (the folder's name, or the index folder's where two share one)."""

    services: dict[str, Service] = field(default_factory=dict)
    workers: dict[str, IndexWorker] = field(default_factory=dict)
    ask_lock: threading.Lock = field(default_factory=threading.Lock)
    ask_offered: bool = False
    preload_cancel: threading.Event = field(default_factory=threading.Event)
    preloading: threading.Thread | None = None

    @classmethod
    def of(cls, services: list[Service]) -> Served:
        served = cls()
        names = [service.root.name or "root" for service in services]
        for service, name in zip(services, names, strict=True):
            key = name if names.count(name) == 1 else service.index_dir.name
            served.services[key] = service
        return served

    @property
    def settings(self) -> Settings:
        """The settings every served repository shares."""
        return next(iter(self.services.values())).settings

    def pick(self, repo: str | None) -> tuple[str, Service]:
        """The repository `repo` names; with one served, `repo` may be left out."""
        if repo is None and len(self.services) == 1:
            return next(iter(self.services.items()))
        if repo in self.services:
            return repo, self.services[repo]
        names = ", ".join(sorted(self.services))
        asked = "no repo was given" if repo is None else f"no served repository is named {repo!r}"
        raise MCPError(INVALID_PARAMS, f"{asked}; give repo as one of: {names}")

    def preload_answers(self, say: Callable[[str], None]) -> threading.Thread:
        """Load the answer model and read its fixed prefix in the background, so that the
        first `ask` waits only for its own excerpts; a model that cannot load is said once
        (each `ask` then says why too)."""

        def load() -> None:
            for service in self.services.values():  # one model: the later ones find it warm
                try:
                    if not service.preload_answers(self.preload_cancel):
                        return
                except Exception as error:  # a broken file too: said, and `ask` says it again
                    say(f"the answer model did not load: {error}")
                    return

        self.preloading = threading.Thread(target=load, name="repolens-answer-preload", daemon=True)
        self.preloading.start()
        return self.preloading

    def answer_model(self, service: Service) -> str:
        """The answer model's state for `index_status`: cold, loading, ready, failed, or
        not-offered (no model at hand)."""
        return service.answer_model_state() if self.ask_offered else "not-offered"

    def stop(self) -> None:
        self.preload_cancel.set()  # the prefix's reading stops within milliseconds
        for worker in self.workers.values():
            worker.stop()
        if self.preloading is not None:
            self.preloading.join(PRELOAD_WAIT_S)

    def busy(self) -> bool:
        """A thread `stop` asked to end is still running (a model still loading)."""
        preloading = self.preloading is not None and self.preloading.is_alive()
        return preloading or any(not worker.join(0) for worker in self.workers.values())


def confine(service: Service, path: str) -> str:
    """`path` (relative to the repository, or absolute inside it) as a repository path; any
    `..`, any path outside, and any symlink leading out are refused with an MCP error."""
    given = Path(path)
    root = service.root
    if not path or ".." in given.parts:
        raise _outside(path, root, "give a path inside it, without `..`")
    target = (given if given.is_absolute() else root / given).resolve()
    if not target.is_relative_to(root):
        raise _outside(path, root, "give a path relative to the repository")
    relative = target.relative_to(root).as_posix()
    if relative == ".":
        raise _outside(path, root, "give a file inside it, not the repository itself")
    return relative


def _outside(path: str, root: Path, advice: str) -> MCPError:
    return MCPError(
        INVALID_PARAMS, f"path {path!r} is outside the served repository {root}; {advice}"
    )
