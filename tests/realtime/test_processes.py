"""Real server processes: fan-out between processes (PostgreSQL), and what a
crash (SIGKILL) between and during moves leaves behind (both databases).

Each test starts `python -m app serve` subprocesses (tests/support/server.py)
on a fresh database from conftest's `fresh_database`, and talks to them over
real HTTP and websockets.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.conftest import require_pg
from tests.support.server import ServerProcess, app_command

pytestmark = pytest.mark.xdist_group("servers")

WAIT = 10.0
PASSWORD = "correct horse battery"


# -- helpers ----------------------------------------------------------------------------


class Player:
    """One person: an HTTP client with their own session cookie. URLs are
    absolute, so the same player can talk to any server process (the cookie is
    for 127.0.0.1, whatever the port, and every process shares SECRET_KEY)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.http = httpx.Client(timeout=10.0)
        self.seat: int | None = None

    def register(self, server: ServerProcess) -> None:
        r = self.http.post(
            f"{server.base_url}/api/auth/register", json={"name": self.name, "password": PASSWORD}
        )
        assert r.status_code == 201, r.text

    def state(self, server: ServerProcess, table_id: int) -> dict[str, Any]:
        r = self.http.get(f"{server.base_url}/api/tables/{table_id}")
        assert r.status_code == 200, r.text
        return r.json()

    def move(
        self, server: ServerProcess, table_id: int, version: int, move: dict[str, Any]
    ) -> httpx.Response:
        return self.http.post(
            f"{server.base_url}/api/tables/{table_id}/moves", json={"version": version, "move": move}
        )

    def socket(self, server: ServerProcess, table_id: int) -> ClientConnection:
        cookie = self.http.cookies.get("feytable_session")
        assert cookie, "not logged in"
        return connect(
            f"{server.ws_url}/ws/tables/{table_id}?format=json",
            origin=server.base_url,  # type: ignore[arg-type]
            additional_headers={"Cookie": f"feytable_session={cookie}"},
            open_timeout=WAIT,
            close_timeout=2,
        )

    def close(self) -> None:
        self.http.close()


@pytest.fixture
def players() -> Iterator[tuple[Player, Player]]:
    ann, bob = Player("ann"), Player("bob")
    try:
        yield ann, bob
    finally:
        ann.close()
        bob.close()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """Servers made by the test: `servers.append(ServerProcess(...))`; all closed afterwards."""
    made: list[ServerProcess] = []
    try:
        yield made
    finally:
        for server in made:
            server.close()


def new_server(servers: list[ServerProcess], url: str, tmp_path: Path, name: str) -> ServerProcess:
    server = ServerProcess(url, log_dir=tmp_path, name=name)
    servers.append(server)
    return server.start()


def start_game(
    server: ServerProcess, host: Player, guest: Player, **options: int
) -> tuple[int, dict[int, Player]]:
    """A started 2-player tally table; returns its id and {seat: player}."""
    host.register(server)
    guest.register(server)
    opts = {"hand_size": 3, "turns_per_seat": 3, **options}
    r = host.http.post(f"{server.base_url}/api/tables", json={"game": "tally", "seats": 2, "options": opts})
    assert r.status_code == 201, r.text
    table = r.json()
    token = table["invite_url"].rsplit("/", 1)[1]
    r = guest.http.post(f"{server.base_url}/api/tables/{table['id']}/join", json={"invite": token})
    assert r.status_code == 200, r.text
    r = host.http.post(f"{server.base_url}/api/tables/{table['id']}/start", json={})
    assert r.status_code == 200, r.text
    host.seat, guest.seat = 0, 1
    return table["id"], {0: host, 1: guest}


def play_one(server: ServerProcess, table_id: int, by_seat: dict[int, Player]) -> dict[str, Any]:
    """The player to act plays their first legal move; returns the mover's fresh state."""
    anyone = next(iter(by_seat.values()))
    snap = anyone.state(server, table_id)
    assert snap["status"] == "playing", snap["status"]
    (seat,) = snap["to_act"]
    mover = by_seat[seat]
    mine = mover.state(server, table_id)
    r = mover.move(server, table_id, mine["version"], mine["legal_moves"][0])
    assert r.status_code == 200, r.text
    return r.json()


def recv_json(ws: ClientConnection, timeout: float) -> dict[str, Any]:
    return json.loads(ws.recv(timeout=timeout))


def recv_until(ws: ClientConnection, predicate: Any, timeout: float = WAIT) -> dict[str, Any]:
    """Read pushed views until one satisfies `predicate` (bounded)."""
    deadline = time.monotonic() + timeout
    seen: list[int] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no matching push within {timeout} s; versions seen: {seen}")
        try:
            snap = recv_json(ws, left)
        except TimeoutError:
            continue
        seen.append(snap.get("version"))
        if predicate(snap):
            return snap


def comparable(snap: dict[str, Any]) -> dict[str, Any]:
    """The parts of a state that must survive a restart unchanged."""
    keys = ("id", "status", "version", "seat", "to_act", "view", "legal_moves", "result", "seats")
    return {k: snap[k] for k in keys}


# -- acceptance 5: two processes, one PostgreSQL database --------------------------------


@pytest.mark.pg_only  # SQLite mode is a single process by design
def test_move_on_one_process_reaches_socket_on_another(fresh_database, tmp_path, servers, players):
    require_pg()
    a = new_server(servers, fresh_database, tmp_path, "A")
    b = new_server(servers, fresh_database, tmp_path, "B")
    ann, bob = players
    table_id, by_seat = start_game(a, ann, bob)

    with bob.socket(b, table_id) as ws:
        first = recv_json(ws, WAIT)  # the full view on connect
        assert first["seat"] == 1 and first["version"] == 0
        assert first["view"]["played"] == []

        for expected in (1, 2):  # one move by each seat, both through process A
            before = bob.state(b, table_id)
            (seat,) = before["to_act"]
            mover = by_seat[seat]
            mine = mover.state(a, table_id)
            card = mine["legal_moves"][0]["card"]
            r = mover.move(a, table_id, mine["version"], mine["legal_moves"][0])
            assert r.status_code == 200, r.text
            assert r.json()["version"] == expected

            pushed = recv_until(ws, lambda s, v=expected: s["version"] >= v)
            assert pushed["version"] == expected
            assert pushed["view"]["played"][-1] == card
            assert pushed["seat"] == 1
            if seat == 0:  # ann's card is public now; her hand never is
                assert card not in (pushed["view"]["hand"] or [])
            ann_hand = ann.state(a, table_id)["view"]["hand"]
            assert not set(ann_hand) & set(pushed["view"]["hand"])


# -- acceptance 6: SIGKILL between moves, restart ----------------------------------------


@pytest.mark.db
def test_state_survives_sigkill_between_moves(fresh_database, tmp_path, servers, players):
    server = new_server(servers, fresh_database, tmp_path, "S")
    ann, bob = players
    table_id, by_seat = start_game(server, ann, bob)
    for _ in range(3):
        play_one(server, table_id, by_seat)
    before = {p.name: comparable(p.state(server, table_id)) for p in (ann, bob)}
    assert before["ann"]["version"] == 3

    server.kill()
    assert not server.running()
    with pytest.raises(httpx.TransportError):
        ann.http.get(f"{server.base_url}/healthz", timeout=2)
    server.start()

    after = {p.name: comparable(p.state(server, table_id)) for p in (ann, bob)}
    assert after == before

    # A socket opened after the restart gets the current view at once.
    for player in (ann, bob):
        with player.socket(server, table_id) as ws:
            pushed = recv_json(ws, WAIT)
            assert comparable(pushed) == before[player.name]

    # The next move works and lands on version 4.
    with bob.socket(server, table_id) as ws:
        recv_json(ws, WAIT)
        moved = play_one(server, table_id, by_seat)
        assert moved["version"] == 4
        assert (
            recv_until(ws, lambda s: s["version"] == 4)["view"]["played"][-1] == moved["view"]["played"][-1]
        )

    done = app_command("replay", str(table_id), database_url=fresh_database)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "matches" in done.stdout


# -- SIGKILL while moves are in flight ---------------------------------------------------


class MoveFirehose(threading.Thread):
    """Plays the game as fast as it can, each move sent twice at once (a double
    submit), counting the moves the server acknowledged with 200. Between
    moves it sends nothing else (hands are tracked from the move answers), so
    a kill almost always lands on a move submission."""

    def __init__(self, server: ServerProcess, table_id: int, by_seat: dict[int, Player]) -> None:
        super().__init__(daemon=True)
        self.server, self.table_id, self.by_seat = server, table_id, by_seat
        self.acked: list[int] = []  # versions returned by 200 answers
        self.errors: list[str] = []
        self.posting = threading.Event()  # set while a move is being submitted
        self.cut_mid_move = False  # the kill hit a move submission

    def run(self) -> None:
        clients = {
            seat: httpx.Client(timeout=5.0, cookies=p.http.cookies) for seat, p in self.by_seat.items()
        }
        twins = {seat: httpx.Client(timeout=5.0, cookies=p.http.cookies) for seat, p in self.by_seat.items()}
        url = f"{self.server.base_url}/api/tables/{self.table_id}"
        try:
            views = {seat: c.get(url).json() for seat, c in clients.items()}
            hands = {seat: v["view"]["hand"] for seat, v in views.items()}
            version, to_act = views[0]["version"], views[0]["to_act"][0]
            while True:
                body = {"version": version, "move": {"action": "play", "card": hands[to_act][0]}}
                answers: list[httpx.Response | Exception] = []

                def send(c: httpx.Client, body: dict[str, Any] = body, answers: list[Any] = answers) -> None:
                    try:
                        answers.append(c.post(f"{url}/moves", json=body))
                    except Exception as exc:
                        answers.append(exc)

                twin = threading.Thread(target=send, args=(twins[to_act],))
                self.posting.set()
                twin.start()
                send(clients[to_act])
                twin.join()
                self.posting.clear()
                if any(isinstance(a, Exception) for a in answers):
                    self.cut_mid_move = True
                    return  # the server is gone
                oks = [a for a in answers if isinstance(a, httpx.Response) and a.status_code == 200]
                if len(oks) > 1:
                    self.errors.append(f"both submissions against version {version} were accepted")
                for a in answers:
                    if isinstance(a, httpx.Response) and a.status_code not in (200, 409):
                        self.errors.append(f"unexpected {a.status_code}: {a.text[:200]}")
                if not oks:
                    self.errors.append(f"no submission against version {version} was accepted")
                    return
                state = oks[0].json()
                self.acked.append(state["version"])
                version = state["version"]
                hands[to_act] = state["view"]["hand"]
                if state["status"] != "playing":
                    return
                to_act = state["to_act"][0]
        except httpx.TransportError:
            return
        finally:
            for c in (*clients.values(), *twins.values()):
                c.close()


@pytest.mark.db
def test_sigkill_while_moves_are_in_flight(fresh_database, tmp_path, servers, players):
    server = new_server(servers, fresh_database, tmp_path, "S")
    ann, bob = players
    table_id, by_seat = start_game(server, ann, bob, turns_per_seat=30)  # 60 moves at most

    hose = MoveFirehose(server, table_id, by_seat)
    hose.start()
    deadline = time.monotonic() + WAIT
    while len(hose.acked) < 12 and hose.is_alive() and time.monotonic() < deadline:
        time.sleep(0.002)
    assert len(hose.acked) >= 12, (hose.acked, hose.errors, server.log_tail())
    hose.posting.wait(WAIT)
    time.sleep(random.uniform(0, 0.015))  # somewhere inside a submission
    server.kill()
    hose.join(WAIT)
    assert not hose.is_alive()
    assert not hose.errors, hose.errors
    acked = list(hose.acked)
    assert acked == list(range(1, len(acked) + 1)), acked

    server.start()
    snap = ann.state(server, table_id)
    # Every acknowledged move is there; at most the one in flight landed unacknowledged.
    assert len(acked) <= snap["version"] <= len(acked) + 1, (snap["version"], acked, hose.cut_mid_move)
    assert len(snap["view"]["played"]) == snap["version"]

    done = app_command("replay", str(table_id), database_url=fresh_database)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "matches" in done.stdout

    # And play goes on from there.
    moved = play_one(server, table_id, by_seat)
    assert moved["version"] == snap["version"] + 1
