"""The delivery worker: sends queued notices (app.services.notices) to apprise
URLs and browser push services, with retries, and survives crashes.

Why this order (claim, send, mark sent)
---------------------------------------
Exactly-once delivery to an outside HTTP endpoint cannot be promised by the
sender alone: between "the endpoint accepted the POST" and "our database knows
it" there is always a moment in which a crash leaves the truth unknown. What we
can choose is which side of that moment a crash falls on, and how short it is.

1. **Claim** (one short transaction): take due rows (`FOR UPDATE SKIP LOCKED` on
   PostgreSQL, so workers in several processes never take the same row; on
   SQLite `BEGIN IMMEDIATE` serialises the claim), write a lease (our worker id,
   valid `delivery_lease` seconds) and commit. Quiet hours, "page visible" and
   stale turns are decided here too, without any network I/O.
2. **Send** outside any transaction (apprise in a thread; nobody's moves wait
   on a slow chat server, and SQLite's single write lock is not held).
3. **Mark sent** (one short transaction): only if the row still carries our
   lease (the idempotency guard: a worker whose lease ran out and was taken
   over never overwrites the new owner's outcome).

A worker killed after step 1 and before step 2 leaves a leased, unsent row: once
the lease runs out, the next worker sends it (nothing lost). A worker killed
after step 3 leaves a row marked sent, which no worker ever sends again (nothing
repeated). The only window that can repeat a notice is between the endpoint's
answer and the commit of step 3: a few milliseconds, and we prefer a rare
double "your turn" to a lost one that stalls a game for a day. Web Push sends
carry a `Topic` header (the notice id) so a push service replaces rather than
stacks a repeat.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, or_, select

from app.services import notices
from app.services.notices import as_utc, utcnow
from app.store.models import GameTable, NoticeChannel, OutboxNotice

if TYPE_CHECKING:
    from app.services.runtime import Runtime

log = logging.getLogger("feytable.delivery")

MAX_ATTEMPTS = 8
BATCH = 20
# Delivered and skipped notices are kept a while (their dedupe keys stop a
# repeat), then purged so the outbox does not grow forever.
KEEP_DONE = timedelta(days=30)
PURGE_EVERY = timedelta(hours=1)
# Events that are about one table: skipped while the user looks at that table.
TABLE_EVENTS = frozenset({"turn", "reminder", "game_over", "missed"})


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min, … capped at 6 h."""
    return timedelta(seconds=min(30 * 2 ** max(attempts - 1, 0), 6 * 3600))


@dataclass(frozen=True)
class Claimed:
    """What a worker needs to send one notice, copied out of the claim transaction."""

    id: int
    kind: str
    url: str
    keys: dict[str, Any] | None
    title: str
    body: str
    link: str
    event: str
    table_id: int | None


class Worker:
    """One sender. `worker_id` names its leases; a restarted process gets a new one."""

    def __init__(self, rt: Runtime, worker_id: str | None = None) -> None:
        self.rt = rt
        self.worker_id = worker_id or secrets.token_hex(8)
        self._purged_at: datetime | None = None

    async def run_once(
        self, now: datetime | None = None, on_claimed: Callable[[Claimed], Awaitable[None]] | None = None
    ) -> int:
        """Queue due digests, then send every due notice; return how many were sent.

        `on_claimed` runs after a claim is committed and before its send (tests
        use it to kill the worker at exactly that moment)."""
        now = now or utcnow()
        await notices.queue_digests(self.rt.sm, self.rt.settings, now)
        await self._purge(now)
        sent = 0
        for _ in range(100):  # bounded: a pass never runs forever
            batch = await self._claim(now)
            for item in batch:
                if on_claimed is not None:
                    await on_claimed(item)
                error = await self._send(item)
                if await self._finish(item, error, now) and error is None:
                    sent += 1
            if len(batch) < BATCH:
                break
        return sent

    async def _purge(self, now: datetime) -> None:
        if self._purged_at is not None and now - self._purged_at < PURGE_EVERY:
            return
        self._purged_at = now
        async with self.rt.sm.begin() as db:
            await db.execute(
                delete(OutboxNotice).where(
                    OutboxNotice.status.in_(("sent", "skipped", "failed")),
                    OutboxNotice.next_try_at < now - KEEP_DONE,
                )
            )

    async def _claim(self, now: datetime) -> list[Claimed]:
        rt = self.rt
        lease_end = now + timedelta(seconds=rt.settings.delivery_lease)
        out: list[Claimed] = []
        async with rt.sm.begin() as db:
            rows = (
                await db.scalars(
                    select(OutboxNotice)
                    .where(
                        OutboxNotice.status == "pending",
                        OutboxNotice.next_try_at <= now,
                        or_(OutboxNotice.claimed_until.is_(None), OutboxNotice.claimed_until <= now),
                    )
                    .order_by(OutboxNotice.next_try_at, OutboxNotice.id)
                    .limit(BATCH)
                    .with_for_update(skip_locked=True)
                )
            ).all()
            for row in rows:
                decision = await self._decide(db, row, now)
                if decision is not None:
                    continue
                channel = await db.get(NoticeChannel, row.channel_id)
                if channel is None:  # removed meanwhile (the cascade will drop the row)
                    row.status = "skipped"
                    continue
                row.claimed_by, row.claimed_until = self.worker_id, lease_end
                out.append(
                    Claimed(
                        id=row.id,
                        kind=channel.kind,
                        url=channel.url,
                        keys=dict(channel.keys) if channel.keys else None,
                        title=row.title,
                        body=row.body,
                        link=row.link,
                        event=row.event,
                        table_id=row.table_id,
                    )
                )
        return out

    async def _decide(self, db: Any, row: OutboxNotice, now: datetime) -> str | None:
        """Hold or drop a notice that should not go out now; None = send it."""
        prefs = await notices.settings_of(db, row.user_id)
        if row.event in TABLE_EVENTS and row.table_id is not None:
            if prefs.skip_when_visible and await notices.page_visible(
                db, self.rt.settings, row.user_id, row.table_id, now
            ):
                row.status = "skipped"  # he is looking at the table right now
                return "visible"
            if row.event in ("turn", "reminder") and not await _still_his_turn(db, row):
                row.status = "skipped"  # he has played meanwhile: old news
                return "stale"
        wake = notices.quiet_until(prefs, now)
        if wake is not None and row.event != "test":
            row.next_try_at = wake  # held, not dropped: sent when quiet hours end
            return "quiet"
        return None

    async def _send(self, item: Claimed) -> str | None:
        """Send one notice; None on success, else the error as the user should see it."""
        try:
            if item.kind == "apprise":
                return await asyncio.to_thread(_send_apprise, item.url, item.title, item.body)
            if item.kind == "webpush":
                private, _public = await notices.vapid_keys(self.rt.sm)
                return await asyncio.to_thread(_send_webpush, item, private, self.rt.settings.push_contact)
            return f"unknown channel kind {item.kind!r}"
        except Exception as exc:  # a channel must never take the worker down
            log.exception("delivery of notice %s failed", item.id)
            return f"{type(exc).__name__}: {exc}"[:500]

    async def _finish(self, item: Claimed, error: str | None, now: datetime) -> bool:
        """Record the outcome, if the row is still ours; return whether it was."""
        async with self.rt.sm.begin() as db:
            row = await db.get(OutboxNotice, item.id, with_for_update=True)
            if row is None or row.status != "pending" or row.claimed_by != self.worker_id:
                log.warning("notice %s: lease lost before its outcome was recorded", item.id)
                return False
            channel = await db.get(NoticeChannel, row.channel_id)
            row.claimed_by = row.claimed_until = None
            row.attempts += 1
            if error is None:
                row.status, row.sent_at, row.error = "sent", now, None
                if channel is not None:  # working again: the old error is history
                    channel.last_ok_at, channel.last_error = now, None
                return True
            row.error = error[:500]
            if channel is not None:
                channel.last_error, channel.last_error_at = error[:500], now
            if error.startswith(GONE):
                row.status = "failed"
                if channel is not None:  # the browser dropped this subscription
                    await db.delete(channel)
            elif row.attempts >= MAX_ATTEMPTS:
                row.status = "failed"
            else:
                row.next_try_at = now + backoff(row.attempts)
            return True


async def _still_his_turn(db: Any, row: OutboxNotice) -> bool:
    table = await db.get(GameTable, row.table_id)
    if table is None or table.status != "playing":
        return False
    mine = {s.index for s in table.seats if s.user_id == row.user_id}
    return bool(mine & set(table.to_act or []))


GONE = "gone:"


def _send_apprise(url: str, title: str, body: str) -> str | None:
    """One apprise notification (blocking: run in a thread)."""
    apprise = notices.load_apprise()

    sender = apprise.Apprise()
    if not sender.add(url):
        return "apprise does not understand this address"
    with apprise.LogCapture(level=logging.WARNING) as logs:
        ok = sender.notify(title=title, body=body)
        captured = logs.getvalue()
    if ok:
        return None
    lines = [line.split(" - ", 2)[-1] for line in captured.strip().splitlines() if line.strip()]
    return (lines[-1] if lines else "the service refused the notice")[:500]


def _send_webpush(item: Claimed, private_key: str, contact: str) -> str | None:
    """One Web Push message, encrypted for the subscription (blocking)."""
    from pywebpush import WebPushException, webpush

    payload = json.dumps({"title": item.title, "body": item.body, "url": item.link})
    try:
        webpush(
            {"endpoint": item.url, "keys": item.keys or {}},
            data=payload,
            vapid_private_key=private_key,
            vapid_claims={"sub": contact},
            timeout=10,
            ttl=24 * 3600,
            headers={"Topic": f"n{item.id}"},
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in (404, 410):
            return f"{GONE} the browser's subscription has expired ({status})"
        return f"push service answered {status}" if status else str(exc)[:500]
    return None


__all__ = ["Claimed", "Worker", "as_utc", "backoff"]
