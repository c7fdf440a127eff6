"""The operator CLI: migrate, create-admin, replay (run as real subprocesses)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

from tests.conftest import TALLY_SPEC, make_settings, running_app
from tests.support.api import move, new_table, register, state

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, database_url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url, "EXTRA_GAMES": TALLY_SPEC, "SECRET_KEY": "x" * 32}
    return subprocess.run(
        [sys.executable, "-m", "app", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_migrate_then_create_admin_on_an_empty_database(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.sqlite3'}"
    done = run_cli("migrate", database_url=url)
    assert done.returncode == 0, done.stderr
    assert "up to date" in done.stdout
    done = run_cli("create-admin", "root", "--password", "admin password", database_url=url)
    assert done.returncode == 0, done.stderr
    assert "admin account ready: root" in done.stdout


async def test_admin_made_by_the_cli_can_log_in(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.sqlite3'}"
    assert run_cli("migrate", database_url=url).returncode == 0
    assert run_cli("create-admin", "root", "--password", "admin password", database_url=url).returncode == 0
    async with running_app(make_settings(url)) as app:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://testserver"
        ) as c:
            r = await c.post("/api/auth/login", json={"name": "root", "password": "admin password"})
            assert r.status_code == 200 and r.json()["is_admin"] is True


async def test_replay_says_whether_the_stored_state_is_reproduced(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.sqlite3'}"
    assert run_cli("migrate", database_url=url).returncode == 0
    async with running_app(make_settings(url)) as app:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://testserver"
        ) as c:
            await register(c, "ann")
            table = await new_table(c, bots=1)
            for _ in range(3):
                await app.state.rt.bots.idle()
                snap = await state(c, table["id"])
                if snap["legal_moves"]:
                    await move(c, table["id"], snap["version"], snap["legal_moves"][0])
            await app.state.rt.bots.idle()
    done = run_cli("replay", str(table["id"]), database_url=url)
    assert done.returncode == 0 and "matches" in done.stdout, done.stdout + done.stderr

    # Tamper with the stored state behind the server's back: replay notices.
    import sqlite3

    conn = sqlite3.connect(tmp_path / "cli.sqlite3")
    conn.execute("UPDATE tables SET state = json_set(state, '$.scores[0]', 999) WHERE id = ?", (table["id"],))
    conn.commit()
    conn.close()
    done = run_cli("replay", str(table["id"]), database_url=url)
    assert done.returncode == 1 and "DIFFERS" in done.stdout

    done = run_cli("replay", "4242", database_url=url)
    assert done.returncode == 2 and "no such table" in done.stdout
