"""Drives bot seats: when a bot is asked to act, it moves through the same
service as a human, after a short delay so people can follow."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from sqlalchemy import select

from app.services.errors import ServiceError
from app.services.tables import game_or_error, load_table
from app.store.models import GameTable

if TYPE_CHECKING:
    from app.services.runtime import Runtime

log = logging.getLogger("feytable.bots")


class BotDriver:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._stopping = False

    def kick(self, table_id: int) -> None:
        """Something changed at this table: let its bots look."""
        if self._stopping:
            return
        task = self._tasks.get(table_id)
        if task is not None and not task.done():
            self._again.add(table_id)
            return
        self._tasks[table_id] = asyncio.get_running_loop().create_task(self._run(table_id))

    async def _run(self, table_id: int) -> None:
        try:
            while not self._stopping:
                self._again.discard(table_id)
                await asyncio.sleep(self.rt.settings.bot_delay)
                moved = await self._step(table_id)
                if not moved and table_id not in self._again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot must never take the server down
            log.exception("bot failed at table %s", table_id)
        finally:
            self._tasks.pop(table_id, None)

    async def _step(self, table_id: int) -> bool:
        from app.services.moves import submit
        from app.services.runtime import rng_for

        async with self.rt.sm() as db:
            table = await load_table(db, table_id)
        if table.status != "playing" or table.state is None:
            return False
        bots = [s.index for s in table.seats if s.is_bot and s.index in (table.to_act or [])]
        if not bots:
            return False
        game = game_or_error(table.game)
        state = game.load_state(table.state)
        seat = bots[0]
        rng = rng_for(table.seed, f"bot:{table.version}:{seat}")
        try:
            move = game.bot_move(state, seat, rng)
        except Exception:
            # A bot bug must not stall the table: fall back to any legal move.
            log.exception("bot of %s failed at table %s; playing a random legal move", game.id, table_id)
            move = rng.choice(game.legal_moves(state, seat))
        from app.games.base import dump_move

        try:
            await submit(self.rt, table_id, None, table.version, dump_move(game, move), bot_seat=seat)
        except ServiceError as exc:  # e.g. a human moved first: look again
            log.info("bot move at table %s not applied: %s", table_id, exc.code)
        return True

    async def resume_all(self) -> None:
        """After a restart: every table where a bot was asked to act."""
        async with self.rt.sm() as db:
            ids = (await db.scalars(select(GameTable.id).where(GameTable.status == "playing"))).all()
        for table_id in ids:
            self.kick(table_id)

    async def idle(self, timeout: float = 30.0) -> None:
        """Wait until no bot has anything left to do (tests)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while any(not t.done() for t in self._tasks.values()):
            if loop.time() > deadline:
                raise TimeoutError("bots still busy")
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        # Let a step that is talking to the database finish first: a task
        # cancelled mid-query can leave its connection inside a transaction,
        # and on SQLite that transaction holds the only write lock.
        self._stopping = True
        with contextlib.suppress(TimeoutError):
            await self.idle(timeout=10.0)
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
