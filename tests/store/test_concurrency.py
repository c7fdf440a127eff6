"""Races: many submissions at one version; exactly one lands (both databases)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from app.store.models import MoveRecord
from tests.support.api import new_table, register, state, two_players

pytestmark = pytest.mark.db


async def test_twenty_concurrent_different_legal_moves_exactly_one_lands(app, client, make_client):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob, options={"hand_size": 20, "turns_per_seat": 5})
    tid = table["id"]
    for round_ in range(3):
        snap = await state(client, tid)
        player = client if snap["to_act"] == [0] else bob
        mine = await state(player, tid)
        assert len(mine["legal_moves"]) == 20
        version = mine["version"]
        responses = await asyncio.gather(
            *[
                player.post(f"/api/tables/{tid}/moves", json={"version": version, "move": m})
                for m in mine["legal_moves"]
            ]
        )
        codes = sorted(r.status_code for r in responses)
        assert codes == [200] + [409] * 19, (round_, codes)
        after = await state(player, tid)
        assert after["version"] == version + 1
        assert len(after["view"]["played"]) == len(mine["view"]["played"]) + 1
    async with app.state.rt.sm() as db:
        seqs = (await db.scalars(select(MoveRecord.seq).where(MoveRecord.table_id == tid))).all()
    assert sorted(seqs) == [1, 2, 3]


async def test_same_move_sent_twice_lands_once(app, client, make_client):
    tid, player, _idle = await two_players(client, make_client())
    table = {"id": tid}
    mine = await state(player, tid)
    body = {"version": mine["version"], "move": mine["legal_moves"][0]}
    first, second = await asyncio.gather(
        player.post(f"/api/tables/{table['id']}/moves", json=body),
        player.post(f"/api/tables/{table['id']}/moves", json=body),
    )
    assert sorted([first.status_code, second.status_code]) == [200, 409]
    assert (await state(player, table["id"]))["version"] == mine["version"] + 1
