"""Real-browser tests: Debian's Chromium driven by the playwright package
(never `playwright install`), and a server subprocess per test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.server import ServerProcess

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WAIT_MS = 10_000
PHONE_SHOT = Path("/tmp/feytable-phone.png")


def require_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    message = f"{CHROMIUM} is missing (make chromium, or apt-get install chromium)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message + " (CI=true: this is a failure, not a skip)", pytrace=False)
    pytest.skip(message)


@pytest.fixture
def server(fresh_database: str, tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(fresh_database, log_dir=tmp_path, name="web") as running:
        yield running


@pytest.fixture
def browser() -> Iterator[Any]:
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()
