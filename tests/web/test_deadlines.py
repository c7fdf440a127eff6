"""Timeouts: when a wait runs out the server makes the game's move (fake clock)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.services.deadlines import run_due
from app.services.tables import utcnow
from tests.support.api import move, new_table, register, state

pytestmark = pytest.mark.db


async def test_a_seat_that_waits_too_long_plays_its_lowest_card(app, client, make_client):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob, options={"turn_seconds": 3600})
    tid = table["id"]
    snap = await state(client, tid)
    active = snap["to_act"][0]
    assert snap["deadline"] is not None
    rt = app.state.rt
    assert await run_due(rt, utcnow() + timedelta(minutes=59)) == 0
    assert (await state(client, tid))["version"] == snap["version"]
    owner = client if active == 0 else bob
    hand = (await state(owner, tid))["view"]["hand"]
    assert await run_due(rt, utcnow() + timedelta(minutes=61)) == 1
    after = await state(owner, tid)
    assert after["version"] == snap["version"] + 1
    assert after["view"]["played"] == [min(hand, key=lambda c: int(c[1:]))]
    # The clock restarts for the next seat's wait; running again now does nothing.
    assert await run_due(rt, utcnow() + timedelta(minutes=1)) == 0


async def test_a_move_in_time_cancels_the_timeout(app, client, make_client):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob, options={"turn_seconds": 3600})
    tid = table["id"]
    first = await state(client, tid)
    player = client if first["to_act"] == [0] else bob
    mine = await state(player, tid)
    await move(player, tid, mine["version"], mine["legal_moves"][0])
    # The next seat's own hour has not run out 59 minutes from now.
    assert await run_due(app.state.rt, utcnow() + timedelta(minutes=59)) == 0


async def test_realms_final_choices_are_confirmed_after_the_deadline(app, client):
    await register(client, "ann")
    table = await new_table(client, game="realms", bots=2, options={"final_choice_deadline_minutes": 60})
    tid = table["id"]
    for _ in range(100):
        await app.state.rt.bots.idle()
        snap = await state(client, tid)
        if snap["view"]["phase"] != "play":
            break
        await move(client, tid, snap["version"], snap["legal_moves"][0])
    assert snap["view"]["phase"] == "final_choices" and snap["to_act"] == [0]
    assert await run_due(app.state.rt, utcnow() + timedelta(minutes=30)) == 0
    assert await run_due(app.state.rt, utcnow() + timedelta(minutes=61)) == 1
    done = await state(client, tid)
    assert done["status"] == "finished" and done["result"]
    assert any("automatically" in e["text"] for e in done["view"]["log"])
