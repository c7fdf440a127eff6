"""Helpers to drive the JSON API in tests."""

from __future__ import annotations

from typing import Any

import httpx

PASSWORD = "correct horse battery"


async def register(client: httpx.AsyncClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    r = await client.post("/api/auth/register", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()


async def new_table(
    host: httpx.AsyncClient,
    *others: httpx.AsyncClient,
    game: str = "tally",
    options: dict[str, Any] | None = None,
    bots: int = 0,
    start: bool = True,
) -> dict[str, Any]:
    """Create a table with the host in seat 0, the others by invite, then bots; start it."""
    seats = 1 + len(others) + bots
    r = await host.post("/api/tables", json={"game": game, "seats": seats, "options": options or {}})
    assert r.status_code == 201, r.text
    table = r.json()
    token = table["invite_url"].rsplit("/", 1)[1]
    for other in others:
        r = await other.post(f"/api/tables/{table['id']}/join", json={"invite": token})
        assert r.status_code == 200, r.text
    for _ in range(bots):
        r = await host.post(f"/api/tables/{table['id']}/bots", json={})
        assert r.status_code == 200, r.text
    if start:
        r = await host.post(f"/api/tables/{table['id']}/start", json={})
        assert r.status_code == 200, r.text
    table["token"] = token
    return table


async def state(client: httpx.AsyncClient, table_id: int) -> dict[str, Any]:
    r = await client.get(f"/api/tables/{table_id}")
    assert r.status_code == 200, r.text
    return r.json()


async def move(client: httpx.AsyncClient, table_id: int, version: int, data: Any) -> httpx.Response:
    return await client.post(f"/api/tables/{table_id}/moves", json={"version": version, "move": data})


async def two_players(
    ann: httpx.AsyncClient, bob: httpx.AsyncClient, options: dict[str, Any] | None = None
) -> tuple[int, httpx.AsyncClient, httpx.AsyncClient]:
    """A started 2-seat Tally table of ann and bob: (table id, active player, idle player)."""
    await register(ann, "ann")
    await register(bob, "bob")
    table = await new_table(ann, bob, options=options)
    first = await state(ann, table["id"])
    active, idle = (ann, bob) if first["to_act"] == [0] else (bob, ann)
    return table["id"], active, idle


def csrf_of(html: str) -> str:
    """The CSRF token a page gives htmx (`<body hx-headers>`)."""
    return html.split('"X-CSRF-Token": "', 1)[1].split('"', 1)[0]
