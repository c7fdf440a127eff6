"""The Realms calculator: POST /api/realms/score and the CLI agree with every
worked example of the spec (totals and per-card points), and refuse the same
bad requests with the same sentence; the page scores a shared URL."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games.realms._realms_helpers import choices, hand
from tests.games.realms.test_scoring_examples import EXAMPLES, REJECTED
from tests.support.api import new_table, register
from tests.web.test_realms_table import _play_to_end

ROOT = Path(__file__).resolve().parents[2]


def _request(names, chosen, options, discard=None):
    body = {"cards": hand(names), "choices": choices(chosen), "options": options}
    if discard:
        body["discard_area"] = hand(discard)
    return body


@pytest.fixture(scope="module")
def cli_answers():
    """Every example and every rejected request, through the CLI in one run."""
    lines = [json.dumps(_request(n, c, o)) for _id, n, c, o, _t, _p in EXAMPLES]
    lines += [json.dumps(_request(n, c, _house(s))) for _id, n, c, _d, s in REJECTED]
    done = subprocess.run(
        [sys.executable, "-m", "app.games.realms.calculator"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == len(lines)
    return out


async def test_every_worked_example_endpoint_equals_cli_equals_spec(client, cli_answers):
    for i, (ex_id, names, chosen, options, total, per_card) in enumerate(EXAMPLES):
        r = await client.post("/api/realms/score", json=_request(names, chosen, options))
        assert r.status_code == 200, (ex_id, r.text)
        body = r.json()
        assert body == cli_answers[i], ex_id
        assert body["total"] == total, ex_id
        if per_card is not None:
            assert [c["total"] for c in body["cards"]] == per_card, ex_id


def _house(sentence: str) -> dict:
    return {"book_may_target_wild": False} if "house" in sentence.lower() else {}


async def test_rejected_choices_same_sentence_from_endpoint_and_cli(client, cli_answers):
    """EX-B7: K2 refuses these choices with the spec's sentence (those that need
    a discard area exist only in the game; there, endpoint and CLI still agree)."""
    offset = len(EXAMPLES)
    for i, (ex_id, names, chosen, discard, sentence) in enumerate(REJECTED):
        r = await client.post("/api/realms/score", json=_request(names, chosen, _house(sentence)))
        if r.status_code == 200:
            assert discard is not None, ex_id
            assert cli_answers[offset + i] == r.json(), ex_id
            continue
        assert r.status_code == 422, ex_id
        assert cli_answers[offset + i] == {"error": r.json()["message"]}, ex_id
        if discard is None:
            assert r.json()["message"] == K2_WORDING.get(ex_id, sentence), ex_id


# K2 words one refusal its own way (a calculator user picks cards, a player holds them).
K2_WORDING = {"no-mirage": "Choice 'mirage' given but Mirage is not in the hand."}


@pytest.mark.parametrize(
    ("body", "sentence"),
    [
        ({"cards": ["montain"]}, "Unknown card 'montain'."),
        ({"cards": ["mountain", "mountain"]}, "Mountain is listed twice."),
        (
            {"cards": ["mountain"], "choices": {"mirage": "rainstorm"}},
            "Choice 'mirage' given but Mirage is not in the hand.",
        ),
    ],
)
async def test_k2_refusals(client, body, sentence):
    r = await client.post("/api/realms/score", json=body)
    assert r.status_code == 422 and r.json()["message"] == sentence


async def test_bad_json_and_wrong_shapes_are_422_not_500(client):
    for raw in [b"{", b"[]", b"42", b'{"cards": "mountain"}', b'{"cards": [], "options": {"gem_mode": 3}}']:
        r = await client.post("/api/realms/score", content=raw, headers={"content-type": "application/json"})
        assert r.status_code == 422, raw
        assert r.json()["message"]


async def test_best_endpoint_finds_the_mirage_choice(client):
    body = {"cards": ["mountain", "great-flood", "smoke", "whirlwind", "air-elemental", "wildfire", "mirage"]}
    r = await client.post("/api/realms/best", json=body)
    assert r.status_code == 200
    best = r.json()
    assert best["total"] >= 260 and best["search"]["exhaustive"] is True
    scored = await client.post("/api/realms/score", json={**body, "choices": best["choices"]})
    assert scored.json()["total"] == best["total"]


async def test_k1_calculator_page_restores_a_shared_url(client):
    url = (
        "/realms/calculator?cards=mountain,great-flood,smoke,whirlwind,air-elemental,wildfire,mirage"
        "&mirage=rainstorm"
    )
    html = (await client.get(url)).text
    assert "Total: 260 points" in html
    assert 'value="mountain" checked' in html
    assert '<option value="rainstorm" selected>' in html
    assert "compiled from public sources" in html


async def test_calculator_page_warns_about_an_illegal_hand_and_shows_errors(client):
    html = (await client.get("/realms/calculator?cards=mountain,smoke")).text
    assert "Not a legal final hand" in html
    html = (await client.get("/realms/calculator?cards=montain")).text
    assert "Unknown card &#39;montain&#39;." in html


@pytest.mark.parametrize(
    ("bots", "options"),
    [
        (3, {}),  # 4 players, standard game
        (1, {"two_player_variant": "seed"}),
        (1, {"two_player_variant": "published"}),
        (1, {"two_player_variant": "none"}),
    ],
    ids=["four-players", "two-seed", "two-published", "two-none"],
)
async def test_final_totals_equal_the_calculators_for_the_same_hands(app, client, bots, options):
    """Issue acceptance 1: the game's result and POST /api/realms/score agree."""
    await register(client, "ann")
    table = await new_table(client, game="realms", bots=bots, options=options)
    snap = await _play_to_end(app, client, table["id"])
    scores = {s["seat"]: s for s in snap["view"]["scores"]}
    for seat in snap["result"]["seats"]:
        sheet = scores[seat["seat"]]
        r = await client.post(
            "/api/realms/score",
            json={"cards": sheet["hand"], "choices": sheet["choices"], "options": snap["options"]},
        )
        assert r.status_code == 200, r.text
        assert r.json()["total"] == seat["score"] == sheet["total"]
        assert [c["total"] for c in r.json()["cards"]] == [c["total"] for c in sheet["cards"]]


async def test_calculator_page_best_choices_keep_pinned_controls(client):
    base = "/realms/calculator?cards=mountain,great-flood,smoke,whirlwind,air-elemental,wildfire,mirage"
    best = (await client.get(base + "&best=1")).text
    assert '<option value="" selected>' not in best.split('id="choice-mirage"', 1)[1].split("</select>", 1)[0]
    pinned = (await client.get(base + "&mirage=&pin=mirage&best=1")).text
    mirage = pinned.split('id="choice-mirage"', 1)[1].split("</select>", 1)[0]
    assert '<option value="" selected>' in mirage


async def test_calculator_page_necromancer_candidates_come_from_the_discard_area(client):
    url = "/realms/calculator?cards=necromancer,mountain,smoke,wildfire,rangers,king,queen"
    url += "&discard=dragon,forest"
    html = (await client.get(url)).text
    control = html.split('id="choice-necromancer"', 1)[1].split("</select>", 1)[0]
    assert "Dragon" in control and "Unicorn" not in control


async def test_calculator_page_offers_pins_and_a_discard_area(client):
    url = "/realms/calculator?cards=necromancer,mountain,smoke,wildfire,rangers,king,queen&discard=dragon"
    html = (await client.get(url)).text
    assert 'name="pin" value="necromancer"' in html
    assert '<option value="dragon" selected>' in html


async def test_k4_score_and_best_need_no_account_and_store_nothing(app, client):
    from sqlalchemy import func, select

    from app.store.models import GameTable, User

    body = {"cards": ["mountain", "great-flood", "smoke", "whirlwind", "air-elemental", "wildfire", "mirage"]}
    assert (await client.post("/api/realms/score", json=body)).status_code == 200
    assert (await client.post("/api/realms/best", json=body)).status_code == 200
    async with app.state.rt.sm() as db:
        assert await db.scalar(select(func.count(User.id))) == 0
        assert await db.scalar(select(func.count(GameTable.id))) == 0


async def test_e22_stored_result_is_public_after_the_reveal(app, client, make_client):
    """E22: once revealed, every seat's K2 breakdown is public, spectators included."""
    await register(client, "ann")
    table = await new_table(client, game="realms", bots=1, options={"two_player_variant": "none"})
    done = await _play_to_end(app, client, table["id"])
    eve = make_client()
    await register(eve, "eve")
    seen = (await eve.get(f"/api/tables/{table['id']}")).json()
    assert seen["seat"] is None and seen["result"] == done["result"]
    assert [s["hand"] for s in seen["view"]["scores"]] == [s["hand"] for s in done["view"]["scores"]]
    assert all({"total", "cards", "choices", "tie_break"} <= set(s) for s in seen["view"]["scores"])
