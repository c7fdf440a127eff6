"""Moves the server makes by itself when a wait runs out (Game.timeout):
e.g. Fantasy Realms' final choices confirmed after the table's deadline.

Every process runs a watcher; the version compare-and-set makes sure only one
of them lands each timeout move. The clock is injectable for tests."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import select

from app.games.base import dump_move
from app.services.errors import ServiceError
from app.services.tables import game_or_error, load_table, utcnow
from app.store.models import GameTable

if TYPE_CHECKING:
    from app.services.runtime import Runtime

log = logging.getLogger("feytable.deadlines")


async def run_due(rt: Runtime, now: datetime | None = None) -> int:
    """Play every timeout move that is due at `now`; return how many landed."""
    now = now or utcnow()
    async with rt.sm() as db:
        rows = (
            await db.execute(
                select(GameTable.id, GameTable.timer_due_at).where(
                    GameTable.status == "playing", GameTable.timer_due_at.is_not(None)
                )
            )
        ).all()
    landed = 0
    for table_id, _due in rows:
        # One wait may cover several seats (e.g. every unanswered reactor of a
        # Fantasy window): the key stays while they are passed one by one.
        key: str | None = None
        for _ in range(MAX_TIMEOUTS_PER_TABLE):
            played = await _play_timeout(rt, table_id, now, key)
            if played is None:
                break
            key = played
            landed += 1
    return landed


MAX_TIMEOUTS_PER_TABLE = 20


async def _play_timeout(rt: Runtime, table_id: int, now: datetime, same_key: str | None) -> str | None:
    """Play the table's timeout move if it is due at `now` (and, when
    `same_key` is given, still part of that wait); return its key."""
    from app.services.moves import submit

    async with rt.sm() as db:
        table = await load_table(db, table_id)
    due = table.timer_due_at
    if table.status != "playing" or table.state is None or due is None:
        return None
    if due.tzinfo is None:  # SQLite: naive, and UTC
        due = due.replace(tzinfo=now.tzinfo)
    if due > now or (same_key is not None and table.timer_key != same_key):
        return None
    game = game_or_error(table.game)
    timeout = game.timeout(game.load_state(table.state))
    if timeout is None or timeout.key != table.timer_key:
        return None
    try:
        await submit(rt, table_id, None, table.version, dump_move(game, timeout.move), timeout=timeout)
    except ServiceError as exc:  # someone moved first: fine
        log.info("timeout at table %s not applied: %s", table_id, exc.code)
        return None
    return timeout.key
