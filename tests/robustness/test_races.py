"""Races across processes: 50 concurrent submitters on one table, spread over
two `serve` processes sharing one PostgreSQL database. Every submitter plays
on its own session; they all read the table and fire their moves at the
same time, round after round, until the game ends.

Exactly one move lands per version, the log has no gap, no answer is a 5xx,
and the table replays from its seed and log."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import require_pg
from tests.support.server import ServerProcess, app_command

pytestmark = [pytest.mark.xdist_group("servers"), pytest.mark.pg_only, pytest.mark.slow]

SUBMITTERS = 50
PASSWORD = "correct horse battery"


async def _round(
    submitters: list[tuple[httpx.AsyncClient, int]], table_id: int, rng: random.Random
) -> list[tuple[int, int, httpx.Response]]:
    """Every submitter reads the table from its own process and submits at once."""
    url = f"/api/tables/{table_id}"

    async def one(client: httpx.AsyncClient) -> tuple[int, int, httpx.Response] | None:
        snap = (await client.get(url)).json()
        if snap["status"] != "playing":
            return None
        # Players to act pick one of their legal moves; the others try anyway (out of turn).
        moves = snap["legal_moves"] or [{"action": "play", "card": "t1"}]
        body = {"version": snap["version"], "move": rng.choice(moves)}
        return snap["version"], snap["seat"], await client.post(f"{url}/moves", json=body)

    answers = await asyncio.gather(*[one(c) for c, _seat in submitters])
    return [a for a in answers if a is not None]


def test_fifty_submitters_on_two_processes_one_move_per_version(fresh_database, tmp_path: Path) -> None:
    require_pg()
    servers = [ServerProcess(fresh_database, log_dir=tmp_path, name=n) for n in ("A", "B")]
    try:
        for s in servers:
            s.start()
        asyncio.run(_play(servers, fresh_database))
    finally:
        for s in servers:
            s.close()
    done = app_command("replay", "1", database_url=fresh_database)
    assert done.returncode == 0 and "matches" in done.stdout, done.stdout + done.stderr


# uvicorn closes an idle keep-alive connection after 5 s; a client that reuses it
# just then gets "server disconnected". Idle connections are dropped sooner here.
LIMITS = httpx.Limits(keepalive_expiry=2.0)


async def _play(servers: list[ServerProcess], database_url: str) -> None:
    rng = random.Random(50)
    a, b = servers
    async with (
        httpx.AsyncClient(base_url=a.base_url, timeout=30, limits=LIMITS) as ann,
        httpx.AsyncClient(base_url=a.base_url, timeout=30, limits=LIMITS) as bob,
    ):
        for c, name in ((ann, "ann"), (bob, "bob")):
            r = await c.post("/api/auth/register", json={"name": name, "password": PASSWORD})
            assert r.status_code == 201, r.text
        r = await ann.post(
            "/api/tables",
            json={"game": "tally", "seats": 2, "options": {"hand_size": 25, "turns_per_seat": 8}},
        )
        table = r.json()
        assert table["id"] == 1
        token = table["invite_url"].rsplit("/", 1)[1]
        assert (await bob.post("/api/tables/1/join", json={"invite": token})).status_code == 200
        assert (await ann.post("/api/tables/1/start", json={})).status_code == 200

        # 25 sessions per player, half of each on either process.
        submitters: list[tuple[httpx.AsyncClient, int]] = [
            (httpx.AsyncClient(base_url=servers[(i // 2) % 2].base_url, timeout=30, limits=LIMITS), i % 2)
            for i in range(SUBMITTERS)
        ]
        # All at once, so no connection idles past the server's keep-alive timeout before the race.
        logins = await asyncio.gather(
            *[
                c.post("/api/auth/login", json={"name": ("ann", "bob")[seat], "password": PASSWORD})
                for c, seat in submitters
            ]
        )
        assert all(r.status_code == 200 for r in logins), [r.text for r in logins if r.status_code != 200]
        try:
            accepted: Counter[int] = Counter()  # submitted version -> number of 200s
            acked: list[int] = []  # versions returned by 200s
            codes: Counter[int] = Counter()
            for _round_no in range(40):
                answers = await _round(submitters, 1, rng)
                if not answers:
                    break
                for version, _seat, r in answers:
                    codes[r.status_code] += 1
                    assert r.status_code < 500, r.text
                    assert r.status_code in (200, 400, 409), r.text
                    if r.status_code == 200:
                        accepted[version] += 1
                        acked.append(r.json()["version"])
            final = (await ann.get("/api/tables/1")).json()
        finally:
            for c, _seat in submitters:
                await c.aclose()
    assert final["status"] == "finished", (final["status"], final["version"], codes)
    doubles = {v: n for v, n in accepted.items() if n != 1}
    assert not doubles, f"several moves accepted against one version: {doubles}"
    assert sorted(acked) == list(range(1, final["version"] + 1)), (sorted(acked), final["version"])
    assert codes[409] > 0, "the submitters never actually raced"
    await _assert_log_has_no_gap(database_url, final["version"])


async def _assert_log_has_no_gap(database_url: str, version: int) -> None:
    import asyncpg

    conn = await asyncpg.connect(database_url.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        seqs = [r["seq"] for r in await conn.fetch("SELECT seq FROM moves WHERE table_id = 1 ORDER BY seq")]
        stored: Any = await conn.fetchval("SELECT version FROM tables WHERE id = 1")
    finally:
        await conn.close()
    assert seqs == list(range(1, version + 1)) and stored == version, (seqs, stored)
