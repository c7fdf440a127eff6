"""A model of the move protocol, explored by hypothesis: 2-4 players and a
spectator against the in-process app (HTTP + websockets), on Tally and Realms.

Rules submit legal, illegal, stale, forged, duplicate and simultaneous
duplicate moves, and connect, disconnect and reconnect sockets. After every
step:

- the table's version equals the number of rows in its move log, numbered
  1..version without a gap (an accepted move adds its own row plus any
  automatic moves the platform makes after it, Game.auto_move);
- every rejected move changed nothing (state, version, status, log);
- replay(seed, move log) rebuilds exactly the stored state;
- every connected socket's last received view equals a fresh GET by its viewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import httpx
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from sqlalchemy import select

from app.services.moves import replay
from app.store.models import GameTable, MoveRecord
from tests.conftest import make_settings
from tests.robustness.harness import AppInThread, Socket
from tests.support.api import PASSWORD

pytestmark = pytest.mark.db


@dataclass(frozen=True)
class Stored:
    version: int
    status: str
    state: Any
    to_act: list[int]
    log: list[tuple[int, int, str]]  # (seq, seat, actor)


class ProtocolModel(RuleBasedStateMachine):
    h: ClassVar[AppInThread]
    players: ClassVar[list[httpx.AsyncClient]]
    spectator: ClassVar[httpx.AsyncClient]

    # -- reading the truth ---------------------------------------------------------

    def stored(self) -> Stored:
        async def read() -> Stored:
            async with self.h.rt.sm() as db:
                table = await db.scalar(select(GameTable).where(GameTable.id == self.tid))
                rows = (
                    await db.execute(
                        select(MoveRecord.seq, MoveRecord.seat, MoveRecord.actor)
                        .where(MoveRecord.table_id == self.tid)
                        .order_by(MoveRecord.id)
                    )
                ).all()
            assert table is not None
            return Stored(table.version, table.status, table.state, list(table.to_act or []), list(rows))

        return self.h.run(read)

    def get(self, who: httpx.AsyncClient) -> dict[str, Any]:
        r = self.h.request(who, "GET", f"/api/tables/{self.tid}")
        assert r.status_code == 200, r.text
        return r.json()

    def post_move(self, who: httpx.AsyncClient, body: Any) -> httpx.Response:
        return self.h.request(who, "POST", f"/api/tables/{self.tid}/moves", json=body)

    def rejected(self, r: httpx.Response, before: Stored, codes: set[int]) -> None:
        assert r.status_code in codes, (r.status_code, r.text)
        body = r.json()
        assert body["code"] and body["message"], body
        assert self.stored() == before, "a rejected move changed the table"

    # -- setting up ----------------------------------------------------------------

    @initialize(game=st.sampled_from(["tally", "realms"]), seats=st.integers(2, 4))
    def open_table(self, game: str, seats: int) -> None:
        host, *others = self.players[:seats]
        r = self.h.request(host, "POST", "/api/tables", json={"game": game, "seats": seats})
        assert r.status_code == 201, r.text
        self.tid: int = r.json()["id"]
        token = r.json()["invite_url"].rsplit("/", 1)[1]
        for other in others:
            r = self.h.request(other, "POST", f"/api/tables/{self.tid}/join", json={"invite": token})
            assert r.status_code == 200, r.text
        assert self.h.request(host, "POST", f"/api/tables/{self.tid}/start", json={}).status_code == 200
        self.seated = list(self.players[:seats])
        self.viewers = [*self.seated, self.spectator]  # index len(seated) = the spectator
        self.sockets: dict[int, Socket] = {}
        self.last_accepted: tuple[httpx.AsyncClient, dict[str, Any]] | None = None

    def teardown(self) -> None:
        for sock in getattr(self, "sockets", {}).values():
            sock.close()

    def playing(self) -> bool:
        return self.stored().status == "playing"

    def actor(self, data: st.DataObject) -> tuple[int, dict[str, Any]]:
        seat = data.draw(st.sampled_from(self.stored().to_act), label="seat")
        return seat, self.get(self.seated[seat])

    # -- moves -----------------------------------------------------------------------

    def accept(self, before: Stored, r: httpx.Response, seat: int) -> None:
        assert r.status_code == 200, r.text
        after = self.stored()
        new = after.log[len(before.log) :]
        assert after.log[: len(before.log)] == before.log, "the move log was rewritten"
        assert new and new[0][1:] == (seat, "player"), new
        assert all(actor == "auto" for _seq, _seat, actor in new[1:]), new
        assert after.version == before.version + len(new)
        assert r.json()["version"] == after.version

    @precondition(playing)
    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        seat, mine = self.actor(data)
        move = data.draw(st.sampled_from(mine["legal_moves"]), label="move")
        body = {"version": mine["version"], "move": move}
        before = self.stored()
        self.accept(before, self.post_move(self.seated[seat], body), seat)
        self.last_accepted = (self.seated[seat], body)

    @precondition(playing)
    @rule(data=st.data(), offset=st.sampled_from([-1, 1, 2, -1000]))
    def stale_move(self, data: st.DataObject, offset: int) -> None:
        seat, mine = self.actor(data)
        move = data.draw(st.sampled_from(mine["legal_moves"]), label="move")
        before = self.stored()
        if mine["version"] + offset < 0:
            offset = 1
        r = self.post_move(self.seated[seat], {"version": mine["version"] + offset, "move": move})
        self.rejected(r, before, {409})
        assert r.json()["state"] == self.get(self.seated[seat]), "a 409 carries the fresh state"

    @precondition(lambda self: self.last_accepted is not None)
    @rule()
    def resend_last_accepted_move(self) -> None:
        """A replayed submit (htmx queues sends while disconnected) is harmless."""
        assert self.last_accepted is not None
        who, body = self.last_accepted
        before = self.stored()
        r = self.post_move(who, body)
        self.rejected(r, before, {409} if before.status == "playing" else {400, 409})

    @precondition(playing)
    @rule(data=st.data())
    def double_submit(self, data: st.DataObject) -> None:
        seat, mine = self.actor(data)
        move = data.draw(st.sampled_from(mine["legal_moves"]), label="move")
        body = {"version": mine["version"], "move": move}
        before = self.stored()
        who = self.seated[seat]
        url = f"/api/tables/{self.tid}/moves"
        answers = self.h.together((who, "POST", url, {"json": body}), (who, "POST", url, {"json": body}))
        codes = sorted(a.status_code for a in answers)
        # The loser sees the new version (409), or the game over (400) if the winner ended it.
        finished = self.stored().status == "finished"
        assert codes == [200, 409] or (finished and codes == [200, 400]), [a.text for a in answers]
        self.accept(before, next(a for a in answers if a.status_code == 200), seat)
        self.last_accepted = (who, body)

    KINDS = ("out_of_turn", "bad_move", "malformed", "spectator", "forged")

    @rule(data=st.data(), kind=st.sampled_from(KINDS))
    def illegal_move(self, data: st.DataObject, kind: str) -> None:
        before = self.stored()
        if before.status != "playing":
            r = self.post_move(self.seated[0], {"version": before.version, "move": {"action": "play"}})
            self.rejected(r, before, {400, 422})
            return
        seat, mine = self.actor(data)
        legal = data.draw(st.sampled_from(mine["legal_moves"]), label="move")
        version = mine["version"]
        idle = [i for i in range(len(self.seated)) if i not in before.to_act]
        if kind == "out_of_turn" and idle:
            other = data.draw(st.sampled_from(idle), label="idle seat")
            r = self.post_move(self.seated[other], {"version": version, "move": legal})
            self.rejected(r, before, {400})
        elif kind == "bad_move":
            r = self.post_move(self.seated[seat], {"version": version, "move": {**legal, "card": "no-such"}})
            self.rejected(r, before, {400, 422})
        elif kind == "malformed":
            body = data.draw(
                st.sampled_from(
                    [
                        {"version": f"v{version}", "move": legal},
                        {"version": version, "move": [legal]},
                        {"version": version, "move": {"action": "nonsense"}},
                        {"version": version},
                        {"version": version + 0.5, "move": legal},
                    ]
                ),
                label="body",
            )
            self.rejected(self.post_move(self.seated[seat], body), before, {422})
        elif kind == "spectator":
            self.rejected(self.post_move(self.spectator, {"version": version, "move": legal}), before, {403})
        else:  # an idle player claims the acting seat, or the actor claims another
            others = [i for i in range(len(self.seated)) if i != seat]
            other = data.draw(st.sampled_from(others), label="other seat")
            who, claimed = data.draw(
                st.sampled_from([(self.seated[other], seat), (self.seated[seat], other)]), label="forgery"
            )
            r = self.post_move(who, {"version": version, "move": legal, "seat": claimed})
            self.rejected(r, before, {403})

    # -- sockets ---------------------------------------------------------------------

    @rule(data=st.data())
    def connect(self, data: st.DataObject) -> None:
        free = [i for i in range(len(self.viewers)) if i not in self.sockets]
        if not free:
            return
        i = data.draw(st.sampled_from(free), label="viewer")
        self.sockets[i] = self.h.open_socket(self.viewers[i], self.tid, label=f"viewer {i}")

    @precondition(lambda self: bool(getattr(self, "sockets", None)))
    @rule(data=st.data(), again=st.booleans())
    def disconnect(self, data: st.DataObject, again: bool) -> None:
        i = data.draw(st.sampled_from(sorted(self.sockets)), label="viewer")
        self.sockets.pop(i).close()
        if again:  # a reconnect: it must receive the current view at once
            self.sockets[i] = self.h.open_socket(self.viewers[i], self.tid, label=f"viewer {i} again")

    # -- invariants ------------------------------------------------------------------

    @invariant()
    def version_counts_the_move_log(self) -> None:
        if not hasattr(self, "tid"):
            return
        now = self.stored()
        assert [seq for seq, _seat, _actor in now.log] == list(range(1, now.version + 1)), (
            now.version,
            now.log,
        )

    @invariant()
    def replay_rebuilds_the_stored_state(self) -> None:
        if not hasattr(self, "tid"):
            return
        ok, _rebuilt, _stored = self.h.run(replay, self.h.rt, self.tid)
        assert ok, "replay(seed, move log) differs from the stored state"

    @invariant()
    def sockets_show_what_a_fresh_get_shows(self) -> None:
        if not hasattr(self, "tid"):
            return
        version = self.stored().version
        for i, sock in self.sockets.items():
            self.h.wait_until(
                lambda s=sock: (s.latest() or {}).get("version") == version or s.error is not None,
                what=f"viewer {i}'s socket to show version {version}",
                timeout=3.0,
            )
            assert sock.error is None, sock.error
            assert sock.latest() == self.get(self.viewers[i]), f"viewer {i}'s socket is out of date"


def test_the_move_protocol_holds_under_random_play(fresh_database: str) -> None:
    with AppInThread(make_settings(fresh_database, deadline_poll=0)) as h:
        players = [h.client() for _ in range(4)]
        for i, c in enumerate([*players]):
            r = h.request(c, "POST", "/api/auth/register", json={"name": f"p{i}", "password": PASSWORD})
            assert r.status_code == 201, r.text
        spectator = h.client()
        assert (
            h.request(spectator, "POST", "/api/auth/register", json={"name": "eve", "password": PASSWORD})
        ).status_code == 201

        class Model(ProtocolModel):
            pass

        Model.h, Model.players, Model.spectator = h, players, spectator
        run_state_machine_as_test(
            Model,
            settings=settings(
                max_examples=8,
                stateful_step_count=25,
                deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            ),
        )
