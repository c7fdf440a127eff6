"""Notices tests: the app without background workers (tests drive delivery and
deadlines by hand, with a fake clock), and a local HTTP endpoint that records
what apprise's json:// scheme (or a push service stand-in) posts to it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.config import Settings
from tests.conftest import make_settings
from tests.notices.endpoint import Endpoint


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    ep = Endpoint()
    try:
        yield ep
    finally:
        ep.close()


@pytest.fixture
def settings(fresh_database: str) -> Settings:
    # No background passes: each test runs delivery and deadlines itself.
    return make_settings(fresh_database, delivery_poll=0, turn_deadline_poll=0, deadline_poll=0)
