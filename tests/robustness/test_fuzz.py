"""Bad input never hurts: schemathesis against the app's own OpenAPI schema
(in-process, bounded), malformed websocket frames, oversize bodies.

No answer is a 5xx, and no rejected request changes the table: its state,
version, status, seats and invite stay exactly as they were."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.generation import GenerationMode
from sqlalchemy import select

from app.services.moves import replay
from app.store.models import GameTable, Seat
from tests.conftest import make_settings
from tests.robustness.harness import AppInThread
from tests.support.api import PASSWORD

# Logging out would only end the fuzzing session; everything else is fair game.
SKIP = {"POST /api/auth/logout"}


@pytest.fixture
def h(fresh_database: str) -> Iterator[AppInThread]:
    with AppInThread(make_settings(fresh_database, deadline_poll=0)) as harness:
        yield harness


def _open_table(h: AppInThread) -> tuple[httpx.AsyncClient, int]:
    """ann hosts a started 2-seat Tally table with bob; returns ann's client and the table id."""
    ann, bob = h.client(), h.client()
    for c, name in ((ann, "ann"), (bob, "bob")):
        r = h.request(c, "POST", "/api/auth/register", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
    r = h.request(ann, "POST", "/api/tables", json={"game": "tally", "seats": 2})
    tid = r.json()["id"]
    token = r.json()["invite_url"].rsplit("/", 1)[1]
    assert h.request(bob, "POST", f"/api/tables/{tid}/join", json={"invite": token}).status_code == 200
    assert h.request(ann, "POST", f"/api/tables/{tid}/start", json={}).status_code == 200
    return ann, tid


def _stored(h: AppInThread) -> dict[int, Any]:
    """Everything a request could change, for every table."""

    async def read() -> dict[int, Any]:
        async with h.rt.sm() as db:
            tables = (await db.scalars(select(GameTable).order_by(GameTable.id))).all()
            seats = (await db.scalars(select(Seat).order_by(Seat.table_id, Seat.index))).all()
        by_table: dict[int, Any] = {
            t.id: (t.version, t.status, json.dumps(t.state, sort_keys=True), t.invite_hash, t.rematch_id)
            for t in tables
        }
        for s in seats:
            by_table[s.table_id] = (*by_table[s.table_id], (s.index, s.user_id, s.is_bot, s.prefs))
        return by_table

    return h.run(read)


def test_schemathesis_finds_no_5xx_and_rejections_change_nothing(h: AppInThread) -> None:
    ann, tid = _open_table(h)
    # A second table still waiting for players, so seat, bot and invite calls get past "already started".
    r = h.request(ann, "POST", "/api/tables", json={"game": "tally", "seats": 4})
    waiting = r.json()["id"]
    host_cookies = dict(ann.cookies)
    schema = schemathesis.openapi.from_dict(h.request(ann, "GET", "/openapi.json").json())
    operations = [op.ok() for op in schema.get_all_operations()]
    operations = [op for op in operations if op.label not in SKIP]
    assert len(operations) >= 15
    strategy = st.one_of(
        [op.as_strategy(generation_mode=mode) for op in operations for mode in GenerationMode]
    )
    seen: Counter[str] = Counter()
    statuses: Counter[int] = Counter()

    @settings(
        max_examples=400,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy, aim=st.sampled_from([None, tid, waiting]), seat=st.integers(0, 4))
    def check(case: Any, aim: int | None, seat: int) -> None:
        if aim is not None and "table_id" in case.path_parameters:
            case.path_parameters["table_id"] = aim  # a real table, not a random id
            if "seat" in case.path_parameters:
                case.path_parameters["seat"] = seat
        ann.cookies.clear()
        ann.cookies.update(host_cookies)  # a successful register/login switches users
        kwargs = case.as_transport_kwargs(base_url="http://testserver")
        request: dict[str, Any] = {
            "headers": {k: v for k, v in kwargs.get("headers", {}).items() if k.lower() != "connection"},
            "params": kwargs.get("params") or None,
        }
        if "json" in kwargs:
            request["json"] = kwargs["json"]
        elif "data" in kwargs:
            data = kwargs["data"]
            request["content"] = data if isinstance(data, bytes | str) else json.dumps(data)
        before = _stored(h)
        r = h.request(ann, kwargs["method"], kwargs["url"], **request)
        seen[case.operation.label] += 1
        statuses[r.status_code] += 1
        assert r.status_code < 500, f"{case.operation.label} -> {r.status_code}: {r.text[:300]}"
        if r.status_code >= 400:
            assert _stored(h) == before, f"a rejected {case.operation.label} ({r.status_code}) changed it"

    check()
    assert len(seen) >= len(operations) // 2, seen  # the run really spread over the API
    assert statuses[200] + statuses[201] + statuses[204] > 0 and statuses[422] > 0, statuses
    for table_id in _stored(h):
        ok, _rebuilt, _stored_state = h.run(replay, h.rt, table_id)
        assert ok, f"table {table_id} no longer replays"


def test_malformed_websocket_frames_and_oversize_bodies_change_nothing(h: AppInThread) -> None:
    ann, tid = _open_table(h)
    before = _stored(h)
    sock = h.open_socket(ann, tid, label="ann")
    h.wait_until(lambda: sock.latest() is not None, what="the first view")
    first = sock.latest()

    async def send_junk() -> None:
        from httpx_ws import aconnect_ws

        from tests.conftest import ws_client

        frames: list[str | bytes] = [
            "{not json",
            "[]",
            "null",
            json.dumps({"version": "x", "move": 5}),
            json.dumps({"version": 0, "move": {"action": "play", "card": "t1"}}),  # moves go over HTTP only
            "\x00\ud7ff" * 100,
            "x" * 1_000_000,  # far over the server's limit for a client message
            b"\x00\xff\xfe",
            b"\x89PNG" + bytes(range(256)) * 100,
        ]
        async with ws_client(h.app, ann) as wc, aconnect_ws(f"/ws/tables/{tid}?format=json", wc) as ws:
            json.loads(await ws.receive_text())
            for frame in frames:
                if isinstance(frame, bytes):
                    await ws.send_bytes(frame)
                else:
                    await ws.send_text(frame)
            await ws.send_text("sync")  # the socket still answers: a fresh view
            answer = json.loads(await ws.receive_text())
            assert answer["version"] == 0, answer

    h.run(send_junk)
    assert _stored(h) == before, "a websocket frame changed the table"
    assert sock.error is None

    oversize: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", f"/api/tables/{tid}/moves", {"content": b'{"version":0,"move":"' + b"t" * 70_000 + b'"}'}),
        ("POST", "/api/tables", {"content": b"[" * 100_000}),
        ("PUT", f"/api/tables/{tid}/prefs", {"content": b"{" + b" " * 200_000 + b"}"}),
        ("POST", "/api/auth/login", {"content": json.dumps({"name": "ann", "password": "p" * 100_000})}),
        ("POST", f"/tables/{tid}/play", {"content": b"move=" + b"x" * 100_000}),
    ]
    for method, url, kw in oversize:
        headers = {"content-type": "application/json"} if not url.endswith("/play") else {}
        r = h.request(ann, method, url, headers=headers, **kw)
        assert r.status_code == 413, (url, r.status_code, r.text[:200])
        assert r.json()["message"] == "The request is too large."

    # A body that lies about its length (chunked, no Content-Length) is cut off too.
    async def chunks() -> Any:
        for _ in range(100):
            yield b"x" * 1024

    json_type = {"content-type": "application/json"}
    r = h.request(ann, "POST", f"/api/tables/{tid}/moves", content=chunks(), headers=json_type)
    assert r.status_code == 413, r.text[:200]
    assert _stored(h) == before, "an oversize body changed the table"
    sock.close()
    assert first is not None and first["version"] == 0


def test_a_taken_non_ascii_name_is_a_409_not_a_500(h: AppInThread) -> None:
    """Found by the schemathesis run: SQLite's lower() folds ASCII only, so the
    name check missed an exact non-ASCII duplicate and the insert failed (500)."""
    first, second = h.client(), h.client()
    body = {"name": "Émile", "password": PASSWORD}
    assert h.request(first, "POST", "/api/auth/register", json=body).status_code == 201
    r = h.request(second, "POST", "/api/auth/register", json=body)
    assert r.status_code == 409 and r.json()["code"] == "name_taken", r.text
