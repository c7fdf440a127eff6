"""Tell every local socket on a table that the table changed.

A notification carries ids only (table, version), never game data: each socket
re-reads the table and renders its own seat's view, so nothing hidden can ride
along and a missed notification costs nothing but a refresh.

- LocalHub: one process (SQLite mode). Published after commit.
- PostgresHub: `pg_notify` inside the move transaction (delivered only if it
  commits) and LISTEN on one dedicated asyncpg connection per process. If that
  connection drops, it reconnects and tells every local socket to resync.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import defaultdict
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

log = logging.getLogger("feytable.realtime")
CHANNEL = "feytable_tables"

# A process-wide clock that only moves forward: when a socket was told of a
# change, and when a read of a table started (see app/web/ws.py SharedReads).
_ticks = itertools.count(1)


def tick() -> int:
    return next(_ticks)


class Subscription:
    """A socket's mailbox: coalesces bursts, since the socket always renders the latest state."""

    def __init__(self, hub: LocalHub, table_id: int) -> None:
        self.hub = hub
        self.table_id = table_id
        self.event = asyncio.Event()
        self.version: int | None = None
        self.poked_at = tick()  # a read started after this shows every change it was told of

    def poke(self, version: int | None) -> None:
        self.version = version
        self.poked_at = tick()
        self.event.set()

    async def wait(self) -> int | None:
        await self.event.wait()
        self.event.clear()
        return self.version

    def close(self) -> None:
        self.hub._unsubscribe(self)


class LocalHub:
    def __init__(self) -> None:
        self._subs: dict[int, set[Subscription]] = defaultdict(set)

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    def subscribe(self, table_id: int) -> Subscription:
        sub = Subscription(self, table_id)
        self._subs[table_id].add(sub)
        return sub

    def _unsubscribe(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.table_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.table_id]

    def connections(self) -> int:
        return sum(len(s) for s in self._subs.values())

    def watched(self, table_id: int) -> bool:
        return table_id in self._subs

    def dispatch(self, table_id: int, version: int | None) -> None:
        for sub in list(self._subs.get(table_id, ())):
            sub.poke(version)

    def resync_all(self) -> None:
        for table_id in list(self._subs):
            self.dispatch(table_id, None)

    async def in_transaction(self, db: AsyncSession, table_id: int, version: int) -> None:
        """Called inside the transaction that changed the table."""
        return None

    def after_commit(self, table_id: int, version: int) -> None:
        self.dispatch(table_id, version)


class PostgresHub(LocalHub):
    def __init__(self, dsn: str) -> None:
        super().__init__()
        self.dsn = dsn
        self._conn: Any = None
        self._task: asyncio.Task[None] | None = None
        self._lost = asyncio.Event()
        self.ready = asyncio.Event()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="feytable-listen")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), 10)

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._close()

    async def _close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None

    async def _run(self) -> None:
        import asyncpg

        delay = 0.2
        while True:
            try:
                self._lost.clear()
                self._conn = await asyncpg.connect(self.dsn)
                self._conn.add_termination_listener(lambda _c: self._lost.set())
                await self._conn.add_listener(CHANNEL, self._on_notify)
                if self.ready.is_set():
                    # Back after a drop: notifications may have been missed.
                    self.resync_all()
                self.ready.set()
                delay = 0.2
                while not self._lost.is_set():
                    try:
                        await asyncio.wait_for(self._lost.wait(), 15)
                    except TimeoutError:
                        await self._conn.execute("SELECT 1")  # notice a dead connection
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # network, server restart: retry, then resync
                log.warning("listener connection lost: %s", exc)
            await self._close()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            table, version = payload.split(":", 1)
            self.dispatch(int(table), int(version))
        except ValueError:
            log.warning("bad notification payload %r", payload)

    async def in_transaction(self, db: AsyncSession, table_id: int, version: int) -> None:
        await db.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": f"{table_id}:{version}"})

    def after_commit(self, table_id: int, version: int) -> None:
        return None  # the listener delivers it, to this process like to every other


def asyncpg_dsn(database_url: str) -> str:
    return database_url.replace("postgresql+asyncpg://", "postgresql://", 1)
