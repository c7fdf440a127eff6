"""Alembic: upgrade head on an empty database, then autogenerate finds no diff."""

from __future__ import annotations

import asyncio

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from app.store.db import make_engine
from app.store.models import Base

pytestmark = pytest.mark.db


def test_upgrade_head_then_autogenerate_has_no_diff(fresh_database):
    # fresh_database was built by `alembic upgrade head` on an empty database.
    async def diff() -> list:
        engine = make_engine(fresh_database)
        async with engine.connect() as conn:

            def compare(sync_conn):
                ctx = MigrationContext.configure(sync_conn, opts={"compare_type": True})
                return compare_metadata(ctx, Base.metadata)

            result = await conn.run_sync(compare)
        await engine.dispose()
        return result

    assert asyncio.run(diff()) == []


def test_head_is_recorded(fresh_database):
    async def current() -> str | None:
        engine = make_engine(fresh_database)
        async with engine.connect() as conn:
            rev = await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())
        await engine.dispose()
        return rev

    from alembic.config import Config
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(Config("alembic.ini")).get_current_head()
    assert asyncio.run(current()) == head is not None
