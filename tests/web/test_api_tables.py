"""The JSON API: tables, seats, moves, and every kind of bad input."""

from __future__ import annotations

import json

import pytest

from tests.support.api import move, new_table, register, state, two_players

pytestmark = pytest.mark.db


async def test_games_lists_ids_titles_counts_and_options_schema(client):
    r = await client.get("/api/games")
    assert r.status_code == 200
    tally = next(g for g in r.json() if g["id"] == "tally")
    assert (tally["min_players"], tally["max_players"]) == (2, 4)
    assert "hand_size" in tally["options_schema"]["properties"]


async def test_create_table_creator_takes_seat_zero_and_gets_invite_url(client):
    await register(client, "ann")
    r = await client.post("/api/tables", json={"game": "tally", "seats": 3, "options": {"hand_size": 4}})
    assert r.status_code == 201
    body = r.json()
    assert body["invite_url"].startswith("http://testserver/invite/")
    snap = await state(client, body["id"])
    assert snap["status"] == "waiting" and snap["seat"] == 0 and snap["view"] is None
    assert snap["options"] == {"hand_size": 4, "turns_per_seat": 3, "turn_seconds": None}


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"game": "chess", "seats": 2}, "no game called 'chess'"),
        ({"game": "tally", "seats": 9}, "2 to 4 players"),
        ({"game": "tally", "seats": 2, "options": {"hand_size": "lots"}}, "hand_size"),
        ({"game": "tally", "seats": 2, "options": {"colour": "red"}}, "colour"),
        ({"game": "tally", "seats": "two"}, "seats"),
        ({"game": "tally"}, "seats"),
    ],
)
async def test_create_table_bad_input_is_422_with_a_sentence(client, body, fragment):
    await register(client, "ann")
    r = await client.post("/api/tables", json=body)
    assert r.status_code == 422
    assert fragment in r.json()["message"]


async def test_join_needs_the_invite(client, make_client):
    await register(client, "ann")
    table = (await client.post("/api/tables", json={"game": "tally", "seats": 2})).json()
    bob = make_client()
    await register(bob, "bob")
    r = await bob.post(f"/api/tables/{table['id']}/join", json={})
    assert r.status_code == 403
    r = await bob.post(f"/api/tables/{table['id']}/join", json={"invite": "x" * 43})
    assert r.status_code == 403
    token = table["invite_url"].rsplit("/", 1)[1]
    r = await bob.post(f"/api/tables/{table['id']}/join", json={"invite": token})
    assert r.json() == {"seat": 1}
    # Joining again is harmless; a third player finds the table full.
    assert (await bob.post(f"/api/tables/{table['id']}/join", json={"invite": token})).json() == {"seat": 1}
    cat = make_client()
    await register(cat, "cat")
    r = await cat.post(f"/api/tables/{table['id']}/join", json={"invite": token})
    assert r.status_code == 409
    assert "no free seat" in r.json()["message"]


async def test_invite_revoked_or_replaced_stops_working(client, make_client):
    await register(client, "ann")
    table = (await client.post("/api/tables", json={"game": "tally", "seats": 3})).json()
    old = table["invite_url"].rsplit("/", 1)[1]
    new = (
        (await client.post(f"/api/tables/{table['id']}/invite", json={}))
        .json()["invite_url"]
        .rsplit("/", 1)[1]
    )
    bob = make_client()
    await register(bob, "bob")
    assert (await bob.post(f"/api/tables/{table['id']}/join", json={"invite": old})).status_code == 403
    assert (await bob.get(f"/invite/{old}")).status_code == 404
    assert (await bob.post(f"/api/tables/{table['id']}/join", json={"invite": new})).status_code == 200
    assert (await client.delete(f"/api/tables/{table['id']}/invite")).status_code == 204
    cat = make_client()
    await register(cat, "cat")
    assert (await cat.post(f"/api/tables/{table['id']}/join", json={"invite": new})).status_code == 403


async def test_invite_token_is_bound_to_its_table(client, make_client):
    await register(client, "ann")
    first = (await client.post("/api/tables", json={"game": "tally", "seats": 2})).json()
    second = (await client.post("/api/tables", json={"game": "tally", "seats": 2})).json()
    bob = make_client()
    await register(bob, "bob")
    token = first["invite_url"].rsplit("/", 1)[1]
    r = await bob.post(f"/api/tables/{second['id']}/join", json={"invite": token})
    assert r.status_code == 403


async def test_leave_before_start_frees_the_seat(client, make_client):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob, start=False)
    assert (await bob.post(f"/api/tables/{table['id']}/leave", json={})).status_code == 204
    snap = await state(client, table["id"])
    assert snap["seats"][1]["is_open"]
    r = await client.post(f"/api/tables/{table['id']}/start", json={})
    assert r.status_code == 400
    assert "at least 2 players" in r.json()["message"]


async def test_only_the_host_adds_bots_and_starts(client, make_client):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob, start=False)
    assert (await bob.post(f"/api/tables/{table['id']}/bots", json={})).status_code == 403
    assert (await bob.post(f"/api/tables/{table['id']}/start", json={})).status_code == 403


async def test_start_with_open_seats_keeps_the_filled_ones(client, make_client):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    r = await client.post("/api/tables", json={"game": "tally", "seats": 4})
    table = r.json()
    token = table["invite_url"].rsplit("/", 1)[1]
    await bob.post(f"/api/tables/{table['id']}/join", json={"invite": token, "seat": 3})
    assert (await client.post(f"/api/tables/{table['id']}/start", json={})).status_code == 200
    snap = await state(bob, table["id"])
    assert [s["name"] for s in snap["seats"]] == ["ann", "bob"]
    assert snap["seat"] == 1 and len(snap["view"]["hand_sizes"]) == 2


async def test_a_bot_seat_plays_by_itself_until_a_human_must_act(app, client):
    await register(client, "ann")
    table = await new_table(client, bots=1)
    await app.state.rt.bots.idle()
    snap = await state(client, table["id"])
    assert snap["to_act"] == [0]
    played_by_bot = [e for e in snap["view"]["log"] if e["params"].get("seat") == 2]
    assert snap["version"] in (0, 1) and len(played_by_bot) == snap["version"] * 2


async def test_full_game_with_a_bot_ends_with_a_result_and_replays(app, client):
    from app.services.moves import replay

    await register(client, "ann")
    table = await new_table(client, bots=2, options={"turns_per_seat": 4})
    for _ in range(20):
        await app.state.rt.bots.idle()
        snap = await state(client, table["id"])
        if snap["status"] == "finished":
            break
        r = await move(client, table["id"], snap["version"], snap["legal_moves"][0])
        assert r.status_code == 200, r.text
    assert snap["status"] == "finished"
    assert snap["version"] == 12 and snap["to_act"] == [] and snap["legal_moves"] == []
    assert sorted(s["seat"] for s in snap["result"]["seats"]) == [0, 1, 2]
    assert sum(s["score"] for s in snap["result"]["seats"]) == sum(int(c[1:]) for c in snap["view"]["played"])
    ok, _, _ = await replay(app.state.rt, table["id"])
    assert ok


async def test_legal_move_advances_version_by_one(client, make_client):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob)
    snap = await state(client, table["id"])
    player = client if snap["to_act"] == [0] else bob
    mine = await state(player, table["id"])
    r = await move(player, table["id"], mine["version"], mine["legal_moves"][0])
    assert r.status_code == 200
    after = r.json()
    assert after["version"] == mine["version"] + 1
    assert mine["legal_moves"][0]["card"] in after["view"]["played"]


async def test_illegal_move_is_400_with_code_and_sentence_and_changes_nothing(client, make_client):
    tid, active, _idle = await two_players(client, make_client())
    before = await state(active, tid)
    r = await move(active, tid, before["version"], {"action": "play", "card": "t9999"})
    assert r.status_code == 400
    assert r.json() == {"code": "not_in_hand", "message": "You do not hold that card."}
    assert await state(active, tid) == before


async def test_out_of_turn_is_refused_with_the_games_sentence(client, make_client):
    tid, _active, idle = await two_players(client, make_client())
    mine = await state(idle, tid)
    r = await move(idle, tid, mine["version"], {"action": "play", "card": mine["view"]["hand"][0]})
    assert r.status_code == 400
    assert r.json()["code"] == "not_your_turn"
    assert await state(idle, tid) == mine


async def test_stale_version_is_409_with_the_fresh_state(client, make_client):
    tid, active, _idle = await two_players(client, make_client())
    snap = await state(active, tid)
    r = await move(active, tid, snap["version"] + 5, snap["legal_moves"][0])
    assert r.status_code == 409
    body = r.json()
    assert body["code"] == "stale_version" and "try again" in body["message"]
    assert body["state"] == snap


@pytest.mark.parametrize(
    "payload",
    [
        {"version": 0, "move": {"action": "dance"}},
        {"version": 0, "move": {"action": "play"}},
        {"version": 0, "move": {"action": "play", "card": "t1", "extra": 1}},
        {"version": 0, "move": "play t1"},
        {"version": "zero", "move": {"action": "play", "card": "t1"}},
        {"move": {"action": "play", "card": "t1"}},
        [],
    ],
)
async def test_malformed_moves_are_422_and_change_nothing(client, make_client, payload):
    tid, active, _idle = await two_players(client, make_client())
    before = await state(active, tid)
    r = await active.post(f"/api/tables/{tid}/moves", json=payload)
    assert r.status_code == 422, r.text
    assert r.json()["message"]
    assert await state(active, tid) == before


async def test_malformed_json_is_422(client, make_client):
    tid, active, _idle = await two_players(client, make_client())
    r = await active.post(
        f"/api/tables/{tid}/moves", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422
    assert r.json()["message"] == "The request body is not valid JSON."


async def test_no_seat_and_forged_seat_are_403(client, make_client):
    tid, active, idle = await two_players(client, make_client())
    snap = await state(active, tid)
    eve = make_client()
    await register(eve, "eve")
    r = await move(eve, tid, snap["version"], snap["legal_moves"][0])
    assert r.status_code == 403
    forged = 1 - snap["seat"]
    r = await idle.post(
        f"/api/tables/{tid}/moves",
        json={"version": snap["version"], "move": snap["legal_moves"][0], "seat": snap["seat"]},
    )
    assert r.status_code == 403 and r.json()["code"] == "not_your_seat"
    assert forged != snap["seat"]
    assert await state(active, tid) == snap


async def test_unknown_table_is_404_and_anonymous_is_401(client, make_client):
    await register(client, "ann")
    assert (await client.get("/api/tables/999999")).status_code == 404
    assert (await client.post("/api/tables/999999/moves", json={"version": 0, "move": {}})).status_code == 404
    anon = make_client()
    assert (await anon.get("/api/tables/1")).status_code == 401
    assert (await anon.post("/api/tables", json={"game": "tally", "seats": 2})).status_code == 401


async def test_oversize_body_is_413(client):
    await register(client, "ann")
    big = json.dumps({"game": "tally", "seats": 2, "options": {"x": "y" * 200_000}})
    r = await client.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413


async def test_spectator_gets_the_public_view_without_hands(client, make_client):
    tid, active, idle = await two_players(client, make_client())
    eve = make_client()
    await register(eve, "eve")
    snap = await state(eve, tid)
    assert snap["seat"] is None and snap["legal_moves"] == []
    assert snap["view"]["hand"] is None
    hands = (await state(active, tid))["view"]["hand"] + (await state(idle, tid))["view"]["hand"]
    text = json.dumps(snap)
    assert not [c for c in hands if f'"{c}"' in text]


async def test_views_never_carry_the_seed_or_other_hands(app, client, make_client):
    tid, active, idle = await two_players(client, make_client())
    from sqlalchemy import select

    from app.store.models import GameTable

    async with app.state.rt.sm() as db:
        seed = await db.scalar(select(GameTable.seed).where(GameTable.id == tid))
    for _ in range(4):
        a, b = await state(active, tid), await state(idle, tid)
        for me, other in ((a, b), (b, a)):
            text = json.dumps(me)
            assert seed not in text
            assert not [c for c in other["view"]["hand"] if f'"{c}"' in text]
        r = await move(active, tid, a["version"], a["legal_moves"][0])
        assert r.status_code == 200
        active, idle = idle, active


async def test_rematch_same_players_new_table(app, client):
    await register(client, "ann")
    table = await new_table(client, bots=1, options={"turns_per_seat": 1, "hand_size": 1})
    for _ in range(5):
        await app.state.rt.bots.idle()
        snap = await state(client, table["id"])
        if snap["status"] == "finished":
            break
        await move(client, table["id"], snap["version"], snap["legal_moves"][0])
    assert snap["status"] == "finished"
    r = await client.post(f"/api/tables/{table['id']}/rematch", json={})
    assert r.status_code == 201
    new_id = r.json()["id"]
    again = await client.post(f"/api/tables/{table['id']}/rematch", json={})
    assert again.json()["id"] == new_id
    await app.state.rt.bots.idle()
    new = await state(client, new_id)
    assert new["status"] == "playing"
    assert [(s["name"], s["is_bot"]) for s in new["seats"]] == [("ann", False), (None, True)]


async def test_a_failing_bot_still_plays_a_legal_move(app, client, monkeypatch):
    from tests.support.tally import GAME as TALLY

    def broken(*_args, **_kwargs):
        raise RuntimeError("bot bug")

    monkeypatch.setattr(TALLY, "bot_move", broken)
    await register(client, "ann")
    table = await new_table(client, bots=1)
    await app.state.rt.bots.idle()
    snap = await state(client, table["id"])
    if snap["version"] == 0:  # ann starts: play, then the bot must answer
        await move(client, table["id"], 0, snap["legal_moves"][0])
        await app.state.rt.bots.idle()
        snap = await state(client, table["id"])
    assert snap["to_act"] == [0] and snap["version"] in (1, 2)
    assert len(snap["view"]["played"]) == snap["version"]
