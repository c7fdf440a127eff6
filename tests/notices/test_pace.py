"""Pace: the deadline chosen on the new-table form, the lobby saying how long
each table has waited on whom, and "next table waiting for me" walking through
them, longest waiting first."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from app.services.tables import utcnow
from app.store.models import GameTable
from tests.support.api import csrf_of, new_table, register, state

pytestmark = pytest.mark.db


async def test_the_new_table_form_sets_a_turn_deadline(client):
    await register(client, "ann")
    form = await client.get("/tables/new?game=tally")
    assert "Time per turn" in form.text and "No deadline" in form.text
    r = await client.post(
        "/tables/new",
        data={"csrf_token": csrf_of(form.text), "game": "tally", "seats": "2", "turn_hours": "48"},
    )
    assert r.status_code == 303
    tid = int(r.headers["location"].rsplit("/", 1)[1])
    assert (await state(client, tid))["turn_hours"] == 48
    # The default is no deadline.
    r = await client.post(
        "/tables/new", data={"csrf_token": csrf_of(form.text), "game": "tally", "seats": "2"}
    )
    tid = int(r.headers["location"].rsplit("/", 1)[1])
    assert (await state(client, tid))["turn_hours"] is None


async def _waited(app, table_id: int, hours: float) -> None:
    async with app.state.rt.sm.begin() as db:
        await db.execute(
            update(GameTable)
            .where(GameTable.id == table_id)
            .values(turn_started_at=utcnow() - timedelta(hours=hours))
            .execution_options(synchronize_session=False)
        )


async def test_the_lobby_says_how_long_each_table_has_waited_on_whom(app, client, make_client):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    first = (await new_table(client, bob))["id"]
    snap = await state(client, first)
    waiting_on = ["ann", "bob"][snap["to_act"][0]]
    await _waited(app, first, 3.5)
    lobby = (await client.get("/")).text
    if waiting_on == "bob":
        assert "waiting for bob" in lobby and "for 3 h" in lobby
    else:
        assert "waiting on you for 3 h" in lobby
    await _waited(app, first, 50)
    assert "2 days" in (await client.get("/")).text


async def test_the_lobby_says_when_the_bot_will_play(app, client, make_client):
    from tests.notices.helpers import table_with_deadline

    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    tid = await table_with_deadline(client, bob, hours=24)
    await _waited(app, tid, 20.5)
    assert "the bot plays in 3 h" in (await client.get("/")).text


async def test_next_table_walks_through_my_waiting_tables_longest_first(app, client, make_client):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    mine: list[int] = []
    while len(mine) < 2:  # tables where the first turn is ann's (seat 0)
        tid = (await new_table(client, bob))["id"]
        if (await state(client, tid))["to_act"] == [0]:
            mine.append(tid)
    newer, older = mine
    await _waited(app, newer, 1)
    await _waited(app, older, 30)
    r = await client.get("/next")
    assert r.headers["location"] == f"/tables/{older}"
    r = await client.get(f"/next?after={older}")
    assert r.headers["location"] == f"/tables/{newer}"
    page = await client.get(f"/tables/{older}")
    assert f'href="/next?after={older}"' in page.text
