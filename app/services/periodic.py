"""A job run every `interval` seconds in the app's lifespan (0 = never): the
timeout watcher, the turn-deadline watcher and the notice sender."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("feytable.periodic")


class Periodic:
    def __init__(self, name: str, interval: float, job: Callable[[], Awaitable[object]]) -> None:
        self.name = name
        self.interval = interval
        self.job = job
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.interval > 0:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"feytable-{self.name}")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.job()
            except Exception:  # one failed pass must not stop the next
                log.exception("%s failed; retrying", self.name)

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
