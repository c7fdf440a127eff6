"""Notices in the web layer: the settings page's notice section (channels,
events, quiet hours, digest, test notice, delivery errors), browser push
(VAPID key, subscribe, unsubscribe, the service worker at /sw.js), and the
vote about a seat whose deadline passed."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from app.i18n import _, render
from app.services import notices, turn_deadlines
from app.services.errors import ServiceError
from app.store.models import User
from app.web.deps import CsrfChecked, CurrentUser, RuntimeDep
from app.web.render import STATIC_DIR, page

router = APIRouter(dependencies=[CsrfChecked])


async def notice_context(rt: Any, user: User) -> dict[str, Any]:
    """What the settings page shows about notices."""
    async with rt.sm() as db:
        prefs = await notices.settings_of(db, user.id)
        channels = await notices.channels_of(db, user.id)
        failures = await notices.recent_failures(db, user.id)
    return {
        "notice": {
            "events": {e: notices.wants(prefs, e) for e in notices.EVENTS},
            "quiet_start": prefs.quiet_start,
            "quiet_end": prefs.quiet_end,
            "timezone": prefs.timezone,
            "digest_hour": prefs.digest_hour,
            "skip_when_visible": prefs.skip_when_visible,
            "channels": [
                {
                    "id": c.id,
                    "kind": c.kind,
                    "shown": notices.masked(c),
                    "last_ok_at": c.last_ok_at,
                    "last_error": c.last_error,
                    "last_error_at": c.last_error_at,
                }
                for c in channels
            ],
            "failures": [
                {"title": f.title, "error": f.error, "status": f.status, "attempts": f.attempts}
                for f in failures
            ],
        }
    }


async def _settings_page(
    rt: Any, request: Request, user: User, *, error: str | None = None, status: int = 200, note: str = ""
) -> Response:
    return page(
        request,
        "settings.html",
        status_code=status,
        error=error,
        saved=False,
        notice_saved=note,
        **await notice_context(rt, user),
    )


def _back() -> RedirectResponse:
    return RedirectResponse("/settings?saved=notices#notices", status_code=303)


def _hour(raw: str) -> int | None:
    raw = raw.strip()
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        return -1  # refused by the service with a sentence


@router.post("/settings/notices", include_in_schema=False)
async def save_notice_settings(rt: RuntimeDep, request: Request, user: CurrentUser) -> Response:
    form = await request.form()
    try:
        async with rt.sm.begin() as db:
            await notices.save_settings(
                db,
                user.id,
                events={e: form.get(f"event_{e}") == "on" for e in notices.EVENTS},
                quiet_start=_hour(str(form.get("quiet_start", ""))),
                quiet_end=_hour(str(form.get("quiet_end", ""))),
                timezone=str(form.get("timezone", "UTC")).strip() or "UTC",
                digest_hour=_hour(str(form.get("digest_hour", ""))),
                skip_when_visible=form.get("skip_when_visible") == "on",
            )
    except ServiceError as exc:
        return await _settings_page(
            rt, request, user, error=render(exc.message, exc.params), status=exc.status
        )
    return _back()


@router.post("/settings/notices/channels", include_in_schema=False)
async def add_channel(rt: RuntimeDep, request: Request, user: CurrentUser, url: str = Form("")) -> Response:
    try:
        async with rt.sm.begin() as db:
            await notices.add_apprise(db, user.id, url)
    except ServiceError as exc:
        return await _settings_page(
            rt, request, user, error=render(exc.message, exc.params), status=exc.status
        )
    return _back()


@router.post("/settings/notices/channels/{channel_id}/delete", include_in_schema=False)
async def remove_channel(rt: RuntimeDep, request: Request, user: CurrentUser, channel_id: int) -> Response:
    try:
        async with rt.sm.begin() as db:
            await notices.remove_channel(db, user.id, channel_id)
    except ServiceError as exc:
        return await _settings_page(
            rt, request, user, error=render(exc.message, exc.params), status=exc.status
        )
    return _back()


@router.post("/settings/notices/test", include_in_schema=False)
async def send_test(rt: RuntimeDep, request: Request, user: CurrentUser) -> Response:
    async with rt.sm.begin() as db:
        queued = await notices.test_notice(db, rt.settings, user.id)
    if not queued:
        return await _settings_page(
            rt, request, user, error=_("Add a channel first: there is nowhere to send a notice.")
        )
    return RedirectResponse("/settings?saved=test#notices", status_code=303)


# -- browser push ---------------------------------------------------------------------


class PushKeys(BaseModel):
    model_config = ConfigDict(extra="ignore")
    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=100)


class Subscription(BaseModel):
    model_config = ConfigDict(extra="ignore")
    endpoint: str = Field(max_length=2000)
    keys: PushKeys | None = None


@router.get("/push/key", include_in_schema=False)
async def push_key(rt: RuntimeDep) -> JSONResponse:
    """The server's public VAPID key: the browser's applicationServerKey."""
    _private, public = await notices.vapid_keys(rt.sm)
    return JSONResponse({"key": public})


@router.post("/push/subscribe", include_in_schema=False)
async def push_subscribe(rt: RuntimeDep, user: CurrentUser, body: Subscription) -> JSONResponse:
    keys = body.keys.model_dump() if body.keys else {}
    async with rt.sm.begin() as db:
        channel = await notices.add_push(
            db, user.id, body.endpoint, keys, require_https=rt.settings.base_url.startswith("https://")
        )
        channel_id = channel.id
    return JSONResponse({"id": channel_id}, status_code=201)


@router.post("/push/unsubscribe", include_in_schema=False)
async def push_unsubscribe(rt: RuntimeDep, user: CurrentUser, body: Subscription) -> Response:
    async with rt.sm.begin() as db:
        await notices.remove_push(db, user.id, body.endpoint)
    return Response(status_code=204)


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    """Served from the root so its scope is the whole site."""
    return FileResponse(
        STATIC_DIR / "sw.js",
        media_type="text/javascript",
        headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"},
    )


# -- votes about an absent seat ---------------------------------------------------------


class VoteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int
    choice: str = Field(description="bot: hand the seat to a bot for good; end: end the table")


@router.post("/api/tables/{table_id}/votes", tags=["tables"])
async def vote_api(rt: RuntimeDep, user: CurrentUser, table_id: int, body: VoteIn) -> dict[str, Any]:
    """Vote about a seat whose turn deadline has passed; a majority of the other players decides."""
    outcome = await turn_deadlines.vote(rt, user, table_id, body.seat, body.choice)
    return {"outcome": outcome}


@router.post("/tables/{table_id}/vote", include_in_schema=False)
async def vote_form(
    rt: RuntimeDep,
    request: Request,
    user: CurrentUser,
    table_id: int,
    seat: int = Form(),
    choice: str = Form(""),
) -> Response:
    try:
        await turn_deadlines.vote(rt, user, table_id, seat, choice)
    except ServiceError as exc:
        return page(request, "error.html", status_code=exc.status, message=render(exc.message, exc.params))
    return RedirectResponse(f"/tables/{table_id}", status_code=303)
