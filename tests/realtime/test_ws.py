"""The table websocket: per-seat pushes after every change, Origin checks,
reconnects that receive the current view."""

from __future__ import annotations

import asyncio
import json

import pytest
from httpx_ws import WebSocketDisconnect, aconnect_ws

from tests.conftest import ws_client
from tests.support.api import move, register, state, two_players

pytestmark = pytest.mark.db


async def _next_json(ws, timeout: float = 5.0) -> dict:
    return json.loads(await asyncio.wait_for(ws.receive_text(), timeout))


async def test_json_socket_gets_current_view_then_each_change(app, client, make_client):
    tid, active, idle = await two_players(client, make_client())
    async with ws_client(app, idle) as wc, aconnect_ws(f"/ws/tables/{tid}?format=json", wc) as ws:
        first = await _next_json(ws)
        assert first == await state(idle, tid)
        snap = await state(active, tid)
        r = await move(active, tid, snap["version"], snap["legal_moves"][0])
        assert r.status_code == 200
        pushed = await _next_json(ws)
        while pushed["version"] < snap["version"] + 1:
            pushed = await _next_json(ws)
        assert pushed == await state(idle, tid)
        assert snap["legal_moves"][0]["card"] in pushed["view"]["played"]


async def test_html_socket_pushes_this_seats_fragment_only(app, client, make_client):
    tid, active, idle = await two_players(client, make_client())
    mine = await state(idle, tid)
    theirs = await state(active, tid)
    async with ws_client(app, idle) as wc, aconnect_ws(f"/ws/tables/{tid}", wc) as ws:
        html = await asyncio.wait_for(ws.receive_text(), 5)
        assert 'id="table-live"' in html and 'hx-swap-oob="true"' in html
        assert all(card in html for card in mine["view"]["hand"])
        assert not [
            card for card in theirs["view"]["hand"] if f"&#34;{card}&#34;" in html or f'"{card}"' in html
        ]


async def test_foreign_origin_is_refused(app, client, make_client):
    tid, active, idle = await two_players(client, make_client())
    async with ws_client(app, idle) as wc:
        with pytest.raises(WebSocketDisconnect) as info:
            async with aconnect_ws(f"/ws/tables/{tid}", wc, headers={"Origin": "https://evil.example"}) as ws:
                await ws.receive_text()
        assert info.value.code == 1008


async def test_own_origin_is_accepted_and_anonymous_is_refused(app, client, make_client):
    tid, active, idle = await two_players(client, make_client())
    async with (
        ws_client(app, idle) as wc,
        aconnect_ws(f"/ws/tables/{tid}?format=json", wc, headers={"Origin": "http://testserver"}) as ws,
    ):
        assert (await _next_json(ws))["id"] == tid
    anon = make_client()
    async with ws_client(app, anon) as wc:
        with pytest.raises(WebSocketDisconnect) as info:
            async with aconnect_ws(f"/ws/tables/{tid}", wc) as ws:
                await ws.receive_text()
        assert info.value.code == 1008


async def test_reconnect_receives_the_current_view(app, client, make_client):
    tid, active, idle = await two_players(client, make_client())
    async with ws_client(app, idle) as wc:
        async with aconnect_ws(f"/ws/tables/{tid}?format=json", wc) as ws:
            await _next_json(ws)
        # Moves happen while this seat is disconnected.
        for _ in range(2):
            for player in (active, idle):
                snap = await state(player, tid)
                if snap["legal_moves"]:
                    await move(player, tid, snap["version"], snap["legal_moves"][0])
        async with aconnect_ws(f"/ws/tables/{tid}?format=json", wc) as ws:
            assert await _next_json(ws) == await state(idle, tid)


async def test_malformed_client_messages_only_trigger_a_resync(app, client, make_client):
    tid, active, idle = await two_players(client, make_client())
    before = await state(idle, tid)
    async with ws_client(app, idle) as wc, aconnect_ws(f"/ws/tables/{tid}?format=json", wc) as ws:
        await _next_json(ws)
        for junk in ["{not json", '{"action": "play", "card": "t1"}', "x" * 10_000]:
            await ws.send_text(junk)
        await ws.send_bytes(b"\x00\xff")
        await ws.send_text("sync")
        assert await _next_json(ws) == before
    assert await state(idle, tid) == before


async def test_unknown_table_socket_is_closed(app, client):
    await register(client, "ann")
    async with ws_client(app, client) as wc:
        with pytest.raises(WebSocketDisconnect):
            async with aconnect_ws("/ws/tables/424242", wc) as ws:
                await ws.receive_text()
