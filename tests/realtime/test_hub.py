"""The PostgreSQL listener: if its connection drops, it comes back and every
local socket resyncs, so no update is lost for good."""

from __future__ import annotations

import asyncio
import json

import pytest
from httpx_ws import aconnect_ws
from sqlalchemy import text

from app.realtime.hub import LocalHub, PostgresHub
from tests.conftest import ws_client
from tests.support.api import move, new_table, register, state


async def test_local_hub_coalesces_and_resyncs():
    hub = LocalHub()
    sub = hub.subscribe(7)
    other = hub.subscribe(8)
    hub.after_commit(7, 1)
    hub.after_commit(7, 2)
    assert await asyncio.wait_for(sub.wait(), 1) == 2  # a burst is one wake-up, latest version
    assert not other.event.is_set()
    hub.resync_all()
    assert await asyncio.wait_for(other.wait(), 1) is None
    sub.close()
    other.close()
    assert hub.connections() == 0


@pytest.mark.pg_only
async def test_listener_reconnects_and_sockets_resync(app, client, make_client):
    hub = app.state.rt.hub
    assert isinstance(hub, PostgresHub)
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob)
    tid = table["id"]
    async with ws_client(app, bob) as wc, aconnect_ws(f"/ws/tables/{tid}?format=json", wc) as ws:
        first = json.loads(await asyncio.wait_for(ws.receive_text(), 5))
        pid = hub._conn.get_server_pid()
        async with app.state.rt.sm() as db:
            await db.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        # The listener notices, reconnects, and tells the socket to resync.
        resync = json.loads(await asyncio.wait_for(ws.receive_text(), 10))
        assert resync["version"] == first["version"]
        for _ in range(100):
            if hub._conn is not None and hub._conn.get_server_pid() != pid:
                break
            await asyncio.sleep(0.05)
        player = client if first["to_act"] == [0] else bob
        snap = await state(player, tid)
        assert (await move(player, tid, snap["version"], snap["legal_moves"][0])).status_code == 200
        pushed = json.loads(await asyncio.wait_for(ws.receive_text(), 10))
        assert pushed["version"] == snap["version"] + 1
