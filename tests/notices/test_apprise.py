"""Acceptance 1: a move that makes it my turn reaches my apprise URL exactly
once (a real apprise json:// delivery to a local HTTP endpoint), with the table
link and nothing hidden; a worker killed at the dangerous moment and restarted
neither loses nor repeats it."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from app.services.delivery import Worker
from app.services.notices import utcnow
from app.store.models import GameTable, NoticeChannel, OutboxNotice
from tests.notices.helpers import add_channel
from tests.support.api import move, state, two_players
from tests.support.server import ROOT, server_env

pytestmark = pytest.mark.db

CARD = re.compile(r"\bt\d+\b")  # Tally's card ids


async def _every_card(rt, table_id: int) -> set[str]:
    async with rt.sm() as db:
        table = await db.get(GameTable, table_id)
        st = table.state
    return set(st["deck"]) | {c for hand in st["hands"] for c in hand} | set(st["played"])


async def test_my_turn_sends_one_post_with_the_link_and_no_hidden_card(app, client, make_client, endpoint):
    tid, active, idle = await two_players(client, make_client())
    r = await add_channel(idle, endpoint.apprise_url())
    assert r.status_code == 303, r.text
    worker = Worker(app.state.rt)
    assert await worker.run_once() == 0  # the game started before the channel existed

    snap = await state(active, tid)
    assert (await move(active, tid, snap["version"], snap["legal_moves"][0])).status_code == 200
    assert await worker.run_once() == 1

    posts = endpoint.json_posts()
    assert len(posts) == 1
    text = f"{posts[0]['title']}\n{posts[0]['message']}"
    assert f"http://testserver/tables/{tid}" in text
    assert "your turn" in text.lower()
    cards = await _every_card(app.state.rt, tid)
    assert not [c for c in cards if re.search(rf"\b{c}\b", text)], text
    assert not CARD.search(text)

    # Later passes, and another worker (a restarted process), send nothing more.
    assert await worker.run_once() == 0
    assert await Worker(app.state.rt).run_once(utcnow() + timedelta(hours=1)) == 0
    assert len(endpoint.posts) == 1


async def test_the_player_who_just_moved_gets_no_notice(app, client, make_client, endpoint):
    tid, active, idle = await two_players(client, make_client())
    assert (await add_channel(active, endpoint.apprise_url("mover"))).status_code == 303
    snap = await state(active, tid)
    await move(active, tid, snap["version"], snap["legal_moves"][0])
    assert await Worker(app.state.rt).run_once() == 0
    assert endpoint.posts == []


async def test_a_failing_endpoint_is_retried_with_backoff_and_the_error_shows_in_settings(
    app, client, make_client, endpoint
):
    tid, active, idle = await two_players(client, make_client())
    await add_channel(idle, endpoint.apprise_url())
    endpoint.status = 500
    snap = await state(active, tid)
    await move(active, tid, snap["version"], snap["legal_moves"][0])
    worker = Worker(app.state.rt)
    now = utcnow()
    assert await worker.run_once(now) == 0
    assert len(endpoint.posts) == 1
    page = await idle.get("/settings")
    assert "Last delivery failed" in page.text and "500" in page.text
    # Not again before the backoff has passed; then it goes through once.
    assert await worker.run_once(now + timedelta(seconds=5)) == 0
    assert len(endpoint.posts) == 1
    endpoint.status = 200
    assert await worker.run_once(now + timedelta(seconds=31)) == 1
    assert len(endpoint.posts) == 2
    assert await worker.run_once(now + timedelta(hours=1)) == 0
    assert len(endpoint.posts) == 2
    assert "last sent" in (await idle.get("/settings")).text


def _start_worker(database_url: str, mode: str, marker: Path, offset: float = 0.0) -> subprocess.Popen[bytes]:
    env = server_env(database_url, 0)
    with open(marker.with_suffix(".log"), "wb") as log:  # the child keeps its own copy
        return subprocess.Popen(
            [sys.executable, "-m", "tests.notices.worker_proc", mode, str(marker), str(offset)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


async def _wait_for(marker: Path, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> str:
    """Wait without blocking the app's event loop (its own tasks hold SQLite
    transactions for a moment and must be able to finish them)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if marker.exists() and marker.read_text():
            return marker.read_text()
        assert proc.poll() is None, f"worker exited with {proc.returncode}: {_log(marker)}"
        await asyncio.sleep(0.05)
    raise AssertionError(f"the worker never got there: {_log(marker)}")


def _log(marker: Path) -> str:
    path = marker.with_suffix(".log")
    return path.read_text(errors="replace")[-3000:] if path.exists() else "(no log)"


def _kill(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


async def test_a_worker_killed_between_claim_and_send_neither_loses_nor_repeats(
    app, client, make_client, endpoint, settings, tmp_path
):
    tid, active, idle = await two_players(client, make_client())
    await add_channel(idle, endpoint.apprise_url())
    snap = await state(active, tid)
    await move(active, tid, snap["version"], snap["legal_moves"][0])
    lease = settings.delivery_lease

    # 1. A worker process claims the notice, and is SIGKILLed before it sends.
    marker = tmp_path / "first"
    first = _start_worker(settings.database_url, "pause-after-claim", marker)
    try:
        assert (await _wait_for(marker, first)).startswith("claimed")
    finally:
        _kill(first)
    assert endpoint.posts == []
    async with app.state.rt.sm() as db:
        row = (await db.scalars(select(OutboxNotice))).one()
        assert row.status == "pending" and row.claimed_by is not None and row.sent_at is None

    # 2. Restarted while the dead worker's claim still holds: nothing is sent yet
    #    (the claim protects a slow worker from a duplicate).
    marker = tmp_path / "second"
    second = _start_worker(settings.database_url, "once", marker)
    try:
        assert (await _wait_for(marker, second)) == "sent 0"
    finally:
        _kill(second)
    assert endpoint.posts == []

    # 3. Once the claim has run out, a restarted worker sends it: not lost.
    marker = tmp_path / "third"
    third = _start_worker(settings.database_url, "once", marker, offset=lease + 1)
    try:
        assert (await _wait_for(marker, third)) == "sent 1"
    finally:
        _kill(third)  # killed after the outcome was committed
    assert len(endpoint.posts) == 1
    assert f"/tables/{tid}" in endpoint.json_posts()[0]["message"]

    # 4. Killed after sending, restarted much later: not repeated.
    marker = tmp_path / "fourth"
    fourth = _start_worker(settings.database_url, "once", marker, offset=10 * lease)
    try:
        assert (await _wait_for(marker, fourth)) == "sent 0"
    finally:
        _kill(fourth)
    assert len(endpoint.posts) == 1
    async with app.state.rt.sm() as db:
        row = (await db.scalars(select(OutboxNotice))).one()
        assert row.status == "sent" and row.attempts == 1
        assert (await db.scalars(select(NoticeChannel))).one().last_error is None


async def test_the_deliver_command_sends_queued_notices_once(app, client, make_client, endpoint, settings):
    from tests.support.server import app_command

    tid, active, idle = await two_players(client, make_client())
    await add_channel(idle, endpoint.apprise_url())
    snap = await state(active, tid)
    await move(active, tid, snap["version"], snap["legal_moves"][0])
    await app.state.rt.bots.idle()
    # In a thread: the app's own tasks must be able to finish their transactions meanwhile.
    done = await asyncio.to_thread(app_command, "deliver", "--once", database_url=settings.database_url)
    assert done.returncode == 0, done.stderr
    assert "1 notices sent" in done.stdout
    done = await asyncio.to_thread(app_command, "deliver", "--once", database_url=settings.database_url)
    assert "0 notices sent" in done.stdout
    assert len(endpoint.posts) == 1


async def test_delivered_notices_are_purged_after_a_month(app, client, make_client, endpoint):
    tid, active, idle = await two_players(client, make_client())
    await add_channel(idle, endpoint.apprise_url())
    snap = await state(active, tid)
    await move(active, tid, snap["version"], snap["legal_moves"][0])
    assert await Worker(app.state.rt).run_once() == 1

    async def rows() -> int:
        async with app.state.rt.sm() as db:
            return len((await db.scalars(select(OutboxNotice.id))).all())

    await Worker(app.state.rt).run_once(utcnow() + timedelta(days=29))
    assert await rows() == 1
    await Worker(app.state.rt).run_once(utcnow() + timedelta(days=31))
    assert await rows() == 0


async def test_two_workers_at_once_send_each_notice_once(app, client, endpoint):
    """Two senders (as in two server processes) claim with SKIP LOCKED on
    PostgreSQL and under SQLite's write lock: never the same notice twice."""
    from app.services import notices
    from tests.support.api import register

    await register(client, "ann")
    await add_channel(client, endpoint.apprise_url())
    rt = app.state.rt
    async with rt.sm() as db:
        user_id = (await db.scalars(select(NoticeChannel.user_id))).one()
    for _ in range(6):
        async with rt.sm.begin() as db:
            assert await notices.test_notice(db, rt.settings, user_id) == 1
    sent = await asyncio.gather(Worker(rt).run_once(), Worker(rt).run_once())
    assert sum(sent) == 6
    assert len(endpoint.posts) == 6
