"""Shared fixtures: a fresh database per test on SQLite and PostgreSQL, the app
with its lifespan, HTTP and websocket clients.

Tests marked `db` run once per database. PostgreSQL is at $FEYTABLE_TEST_PG
(default postgresql://postgres@127.0.0.1:5432/test); when CI=true an
unreachable PostgreSQL fails the run instead of skipping.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.games import registry
from tests.support.tally import GAME as TALLY

registry.register(TALLY)

PG_ADMIN_URL = os.environ.get("FEYTABLE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
TALLY_SPEC = "tests.support.tally:GAME"


def pg_reachable() -> bool:
    import asyncpg

    async def probe() -> bool:
        try:
            conn = await asyncpg.connect(PG_ADMIN_URL, timeout=3)
        except Exception:
            return False
        await conn.close()
        return True

    return asyncio.run(probe())


_PG_OK: bool | None = None


def require_pg() -> None:
    global _PG_OK
    if _PG_OK is None:
        _PG_OK = pg_reachable()
    if not _PG_OK:
        message = f"PostgreSQL is not reachable at {PG_ADMIN_URL}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + " (CI=true: this is a failure, not a skip)", pytrace=False)
        pytest.skip(message)


async def _pg_exec(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN_URL)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


_templates: dict[str, str] = {}


def _migrated_pg_template() -> str:
    """One migrated template database per worker; each test copies it."""
    from app.__main__ import migrate

    if "pg" not in _templates:
        # Unique per test process: runs side by side never share a template.
        name = f"feytable_tmpl_{_worker()}_{uuid.uuid4().hex[:8]}"
        asyncio.run(_pg_exec(f'CREATE DATABASE "{name}"'))
        atexit.register(lambda: asyncio.run(_pg_exec(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')))
        migrate(_pg_url(name))
        _templates["pg"] = name
    return _templates["pg"]


def _pg_url(dbname: str, driver: str = "postgresql+asyncpg") -> str:
    base = PG_ADMIN_URL.rsplit("/", 1)[0].split("://", 1)[1]
    return f"{driver}://{base}/{dbname}"


def _migrated_sqlite_template(tmp_root: Path) -> Path:
    from app.__main__ import migrate

    if "sqlite" not in _templates:
        path = tmp_root / f"template-{_worker()}.sqlite3"
        migrate(f"sqlite+aiosqlite:///{path}")
        _templates["sqlite"] = str(path)
    return Path(_templates["sqlite"])


@pytest.fixture
def fresh_database(
    request: pytest.FixtureRequest, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A migrated, empty database URL of the kind the test is parametrised with."""
    kind = getattr(request, "param", "sqlite")
    if kind == "postgres":
        require_pg()
        template = _migrated_pg_template()
        name = f"feytable_t_{uuid.uuid4().hex[:12]}"
        asyncio.run(_pg_exec(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
        try:
            yield _pg_url(name)
        finally:
            asyncio.run(_pg_exec(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    else:
        import shutil

        template = _migrated_sqlite_template(tmp_path_factory.getbasetemp())
        path = tmp_path / "feytable.sqlite3"
        shutil.copy(template, path)
        yield f"sqlite+aiosqlite:///{path}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Tests marked `db` run on both databases; `pg_only` on PostgreSQL only;
    others on SQLite only."""
    if "fresh_database" not in metafunc.fixturenames:
        return
    if metafunc.definition.get_closest_marker("pg_only"):
        kinds = ["postgres"]
    elif metafunc.definition.get_closest_marker("db"):
        kinds = ["sqlite", "postgres"]
    else:
        kinds = ["sqlite"]
    metafunc.parametrize("fresh_database", kinds, indirect=True)


def make_settings(database_url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": database_url,
        "secret_key": "test-secret-key-not-for-production",
        "base_url": "http://testserver",
        "bot_delay": 0,
        "extra_games": TALLY_SPEC,
        "login_attempts_per_minute": 1000,
        # Background senders and watchers stay off in the in-process app: tests
        # that are about them drive them by hand (or start a server process).
        "delivery_poll": 0,
        "turn_deadline_poll": 0,
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def settings(fresh_database: str) -> Settings:
    return make_settings(fresh_database)


@asynccontextmanager
async def running_app(settings: Settings) -> AsyncIterator[Any]:
    from app.web.app import create_app

    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[Any]:
    """The app with its lifespan. On the way out, every table the test started
    must replay from seed + move log to exactly its stored state."""
    async with running_app(settings) as app:
        yield app
        await app.state.rt.bots.stop()
        await assert_every_table_replays(app.state.rt)


async def assert_every_table_replays(rt: Any) -> None:
    from sqlalchemy import select

    from app.services.moves import replay
    from app.store.models import GameTable

    async with rt.sm() as db:
        ids = (await db.scalars(select(GameTable.id).where(GameTable.state.is_not(None)))).all()
    for table_id in ids:
        ok, rebuilt, stored = await replay(rt, table_id)
        assert ok, f"table {table_id} does not replay to its stored state"


def client_for(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


@asynccontextmanager
async def ws_client(app: Any, like: httpx.AsyncClient) -> AsyncIterator[httpx.AsyncClient]:
    """A client that can open websockets in-process, logged in as `like`.

    (httpx-ws's transport holds a task group: open and close it inside the
    test body, never across fixture setup and teardown.)"""
    from httpx_ws.transport import ASGIWebSocketTransport

    async with httpx.AsyncClient(
        transport=ASGIWebSocketTransport(app), base_url="http://testserver", cookies=like.cookies
    ) as c:
        yield c


@pytest.fixture
async def client(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(app) as c:
        yield c


@pytest.fixture
async def make_client(app: Any) -> AsyncIterator[Any]:
    """More clients (one per player), each with its own cookies."""
    made: list[httpx.AsyncClient] = []

    def factory() -> httpx.AsyncClient:
        c = client_for(app)
        made.append(c)
        return c

    yield factory
    for c in made:
        await c.aclose()
