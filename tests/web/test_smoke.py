from __future__ import annotations

import pytest

from tests.support.api import register

pytestmark = pytest.mark.db


async def test_health(client):
    r = await client.get("/healthz")
    assert r.status_code == 200
    assert r.json()["database"] == "ok"


async def test_game_flow_smoke(client, make_client):
    await register(client, "ann")
    r = await client.post("/api/tables", json={"game": "tally", "seats": 2, "options": {}})
    assert r.status_code == 201, r.text
    table = r.json()
    token = table["invite_url"].rsplit("/", 1)[1]
    bob = make_client()
    await register(bob, "bob")
    r = await bob.post(f"/api/tables/{table['id']}/join", json={"invite": token})
    assert r.status_code == 200, r.text
    assert r.json() == {"seat": 1}
    r = await client.post(f"/api/tables/{table['id']}/start", json={})
    assert r.status_code == 200, r.text
    snap = r.json()
    assert snap["status"] == "playing"
