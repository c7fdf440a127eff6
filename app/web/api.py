"""The JSON API for bots and other clients (documented at /docs)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.games import registry
from app.services import accounts, moves, tables
from app.services.errors import ServiceError
from app.web.deps import CsrfChecked, CurrentUser, OptionalUser, RuntimeDep

router = APIRouter(prefix="/api", dependencies=[CsrfChecked])


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class Registration(Credentials):
    invite: str | None = Field(
        None, max_length=200, description="An invite token, when registration is by invitation."
    )


class UserOut(BaseModel):
    id: int
    name: str
    is_admin: bool
    is_guest: bool


class GameOut(BaseModel):
    id: str
    title: str
    min_players: int
    max_players: int
    options_schema: dict[str, Any]


class NewTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40)
    seats: int
    options: dict[str, Any] = Field(default_factory=dict)
    turn_hours: int | None = Field(None, description="Hours per turn before the bot plays; null: none.")


class NewTableOut(BaseModel):
    id: int
    invite_url: str
    seat: int
    game: str
    status: str


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None
    invite: str | None = Field(None, max_length=200)


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None


class SeatOut(BaseModel):
    seat: int


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(description="The table version the move was made against.")
    move: dict[str, Any] = Field(description="The move, in the game's own vocabulary (see legal_moves).")
    seat: int | None = Field(None, description="Optional: the seat the caller believes is theirs.")


class TableState(BaseModel):
    id: int
    game: str
    title: str
    status: str = Field(description="waiting | playing | finished")
    version: int
    seat: int | None = Field(description="The caller's seat, or null for a spectator.")
    host: bool
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    to_act: list[int]
    view: dict[str, Any] | None = Field(
        description="What the caller's seat may see (public view for spectators)."
    )
    legal_moves: list[dict[str, Any]]
    result: dict[str, Any] | None
    rematch_id: int | None = None
    deadline: str | None = Field(
        None, description="When the server acts for the waiting seats (ISO 8601), if ever."
    )
    prefs: dict[str, Any] | None = Field(
        None, description="The caller's own seat preferences, for games that have some."
    )
    # Asynchronous play (app/services/turn_deadlines.py).
    turn_hours: int | None = Field(None, description="Hours per turn, or null: no turn deadline.")
    turn_deadline: str | None = Field(
        None, description="When the bot plays for the seats now to act (ISO 8601), if ever."
    )
    notes: list[dict[str, Any]] = Field(
        default_factory=list, description="The platform's lines in the log (deadlines, votes)."
    )
    votable: list[int] = Field(
        default_factory=list, description="Seats that missed a deadline the caller may vote about."
    )
    votes: dict[str, dict[str, int]] = Field(
        default_factory=dict, description="Per seat, how many voted 'bot' and 'end'."
    )
    my_votes: dict[str, str] = Field(default_factory=dict, description="The caller's own votes, per seat.")


class ErrorOut(BaseModel):
    code: str
    message: str


class StaleOut(ErrorOut):
    state: TableState


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "An illegal move or action, with the game's sentence."},
    401: {"model": ErrorOut, "description": "Not logged in."},
    403: {"model": ErrorOut, "description": "Not your seat, not the host, or no invitation."},
    404: {"model": ErrorOut, "description": "No such table."},
    422: {"model": ErrorOut, "description": "A malformed request."},
}


def _user_out(user: Any) -> UserOut:
    return UserOut(id=user.id, name=user.name, is_admin=user.is_admin, is_guest=user.is_guest)


@router.post("/auth/register", status_code=201, response_model=UserOut, responses=ERRORS)
async def register(rt: RuntimeDep, request: Request, body: Registration) -> UserOut:
    invited = rt.settings.registration == "open"
    if not invited and body.invite:
        try:
            await tables.table_for_invite(rt, body.invite)
            invited = True
        except ServiceError:
            invited = False
    user = await accounts.register(rt.sm, body.name, body.password, invited=invited)
    request.session["sid"] = await accounts.open_session(rt.sm, user.id)
    return _user_out(user)


@router.post("/auth/login", response_model=UserOut, responses=ERRORS)
async def login(rt: RuntimeDep, request: Request, body: Credentials) -> UserOut:
    user = await accounts.authenticate(rt.sm, body.name, body.password, rt.limiter)
    request.session["sid"] = await accounts.open_session(rt.sm, user.id)
    return _user_out(user)


@router.post("/auth/logout", status_code=204, responses=ERRORS)
async def logout(rt: RuntimeDep, request: Request) -> Response:
    sid = request.session.get("sid")
    if sid:
        await accounts.close_session(rt.sm, sid)
    request.session.clear()
    return Response(status_code=204)


@router.get("/auth/me", response_model=UserOut, responses=ERRORS)
async def me(user: CurrentUser) -> UserOut:
    return _user_out(user)


@router.get("/games", response_model=list[GameOut])
async def games() -> list[GameOut]:
    return [
        GameOut(
            id=g.id,
            title=g.title,
            min_players=g.min_players,
            max_players=g.max_players,
            options_schema=g.Options.model_json_schema(),
        )
        for g in registry.all_games()
    ]


@router.post("/tables", status_code=201, response_model=NewTableOut, responses=ERRORS)
async def create_table(rt: RuntimeDep, user: CurrentUser, body: NewTable) -> NewTableOut:
    table, token = await tables.create_table(rt, user, body.game, body.seats, body.options, body.turn_hours)
    return NewTableOut(
        id=table.id, invite_url=tables.invite_url(rt, token), seat=0, game=table.game, status=table.status
    )


@router.get("/tables", responses=ERRORS)
async def list_tables(rt: RuntimeDep, user: CurrentUser) -> list[dict[str, Any]]:
    """My tables, most urgent first."""
    return await tables.my_tables(rt, user)


@router.get("/tables/{table_id}", response_model=TableState, responses=ERRORS)
async def get_table(rt: RuntimeDep, user: OptionalUser, table_id: int) -> dict[str, Any]:
    if user is None:
        from app.services.errors import NotAuthenticated

        raise NotAuthenticated()
    return await tables.get_snapshot(rt, table_id, user)


@router.post("/tables/{table_id}/join", response_model=SeatOut, responses=ERRORS)
async def join(
    rt: RuntimeDep, user: CurrentUser, table_id: int, body: Annotated[JoinIn | None, Body()] = None
) -> SeatOut:
    body = body or JoinIn()
    return SeatOut(seat=await tables.join(rt, user, table_id, body.seat, body.invite))


@router.post("/tables/{table_id}/leave", status_code=204, responses=ERRORS)
async def leave(rt: RuntimeDep, user: CurrentUser, table_id: int) -> Response:
    await tables.leave(rt, user, table_id)
    return Response(status_code=204)


@router.post("/tables/{table_id}/bots", response_model=SeatOut, responses=ERRORS)
async def add_bot(
    rt: RuntimeDep, user: CurrentUser, table_id: int, body: Annotated[SeatIn | None, Body()] = None
) -> SeatOut:
    body = body or SeatIn()
    return SeatOut(seat=await tables.add_bot(rt, user, table_id, body.seat))


@router.delete("/tables/{table_id}/seats/{seat}", status_code=204, responses=ERRORS)
async def free_seat(rt: RuntimeDep, user: CurrentUser, table_id: int, seat: int) -> Response:
    await tables.free_seat(rt, user, table_id, seat)
    return Response(status_code=204)


@router.post("/tables/{table_id}/start", response_model=TableState, responses=ERRORS)
async def start(rt: RuntimeDep, user: CurrentUser, table_id: int) -> dict[str, Any]:
    await tables.start(rt, user, table_id)
    return await tables.get_snapshot(rt, table_id, user)


@router.post("/tables/{table_id}/invite", responses=ERRORS)
async def new_invite(rt: RuntimeDep, user: CurrentUser, table_id: int) -> dict[str, str]:
    """A new invite link; the old one stops working."""
    token = await tables.new_invite(rt, user, table_id)
    return {"invite_url": tables.invite_url(rt, token)}


@router.delete("/tables/{table_id}/invite", status_code=204, responses=ERRORS)
async def revoke_invite(rt: RuntimeDep, user: CurrentUser, table_id: int) -> Response:
    await tables.revoke_invite(rt, user, table_id)
    return Response(status_code=204)


@router.put("/tables/{table_id}/prefs", status_code=204, responses=ERRORS)
async def set_prefs(
    rt: RuntimeDep, user: CurrentUser, table_id: int, body: Annotated[dict[str, Any], Body()]
) -> Response:
    """Change my own seat preferences (e.g. when to be asked to react)."""
    await tables.set_prefs(rt, user, table_id, body)
    return Response(status_code=204)


@router.post("/tables/{table_id}/rematch", status_code=201, responses=ERRORS)
async def rematch(rt: RuntimeDep, user: CurrentUser, table_id: int) -> dict[str, int]:
    return {"id": await tables.rematch(rt, user, table_id)}


@router.post(
    "/tables/{table_id}/moves",
    response_model=TableState,
    responses={**ERRORS, 409: {"model": StaleOut, "description": "Stale version: the fresh state."}},
)
async def submit_move(rt: RuntimeDep, user: CurrentUser, table_id: int, body: MoveIn) -> dict[str, Any]:
    return await moves.submit(rt, table_id, user, body.version, body.move, claimed_seat=body.seat)
