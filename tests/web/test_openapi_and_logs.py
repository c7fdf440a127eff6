"""The API is documented, and every move and rejection is logged without its contents."""

from __future__ import annotations

import json
import logging

from tests.support.api import move, state, two_players


async def test_openapi_documents_the_api_paths(client):
    schema = (await client.get("/openapi.json")).json()
    for path in [
        "/api/auth/register",
        "/api/auth/login",
        "/api/auth/logout",
        "/api/games",
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/bots",
        "/api/tables/{table_id}/start",
        "/api/tables/{table_id}/moves",
    ]:
        assert path in schema["paths"], path
    moves = schema["paths"]["/api/tables/{table_id}/moves"]["post"]["responses"]
    assert {"200", "400", "403", "409", "422"} <= set(moves)
    assert (await client.get("/docs")).status_code == 200


async def test_moves_and_rejections_are_logged_as_json_without_cards(client, make_client, caplog):
    tid, player, _idle = await two_players(client, make_client())
    table = {"id": tid}
    mine = await state(player, tid)
    card = mine["legal_moves"][0]["card"]
    with caplog.at_level(logging.INFO, logger="feytable.moves"):
        await move(player, table["id"], mine["version"], {"action": "play", "card": "t9999"})
        await move(player, table["id"], mine["version"], mine["legal_moves"][0])
    events = [json.loads(r.getMessage()) for r in caplog.records if r.name == "feytable.moves"]
    assert [e["event"] for e in events] == ["move_rejected", "move"]
    assert events[0]["code"] == "not_in_hand" and events[1]["seq"] == 1
    assert all(e["table"] == table["id"] and e["action"] == "play" for e in events)
    assert not [r for r in caplog.records if card in r.getMessage() or "t9999" in r.getMessage()]
