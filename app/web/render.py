"""Templates: one Jinja environment with gettext, full pages and the blocks
that are pushed as fragments (jinja2-fragments renders a single block)."""

from __future__ import annotations

import functools
import importlib
import json
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, select_autoescape
from jinja2_fragments import render_block
from markupsafe import Markup

from app.games import registry
from app.i18n import render as render_message
from app.i18n import translations
from app.web.deps import csrf_token

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"
STATIC_DIR = Path(__file__).resolve().parents[2] / "static"


def _make_env() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=select_autoescape(default=True, default_for_string=True),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations(), newstyle=True)  # type: ignore[attr-defined]
    env.filters["tojson_attr"] = lambda value: json.dumps(value, separators=(",", ":"), sort_keys=True)
    env.filters["msg"] = lambda entry: render_message(entry.get("text", ""), entry.get("params"))
    env.globals["log_line"] = log_line
    env.globals["cards_of"] = cards_of
    env.globals["render_message"] = render_message
    env.globals["game_title"] = lambda gid: g.title if (g := registry.get(gid)) else gid
    return env


def seat_name(seats: list[dict[str, Any]], seat: int) -> str:
    if 0 <= seat < len(seats) and seats[seat].get("name"):
        return str(seats[seat]["name"])
    return render_message("Bot %(n)s", {"n": seat + 1})


def _param(value: Any, seats: list[dict[str, Any]], game_id: str | None) -> Any:
    """A message parameter in words: {"seat": n} is that player's name,
    {"card": id} the card's display name, a list of them a comma list."""
    if isinstance(value, list):
        return ", ".join(str(_param(v, seats, game_id)) for v in value)
    if isinstance(value, dict):
        if isinstance(value.get("seat"), int):
            return seat_name(seats, value["seat"])
        if isinstance(value.get("card"), str):
            cards = cards_of(game_id) if game_id else None
            name = getattr(cards, "display_name", None)
            return render_message(name(value["card"])) if name else value["card"]
    return value


def log_line(entry: dict[str, Any], seats: list[dict[str, Any]], game_id: str | None = None) -> str:
    """A log entry or prompt in words (see `_param`). The older convention, a
    `player` param with a `seat` number beside it, still works."""
    params = {k: _param(v, seats, game_id) for k, v in (entry.get("params") or {}).items()}
    seat = params.get("seat")
    if "player" in params and isinstance(seat, int) and not isinstance(seat, bool):
        params["player"] = seat_name(seats, seat)
    return render_message(entry.get("text", ""), params)


@functools.cache
def cards_of(game_id: str) -> Any:
    """The card data of a game (every game package has a `cards` module)."""
    try:
        return importlib.import_module(f"app.games.{game_id}.cards")
    except ImportError:
        return None


def board_template(game_id: str) -> str:
    name = f"games/{game_id}/board.html"
    return name if (TEMPLATES_DIR / name).exists() else "games/_generic.html"


def page(request: Request, template: str, /, status_code: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("user", request.scope.get("feytable.user"))
    context["csrf"] = csrf_token(request)
    return templates.TemplateResponse(request, template, context, status_code=status_code)


def table_context(snap: dict[str, Any], user: Any, csrf: str, error: str | None = None) -> dict[str, Any]:
    return {
        "csrf": csrf,
        "snap": snap,
        "view": snap.get("view") or {},
        "board": board_template(snap["game"]),
        "user": user,
        "error": error,
    }


def live_fragment(snap: dict[str, Any], user: Any, csrf: str, error: str | None = None) -> str:
    """The live part of the table page, as pushed over the websocket. Its plain
    forms carry the reader's CSRF token like the full page does."""
    return render_block(env, "table.html", "live", **table_context(snap, user, csrf, error))


def error_fragment(message: str) -> str:
    return render_block(env, "table.html", "move_error", error=message, oob=True)


def error_response(request: Request, status: int, message: str, code: str) -> HTMLResponse:
    if request.headers.get("hx-request") == "true":
        return HTMLResponse(error_fragment(message), status_code=status)
    return page(request, "error.html", status_code=status, message=message, code=code)


def markup(text: str) -> Markup:
    return Markup(text)


env = _make_env()
templates = Jinja2Templates(env=env)
