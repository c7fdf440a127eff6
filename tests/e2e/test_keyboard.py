"""Keyboard play: a move made with the keyboard leaves focus on the table, not lost."""

from __future__ import annotations

import httpx
import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("servers")]


def test_focus_returns_to_the_prompt_after_a_keyboard_move(server, browser):
    with httpx.Client(base_url=server.base_url) as api:
        api.post("/api/auth/register", json={"name": "kay", "password": "keyboard only"})
        table = api.post("/api/tables", json={"game": "tally", "seats": 2}).json()
        api.post(f"/api/tables/{table['id']}/bots", json={})
        api.post(f"/api/tables/{table['id']}/start", json={})
        cookies = [{"name": k, "value": v, "url": server.base_url} for k, v in api.cookies.items()]
    context = browser.new_context()
    context.add_cookies(cookies)
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
    assert "prompt" in page.evaluate("document.activeElement.className")
    context.close()
