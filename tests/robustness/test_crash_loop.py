"""Crash and restart, again and again: the server is SIGKILLed five times in
one game, each time while a move submission (sent twice at once, a double
submit) is in flight, and restarted on the same database.

After every restart: every acknowledged move is there, at most the one in
flight landed unacknowledged, nothing is half-applied (the state's played
cards equal the version, the move log replays to the stored state), a socket
open before the crash was closed, and a reconnecting socket gets the current
view at once; play goes on from there."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from tests.realtime.test_processes import (
    WAIT,
    MoveFirehose,
    Player,
    comparable,
    new_server,
    recv_json,
    start_game,
)
from tests.realtime.test_processes import players as players
from tests.realtime.test_processes import servers as servers
from tests.support.server import ServerProcess, app_command

pytestmark = [pytest.mark.xdist_group("servers"), pytest.mark.db, pytest.mark.slow]

KILLS = 5


def _kill_mid_move(server: ServerProcess, hose: MoveFirehose, rng: random.Random) -> None:
    deadline = time.monotonic() + WAIT
    while len(hose.acked) < 3 and hose.is_alive() and time.monotonic() < deadline:
        time.sleep(0.002)
    assert len(hose.acked) >= 3, (hose.acked, hose.errors, server.log_tail())
    hose.posting.wait(WAIT)
    time.sleep(rng.uniform(0, 0.012))  # somewhere inside a submission
    server.kill()
    hose.join(WAIT)
    assert not hose.is_alive()


def test_five_sigkills_in_one_game(fresh_database: str, tmp_path: Path, servers, players) -> None:
    rng = random.Random(5)
    server = new_server(servers, fresh_database, tmp_path, "S")
    ann, bob = players
    table_id, by_seat = start_game(server, ann, bob, turns_per_seat=30)  # 60 moves at most
    version = 0
    in_flight_landed = 0
    for kill in range(KILLS):
        watcher: Player = bob
        with watcher.socket(server, table_id) as ws:
            assert recv_json(ws, WAIT)["version"] == version
            hose = MoveFirehose(server, table_id, by_seat)
            hose.start()
            _kill_mid_move(server, hose, rng)
            assert not hose.errors, hose.errors
            assert hose.acked == list(range(version + 1, version + 1 + len(hose.acked))), (
                version,
                hose.acked,
            )
            # The socket open during the crash is closed, not left hanging.
            with pytest.raises(ConnectionClosed):
                while True:
                    ws.recv(timeout=WAIT)

        server.start()
        snap = ann.state(server, table_id)
        acked = hose.acked[-1]
        assert acked <= snap["version"] <= acked + 1, (kill, snap["version"], acked)
        in_flight_landed += snap["version"] - acked
        assert len(snap["view"]["played"]) == snap["version"], "a move was half-applied"
        done = app_command("replay", str(table_id), database_url=fresh_database)
        assert done.returncode == 0 and "matches" in done.stdout, done.stdout + done.stderr

        # Clients recover: a reconnecting socket gets the current view at once.
        for player in (ann, bob):
            with player.socket(server, table_id) as again:
                assert comparable(recv_json(again, WAIT)) == comparable(player.state(server, table_id))
        version = snap["version"]
        assert snap["status"] == "playing", "the game ended before the last crash"

    assert version >= KILLS * 3
