"""The shared leak check: what a seat received must not name anything the game
declares hidden from it (Game.hidden_from), nor the table's secret seed.

Ids are matched as whole tokens, so "t1" never matches inside "t17" and a slug
never matches inside a longer slug."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from sqlalchemy import select

from app.games import registry
from app.store.models import GameTable

_TOKEN = re.compile(r"[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*")


def tokens(text: str) -> set[str]:
    return set(_TOKEN.findall(text))


def leaked(texts: Iterable[str], hidden: Iterable[str], seed: str) -> list[str]:
    """The hidden ids (and the seed) found in any of the texts."""
    hidden = set(hidden)
    found: set[str] = set()
    for text in texts:
        if seed and seed in text:
            found.add("<the table seed>")
        hits = hidden & tokens(text)
        for hit in hits:
            at = re.search(rf"(?<![A-Za-z0-9_-]){re.escape(hit)}(?![A-Za-z0-9_-])", text)
            if at:
                found.add(f"{hit} in …{text[max(0, at.start() - 120) : at.end() + 60]}…")
    return sorted(found)


async def hidden_now(rt: Any, table_id: int, seat: int | None) -> tuple[set[str], str]:
    """What `seat` must not see at this table right now, and the table's seed."""
    async with rt.sm() as db:
        table = await db.scalar(select(GameTable).where(GameTable.id == table_id))
    assert table is not None
    game = registry.get(table.game)
    assert game is not None
    if table.state is None:
        return set(), table.seed
    state = game.load_state(table.state)
    return set(game.hidden_from(state, seat).values), table.seed
