"""The notices part of the settings page: channels are secrets shown masked,
wrong addresses are refused with a sentence, a test notice, and the events
that reach a player (game over, a rematch that seats him)."""

from __future__ import annotations

import pytest

from app.services.delivery import Worker
from tests.notices.helpers import add_channel, save_settings
from tests.support.api import csrf_of, move, register, state, two_players

pytestmark = pytest.mark.db


async def test_a_channel_is_shown_masked_and_can_be_removed_only_by_its_owner(client, make_client, endpoint):
    await register(client, "ann")
    secret_url = f"json://ann:hunter2secret@127.0.0.1:{endpoint.port}/hook"
    assert (await add_channel(client, secret_url)).status_code == 303
    page = (await client.get("/settings")).text
    assert "hunter2secret" not in page
    assert f"json://ann:****@127.0.0.1:{endpoint.port}/hook" in page
    channel_id = int(page.split('action="/settings/notices/channels/', 1)[1].split("/", 1)[0])

    eve = make_client()
    await register(eve, "eve")
    eve_page = await eve.get("/settings")
    r = await eve.post(
        f"/settings/notices/channels/{channel_id}/delete", data={"csrf_token": csrf_of(eve_page.text)}
    )
    assert r.status_code == 404
    assert "****@127.0.0.1" in (await client.get("/settings")).text

    r = await client.post(
        f"/settings/notices/channels/{channel_id}/delete", data={"csrf_token": csrf_of(page)}
    )
    assert r.status_code == 303
    assert "****@127.0.0.1" not in (await client.get("/settings")).text


async def test_an_address_apprise_does_not_know_is_refused_with_a_sentence(client):
    await register(client, "ann")
    r = await add_channel(client, "carrier-pigeon://coop/7")
    assert r.status_code == 422
    assert "not an address apprise knows" in r.text


async def test_the_test_notice_button(app, client, endpoint):
    await register(client, "ann")
    page = await client.get("/settings")
    r = await client.post("/settings/notices/test", data={"csrf_token": csrf_of(page.text)})
    assert "Add a channel first" in r.text
    await add_channel(client, endpoint.apprise_url())
    page = await client.get("/settings")
    r = await client.post("/settings/notices/test", data={"csrf_token": csrf_of(page.text)})
    assert r.status_code == 303
    assert await Worker(app.state.rt).run_once() == 1
    assert endpoint.json_posts()[0]["title"] == "feytable: a test notice"


async def test_a_wrong_time_zone_is_refused(client):
    await register(client, "ann")
    r = await save_settings(client, timezone="Mars/Olympus_Mons", quiet_start="22", quiet_end="7")
    assert r.status_code == 422 and "is not a time zone name" in r.text


async def test_game_over_and_a_rematch_reach_the_other_player(app, client, make_client, endpoint):
    tid, active, idle = await two_players(client, make_client(), options={"turns_per_seat": 1})
    await add_channel(idle, endpoint.apprise_url())
    for player in (active, idle):
        snap = await state(player, tid)
        assert (await move(player, tid, snap["version"], snap["legal_moves"][0])).status_code == 200
    worker = Worker(app.state.rt)
    assert await worker.run_once() == 1
    assert endpoint.json_posts()[-1]["title"].startswith("Game over")

    r = await active.post(f"/api/tables/{tid}/rematch", json={})
    assert r.status_code == 201, r.text
    await worker.run_once()
    titles = [p["title"] for p in endpoint.json_posts()]
    host = (await active.get("/api/auth/me")).json()["name"]
    assert any(t.startswith(f"{host} invites you") for t in titles), titles


async def test_your_turn_reaches_a_player_renumbered_at_the_start(app, client, make_client, endpoint):
    """Open seats are dropped at the start and the others renumbered: the
    notice must go to the player now in that seat."""
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    await add_channel(bob, endpoint.apprise_url())
    for _ in range(20):
        r = await client.post("/api/tables", json={"game": "tally", "seats": 3, "options": {}})
        table = r.json()
        token = table["invite_url"].rsplit("/", 1)[1]
        assert (
            await bob.post(f"/api/tables/{table['id']}/join", json={"invite": token, "seat": 2})
        ).is_success
        assert (await client.post(f"/api/tables/{table['id']}/start", json={})).is_success
        snap = await state(bob, table["id"])
        if snap["to_act"] == [snap["seat"]]:
            break
    else:
        raise AssertionError("bob never played first")
    assert snap["seat"] == 1  # renumbered from 2
    assert await Worker(app.state.rt).run_once() == 1
    assert f"/tables/{table['id']}" in endpoint.json_posts()[0]["message"]
