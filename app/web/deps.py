"""Dependencies named once, so routes read like sentences."""

from __future__ import annotations

import secrets
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from app.games.base import N_
from app.services import accounts
from app.services.errors import Forbidden, NotAuthenticated
from app.services.runtime import Runtime
from app.store.models import User

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def get_rt(conn: HTTPConnection) -> Runtime:
    return conn.app.state.rt


RuntimeDep = Annotated[Runtime, Depends(get_rt)]


async def optional_user(conn: HTTPConnection) -> User | None:
    cached = conn.scope.get("feytable.user", False)
    if cached is not False:
        return cached
    sid = conn.session.get("sid") if "session" in conn.scope else None
    user = await accounts.user_for_session(get_rt(conn).sm, sid) if sid else None
    conn.scope["feytable.user"] = user
    return user


async def current_user(user: Annotated[User | None, Depends(optional_user)]) -> User:
    if user is None:
        raise NotAuthenticated()
    return user


OptionalUser = Annotated[User | None, Depends(optional_user)]
CurrentUser = Annotated[User, Depends(current_user)]


def csrf_token(conn: HTTPConnection) -> str:
    token = conn.session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        conn.session["csrf"] = token
    return token


def same_origin(conn: HTTPConnection, origin: str | None) -> bool:
    """Is this Origin this site? host:port must match the Host header or BASE_URL."""
    if not origin:
        return False
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    host = conn.headers.get("host", "")
    allowed = {host.lower()}
    base = urlsplit(get_rt(conn).settings.base_url)
    if base.netloc:
        allowed.add(base.netloc.lower())
    return parts.netloc.lower() in allowed


async def check_csrf(request: Request) -> None:
    """Unsafe requests from pages carry the session's token (htmx sends it as
    X-CSRF-Token; plain forms as a csrf_token field). JSON API requests, which
    a browser cannot send cross-site without a CORS preflight, pass when their
    Origin, if any, is this site."""
    if request.method not in UNSAFE:
        return
    expected = request.session.get("csrf")
    sent = request.headers.get("x-csrf-token")
    if sent is None and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        form = await request.form()
        value = form.get("csrf_token")
        sent = value if isinstance(value, str) else None
    if expected and sent and secrets.compare_digest(expected, sent):
        return
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    origin = request.headers.get("origin")
    # DELETE/PUT/PATCH always need a CORS preflight cross-site; POST does unless
    # its type is one a plain HTML form can send.
    api_safe_shape = ctype == "application/json" or request.method != "POST"
    if request.url.path.startswith("/api/") and api_safe_shape:
        if origin is None or same_origin(request, origin):
            return
        raise Forbidden("cross_site", N_("Requests from other sites are not accepted."))
    raise Forbidden(
        "csrf", N_("This form has expired or did not come from this site. Reload the page and try again.")
    )


CsrfChecked = Depends(check_csrf)
