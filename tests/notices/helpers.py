"""Helpers shared by the notices tests."""

from __future__ import annotations

import httpx

from tests.support.api import csrf_of


async def add_channel(client: httpx.AsyncClient, url: str) -> httpx.Response:
    """Add an apprise URL the way the settings page does (form + CSRF token)."""
    page = await client.get("/settings")
    assert page.status_code == 200, page.text
    return await client.post(
        "/settings/notices/channels", data={"url": url, "csrf_token": csrf_of(page.text)}
    )


async def save_settings(client: httpx.AsyncClient, **fields: str) -> httpx.Response:
    """Submit the notice settings form; checkboxes are on when given as "on"."""
    page = await client.get("/settings")
    data = {"csrf_token": csrf_of(page.text), "timezone": "UTC"}
    data.update(fields)
    return await client.post("/settings/notices", data=data)


ALL_EVENTS = {"event_turn": "on", "event_game_over": "on", "event_invited": "on", "event_reminder": "on"}


async def table_with_deadline(host: httpx.AsyncClient, *others: httpx.AsyncClient, hours: int = 24) -> int:
    """A started Tally table with a per-turn deadline: host in seat 0, others by invite."""
    r = await host.post(
        "/api/tables", json={"game": "tally", "seats": 1 + len(others), "options": {}, "turn_hours": hours}
    )
    assert r.status_code == 201, r.text
    table = r.json()
    token = table["invite_url"].rsplit("/", 1)[1]
    for other in others:
        assert (
            await other.post(f"/api/tables/{table['id']}/join", json={"invite": token})
        ).status_code == 200
    assert (await host.post(f"/api/tables/{table['id']}/start", json={})).status_code == 200
    return table["id"]
