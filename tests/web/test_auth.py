"""Accounts: register, log in, log out, guests, rate limiting."""

from __future__ import annotations

import pytest

from tests.conftest import make_settings, running_app
from tests.support.api import PASSWORD, register


async def test_first_account_is_admin_later_ones_are_not(client, make_client):
    assert (await register(client, "ann"))["is_admin"] is True
    assert (await register(make_client(), "bob"))["is_admin"] is False


async def test_login_sets_a_lax_httponly_session_cookie_holding_no_user_data(client, make_client):
    await register(client, "ann")
    other = make_client()
    r = await other.post("/api/auth/login", json={"name": "ANN", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["name"] == "ann"
    cookie = r.headers["set-cookie"].lower()
    assert "samesite=lax" in cookie and "httponly" in cookie
    assert "ann" not in r.cookies["feytable_session"]
    assert (await other.get("/api/auth/me")).json()["name"] == "ann"


async def test_wrong_password_is_401_with_a_sentence(client, make_client):
    await register(client, "ann")
    r = await make_client().post("/api/auth/login", json={"name": "ann", "password": "wrong password"})
    assert r.status_code == 401
    assert r.json()["message"] == "That name and password do not match."


async def test_logout_ends_the_session_server_side(client):
    await register(client, "ann")
    stolen = dict(client.cookies)
    assert (await client.post("/api/auth/logout", json={})).status_code == 204
    client.cookies.clear()
    client.cookies.update(stolen)
    assert (await client.get("/api/auth/me")).status_code == 401


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"name": "a", "password": PASSWORD}, 422),
        ({"name": "ann2", "password": "short"}, 422),
        ({"name": "ann2"}, 422),
        ({"name": 5, "password": PASSWORD}, 422),
    ],
)
async def test_bad_registrations_are_refused_with_a_sentence(client, body, status):
    r = await client.post("/api/auth/register", json=body)
    assert r.status_code == status
    assert r.json()["message"]


async def test_names_are_unique_ignoring_case(client, make_client):
    await register(client, "Ann")
    r = await make_client().post("/api/auth/register", json={"name": "ann", "password": PASSWORD})
    assert r.status_code == 409


async def test_login_is_rate_limited(fresh_database, tmp_path):
    import httpx

    settings = make_settings(fresh_database, login_attempts_per_minute=3)
    async with (
        running_app(settings) as app,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c,
    ):
        await register(c, "ann")
        codes = [
            (await c.post("/api/auth/login", json={"name": "ann", "password": "nope nope"})).status_code
            for _ in range(4)
        ]
        assert codes == [401, 401, 401, 429]
        r = await c.post("/api/auth/login", json={"name": "ann", "password": PASSWORD})
        assert r.status_code == 429  # even the right password waits out the minute


async def test_invite_only_registration_needs_an_invite(fresh_database):
    import httpx

    settings = make_settings(fresh_database, registration="invite")
    async with running_app(settings) as app:
        transport = httpx.ASGITransport(app=app)
        async with (
            httpx.AsyncClient(transport=transport, base_url="http://testserver") as admin,
            httpx.AsyncClient(transport=transport, base_url="http://testserver") as bob,
        ):
            await register(admin, "ann")  # the very first account is always allowed
            r = await bob.post("/api/auth/register", json={"name": "bob", "password": PASSWORD})
            assert r.status_code == 403
            table = (await admin.post("/api/tables", json={"game": "tally", "seats": 2})).json()
            token = table["invite_url"].rsplit("/", 1)[1]
            r = await bob.post(
                "/api/auth/register", json={"name": "bob", "password": PASSWORD, "invite": token}
            )
            assert r.status_code == 201


async def test_guest_joins_by_invite_link_and_later_keeps_the_identity(client, make_client):
    await register(client, "ann")
    table = (await client.post("/api/tables", json={"game": "tally", "seats": 2})).json()
    token = table["invite_url"].rsplit("/", 1)[1]
    guest = make_client()
    page = await guest.get(f"/invite/{token}")
    assert page.status_code == 200 and "Play as a guest" in page.text
    csrf = page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    r = await guest.post(f"/invite/{token}/guest", data={"name": "Gil", "csrf_token": csrf})
    assert r.status_code == 303 and r.headers["location"] == f"/tables/{table['id']}"
    snap = (await guest.get(f"/api/tables/{table['id']}")).json()
    assert snap["seat"] == 1 and snap["seats"][1]["is_guest"]
    r = await guest.post("/settings/password", data={"password": "guest password", "csrf_token": csrf})
    assert r.status_code == 200
    again = make_client()
    r = await again.post("/api/auth/login", json={"name": "Gil", "password": "guest password"})
    assert r.status_code == 200 and r.json()["is_guest"] is False
    assert (await again.get(f"/api/tables/{table['id']}")).json()["seat"] == 1
