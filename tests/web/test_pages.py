"""Server-rendered pages: the lobby, the table page per seat, htmx moves."""

from __future__ import annotations

import json
import re

from tests.support.api import csrf_of, new_table, register, state, two_players


async def test_table_page_shows_my_hand_not_theirs(client, make_client):
    tid, active, idle = await two_players(client, make_client())
    mine, theirs = await state(active, tid), await state(idle, tid)
    html = (await active.get(f"/tables/{tid}")).text
    assert f'ws-connect="/ws/tables/{tid}"' in html
    assert "Your turn" in html
    for card in mine["view"]["hand"]:
        assert card in html
    leaked = [c for c in theirs["view"]["hand"] if re.search(rf"\b{c}\b", html)]
    assert leaked == []


async def test_spectator_page_has_no_hand_and_no_moves(client, make_client):
    tid, active, idle = await two_players(client, make_client())
    eve = make_client()
    await register(eve, "eve")
    html = (await eve.get(f"/tables/{tid}")).text
    assert "Waiting for" in html and 'hx-post="/tables/' not in html
    for player in (active, idle):
        for card in (await state(player, tid))["view"]["hand"]:
            assert not re.search(rf"\b{card}\b", html)


async def test_htmx_move_updates_and_illegal_move_shows_the_sentence(client, make_client):
    tid, active, idle = await two_players(client, make_client())
    html = (await active.get(f"/tables/{tid}")).text
    headers = {"X-CSRF-Token": csrf_of(html), "HX-Request": "true"}
    snap = await state(active, tid)
    r = await active.post(
        f"/tables/{tid}/play",
        data={"version": str(snap["version"]), "move": json.dumps({"action": "play", "card": "t9999"})},
        headers=headers,
    )
    assert r.status_code == 400
    assert 'id="move-error"' in r.text and "You do not hold that card." in r.text
    assert await state(active, tid) == snap
    r = await active.post(
        f"/tables/{tid}/play",
        data={"version": str(snap["version"]), "move": json.dumps(snap["legal_moves"][0])},
        headers=headers,
    )
    assert r.status_code == 200 and 'id="table-live"' in r.text
    assert (await state(active, tid))["version"] == snap["version"] + 1
    # The same form sent again is stale: the fresh table and a sentence, nothing applied twice.
    r = await active.post(
        f"/tables/{tid}/play",
        data={"version": str(snap["version"]), "move": json.dumps(snap["legal_moves"][1])},
        headers=headers,
    )
    assert r.status_code == 409 and "has changed since you looked" in r.text
    assert (await state(active, tid))["version"] == snap["version"] + 1


async def test_lobby_puts_my_turn_first_and_next_goes_there(client, make_client):
    tid, active, idle = await two_players(client, make_client())
    other = await new_table(active, bots=1, start=False)  # newer, but not waiting for me
    lobby = (await active.get("/")).text
    assert "your turn" in lobby
    assert lobby.index(f'href="/tables/{tid}"') < lobby.index(f'href="/tables/{other["id"]}"')
    r = await active.get("/next")
    assert r.status_code == 303 and r.headers["location"] == f"/tables/{tid}"
    r = await idle.get("/next")
    assert r.headers["location"].startswith("/?none_waiting")


async def test_create_table_form_offers_the_games_options_with_defaults(client):
    await register(client, "ann")
    html = (await client.get("/tables/new?game=tally")).text
    assert 'name="opt_hand_size"' in html and 'value="3"' in html
    assert "Cells in each hand" not in html and "Cards in each hand." in html


async def test_unknown_pages_and_tables_are_friendly_404s(client):
    await register(client, "ann")
    r = await client.get("/tables/987654", headers={"accept": "text/html"})
    assert r.status_code == 404 and "There is no such table." in r.text
    r = await client.get("/nowhere", headers={"accept": "text/html"})
    assert r.status_code == 404
