"""Fantasy through the platform: full games over the JSON API with bots in some
seats, seat preferences (react_pref) and automatic answers, the reaction
deadline, and the table page."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from sqlalchemy import select

from app.games.fantasy import cards
from app.services.deadlines import run_due
from app.services.tables import utcnow
from app.store.models import MoveRecord
from tests.support.api import move, new_table, register, state

pytestmark = pytest.mark.db


def _cards_on_table(view: dict) -> int:
    """Every card the public view accounts for: Forests (creatures and
    Secrets), the out-of-play pile, hands (by size) and the deck."""
    total = view["deck_size"] + len(view["out_of_play"])
    for p in view["players"]:
        total += p["hand_size"]
        for col in p["forest"]["columns"]:
            total += len(col["cards"]) + (1 if col["secret"] else 0)
    return total


def _deck_size(options: dict) -> int:
    base = 56
    if not options.get("expansion"):
        return base
    counts = options.get("f2_counts") or {"homme": 8, "ogre": 8, "garou": 8, "biere": 6}
    return base + sum(counts.values()) + (10 if options.get("f2_secrets", True) else 0)


async def _play_to_end(app, players: list, table_id: int, seed: int) -> dict:
    """Humans play random legal moves (reactions included); bots play theirs."""
    rng = random.Random(seed)
    total = None
    for _ in range(3000):
        await app.state.rt.bots.idle()
        snaps = [await state(p, table_id) for p in players]
        snap = snaps[0]
        if total is None:
            total = _cards_on_table(snap["view"])
        assert _cards_on_table(snap["view"]) == total, "a card appeared or vanished"
        if snap["status"] == "finished":
            return snap
        movers = [(p, s) for p, s in zip(players, snaps, strict=True) if s["legal_moves"]]
        if not movers:
            continue
        player, mine = rng.choice(movers)
        r = await move(player, table_id, mine["version"], rng.choice(mine["legal_moves"]))
        assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("options", "bots"),
    [({}, 1), ({"expansion": True}, 2)],
    ids=["base-3-players", "expansion-4-players"],
)
async def test_a_full_game_through_the_json_api_with_bots(app, client, make_client, options, bots):
    """Issue 4 acceptance 3: each mode, two humans and bots, to the final score."""
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob, game="fantasy", options=options, bots=bots)
    start = await state(client, table["id"])
    assert _cards_on_table(start["view"]) == _deck_size(options)
    snap = await _play_to_end(app, [client, bob], table["id"], seed=len(options))
    result = snap["result"]
    assert len(result["seats"]) == 2 + bots and result["winners"]
    for seat in result["seats"]:
        assert seat["score"] == sum(line["points"] for line in seat["lines"])
        forest = snap["view"]["players"][seat["seat"]]["forest"]
        assert seat["score"] >= forest["size"]  # Secrets only ever double
    page = (await client.get(f"/tables/{table['id']}")).text
    assert "The game is over." in page


async def test_never_ask_me_passes_my_reactions_for_me(app, client, make_client):
    """R9: with react_pref `never` the server answers react_pass at once for
    that seat; the moves are recorded as automatic answers."""
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob, game="fantasy", start=False)
    tid = table["id"]
    for player in (client, bob):
        r = await player.put(f"/api/tables/{tid}/prefs", json={"react_pref": "never"})
        assert r.status_code == 204, r.text
    assert (await client.post(f"/api/tables/{tid}/start", json={})).status_code == 200
    assert (await bob.get(f"/api/tables/{tid}")).json()["prefs"] == {"react_pref": "never"}
    for _ in range(40):
        snap = await state(client, tid)
        assert snap["view"]["window"] is None, "nobody should ever be asked to react"
        if snap["status"] == "finished":
            break
        player = client if snap["legal_moves"] else bob
        mine = await state(player, tid)
        assert (await move(player, tid, mine["version"], mine["legal_moves"][0])).status_code == 200
    async with app.state.rt.sm() as db:
        actors = set((await db.scalars(select(MoveRecord.actor).where(MoveRecord.table_id == tid))).all())
    assert "auto" in actors


async def test_prefs_are_validated_and_private(app, client, make_client):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob, game="fantasy")
    tid = table["id"]
    r = await bob.put(f"/api/tables/{tid}/prefs", json={"react_pref": "when_i_hold_no_fee"})
    assert r.status_code == 422 and "preference" in r.json()["message"]
    assert (await bob.put(f"/api/tables/{tid}/prefs", json={"react_pref": "ask_always"})).status_code == 204
    assert (await state(client, tid))["prefs"] == {"react_pref": "ask_when_affected"}
    assert (await state(bob, tid))["prefs"] == {"react_pref": "ask_always"}
    eve = make_client()
    await register(eve, "eve")
    r = await eve.put(f"/api/tables/{tid}/prefs", json={"react_pref": "never"})
    assert r.status_code == 403


async def test_reaction_deadline_passes_for_the_silent(app, client, make_client):
    """W21 variant: with reaction_timeout_s the server answers react_pass for
    every asked player who has not answered once the time is up."""
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob, game="fantasy", options={"reaction_timeout_s": 60}, start=False)
    tid = table["id"]
    for player in (client, bob):
        await player.put(f"/api/tables/{tid}/prefs", json={"react_pref": "ask_always"})
    assert (await client.post(f"/api/tables/{tid}/start", json={})).status_code == 200
    for _ in range(60):
        snap = await state(client, tid)
        if snap["view"]["window"]:
            break
        player = client if snap["legal_moves"] else bob
        mine = await state(player, tid)
        targeted = [m for m in mine["legal_moves"] if m.get("target_player") is not None]
        chosen = (targeted or mine["legal_moves"])[0]
        assert (await move(player, tid, mine["version"], chosen)).status_code == 200
    else:
        pytest.fail("no reaction window opened")
    waiting = snap["view"]["window"]["waiting"]
    assert waiting and snap["deadline"] is not None
    assert await run_due(app.state.rt, utcnow() + timedelta(seconds=30)) == 0
    assert (await state(client, tid))["version"] == snap["version"]
    assert await run_due(app.state.rt, utcnow() + timedelta(seconds=61)) >= len(waiting)
    after = await state(client, tid)
    window = after["view"]["window"]
    assert window is None or window["chain"] != snap["view"]["window"]["chain"]


async def test_table_page_shows_forests_and_my_hand_only(app, client, make_client):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob, game="fantasy", options={"expansion": True})
    tid = table["id"]
    ann_snap, bob_snap = await state(client, tid), await state(bob, tid)
    page = (await client.get(f"/tables/{tid}")).text
    assert "Forests, in place order" in page
    assert "This card list is a reconstruction" in page
    assert "My preferences at this table" in page
    for cid in ann_snap["view"]["hand"]:
        assert cid in page
    for cid in set(bob_snap["view"]["hand"]) - set(ann_snap["view"]["hand"]):
        assert cid not in page
    assert cards.display_name(ann_snap["view"]["hand"][0]) in page


async def test_s2_player_count_depends_on_the_expansion(client):
    """S2 through the API: 5 seats need the expansion (or large_base); a clear 400, not an error."""
    await register(client, "ann")
    r = await client.post("/api/tables", json={"game": "fantasy", "seats": 5, "options": {}})
    assert r.status_code == 400 and r.json()["code"] == "bad_player_count", r.text
    assert "player" in r.json()["message"]
    for options in ({"expansion": True}, {"large_base": True}):
        r = await client.post("/api/tables", json={"game": "fantasy", "seats": 5, "options": options})
        assert r.status_code == 201, r.text
