"""Acceptance 4: per-event choices, quiet hours (in the user's time zone), "not
while my table page is visible", and the daily digest instead of one notice
per turn. Every notice here goes through real apprise to a local endpoint."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from httpx_ws import aconnect_ws
from sqlalchemy import select

from app.services.delivery import Worker
from app.services.notices import utcnow
from app.store.models import OutboxNotice, Presence
from tests.conftest import ws_client
from tests.notices.helpers import ALL_EVENTS, add_channel, save_settings
from tests.support.api import move, state, two_players

pytestmark = pytest.mark.db


async def _play(player, tid: int) -> None:
    snap = await state(player, tid)
    r = await move(player, tid, snap["version"], snap["legal_moves"][0])
    assert r.status_code == 200, r.text


async def test_a_switched_off_event_sends_nothing_and_the_others_still_arrive(
    app, client, make_client, endpoint
):
    tid, active, idle = await two_players(client, make_client(), options={"turns_per_seat": 1})
    await add_channel(idle, endpoint.apprise_url())
    off_turn = {k: v for k, v in ALL_EVENTS.items() if k != "event_turn"}
    assert (await save_settings(idle, **off_turn, skip_when_visible="on")).status_code == 303
    page = (await idle.get("/settings")).text
    assert 'name="event_turn">' in page and 'name="event_game_over" checked>' in page

    worker = Worker(app.state.rt)
    await _play(active, tid)  # now it is idle's turn: he does not want to hear it
    assert await worker.run_once() == 0
    await _play(idle, tid)  # the last move: game over, which he does want
    assert await worker.run_once() == 1
    posts = endpoint.json_posts()
    assert len(posts) == 1 and posts[0]["title"].startswith("Game over")
    assert f"/tables/{tid}" in posts[0]["message"]


async def test_quiet_hours_hold_a_notice_until_they_end_in_the_users_time_zone(
    app, client, make_client, endpoint
):
    tid, active, idle = await two_players(client, make_client())
    await add_channel(idle, endpoint.apprise_url())
    r = await save_settings(
        idle, **ALL_EVENTS, quiet_start="22", quiet_end="7", timezone="Europe/Paris", skip_when_visible="on"
    )
    assert r.status_code == 303
    await _play(active, tid)

    paris = ZoneInfo("Europe/Paris")
    day = (utcnow() + timedelta(days=1)).date()
    late_evening = datetime(day.year, day.month, day.day, 23, 30, tzinfo=paris).astimezone(UTC)
    next_morning = day + timedelta(days=1)
    wake = datetime(next_morning.year, next_morning.month, next_morning.day, 7, 0, tzinfo=paris).astimezone(
        UTC
    )

    worker = Worker(app.state.rt)
    assert await worker.run_once(late_evening) == 0
    assert await worker.run_once(wake - timedelta(minutes=1)) == 0
    assert endpoint.posts == []
    assert await worker.run_once(wake + timedelta(minutes=1)) == 1
    assert len(endpoint.posts) == 1


async def test_quiet_hours_do_not_hold_a_notice_outside_them(app, client, make_client, endpoint):
    tid, active, idle = await two_players(client, make_client())
    await add_channel(idle, endpoint.apprise_url())
    await save_settings(idle, **ALL_EVENTS, quiet_start="22", quiet_end="7", timezone="Asia/Tokyo")
    await _play(active, tid)
    tokyo = ZoneInfo("Asia/Tokyo")
    day = (utcnow() + timedelta(days=1)).date()
    noon = datetime(day.year, day.month, day.day, 12, 0, tzinfo=tokyo).astimezone(UTC)
    assert await Worker(app.state.rt).run_once(noon) == 1


async def _report(app, ws, visible: bool) -> None:
    """Send the page's visibility report and wait until the server stored it."""
    await ws.send_text(json.dumps({"visible": visible}))
    for _ in range(200):
        async with app.state.rt.sm() as db:
            row = (await db.scalars(select(Presence))).first()
        if row is not None and row.visible == visible:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the visibility report was not stored")


async def test_no_notice_while_my_table_page_is_visible(app, client, make_client, endpoint):
    tid, active, idle = await two_players(client, make_client())
    await add_channel(idle, endpoint.apprise_url())
    worker = Worker(app.state.rt)
    async with ws_client(app, idle) as wc, aconnect_ws(f"/ws/tables/{tid}", wc) as ws:
        await ws.receive_text()  # the initial view
        await _report(app, ws, True)
        await _play(active, tid)
        assert await worker.run_once() == 0  # he is looking at the table: no notice
        async with app.state.rt.sm() as db:
            assert (await db.scalars(select(OutboxNotice.status))).all() == ["skipped"]
        await _play(idle, tid)
        await _report(app, ws, False)  # he switched to another tab
        await _play(active, tid)
        assert await worker.run_once() == 1
    assert len(endpoint.posts) == 1


async def test_a_visible_page_that_went_silent_no_longer_counts(app, client, make_client, endpoint, settings):
    tid, active, idle = await two_players(client, make_client())
    await add_channel(idle, endpoint.apprise_url())
    async with ws_client(app, idle) as wc, aconnect_ws(f"/ws/tables/{tid}", wc) as ws:
        await ws.receive_text()
        await _report(app, ws, True)
        await _play(active, tid)
        # The page stopped reporting (laptop asleep) long enough ago: notify.
        later = utcnow() + timedelta(seconds=settings.presence_seconds + 1)
        assert await Worker(app.state.rt).run_once(later) == 1


async def test_visible_page_still_notified_when_the_user_turned_that_choice_off(
    app, client, make_client, endpoint
):
    tid, active, idle = await two_players(client, make_client())
    await add_channel(idle, endpoint.apprise_url())
    await save_settings(idle, **ALL_EVENTS)  # "not while visible" unchecked
    async with ws_client(app, idle) as wc, aconnect_ws(f"/ws/tables/{tid}", wc) as ws:
        await ws.receive_text()
        await _report(app, ws, True)
        await _play(active, tid)
        assert await Worker(app.state.rt).run_once() == 1


async def test_a_daily_digest_replaces_the_notice_per_turn(app, client, make_client, endpoint):
    tid, active, idle = await two_players(client, make_client())
    await add_channel(idle, endpoint.apprise_url())
    await save_settings(idle, **ALL_EVENTS, digest_hour="8", timezone="UTC", skip_when_visible="on")
    await _play(active, tid)
    worker = Worker(app.state.rt)
    day = (utcnow() + timedelta(days=1)).date()
    at = datetime(day.year, day.month, day.day, 7, 59, tzinfo=UTC)
    assert await worker.run_once(at) == 0
    assert await worker.run_once(at + timedelta(minutes=2)) == 1
    posts = endpoint.json_posts()
    assert len(posts) == 1
    assert posts[0]["title"] == "1 table waits for you"
    assert f"http://testserver/tables/{tid}" in posts[0]["message"]
    # Once a day only.
    assert await worker.run_once(at + timedelta(hours=6)) == 0
    assert len(endpoint.posts) == 1


async def test_closing_the_table_page_counts_as_not_looking(app, client, make_client, endpoint):
    tid, active, idle = await two_players(client, make_client())
    await add_channel(idle, endpoint.apprise_url())
    async with ws_client(app, idle) as wc, aconnect_ws(f"/ws/tables/{tid}", wc) as ws:
        await ws.receive_text()
        await _report(app, ws, True)
    for _ in range(200):  # the server notices the closed socket
        async with app.state.rt.sm() as db:
            if not (await db.scalars(select(Presence.visible))).one():
                break
        await asyncio.sleep(0.01)
    await _play(active, tid)
    assert await Worker(app.state.rt).run_once() == 1
