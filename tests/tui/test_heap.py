"""Apps that have closed do not pile up: what each exempted from the cycle collector (its
index in memory, its widgets) is freed with it, so a process that runs app after app (the
test suite, a bench) stays the size of one."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Callable
from pathlib import Path

from app.service import Service
from app.tui.app import RepolensApp
from tests.tui.conftest import searched

SETTLE_S = 30.0  # how long a closed app's threads may take to end
FILES = {
    "retry.py": '"""Retries."""\n\n\ndef backoff(attempt: int) -> float:\n'
    '    """Exponential backoff with jitter."""\n    return min(30.0, 2.0**attempt)\n',
}


async def test_closed_apps_and_their_services_are_freed(
    indexed: Callable[[dict[str, str]], Service], tui_state: Path
) -> None:
    async def run_once() -> weakref.ref[Service]:
        service = indexed(FILES)
        app = RepolensApp(service)
        async with app.run_test(size=(80, 24)) as pilot:
            await searched(pilot, app, "backoff with jitter")  # both moments the heap settles
            assert gc.get_freeze_count() > 0
        return weakref.ref(service)

    # Each in a task of its own, so that the app it runs is that task's context's, not this
    # test's. Two may stay for a while: a long-lived thread started while the first app ran
    # keeps that app's print capture (a Python thread holds the `sys.stderr` it started
    # under), and the last one's context is still referenced. Frozen, all four stayed.
    services = [await asyncio.create_task(run_once()) for _ in range(4)]
    gc.collect()
    assert gc.get_freeze_count() == 0
    # A closed app's worker thread still finishing its last step (a loaded machine makes it
    # late) holds its service until it ends: wait for that, not for a fixed moment.
    deadline = time.monotonic() + SETTLE_S
    alive = sum(ref() is not None for ref in services)
    while alive > 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        gc.collect()
        alive = sum(ref() is not None for ref in services)
    assert alive <= 2, f"{alive} of 4 closed apps' services are still in memory"
