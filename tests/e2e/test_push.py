"""Acceptance 2: browser push in a real Chromium against a real server process.

The settings page registers the service worker at /sw.js (scope "/"), asks for
permission, subscribes with the server's VAPID key and stores the subscription;
"Send me a test notice" then reaches the subscription's push service, here a
local stand-in that decrypts the message with the subscription's keys.

What is stood in, and why: Chromium's own push service (Google's FCM) is on the
internet, which tests cannot reach, and Chromium refuses the Push API in the
incognito contexts Playwright uses. So `PushManager.subscribe` is replaced in
the page by one that returns a subscription whose endpoint is the local stand-in
and whose keys the test holds. It records the applicationServerKey the page
passed, so the test still checks that the page subscribed with the server's key.
Everything else (service worker, permission, the page's script, CSRF, storage,
VAPID signing, encryption, the delivery worker) is real.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import WAIT_MS
from tests.notices.endpoint import Endpoint
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("servers")]

PASSWORD = "correct horse battery"

STUB = """
(() => {
  // Like a real subscription, it outlives a page load (kept in localStorage).
  const sub = %s;
  const fake = {
    endpoint: sub.endpoint,
    toJSON: () => sub,
    unsubscribe: () => { localStorage.removeItem("stub-push"); return Promise.resolve(true); },
  };
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.__subscribedWithKey = btoa(String.fromCharCode(...key))
      .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
    localStorage.setItem("stub-push", "yes");
    return Promise.resolve(fake);
  };
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(localStorage.getItem("stub-push") ? fake : null);
  };
})();
"""


@pytest.fixture
def push_service() -> Iterator[Endpoint]:
    ep = Endpoint()
    try:
        yield ep
    finally:
        ep.close()


@pytest.fixture
def server_with_delivery(fresh_database: str, tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(fresh_database, log_dir=tmp_path, name="web", env={"DELIVERY_POLL": "0.2"}) as running:
        yield running


def _wait(predicate: Any, page: Any = None, timeout: float = WAIT_MS / 1000) -> None:
    """Poll; with a page, through Playwright (its events arrive only while it runs)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        if page is not None:
            page.wait_for_timeout(50)
        else:
            time.sleep(0.05)
    raise AssertionError("timed out")


def test_subscribe_in_chromium_then_a_test_notice_reaches_the_push_service(
    server_with_delivery: ServerProcess, push_service: Endpoint, browser: Any
) -> None:
    # (The server first: its database is migrated before Playwright's loop starts.)
    base = server_with_delivery.base_url
    keys = push_service.push_subscription("push/chromium")
    context = browser.new_context(base_url=base)
    context.set_default_timeout(WAIT_MS)
    context.grant_permissions(["notifications"], origin=base)
    context.add_init_script(STUB % json.dumps(keys.json()))
    page = context.new_page()
    try:
        page.goto("/register")
        page.fill("#name", "ann")
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(base + "/")

        page.goto("/settings")
        on = page.get_by_role("button", name="Turn on notifications in this browser")
        on.wait_for()
        scope = page.evaluate(
            "navigator.serviceWorker.getRegistration('/').then(r => r && r.active && r.active.scriptURL)"
        )
        assert scope == base + "/sw.js"
        on.click()
        page.get_by_text("Notifications are on in this browser.").wait_for()
        server_key = page.request.get("/push/key").json()["key"]
        assert page.evaluate("window.__subscribedWithKey") == server_key

        # Stored on the server: the settings page lists this browser.
        page.reload()
        assert page.get_by_text("This browser's push notifications").is_visible()

        page.get_by_role("button", name="Send me a test notice").click()
        page.get_by_text("A test notice is on its way").wait_for()
        _wait(lambda: len(push_service.posts) == 1)
        post = push_service.posts[0]
        assert post["path"] == "/push/chromium"
        message = keys.decrypt(post["raw"])
        assert message["title"] == "feytable: a test notice"
        assert message["url"] == base + "/settings"

        # Turning it off removes the subscription from the server.
        page.get_by_role("button", name="Turn off notifications in this browser").click()
        page.get_by_text("Notifications are off in this browser.").wait_for()
        page.reload()
        assert page.get_by_text("This browser's push notifications").count() == 0
    finally:
        context.close()


def test_the_table_page_tells_the_server_when_it_is_visible_or_hidden(
    server_with_delivery: ServerProcess, browser: Any
) -> None:
    """The "no notice while my table page is visible" signal, from a real page."""
    base = server_with_delivery.base_url
    context = browser.new_context(base_url=base)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    try:
        api = context.request
        assert api.post("/api/auth/register", data={"name": "ann", "password": PASSWORD}).ok
        table = api.post("/api/tables", data={"game": "tally", "seats": 2, "options": {}}).json()
        assert api.post(f"/api/tables/{table['id']}/bots", data={}).ok
        assert api.post(f"/api/tables/{table['id']}/start", data={}).ok

        page.goto(f"/tables/{table['id']}")
        _wait(lambda: {"visible": True} in _messages(sent), page)
        # The user switches to another tab.
        page.evaluate(
            """() => {
              Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
              document.dispatchEvent(new Event("visibilitychange"));
            }"""
        )
        _wait(lambda: {"visible": False} in _messages(sent), page)
    finally:
        context.close()


def _messages(frames: list[str]) -> list[Any]:
    out = []
    for frame in frames:
        try:
            out.append(json.loads(frame))
        except ValueError:
            continue
    return out
