"""Websocket /ws/tables/{id}: the caller's own view after every change.

HTML fragments (htmx out-of-band swaps) by default; `?format=json` pushes the
GET /api/tables/{id} shape. On connect the socket gets the full current view,
so a reconnect needs no replay protocol. Any message from the client asks for
a fresh copy, except `{"visible": true|false}`: the page says whether it is
shown, for "no notice while my table page is visible" (stored in the database,
since the notice worker may run in another process).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.realtime.hub import tick
from app.services import notices, tables
from app.services.errors import ServiceError
from app.services.runtime import Runtime
from app.store.models import GameTable
from app.web.deps import csrf_token, get_rt, optional_user, same_origin
from app.web.render import live_fragment

router = APIRouter()
log = logging.getLogger("feytable.ws")

POLICY_VIOLATION = 1008
MAX_MESSAGE = 4096


class SharedReads:
    """One change wakes every socket of a table at once: they share one read
    of the table instead of each reading it (N sockets, one query), then each
    renders its own seat's view from it.

    A socket may use a read only if that read STARTED after the socket was
    told of the change (ticks from app.realtime.hub), so it can never be
    handed a table older than the change it is to show."""

    def __init__(self) -> None:
        self._reads: dict[int, tuple[int, asyncio.Future[GameTable]]] = {}

    async def table(self, rt: Runtime, table_id: int, since: int) -> GameTable:
        current = self._reads.get(table_id)
        failed = current is not None and current[1].done() and current[1].exception() is not None
        if current is None or current[0] <= since or failed:
            started = tick()
            current = (started, asyncio.ensure_future(tables.get_table(rt, table_id)))
            self._reads[table_id] = current
        return await asyncio.shield(current[1])

    def forget(self, table_id: int) -> None:
        read = self._reads.pop(table_id, None)
        if read is not None and not read[1].done():
            read[1].add_done_callback(lambda f: f.cancelled() or f.exception())


def shared_reads(rt: Runtime) -> SharedReads:
    reads: SharedReads | None = getattr(rt, "_shared_reads", None)
    if reads is None:
        reads = SharedReads()
        rt._shared_reads = reads  # type: ignore[attr-defined]
    return reads


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: int) -> None:
    rt = get_rt(ws)
    origin = ws.headers.get("origin")
    # Browsers send cookies on cross-site handshakes: refuse foreign Origins.
    if origin is not None and not same_origin(ws, origin):
        await ws.close(code=POLICY_VIOLATION, reason="origin")
        return
    user = await optional_user(ws)
    if user is None:
        await ws.close(code=POLICY_VIOLATION, reason="login")
        return
    as_json = ws.query_params.get("format") == "json"
    try:
        await tables.get_table(rt, table_id)
    except ServiceError:
        await ws.close(code=POLICY_VIOLATION, reason="table")
        return
    await ws.accept()
    sub = rt.hub.subscribe(table_id)
    reads = shared_reads(rt)
    wants_sync = asyncio.Event()
    presence = _Presence(rt, user.id, table_id)
    reader = asyncio.create_task(_read(ws, wants_sync, presence.record))
    since = tick()
    try:
        while True:
            await _send_view(ws, await reads.table(rt, table_id, since), user, as_json)
            waiter = asyncio.create_task(sub.wait())
            syncer = asyncio.create_task(wants_sync.wait())
            done, _pending = await asyncio.wait({waiter, syncer, reader}, return_when=asyncio.FIRST_COMPLETED)
            for task in (waiter, syncer):
                if task not in done:
                    task.cancel()
            # A client's request for a fresh copy needs a read that starts now.
            since = tick() if syncer in done else sub.poked_at
            wants_sync.clear()
            if reader in done:
                return
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        sub.close()
        if not rt.hub.watched(table_id):
            reads.forget(table_id)
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await reader
        with contextlib.suppress(Exception):
            await presence.gone()


class _Presence:
    """This socket's page: visible or not (stored only once the page has said so)."""

    def __init__(self, rt: Runtime, user_id: int, table_id: int) -> None:
        self.rt, self.user_id, self.table_id = rt, user_id, table_id
        self.reported = False

    async def record(self, visible: bool) -> None:
        self.reported = True
        await notices.record_presence(self.rt.sm, self.user_id, self.table_id, visible)

    async def gone(self) -> None:
        """The page is closed: not visible any more."""
        if self.reported:
            await notices.record_presence(self.rt.sm, self.user_id, self.table_id, False)


async def _send_view(ws: WebSocket, table: GameTable, user: Any, as_json: bool) -> None:
    snap = tables.snapshot(table, user.id if user else None)
    if as_json:
        await ws.send_text(json.dumps(snap, default=str))
    else:
        await ws.send_text(live_fragment(snap, user, csrf_token(ws)))


async def _read(
    ws: WebSocket, wants_sync: asyncio.Event, presence: Callable[[bool], Awaitable[None]] | None = None
) -> None:
    """Drain client messages; each one (well-formed or not) only asks for a
    resync, except a visibility report, which is recorded."""
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            data = message.get("text") or message.get("bytes") or ""
            if len(data) <= MAX_MESSAGE:
                visible = _visibility(data)
                if visible is not None and presence is not None:
                    await presence(visible)
                else:
                    wants_sync.set()
    except (WebSocketDisconnect, RuntimeError):
        return


def _visibility(data: str | bytes) -> bool | None:
    """`{"visible": true|false}` -> that boolean; anything else -> None."""
    try:
        parsed = json.loads(data)
    except (ValueError, TypeError):
        return None
    if isinstance(parsed, dict) and isinstance(parsed.get("visible"), bool) and len(parsed) <= 3:
        return parsed["visible"]
    return None
