"""Web Push sending, against a local stand-in for a push service: the server
signs with its VAPID key (generated once), encrypts for the subscription's keys
(the test decrypts like the browser would), and forgets subscriptions the push
service says are gone. The browser side is tests/e2e/test_push.py."""

from __future__ import annotations

import pytest
from py_vapid import Vapid02

from app.services.delivery import Worker
from tests.support.api import csrf_of, move, register, state, two_players

pytestmark = pytest.mark.db


async def _subscribe(client, keys) -> None:
    page = await client.get("/settings")
    r = await client.post("/push/subscribe", json=keys.json(), headers={"X-CSRF-Token": csrf_of(page.text)})
    assert r.status_code == 201, r.text


async def test_the_vapid_key_is_made_once_and_the_service_worker_is_served_at_the_root(client):
    await register(client, "ann")
    first = (await client.get("/push/key")).json()["key"]
    assert first == (await client.get("/push/key")).json()["key"]
    assert len(first) == 87  # an uncompressed P-256 point, base64url: the applicationServerKey
    sw = await client.get("/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.headers["content-type"]
    assert sw.headers["service-worker-allowed"] == "/" and "showNotification" in sw.text


async def test_a_subscription_needs_the_csrf_token(client, endpoint):
    await register(client, "ann")
    r = await client.post("/push/subscribe", json=endpoint.push_subscription().json())
    assert r.status_code == 403


async def test_my_turn_is_pushed_encrypted_and_signed_to_my_push_service(app, client, make_client, endpoint):
    tid, active, idle = await two_players(client, make_client())
    keys = endpoint.push_subscription()
    await _subscribe(idle, keys)
    assert "push notifications" in (await idle.get("/settings")).text
    snap = await state(active, tid)
    await move(active, tid, snap["version"], snap["legal_moves"][0])
    assert await Worker(app.state.rt).run_once() == 1

    assert len(endpoint.posts) == 1
    post = endpoint.posts[0]
    assert post["path"] == "/push/device-1"
    headers = {k.lower(): v for k, v in post["headers"].items()}
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    # Signed with the server's VAPID key, the one browsers subscribed with.
    public = (await idle.get("/push/key")).json()["key"]
    assert f"k={public}" in headers["authorization"]
    assert Vapid02.verify(headers["authorization"])
    # Only the subscriber's keys open it, and it says nothing hidden.
    message = keys.decrypt(post["raw"])
    assert message["url"] == f"http://testserver/tables/{tid}"
    assert message["title"].startswith("Your turn")
    hand = (await state(idle, tid))["view"]["hand"]
    assert not any(card in message["body"] for card in hand)


async def test_a_subscription_the_push_service_says_is_gone_is_forgotten(app, client, endpoint):
    await register(client, "ann")
    await _subscribe(client, endpoint.push_subscription())
    endpoint.status = 410
    page = await client.get("/settings")
    r = await client.post("/settings/notices/test", data={"csrf_token": csrf_of(page.text)})
    assert r.status_code == 303
    assert await Worker(app.state.rt).run_once() == 0
    assert len(endpoint.posts) == 1
    assert "push notifications" not in (await client.get("/settings")).text


async def test_unsubscribe_removes_this_browser(client, endpoint):
    await register(client, "ann")
    keys = endpoint.push_subscription()
    await _subscribe(client, keys)
    page = await client.get("/settings")
    assert "push notifications" in page.text
    r = await client.post(
        "/push/unsubscribe", json={"endpoint": keys.endpoint}, headers={"X-CSRF-Token": csrf_of(page.text)}
    )
    assert r.status_code == 204
    assert "push notifications" not in (await client.get("/settings")).text


async def test_a_server_on_https_accepts_only_https_push_endpoints(app, client):
    from app.services import notices
    from app.services.errors import Invalid

    user = await register(client, "ann")
    async with app.state.rt.sm.begin() as db:
        with pytest.raises(Invalid):
            await notices.add_push(db, user["id"], "http://10.0.0.5/admin", {"p256dh": "x", "auth": "y"})
        channel = await notices.add_push(
            db, user["id"], "https://push.example/abc", {"p256dh": "x", "auth": "y"}
        )
        assert channel.kind == "webpush"
