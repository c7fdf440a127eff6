"""CSRF: page forms need the session token; the JSON API needs JSON from this site."""

from __future__ import annotations

from tests.support.api import register


def _token(html: str) -> str:
    return html.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]


async def test_page_form_without_token_is_refused(client):
    await register(client, "ann")
    r = await client.post("/tables/new", data={"game": "tally", "seats": "2"})
    assert r.status_code == 403
    assert "did not come from this site" in r.text


async def test_page_form_with_token_works(client):
    await register(client, "ann")
    token = _token((await client.get("/tables/new")).text)
    r = await client.post("/tables/new", data={"game": "tally", "seats": "2", "csrf_token": token})
    assert r.status_code == 303 and r.headers["location"].startswith("/tables/")


async def test_htmx_header_token_is_accepted(client):
    await register(client, "ann")
    page = (await client.get("/tables/new")).text
    token = page.split('"X-CSRF-Token": "', 1)[1].split('"', 1)[0]
    r = await client.post(
        "/tables/new",
        data={"game": "tally", "seats": "2"},
        headers={"X-CSRF-Token": token, "HX-Request": "true"},
    )
    assert r.status_code == 303


async def test_api_json_from_another_origin_is_refused(client):
    await register(client, "ann")
    r = await client.post(
        "/api/tables", json={"game": "tally", "seats": 2}, headers={"Origin": "https://evil.example"}
    )
    assert r.status_code == 403 and r.json()["code"] == "cross_site"
    r = await client.post(
        "/api/tables", json={"game": "tally", "seats": 2}, headers={"Origin": "http://testserver"}
    )
    assert r.status_code == 201


async def test_api_form_encoded_post_needs_a_token(client):
    """A cross-site HTML form can send form-encoded bodies: the API refuses them."""
    await register(client, "ann")
    r = await client.post("/api/tables", data={"game": "tally", "seats": "2"})
    assert r.status_code == 403


async def test_login_form_and_logout(client, make_client):
    await register(client, "ann")
    browser = make_client()
    token = _token((await browser.get("/login")).text)
    r = await browser.post("/login", data={"name": "ann", "password": "wrong", "csrf_token": token})
    assert r.status_code == 401 and "do not match" in r.text
    r = await browser.post(
        "/login",
        data={"name": "ann", "password": "correct horse battery", "csrf_token": token, "next": "/tables/new"},
    )
    assert r.status_code == 303 and r.headers["location"] == "/tables/new"
    lobby = await browser.get("/")
    assert "My tables" in lobby.text
    r = await browser.post("/logout", data={"csrf_token": _token(lobby.text)})
    assert r.status_code == 303
    assert "My tables" not in (await browser.get("/")).text
