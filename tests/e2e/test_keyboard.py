"""Keyboard play: a move made with the keyboard leaves focus on the table, not lost."""

from __future__ import annotations

import pytest

from tests.e2e.test_two_browsers import CHROMIUM, CHROMIUM_ARGS, require_chromium
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("servers")]


def test_focus_returns_to_the_prompt_after_a_keyboard_move(tmp_path):
    require_chromium()
    import httpx
    from playwright.sync_api import sync_playwright

    with ServerProcess(f"sqlite+aiosqlite:///{tmp_path / 'k.sqlite3'}", log_dir=tmp_path) as server:
        api = httpx.Client(base_url=server.base_url)
        server_cleanup = api
        api.post("/api/auth/register", json={"name": "kay", "password": "keyboard only"})
        table = api.post("/api/tables", json={"game": "tally", "seats": 2}).json()
        api.post(f"/api/tables/{table['id']}/bots", json={})
        api.post(f"/api/tables/{table['id']}/start", json={})
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context()
            context.add_cookies(
                [{"name": k, "value": v, "url": server.base_url} for k, v in api.cookies.items()]
            )
            page = context.new_page()
            page.goto(f"{server.base_url}/tables/{table['id']}")
            page.wait_for_selector("#table-live form.move button", timeout=10_000)
            before = page.get_attribute("#table-live", "data-version")
            page.focus("#table-live form.move button")
            page.keyboard.press("Enter")
            page.wait_for_function(
                "v => document.querySelector('#table-live').dataset.version !== v", arg=before, timeout=10_000
            )
            page.wait_for_timeout(200)
            focused = page.evaluate("document.activeElement.className")
            assert "prompt" in focused
            browser.close()
        server_cleanup.close()
