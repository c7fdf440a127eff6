"""Fantasy Realms through the platform: JSON API with bots, pages, final screen."""

from __future__ import annotations

import json
import re

import pytest

from app.games.realms import cards
from tests.support.api import csrf_of, move, new_table, register, state

pytestmark = pytest.mark.db


def _slugs_in(text: str) -> set[str]:
    return {c.slug for c in cards.CARDS if re.search(rf"(?<![\w-]){re.escape(c.slug)}(?![\w-])", text)}


async def _play_to_end(app, client, table_id: int) -> dict:
    for _ in range(400):
        await app.state.rt.bots.idle()
        snap = await state(client, table_id)
        if snap["status"] == "finished":
            return snap
        if not snap["legal_moves"]:
            continue
        choice = next((m for m in snap["legal_moves"] if m["action"] == "final_choices_confirm"), None)
        r = await move(client, table_id, snap["version"], choice or snap["legal_moves"][0])
        assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not end")


async def test_four_player_game_with_bots_ends_with_a_result(app, client):
    await register(client, "ann")
    table = await new_table(client, game="realms", bots=3)
    snap = await _play_to_end(app, client, table["id"])
    result = snap["result"]
    assert len(result["seats"]) == 4 and result["winners"]
    for seat in result["seats"]:
        assert seat["score"] == sum(line["points"] for line in seat["lines"])
    assert len(snap["view"]["discard_area"]) == 10


async def test_realms_page_shows_my_cards_and_never_the_others(app, client, make_client):
    bob = make_client()
    await register(client, "ann")
    await register(bob, "bob")
    table = await new_table(client, bob, game="realms", options={"two_player_variant": "none"})
    tid = table["id"]
    for _ in range(6):
        a, b = await state(client, tid), await state(bob, tid)
        for viewer, me, other in ((client, a, b), (bob, b, a)):
            html = (await viewer.get(f"/tables/{tid}")).text
            names = {cards.lookup(s).name_en for s in me["view"]["hand"]}
            assert all(n in html for n in names)
            hidden = set(other["view"]["hand"]) - set(me["view"]["discard_area"])
            assert not (_slugs_in(html) & hidden)
            assert not (_slugs_in(json.dumps(me)) & hidden)
        player = client if a["legal_moves"] else bob
        snap = a if a["legal_moves"] else b
        r = await player.post(
            f"/tables/{tid}/play",
            data={"version": str(snap["version"]), "move": json.dumps(snap["legal_moves"][-1])},
            headers={
                "X-CSRF-Token": csrf_of((await player.get(f"/tables/{tid}")).text),
                "HX-Request": "true",
            },
        )
        assert r.status_code == 200, r.text


async def test_realms_final_screen_shows_line_by_line_breakdown(app, client):
    await register(client, "ann")
    table = await new_table(client, game="realms", bots=2)
    await _play_to_end(app, client, table["id"])
    html = (await client.get(f"/tables/{table['id']}")).text
    assert "Final scores" in html and "winner" in html
    assert html.count('<table class="breakdown">') == 3
    assert "Base" in html and "Bonus" in html and "Penalty" in html


async def test_final_choice_form_fields_reach_the_game(app, client):
    """The page's choice <select> (set:choices.<key>) completes the move."""
    from app.games.realms.scoring import CHOICE_KEYS

    await register(client, "ann")
    table = await new_table(client, game="realms", bots=2)
    tid = table["id"]
    for _ in range(100):
        await app.state.rt.bots.idle()
        snap = await state(client, tid)
        if snap["view"]["phase"] != "play":
            break
        await move(client, tid, snap["version"], snap["legal_moves"][0])
    mine = snap["view"]["final_choices"]["mine"]
    headers = {"X-CSRF-Token": csrf_of((await client.get(f"/tables/{tid}")).text), "HX-Request": "true"}
    template = json.dumps({"action": "final_choices_update", "choices": {}})
    held = {c["key"] for c in mine["controls"]}
    absent = next(k for k in CHOICE_KEYS if k not in held)
    r = await client.post(
        f"/tables/{tid}/play",
        data={"version": str(snap["version"]), "move": template, f"set:choices.{absent}": json.dumps(None)},
        headers=headers,
    )
    assert r.status_code == 400 and "You do not hold" in r.text
    for control in mine["controls"]:
        other = next((v for v in control["values"] if v != control["value"]), None)
        if other is None:
            continue
        r = await client.post(
            f"/tables/{tid}/play",
            data={
                "version": str(snap["version"]),
                "move": template,
                f"set:choices.{control['key']}": json.dumps(other),
            },
            headers=headers,
        )
        assert r.status_code == 200, r.text
        after = (await state(client, tid))["view"]["final_choices"]["mine"]["draft"]
        assert after[control["key"]] == other
        break
