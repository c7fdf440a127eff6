"""Hidden information never leaves the server, on random games driven through
the real HTTP and websocket layers: after every move, everything each seat and
a spectator received (JSON API, page HTML, htmx fragments, websocket JSON and
HTML pushes, error bodies) is checked against the game's own declaration of
what that seat may not see, and the table seed."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re

import pytest
from httpx_ws import aconnect_ws

from tests.conftest import ws_client
from tests.support.api import register
from tests.support.leaks import hidden_now, leaked

CASES = [
    ("tally", 2, {}),
    ("tally", 4, {"hand_size": 5}),
    ("realms", 2, {"two_player_variant": "seed"}),
    ("realms", 2, {"two_player_variant": "published"}),
    ("realms", 3, {}),
    ("realms", 5, {}),
    ("fantasy", 2, {"korrigan_take": "actor_chooses"}),
    ("fantasy", 3, {"expansion": True, "replenish_take": "giver_chooses"}),
]
# Every other player count, checked the same way over the first moves of a game
# (whole games at every count would take minutes; the rules-layer property
# tests check every count's views to the end).
OPENINGS = [
    ("tally", 3, {}),
    ("realms", 4, {}),
    ("realms", 6, {}),
    ("fantasy", 4, {"expansion": True, "korrigan_take": "victim_chooses"}),
    ("fantasy", 5, {"expansion": True}),
    ("fantasy", 6, {"expansion": True, "fee_reactors": "affected_only"}),
    ("fantasy", 5, {"large_base": True}),
]
OPENING_MOVES = 16


async def _pick(rt, table_id: int, seat: int, mine: dict, rng: random.Random) -> dict:
    """Mostly the game's own bot (so games end), sometimes any legal move."""
    if rng.random() < 0.3:
        return rng.choice(mine["legal_moves"])
    from sqlalchemy import select

    from app.games import registry
    from app.games.base import dump_move
    from app.store.models import GameTable

    async with rt.sm() as db:
        table = await db.scalar(select(GameTable).where(GameTable.id == table_id))
    game = registry.get(table.game)
    return dump_move(game, game.bot_move(game.load_state(table.state), seat, rng))


def version_of(text: str) -> int | None:
    found = re.search(r'"version": ?(\d+)|data-version="(\d+)"', text)
    return int(found.group(1) or found.group(2)) if found else None


async def _drain(ws, into: list[str], version: int) -> None:
    """Read pushes until this socket has shown `version` (every change is pushed)."""
    while True:
        text = await asyncio.wait_for(ws.receive_text(), 10)
        into.append(text)
        shown = version_of(text)
        if shown is not None and shown >= version:
            return


@pytest.mark.parametrize(
    ("game", "players", "options"), CASES, ids=[f"{g}-{n}-{i}" for i, (g, n, _) in enumerate(CASES)]
)
async def test_no_channel_leaks_on_a_random_game(app, make_client, game, players, options):
    await _play_and_check(app, make_client, game, players, options, max_moves=600, to_the_end=True)


@pytest.mark.parametrize(
    ("game", "players", "options"),
    OPENINGS,
    ids=[f"{g}-{n}-{i}" for i, (g, n, _) in enumerate(OPENINGS)],
)
async def test_no_channel_leaks_in_the_opening_at_every_player_count(
    app, make_client, game, players, options
):
    await _play_and_check(app, make_client, game, players, options, max_moves=OPENING_MOVES, to_the_end=False)


async def _play_and_check(
    app, make_client, game: str, players: int, options: dict, *, max_moves: int, to_the_end: bool
) -> None:
    rng = random.Random(f"{game}{players}{options}")
    clients = [make_client() for _ in range(players + 1)]
    for i, c in enumerate(clients):
        await register(c, f"p{i}")
    host, *guests = clients[:players]
    spectator = clients[players]
    r = await host.post("/api/tables", json={"game": game, "seats": players, "options": options})
    table = r.json()
    token = table["invite_url"].rsplit("/", 1)[1]
    for g in guests:
        assert (await g.post(f"/api/tables/{table['id']}/join", json={"invite": token})).status_code == 200
    assert (await host.post(f"/api/tables/{table['id']}/start", json={})).status_code == 200
    tid = table["id"]
    seat_of = {id(c): i for i, c in enumerate(clients[:players])}
    viewers = [*clients[:players], spectator]
    received: dict[int, list[str]] = {id(v): [] for v in viewers}
    rt = app.state.rt

    hidden_at: dict[tuple[int | None, int], set[str]] = {}

    async def check(viewer) -> None:
        """Each text is held against what was hidden at the version it shows
        (a card taken from the discard area was public a moment before)."""
        seat = seat_of.get(id(viewer))
        mine = received[id(viewer)]
        mine.append((await viewer.get(f"/api/tables/{tid}")).text)
        mine.append((await viewer.get(f"/tables/{tid}")).text)
        hidden, seed = await hidden_now(rt, tid, seat)
        for text in mine:
            shown = version_of(text)
            against = hidden_at.get((seat, shown), hidden) if shown is not None else hidden
            assert leaked([text], against, seed) == [], f"seat {seat} received hidden ids"
        mine.clear()

    async with contextlib.AsyncExitStack() as stack:
        sockets = []  # one JSON and one HTML socket per viewer
        for v in viewers:
            conn = await stack.enter_async_context(ws_client(app, v))
            for path in (f"/ws/tables/{tid}?format=json", f"/ws/tables/{tid}"):
                sockets.append((v, await stack.enter_async_context(aconnect_ws(path, conn))))
        status = "playing"
        for _step in range(max_moves):  # a 3-player Fantasy II game takes 150-250 moves
            status = (await host.get(f"/api/tables/{tid}")).json()["status"]
            if status == "finished":
                break
            to_act = (await host.get(f"/api/tables/{tid}")).json()["to_act"]
            actor = clients[rng.choice(to_act)]
            mine = (await actor.get(f"/api/tables/{tid}")).json()
            if rng.random() < 0.15:
                # An illegal or stale move: its error body must not leak either.
                bad = rng.choice(
                    [
                        {"version": mine["version"] + 1, "move": mine["legal_moves"][0]},
                        {"version": mine["version"], "move": {"action": "nonsense"}},
                    ]
                )
                r = await actor.post(f"/api/tables/{tid}/moves", json=bad)
                assert r.status_code in (409, 422)
                received[id(actor)].append(r.text)
            move = await _pick(rt, tid, seat_of[id(actor)], mine, rng)
            r = await actor.post(f"/api/tables/{tid}/moves", json={"version": mine["version"], "move": move})
            assert r.status_code == 200, r.text
            received[id(actor)].append(r.text)
            version = r.json()["version"]
            for v in viewers:
                hidden_at[(seat_of.get(id(v)), version)] = (await hidden_now(rt, tid, seat_of.get(id(v))))[0]
            for v, ws in sockets:
                await _drain(ws, received[id(v)], version)
            # Every push is checked after every move; pages and GETs are fetched
            # for the actor and the spectator each time, for everyone every 4th move.
            for v in viewers if _step % 4 == 0 else [actor, spectator]:
                await check(v)
        if to_the_end:
            assert status == "finished"
