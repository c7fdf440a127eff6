"""Fantasy Realms' scoring calculator: the page (K1) and its endpoints (K2, K3).

Neither endpoint stores anything and both work without an account (K4). The
request handling is the same function the CLI uses
(app.games.realms.calculator), so page, API and CLI always agree."""

from __future__ import annotations

import asyncio
import time
import unicodedata
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from app.games.realms import calculator, cards, scoring
from app.games.realms.options import SCORING_OPTION_KEYS, RealmsOptions
from app.i18n import render
from app.web.deps import CsrfChecked
from app.web.pages import option_fields
from app.web.render import page

api = APIRouter(prefix="/api/realms", tags=["realms"], dependencies=[CsrfChecked])
pages = APIRouter(include_in_schema=False)

SEARCH_BUDGET_SECONDS = 2.0  # E6: the server's budget for one search

K2_EXAMPLE = {
    "cards": ["mountain", "great-flood", "smoke", "whirlwind", "air-elemental", "wildfire", "mirage"],
    "choices": {"mirage": "rainstorm"},
    "options": {"collector_mode": "sum_over_suits"},
}


def _refused(exc: calculator.RequestError) -> JSONResponse:
    return JSONResponse(
        {"code": "invalid_request", "message": render(exc.message, exc.params)}, status_code=422
    )


@api.post(
    "/score", responses={422: {"description": "The hand or a choice is not valid: a sentence says why."}}
)
async def score(body: Annotated[Any, Body(examples=[K2_EXAMPLE])]) -> Response:
    """K2: score one hand (1 to 8 cards) with its choices and options."""
    try:
        return JSONResponse(calculator.score_request(body))
    except calculator.RequestError as exc:
        return _refused(exc)


@api.post(
    "/best", responses={422: {"description": "The hand or a choice is not valid: a sentence says why."}}
)
async def best(body: Annotated[Any, Body(examples=[K2_EXAMPLE])]) -> Response:
    """K3: the best choice set (E4-E6) for the hand, keeping `pinned` choices."""
    deadline = time.monotonic() + SEARCH_BUDGET_SECONDS
    try:
        result = await asyncio.to_thread(
            calculator.best_request, body, should_stop=lambda: time.monotonic() > deadline
        )
    except calculator.RequestError as exc:
        return _refused(exc)
    return JSONResponse(result)


def _fold(text: str) -> str:
    """Lower case without accents: "élémental" finds Élémental (K1)."""
    return "".join(
        ch for ch in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(ch)
    )


def _request_from_query(request: Request) -> dict[str, Any]:
    """The shareable URL (K1) as a K2 request:
    cards=a,b,c&mirage=x&book_of_changes=target:suit&option=value."""
    q = request.query_params
    picked: list[str] = []
    for raw in [*q.getlist("cards"), *q.getlist("card")]:
        picked.extend(part for part in raw.split(",") if part)
    chosen: dict[str, Any] = {}
    for key in scoring.CHOICE_KEYS:
        value = q.get(key)
        if not value:
            continue
        if key == "book_of_changes":
            target, _, suit = value.partition(":")
            chosen[key] = {"target": target, "suit": suit}
        else:
            chosen[key] = value
    options = {key: q[key] for key in SCORING_OPTION_KEYS if q.get(key)}
    for key, value in list(options.items()):
        if value in ("true", "false"):
            options[key] = value == "true"
    request_body: dict[str, Any] = {
        "cards": list(dict.fromkeys(picked)),
        "choices": chosen,
        "options": options,
    }
    discard = [part for raw in q.getlist("discard") for part in raw.split(",") if part]
    if discard:
        request_body["discard_area"] = list(dict.fromkeys(discard))
    pinned = [key for key in q.getlist("pin") if key in scoring.CHOICE_KEYS]
    if pinned:
        request_body["pinned"] = pinned
    return request_body


def _controls(req: dict[str, Any], result: dict[str, Any] | None) -> list[dict[str, Any]]:
    """One control per choice card in the hand, with the values it accepts now."""
    try:
        hand = [cards.lookup(c).slug for c in req["cards"]]
        options = RealmsOptions.model_validate(req.get("options") or {})
    except (KeyError, ValueError):
        return []
    draft = (result or {}).get("choices") or req.get("choices") or {}
    discard = req.get("discard_area")
    out = []
    for key in scoring.choice_keys(hand):
        try:
            values = scoring.choice_values(key, hand, draft, options, discard_area=discard)
        except (KeyError, ValueError):
            values = scoring.choice_values(key, hand, draft, options)
        out.append(
            {"key": key, "card": calculator._CHOICE_CARD_NAME[key], "value": draft.get(key), "values": values}
        )
    return out


@pages.get("/realms/calculator", response_class=HTMLResponse)
async def calculator_page(request: Request) -> Response:
    req = _request_from_query(request)
    result: dict[str, Any] | None = None
    error: str | None = None
    search: dict[str, Any] | None = None
    if req["cards"]:
        try:
            if request.query_params.get("best"):
                deadline = time.monotonic() + SEARCH_BUDGET_SECONDS
                result = await asyncio.to_thread(
                    calculator.best_request, req, should_stop=lambda: time.monotonic() > deadline
                )
                search = result.pop("search", None)
            else:
                result = calculator.score_request(
                    {k: v for k, v in req.items() if k in ("cards", "choices", "options")}
                )
        except calculator.RequestError as exc:
            error = render(exc.message, exc.params)
    fields = [f for f in option_fields_for_realms() if f["name"] in SCORING_OPTION_KEYS]
    return page(
        request,
        "realms/calculator.html",
        req=req,
        result=result,
        error=error,
        search=search,
        controls=_controls(req, result),
        groups=cards.cards_by_suit(),
        fields=fields,
        fold=_fold,
        C=cards,
    )


def option_fields_for_realms() -> list[dict[str, Any]]:
    from app.games.realms import GAME

    return option_fields(GAME)
