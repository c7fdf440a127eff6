"""Acceptance 3: a per-turn deadline that passes makes the game's bot play that
seat's turn (fake clock), the log says so, and the other players' vote hands
the seat to a bot for good or ends the table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from app.services.delivery import Worker
from app.services.tables import utcnow
from app.services.turn_deadlines import run_due
from app.store.models import MoveRecord, OutboxNotice
from tests.notices.helpers import add_channel, table_with_deadline
from tests.support.api import csrf_of, move, register, state

pytestmark = pytest.mark.db


async def _players(client, make_client, n: int):
    clients = [client] + [make_client() for _ in range(n - 1)]
    for c, name in zip(clients, ["ann", "bob", "cat", "dan"], strict=False):
        await register(c, name)
    return clients


async def test_a_passed_deadline_makes_the_bot_play_that_seat_and_the_log_says_so(app, client, make_client):
    ann, bob = await _players(client, make_client, 2)
    tid = await table_with_deadline(ann, bob, hours=24)
    rt = app.state.rt
    snap = await state(ann, tid)
    late = snap["to_act"][0]
    late_client = [ann, bob][late]
    assert snap["turn_hours"] == 24 and snap["turn_deadline"] is not None
    hand = (await state(late_client, tid))["view"]["hand"]

    assert await run_due(rt, utcnow() + timedelta(hours=23)) == 0
    assert (await state(ann, tid))["version"] == snap["version"]

    assert await run_due(rt, utcnow() + timedelta(hours=25)) == 1
    after = await state(late_client, tid)
    # Tally's bot plays its highest card: the game's own bot made this move.
    assert after["view"]["played"] == [max(hand, key=lambda c: int(c[1:]))]
    assert after["to_act"] == [1 - late]
    async with rt.sm() as db:
        record = (await db.scalars(select(MoveRecord).where(MoveRecord.table_id == tid))).one()
    assert (record.actor, record.seat) == ("deadline", late)
    name = ["ann", "bob"][late]
    assert any("Time ran out" in n["text"] for n in after["notes"])
    page = await ann.get(f"/tables/{tid}")
    assert f"Time ran out for {name}: the bot played this turn for them." in page.text

    # The next seat's own 24 hours start now: nothing is due an hour later.
    assert await run_due(rt, utcnow() + timedelta(hours=1)) == 0


async def test_a_reminder_goes_out_once_when_a_quarter_of_the_time_is_left(
    app, client, make_client, endpoint
):
    ann, bob = await _players(client, make_client, 2)
    for c in (ann, bob):
        await add_channel(c, endpoint.apprise_url())
    tid = await table_with_deadline(ann, bob, hours=24)
    rt = app.state.rt
    worker = Worker(rt)
    now = utcnow()
    await worker.run_once(now)
    endpoint.posts.clear()  # channels were added before the start: the "your turn" went out

    assert await run_due(rt, now + timedelta(hours=17)) == 0
    assert await worker.run_once(now + timedelta(hours=17)) == 0
    for _ in range(2):  # a second watcher pass does not repeat it
        assert await run_due(rt, now + timedelta(hours=19)) == 0
    assert await worker.run_once(now + timedelta(hours=19)) == 1
    posts = endpoint.json_posts()
    assert len(posts) == 1
    assert "Reminder" in posts[0]["title"] and f"/tables/{tid}" in posts[0]["message"]
    assert "bot plays for you" in posts[0]["message"]


async def test_the_other_player_votes_to_hand_the_absent_seat_to_a_bot(app, client, make_client):
    ann, bob = await _players(client, make_client, 2)
    tid = await table_with_deadline(ann, bob, hours=12)
    rt = app.state.rt
    late = (await state(ann, tid))["to_act"][0]
    late_client, other = [ann, bob][late], [ann, bob][1 - late]

    # No vote before the seat has missed a deadline.
    r = await other.post(f"/api/tables/{tid}/votes", json={"seat": late, "choice": "bot"})
    assert r.status_code == 400 and r.json()["code"] == "no_missed_deadline"

    assert await run_due(rt, utcnow() + timedelta(hours=13)) == 1
    assert (await state(other, tid))["votable"] == [late]
    # The absent player cannot vote about his own seat.
    r = await late_client.post(f"/api/tables/{tid}/votes", json={"seat": late, "choice": "end"})
    assert r.status_code == 422

    # The table page offers the vote to the other player, not to the absent one.
    assert "Hand the seat to a bot" not in (await late_client.get(f"/tables/{tid}")).text
    page = await other.get(f"/tables/{tid}")
    assert "missed a deadline" in page.text and "Hand the seat to a bot" in page.text
    r = await other.post(
        f"/tables/{tid}/vote", data={"seat": str(late), "choice": "bot", "csrf_token": csrf_of(page.text)}
    )
    assert r.status_code == 303
    snap = await state(other, tid)
    assert snap["seats"][late]["is_bot"] and snap["seats"][late]["name"] is None
    assert any("a bot now plays" in n["text"] for n in snap["notes"])
    # The absent player has left the seat: the bot plays it from now on.
    assert (await state(late_client, tid))["seat"] is None
    mine = await state(other, tid)
    if mine["to_act"] == [1 - late]:
        assert (await move(other, tid, mine["version"], mine["legal_moves"][0])).status_code == 200
    await rt.bots.idle()
    async with rt.sm() as db:
        actors = (
            await db.scalars(
                select(MoveRecord.actor).where(MoveRecord.table_id == tid, MoveRecord.seat == late)
            )
        ).all()
    assert "bot" in actors


async def test_a_majority_of_the_other_players_ends_the_table(app, client, make_client, endpoint):
    ann, bob, cat = await _players(client, make_client, 3)
    tid = await table_with_deadline(ann, bob, cat, hours=48)
    rt = app.state.rt
    late = (await state(ann, tid))["to_act"][0]
    clients = [ann, bob, cat]
    voters = [c for i, c in enumerate(clients) if i != late]
    await add_channel(clients[late], endpoint.apprise_url())
    assert await run_due(rt, utcnow() + timedelta(hours=49)) == 1

    # One of two other players is not a majority.
    r = await voters[0].post(f"/api/tables/{tid}/votes", json={"seat": late, "choice": "end"})
    assert r.json() == {"outcome": None}
    snap = await state(voters[1], tid)
    assert snap["status"] == "playing" and snap["votes"] == {str(late): {"bot": 0, "end": 1}}
    # Changing one's mind is allowed; the second vote decides.
    r = await voters[1].post(f"/api/tables/{tid}/votes", json={"seat": late, "choice": "end"})
    assert r.json() == {"outcome": "end"}
    snap = await state(voters[0], tid)
    assert snap["status"] == "finished" and snap["to_act"] == [] and snap["result"] is None
    assert any("ended" in n["text"] for n in snap["notes"])
    page = await voters[0].get(f"/tables/{tid}")
    assert "By vote, the table was ended." in page.text
    # Everyone at the table hears that it is over (here: the absent player's channel).
    async with rt.sm() as db:
        events = (await db.scalars(select(OutboxNotice.event))).all()
    assert "game_over" in events


def test_a_server_process_plays_an_overdue_seat_by_itself(tmp_path):
    """The watcher runs in the server's lifespan: no test drives it here. The
    turn is made overdue by moving its start 25 hours back in the database."""
    import sqlite3
    import time

    import httpx

    from tests.support.server import ServerProcess

    path = tmp_path / "process.sqlite3"
    with ServerProcess(
        f"sqlite+aiosqlite:///{path}", log_dir=tmp_path, env={"TURN_DEADLINE_POLL": "0.2"}
    ) as server:
        ann = httpx.Client(base_url=server.base_url, timeout=10)
        bob = httpx.Client(base_url=server.base_url, timeout=10)
        try:
            for c, name in ((ann, "ann"), (bob, "bob")):
                assert c.post(
                    "/api/auth/register", json={"name": name, "password": "a long password"}
                ).is_success
            t = ann.post("/api/tables", json={"game": "tally", "seats": 2, "turn_hours": 24}).json()
            token = t["invite_url"].rsplit("/", 1)[1]
            assert bob.post(f"/api/tables/{t['id']}/join", json={"invite": token}).is_success
            assert ann.post(f"/api/tables/{t['id']}/start", json={}).is_success
            late = ann.get(f"/api/tables/{t['id']}").json()["to_act"][0]
            with sqlite3.connect(path, timeout=30) as con:
                con.execute("UPDATE tables SET turn_started_at = datetime('now', '-25 hours')")
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                snap = ann.get(f"/api/tables/{t['id']}").json()
                if snap["version"] == 1:
                    break
                time.sleep(0.1)
            assert snap["version"] == 1 and snap["to_act"] == [1 - late]
            assert [n["params"]["seat"] for n in snap["notes"]] == [late]
        finally:
            ann.close()
            bob.close()


async def test_the_absent_player_hears_that_the_bot_played_for_him(app, client, make_client, endpoint):
    from tests.notices.helpers import ALL_EVENTS, save_settings

    ann, bob = await _players(client, make_client, 2)
    tid = await table_with_deadline(ann, bob, hours=24)
    rt = app.state.rt
    late = (await state(ann, tid))["to_act"][0]
    late_client = [ann, bob][late]
    await add_channel(late_client, endpoint.apprise_url())
    assert await run_due(rt, utcnow() + timedelta(hours=25)) == 1
    assert await Worker(rt).run_once() == 1
    posts = endpoint.json_posts()
    assert posts[0]["title"].startswith("Your time ran out") and f"/tables/{tid}" in posts[0]["message"]

    # With deadline notices switched off, the next time it happens he hears nothing.
    no_reminders = {k: v for k, v in ALL_EVENTS.items() if k != "event_reminder"}
    await save_settings(late_client, **no_reminders)
    other = [ann, bob][1 - late]
    snap = await state(other, tid)
    await move(other, tid, snap["version"], snap["legal_moves"][0])
    assert await run_due(rt, utcnow() + timedelta(hours=25)) == 1
    await Worker(rt).run_once(utcnow() + timedelta(hours=26))
    later = [p["title"] for p in endpoint.json_posts()[1:]]
    assert not [t for t in later if t.startswith("Your time ran out")], later
