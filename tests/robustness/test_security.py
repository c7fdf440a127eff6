"""Security, filling what tests/web leaves open: every unsafe route refuses a
cross-site request, websocket Origins are checked in all their disguises,
invite tokens are long, random, stored hashed and revocable, a non-member
editing ids can neither act for a seat nor read a hand, and the login limit
answers 429 with a sentence."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from httpx_ws import WebSocketDisconnect, aconnect_ws
from sqlalchemy import select

from app.store.models import GameTable
from tests.conftest import make_settings, running_app, ws_client
from tests.support.api import PASSWORD, new_table, register, state
from tests.support.leaks import hidden_now, leaked

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


async def _stored(app: Any, tid: int) -> tuple[Any, ...]:
    async with app.state.rt.sm() as db:
        t = await db.scalar(select(GameTable).where(GameTable.id == tid))
        assert t is not None
        return (t.version, t.status, json.dumps(t.state, sort_keys=True), t.invite_hash, t.host_id)


def _api_routes(routes: list[Any]) -> list[APIRoute]:
    """Every endpoint, also inside included routers (FastAPI keeps those as one route each)."""
    found: list[APIRoute] = []
    for route in routes:
        if isinstance(route, APIRoute):
            found.append(route)
        elif hasattr(route, "original_router"):
            found += _api_routes(route.original_router.routes)
    return found


async def test_every_unsafe_route_refuses_a_cross_site_form(app, client, make_client):
    """What a foreign page can make a browser send: a form post, with the
    victim's cookie, from its own Origin and without our CSRF token."""
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob)
    tid = table["id"]
    before = await _stored(app, tid)
    values = {"table_id": str(tid), "seat": "1", "token": table["token"]}
    routes = [
        (method, route.path) for route in _api_routes(app.routes) for method in sorted(route.methods & UNSAFE)
    ]
    assert len(routes) >= 25, routes
    refused = []
    for method, path in routes:
        url = re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "1"), path)
        r = await client.request(
            method,
            url,
            content="name=eve&password=x&seat=1&version=0&move=%7B%7D",
            headers={"content-type": "application/x-www-form-urlencoded", "origin": "https://evil.example"},
        )
        if r.status_code != 403:
            refused.append(f"{method} {path} -> {r.status_code}")
    assert not refused, f"unsafe routes that accept a cross-site form: {refused}"
    assert await _stored(app, tid) == before


@pytest.mark.parametrize(
    "origin",
    ["https://evil.example", "null", "http://testserver.evil.example", "http://testserver:8080", "file://"],
)
async def test_websocket_refuses_foreign_origins(app, client, make_client, origin):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    tid = (await new_table(client, bob))["id"]
    async with ws_client(app, bob) as wc:
        with pytest.raises(WebSocketDisconnect) as info:
            async with aconnect_ws(f"/ws/tables/{tid}?format=json", wc, headers={"Origin": origin}) as ws:
                await ws.receive_text()
        assert info.value.code == 1008


async def test_invite_tokens_are_long_random_stored_hashed_and_revocable(app, client, make_client):
    await register(client, "ann")
    made = [(await client.post("/api/tables", json={"game": "tally", "seats": 3})).json() for _ in range(5)]
    tokens = [t["invite_url"].rsplit("/", 1)[1] for t in made]
    assert len(set(tokens)) == len(tokens)
    assert all(len(tok) >= 43 and re.fullmatch(r"[A-Za-z0-9_-]+", tok) for tok in tokens)  # >= 256 bits
    async with app.state.rt.sm() as db:
        stored = (await db.scalars(select(GameTable))).all()
    dump = json.dumps([[t.invite_hash, t.seed, t.options, t.state] for t in stored])
    assert not [tok for tok in tokens if tok in dump], "an invite token is stored in the clear"

    eve = make_client()
    await register(eve, "eve")
    # Guessing: near misses and random strings find nothing and say nothing about which tables exist.
    guesses = [tokens[0][:-1] + ("A" if tokens[0][-1] != "A" else "B"), "x" * 43, tokens[0][:20], "%00"]
    for guess in guesses:
        page = await eve.get(f"/invite/{guess}")
        assert page.status_code == 404, (guess, page.status_code)
        r = await eve.post(f"/api/tables/{made[0]['id']}/join", json={"invite": guess})
        assert r.status_code == 403 and r.json()["code"] == "invite_needed"
    # One table's token opens no other table.
    r = await eve.post(f"/api/tables/{made[1]['id']}/join", json={"invite": tokens[0]})
    assert r.status_code == 403
    # Revoked: gone for good, for the page and the API alike.
    assert (await client.delete(f"/api/tables/{made[0]['id']}/invite")).status_code == 204
    assert (await eve.get(f"/invite/{tokens[0]}")).status_code == 404
    r = await eve.post(f"/api/tables/{made[0]['id']}/join", json={"invite": tokens[0]})
    assert r.status_code == 403
    # Only the host revokes or replaces it.
    assert (await eve.delete(f"/api/tables/{made[1]['id']}/invite")).status_code == 403
    assert (await eve.post(f"/api/tables/{made[1]['id']}/invite", json={})).status_code == 403
    assert (await eve.get(f"/invite/{tokens[1]}")).status_code == 200


async def test_a_non_member_cannot_act_or_read_hands_by_editing_ids(app, client, make_client):
    bob, eve = make_client(), make_client()
    await register(client, "ann")
    await register(bob, "bob")
    await register(eve, "eve")
    tid = (await new_table(client, bob))["id"]
    own = (await new_table(eve, client))["id"]  # eve hosts a table of her own, ann sits at it
    snap = await state(client, tid)
    actor = client if snap["to_act"] == [0] else bob
    mine = await state(actor, tid)
    before = await _stored(app, tid)
    body = {"version": mine["version"], "move": mine["legal_moves"][0]}
    csrf = (await eve.get(f"/tables/{own}")).text.split('"X-CSRF-Token": "', 1)[1].split('"', 1)[0]
    attempts: list[tuple[str, httpx.Response]] = [
        ("move", await eve.post(f"/api/tables/{tid}/moves", json=body)),
        (
            "move as seat",
            await eve.post(f"/api/tables/{tid}/moves", json={**body, "seat": snap["to_act"][0]}),
        ),
        (
            "page move",
            await eve.post(
                f"/tables/{tid}/play",
                data={"version": str(body["version"]), "move": json.dumps(body["move"])},
                headers={"X-CSRF-Token": csrf},
            ),
        ),
        ("prefs", await eve.put(f"/api/tables/{tid}/prefs", json={})),
        ("free a seat", await eve.delete(f"/api/tables/{tid}/seats/1")),
        ("start", await eve.post(f"/api/tables/{tid}/start", json={})),
        ("bots", await eve.post(f"/api/tables/{tid}/bots", json={"seat": 1})),
    ]
    wrong = [f"{what}: {r.status_code}" for what, r in attempts if r.status_code not in (400, 403, 409)]
    assert not wrong, wrong
    assert [r.status_code for what, r in attempts if what.startswith(("move", "page", "prefs"))] == [403] * 4
    assert await _stored(app, tid) == before

    # Reading: the API, the page and the socket give eve the spectator's view only.
    hidden, seed = await hidden_now(app.state.rt, tid, None)
    texts = [(await eve.get(f"/api/tables/{tid}")).text, (await eve.get(f"/tables/{tid}")).text]
    async with ws_client(app, eve) as wc:
        for path in (f"/ws/tables/{tid}?format=json", f"/ws/tables/{tid}"):
            async with aconnect_ws(path, wc) as ws:
                texts.append(await ws.receive_text())
    assert json.loads(texts[0])["seat"] is None and json.loads(texts[2])["seat"] is None
    assert len(hidden) > 3
    assert leaked(texts, hidden, seed) == []


async def test_login_rate_limit_answers_429_with_a_sentence(fresh_database):
    async with (
        running_app(make_settings(fresh_database, login_attempts_per_minute=5)) as app,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c,
    ):
        await register(c, "ann")
        answers = [
            await c.post("/api/auth/login", json={"name": "ann", "password": "nope nope"}) for _ in range(6)
        ]
        assert [r.status_code for r in answers] == [401] * 5 + [429]
        assert answers[-1].json() == {
            "code": "too_many_attempts",
            "message": "Too many login attempts. Please wait a minute.",
        }
        # The same name in other spellings is the same account: no way around the limit.
        for name in ("ANN", " ann ", "Ann"):
            r = await c.post("/api/auth/login", json={"name": name, "password": PASSWORD})
            assert r.status_code == 429, name
