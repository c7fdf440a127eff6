"""Server-rendered pages (Jinja2 + htmx): lobby, accounts, tables, invites."""

from __future__ import annotations

import json
import typing
from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel

from app.games import registry
from app.games.base import Game
from app.i18n import _, render
from app.services import accounts, moves, tables
from app.services.errors import ServiceError, StaleVersion
from app.web.deps import CsrfChecked, CurrentUser, OptionalUser, RuntimeDep, csrf_token
from app.web.notices import notice_context
from app.web.render import error_fragment, live_fragment, page

router = APIRouter(dependencies=[CsrfChecked], include_in_schema=False)


def _see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def _login_redirect(request: Request) -> RedirectResponse:
    return _see_other(f"/login?next={request.url.path}")


# -- accounts -------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
async def home(rt: RuntimeDep, request: Request, user: OptionalUser) -> Response:
    if user is None:
        return page(request, "welcome.html", registration=rt.settings.registration)
    my = await tables.my_tables(rt, user)
    return page(request, "lobby.html", tables=my, waiting=sum(1 for t in my if t["my_turn"]))


@router.get("/login", response_class=HTMLResponse)
async def login_page(request: Request, next: str = "/") -> Response:
    return page(request, "login.html", next=_safe_next(next), error=None)


def _safe_next(target: str) -> str:
    return target if target.startswith("/") and not target.startswith("//") else "/"


@router.post("/login")
async def login_form(
    rt: RuntimeDep, request: Request, name: str = Form(""), password: str = Form(""), next: str = Form("/")
) -> Response:
    try:
        user = await accounts.authenticate(rt.sm, name, password, rt.limiter)
    except ServiceError as exc:
        return page(
            request,
            "login.html",
            status_code=exc.status,
            next=_safe_next(next),
            error=render(exc.message),
            name=name,
        )
    request.session["sid"] = await accounts.open_session(rt.sm, user.id)
    return _see_other(_safe_next(next))


@router.get("/register", response_class=HTMLResponse)
async def register_page(rt: RuntimeDep, request: Request) -> Response:
    return page(request, "register.html", error=None, registration=rt.settings.registration)


@router.post("/register")
async def register_form(
    rt: RuntimeDep, request: Request, name: str = Form(""), password: str = Form("")
) -> Response:
    try:
        user = await accounts.register(rt.sm, name, password, invited=rt.settings.registration == "open")
    except ServiceError as exc:
        return page(
            request,
            "register.html",
            status_code=exc.status,
            error=render(exc.message, exc.params),
            name=name,
            registration=rt.settings.registration,
        )
    request.session["sid"] = await accounts.open_session(rt.sm, user.id)
    return _see_other("/")


@router.post("/logout")
async def logout_form(rt: RuntimeDep, request: Request) -> Response:
    sid = request.session.get("sid")
    if sid:
        await accounts.close_session(rt.sm, sid)
    request.session.clear()
    return _see_other("/")


@router.get("/settings", response_class=HTMLResponse)
async def settings_page(rt: RuntimeDep, request: Request, user: OptionalUser) -> Response:
    if user is None:
        return _login_redirect(request)
    notice = await notice_context(rt, user)  # the notices section (app/web/notices.py)
    return page(request, "settings.html", error=None, saved=False, **notice)


@router.post("/settings/password")
async def set_password(
    rt: RuntimeDep, request: Request, user: CurrentUser, password: str = Form("")
) -> Response:
    try:
        await accounts.set_password(rt.sm, user.id, password)
    except ServiceError as exc:
        return page(
            request,
            "settings.html",
            status_code=exc.status,
            error=render(exc.message),
            saved=False,
            **await notice_context(rt, user),
        )
    request.scope["feytable.user"] = None
    return page(request, "settings.html", error=None, saved=True, user=user, **await notice_context(rt, user))


# -- lobby ----------------------------------------------------------------------------


@router.get("/next")
async def next_table(
    rt: RuntimeDep, request: Request, user: OptionalUser, after: int | None = None
) -> Response:
    """The table that has waited longest for me."""
    if user is None:
        return _login_redirect(request)
    target = await tables.next_waiting(rt, user, after)
    return _see_other(f"/tables/{target}" if target else "/?none_waiting=1")


def option_fields(
    model: Game | type[BaseModel], values: dict[str, Any] | None = None, prefix: str = ""
) -> list[dict[str, Any]]:
    """Form controls straight from a pydantic model (a game's Options or
    Prefs); a nested model becomes one control per field, named `a.b`."""
    if not isinstance(model, type):
        model = model.Options
    values = values or {}
    fields = []
    for name, info in model.model_fields.items():
        ann = info.annotation
        args = typing.get_args(ann)
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        field: dict[str, Any] = {
            "name": prefix + name,
            "label": info.title or name.replace("_", " "),
            "help": info.description or "",
            "default": values.get(name, info.default),
            "choice_labels": extra.get("choice_labels") or {},
        }
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            default = info.default if isinstance(info.default, BaseModel) else ann()
            nested = {**default.model_dump(), **(values.get(name) or {})}
            fields.extend(option_fields(ann, nested, f"{prefix}{name}."))
            continue
        if typing.get_origin(ann) is typing.Literal:
            field.update(kind="choice", choices=list(args))
        elif ann is bool:
            field.update(kind="bool")
        elif ann is int or (int in args):
            bounds = {k: getattr(m, k) for m in info.metadata for k in ("ge", "le") if hasattr(m, k)}
            field.update(
                kind="int", optional=type(None) in args, minimum=bounds.get("ge"), maximum=bounds.get("le")
            )
        else:
            field.update(kind="text")
        fields.append(field)
    return fields


def form_values(fields: list[dict[str, Any]], form: Any, prefix: str = "opt_") -> dict[str, Any]:
    """The submitted values of `option_fields` controls, nested back by `a.b`
    names; the model validates them afterwards."""
    values: dict[str, Any] = {}
    for field in fields:
        raw = form.get(prefix + field["name"])
        if raw is None:
            continue
        raw = str(raw)
        if field["kind"] == "bool":
            value: Any = raw == "true"
        elif field["kind"] == "int":
            value = None if raw.strip() == "" else raw
        else:
            value = raw
        *parents, leaf = field["name"].split(".")
        target = values
        for part in parents:
            target = target.setdefault(part, {})
        target[leaf] = value
    return values


@router.get("/tables/new", response_class=HTMLResponse)
async def new_table_page(request: Request, user: OptionalUser, game: str | None = None) -> Response:
    if user is None:
        return _login_redirect(request)
    games = registry.all_games()
    chosen = registry.get(game) if game else (games[0] if games else None)
    return page(
        request,
        "new_table.html",
        games=games,
        game=chosen,
        fields=option_fields(chosen) if chosen else [],
        error=None,
    )


@router.post("/tables/new")
async def new_table_form(rt: RuntimeDep, request: Request, user: CurrentUser) -> Response:
    form = await request.form()
    game_id = str(form.get("game", ""))
    game = registry.get(game_id)
    try:
        seats = int(str(form.get("seats", "")))
    except ValueError:
        seats = -1
    options = form_values(option_fields(game), form) if game is not None else {}
    # The turn deadline is a platform setting beside the game's options.
    raw_hours = str(form.get("turn_hours", "")).strip()
    turn_hours = int(raw_hours) if raw_hours.isdigit() else None
    try:
        table, token = await tables.create_table(rt, user, game_id, seats, options, turn_hours)
    except ServiceError as exc:
        games = registry.all_games()
        return page(
            request,
            "new_table.html",
            status_code=exc.status,
            games=games,
            game=game,
            fields=option_fields(game) if game else [],
            error=render(exc.message, exc.params),
        )
    request.session[f"invite:{table.id}"] = token
    return _see_other(f"/tables/{table.id}")


# -- a table --------------------------------------------------------------------------


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def table_page(rt: RuntimeDep, request: Request, user: OptionalUser, table_id: int) -> Response:
    if user is None:
        return _login_redirect(request)
    snap = await tables.get_snapshot(rt, table_id, user)
    token = request.session.get(f"invite:{table_id}") if snap["host"] else None
    return page(
        request,
        "table.html",
        snap=snap,
        view=snap.get("view") or {},
        board=_board(snap),
        invite=tables.invite_url(rt, token) if token and snap["status"] == "waiting" else None,
        error=None,
        prefs_fields=_prefs_fields(snap),
        prefs_saved=request.query_params.get("prefs") == "saved",
    )


def _prefs_fields(snap: dict[str, Any]) -> list[dict[str, Any]]:
    """My seat's preferences as form controls, for games that have some."""
    game = registry.get(snap["game"])
    prefs_model = getattr(game, "Prefs", None)
    if prefs_model is None or snap.get("seat") is None or snap["status"] == "finished":
        return []
    return option_fields(prefs_model, snap.get("prefs") or {})


@router.post("/tables/{table_id}/prefs")
async def prefs_form(rt: RuntimeDep, request: Request, user: CurrentUser, table_id: int) -> Response:
    snap = await tables.get_snapshot(rt, table_id, user)
    values = form_values(_prefs_fields(snap), await request.form(), prefix="pref_")
    try:
        await tables.set_prefs(rt, user, table_id, values)
    except ServiceError as exc:
        return page(request, "error.html", status_code=exc.status, message=render(exc.message, exc.params))
    return _see_other(f"/tables/{table_id}?prefs=saved")


def _board(snap: dict[str, Any]) -> str:
    from app.web.render import board_template

    return board_template(snap["game"])


@router.post("/tables/{table_id}/play")
async def play(
    rt: RuntimeDep,
    request: Request,
    user: CurrentUser,
    table_id: int,
    version: str = Form(""),
    move: str = Form(""),
) -> Response:
    """A move from the table page (htmx). Answers with the fresh live region,
    or with the game's sentence next to the actions and nothing changed."""
    try:
        data = json.loads(move)
        ver = int(version)
        for key, value in (await request.form()).multi_items():
            if key.startswith("set:") and isinstance(value, str):
                _set_path(data, key.removeprefix("set:").split("."), json.loads(value))
    except (ValueError, TypeError, AttributeError):
        return HTMLResponse(
            error_fragment(_("That move could not be read. Reload the page.")), status_code=422
        )
    try:
        snap = await moves.submit(rt, table_id, user, ver, data)
    except StaleVersion as exc:
        csrf = csrf_token(request)
        return HTMLResponse(live_fragment(exc.fresh, user, csrf, error=render(exc.message)), status_code=409)
    return HTMLResponse(live_fragment(snap, user, csrf_token(request)))


def _set_path(data: Any, path: list[str], value: Any) -> None:
    """Fill a field chosen in a form (e.g. `set:choices.mirage`) into the move
    template, so a select can complete a move without JavaScript."""
    if len(path) > 4 or not isinstance(data, dict):
        raise ValueError(path)
    for part in path[:-1]:
        data = data.setdefault(part, {})
        if not isinstance(data, dict):
            raise ValueError(path)
    data[path[-1]] = value


async def _table_action(request: Request, table_id: int, action: typing.Awaitable[Any]) -> Response:
    try:
        await action
    except ServiceError as exc:
        return page(request, "error.html", status_code=exc.status, message=render(exc.message, exc.params))
    return _see_other(f"/tables/{table_id}")


@router.post("/tables/{table_id}/join")
async def join_form(
    rt: RuntimeDep, request: Request, user: CurrentUser, table_id: int, invite: str = Form("")
) -> Response:
    return await _table_action(request, table_id, tables.join(rt, user, table_id, None, invite or None))


@router.post("/tables/{table_id}/leave")
async def leave_form(rt: RuntimeDep, request: Request, user: CurrentUser, table_id: int) -> Response:
    return await _table_action(request, table_id, tables.leave(rt, user, table_id))


@router.post("/tables/{table_id}/bots")
async def bot_form(rt: RuntimeDep, request: Request, user: CurrentUser, table_id: int) -> Response:
    return await _table_action(request, table_id, tables.add_bot(rt, user, table_id))


@router.post("/tables/{table_id}/seats/{seat}/free")
async def free_form(
    rt: RuntimeDep, request: Request, user: CurrentUser, table_id: int, seat: int
) -> Response:
    return await _table_action(request, table_id, tables.free_seat(rt, user, table_id, seat))


@router.post("/tables/{table_id}/start")
async def start_form(rt: RuntimeDep, request: Request, user: CurrentUser, table_id: int) -> Response:
    return await _table_action(request, table_id, tables.start(rt, user, table_id))


@router.post("/tables/{table_id}/invite")
async def invite_form(rt: RuntimeDep, request: Request, user: CurrentUser, table_id: int) -> Response:
    try:
        request.session[f"invite:{table_id}"] = await tables.new_invite(rt, user, table_id)
    except ServiceError as exc:
        return page(request, "error.html", status_code=exc.status, message=render(exc.message, exc.params))
    return _see_other(f"/tables/{table_id}")


@router.post("/tables/{table_id}/invite/revoke")
async def revoke_form(rt: RuntimeDep, request: Request, user: CurrentUser, table_id: int) -> Response:
    request.session.pop(f"invite:{table_id}", None)
    return await _table_action(request, table_id, tables.revoke_invite(rt, user, table_id))


@router.post("/tables/{table_id}/rematch")
async def rematch_form(rt: RuntimeDep, request: Request, user: CurrentUser, table_id: int) -> Response:
    try:
        new_id = await tables.rematch(rt, user, table_id)
    except ServiceError as exc:
        return page(request, "error.html", status_code=exc.status, message=render(exc.message, exc.params))
    return _see_other(f"/tables/{new_id}")


# -- invitations ----------------------------------------------------------------------


@router.get("/invite/{token}", response_class=HTMLResponse)
async def invite_page(rt: RuntimeDep, request: Request, user: OptionalUser, token: str) -> Response:
    table = await tables.table_for_invite(rt, token)
    snap = tables.snapshot(table, user.id if user else None)
    return page(request, "invite.html", snap=snap, token=token, error=None)


@router.post("/invite/{token}/guest")
async def invite_guest(rt: RuntimeDep, request: Request, token: str, name: str = Form("")) -> Response:
    """A friend without an account takes a seat as a guest."""
    table = await tables.table_for_invite(rt, token)
    try:
        guest = await accounts.create_guest(rt.sm, name)
        request.session["sid"] = await accounts.open_session(rt.sm, guest.id)
        request.scope["feytable.user"] = guest
        await tables.join(rt, guest, table.id, None, token)
    except ServiceError as exc:
        snap = tables.snapshot(table, None)
        return page(
            request,
            "invite.html",
            status_code=exc.status,
            snap=snap,
            token=token,
            error=render(exc.message, exc.params),
            name=name,
        )
    return _see_other(f"/tables/{table.id}")
