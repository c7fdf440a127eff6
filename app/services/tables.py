"""Tables: create, invite, join, leave, bots, start, rematch, and what a caller sees."""

from __future__ import annotations

import hashlib
import logging
import random
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import ValidationError
from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.games import registry
from app.games.base import N_, Game, IllegalMove, dump_move, parse_prefs
from app.services import notices
from app.services.errors import BadRequest, Conflict, Forbidden, Invalid, NotFound, table_not_found
from app.services.runtime import Runtime, rng_for
from app.store.models import GameTable, MoveRecord, Seat, User

log = logging.getLogger("feytable.tables")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def game_or_error(game_id: str) -> Game:
    game = registry.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise Invalid("unknown_game", N_("There is no game called '%(game)s'."), game=str(game_id)[:40])
    return game


def validate_options(game: Game, options: Any) -> dict[str, Any]:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise Invalid("bad_options", N_("Options must be a JSON object."))
    try:
        return game.Options.model_validate(options).model_dump(mode="json")
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "options"
        raise Invalid(
            "bad_options", N_("Option '%(option)s': %(problem)s"), option=where, problem=first.get("msg", "")
        ) from None


def utcnow() -> datetime:
    return datetime.now(UTC)


async def load_table(db: AsyncSession, table_id: int, *, lock: bool = False) -> GameTable:
    if not isinstance(table_id, int) or not (0 < table_id < 2**62):
        raise table_not_found()
    stmt = select(GameTable).where(GameTable.id == table_id)
    if lock:
        stmt = stmt.with_for_update()
    table = await db.scalar(stmt)
    if table is None:
        raise table_not_found()
    return table


def seat_of(table: GameTable, user_id: int | None) -> int | None:
    if user_id is None:
        return None
    for seat in table.seats:
        if seat.user_id == user_id:
            return seat.index
    return None


def _require_host(table: GameTable, user: User) -> None:
    if table.host_id != user.id:
        raise Forbidden("not_host", N_("Only the table host can do that."))


def _require_waiting(table: GameTable) -> None:
    if table.status != "waiting":
        raise Conflict("already_started", N_("This table has already started."))


TURN_HOURS = (12, 24, 48, 72)  # the deadlines offered on the new-table form


async def create_table(
    rt: Runtime, user: User, game_id: str, seats: int, options: Any, turn_hours: int | None = None
) -> tuple[GameTable, str]:
    game = game_or_error(game_id)
    # A platform setting, not a game option: hours per turn, or None (no deadline).
    if turn_hours is not None and (
        not isinstance(turn_hours, int) or isinstance(turn_hours, bool) or not (1 <= turn_hours <= 24 * 14)
    ):
        raise Invalid("bad_turn_hours", N_("A turn deadline is a number of hours from 1 to 336."))
    if not isinstance(seats, int) or not (game.min_players <= seats <= game.max_players):
        raise Invalid(
            "bad_seat_count",
            N_("%(game)s is played by %(min)s to %(max)s players."),
            game=game.title,
            min=game.min_players,
            max=game.max_players,
        )
    opts = validate_options(game, options)
    # Some house rules change the player count (e.g. Fantasy without its
    # expansion is for 2-4): a trial deal says so now rather than at the start.
    _trial_setup(game, seats, opts)
    token = secrets.token_urlsafe(32)
    async with rt.sm.begin() as db:
        table = GameTable(
            game=game.id,
            options=opts,
            seat_count=seats,
            status="waiting",
            seed=secrets.token_hex(32),
            version=0,
            to_act=[],
            host_id=user.id,
            invite_hash=hash_token(token),
            turn_hours=turn_hours,
        )
        table.seats = [Seat(index=i, user_id=user.id if i == 0 else None) for i in range(seats)]
        db.add(table)
    return table, token


def invite_url(rt: Runtime, token: str) -> str:
    return f"{rt.settings.base_url.rstrip('/')}/invite/{token}"


async def new_invite(rt: Runtime, user: User, table_id: int) -> str:
    """Replace the table's invite link: the old one stops working."""
    token = secrets.token_urlsafe(32)
    async with rt.sm.begin() as db:
        table = await load_table(db, table_id, lock=True)
        _require_host(table, user)
        table.invite_hash = hash_token(token)
    _changed(rt, table_id)
    return token


async def revoke_invite(rt: Runtime, user: User, table_id: int) -> None:
    async with rt.sm.begin() as db:
        table = await load_table(db, table_id, lock=True)
        _require_host(table, user)
        table.invite_hash = None


async def table_for_invite(rt: Runtime, token: str) -> GameTable:
    if not isinstance(token, str) or not (10 < len(token) < 100):
        raise NotFound("bad_invite", N_("This invitation link is not valid (any more)."))
    async with rt.sm() as db:
        table = await db.scalar(select(GameTable).where(GameTable.invite_hash == hash_token(token)))
    if table is None:
        raise NotFound("bad_invite", N_("This invitation link is not valid (any more)."))
    return table


def _check_invite(table: GameTable, invite: str | None) -> bool:
    if not invite or not table.invite_hash or not isinstance(invite, str):
        return False
    return secrets.compare_digest(table.invite_hash, hash_token(invite))


async def join(
    rt: Runtime, user: User, table_id: int, seat: int | None = None, invite: str | None = None
) -> int:
    async with rt.sm.begin() as db:
        table = await load_table(db, table_id, lock=True)
        mine = seat_of(table, user.id)
        if mine is not None:
            if seat is None or seat == mine:
                return mine
            raise Conflict(
                "already_seated", N_("You already have seat %(seat)s at this table."), seat=mine + 1
            )
        _require_waiting(table)
        if table.host_id != user.id and not _check_invite(table, invite):
            raise Forbidden("invite_needed", N_("You need a valid invitation to join this table."))
        chosen = _open_seat(table, seat)
        chosen.user_id = user.id
        index = chosen.index
    _changed(rt, table_id)
    return index


def _open_seat(table: GameTable, seat: int | None) -> Seat:
    if seat is not None:
        if not isinstance(seat, int) or not (0 <= seat < len(table.seats)):
            raise Invalid("bad_seat", N_("This table has no seat %(seat)s."), seat=seat)
        chosen = table.seats[seat]
        if not chosen.is_open:
            raise Conflict("seat_taken", N_("That seat is already taken."))
        return chosen
    for candidate in table.seats:
        if candidate.is_open:
            return candidate
    raise Conflict("table_full", N_("This table has no free seat."))


async def leave(rt: Runtime, user: User, table_id: int) -> None:
    async with rt.sm.begin() as db:
        table = await load_table(db, table_id, lock=True)
        _require_waiting(table)
        mine = seat_of(table, user.id)
        if mine is None:
            raise Forbidden("no_seat", N_("You have no seat at this table."))
        if table.host_id == user.id:
            raise BadRequest(
                "host_stays", N_("The host cannot leave; the table can simply be left unstarted.")
            )
        table.seats[mine].user_id = None
    _changed(rt, table_id)


async def add_bot(rt: Runtime, user: User, table_id: int, seat: int | None = None) -> int:
    async with rt.sm.begin() as db:
        table = await load_table(db, table_id, lock=True)
        _require_host(table, user)
        _require_waiting(table)
        chosen = _open_seat(table, seat)
        chosen.is_bot = True
        index = chosen.index
    _changed(rt, table_id)
    return index


async def free_seat(rt: Runtime, user: User, table_id: int, seat: int) -> None:
    """The host removes a bot or a player from a seat before the start."""
    async with rt.sm.begin() as db:
        table = await load_table(db, table_id, lock=True)
        _require_host(table, user)
        _require_waiting(table)
        if not (0 <= seat < len(table.seats)):
            raise Invalid("bad_seat", N_("This table has no seat %(seat)s."), seat=seat)
        target = table.seats[seat]
        if target.user_id == user.id:
            raise BadRequest(
                "host_stays", N_("The host cannot leave; the table can simply be left unstarted.")
            )
        target.user_id, target.is_bot = None, False
    _changed(rt, table_id)


async def start(rt: Runtime, user: User, table_id: int) -> None:
    game: Game
    async with rt.sm.begin() as db:
        table = await load_table(db, table_id, lock=True)
        _require_host(table, user)
        _require_waiting(table)
        game = game_or_error(table.game)
        filled = [s for s in table.seats if not s.is_open]
        if len(filled) < game.min_players:
            raise BadRequest(
                "not_enough_players",
                N_("%(game)s needs at least %(min)s players."),
                game=game.title,
                min=game.min_players,
            )
        # Open seats are dropped: the players keep their order, renumbered from 0.
        for seat in table.seats:
            if seat.is_open:
                await db.delete(seat)
        await db.flush()
        for i, seat in enumerate(filled):
            seat.index = -1 - i
        await db.flush()
        for i, seat in enumerate(filled):
            seat.index = i
        table.seat_count = len(filled)
        options = game.Options.model_validate(table.options)
        _trial_setup(game, len(filled), table.options)
        state = game.setup(len(filled), options, rng_for(table.seed, 0))
        table.status = "playing"
        state, version = settle(db, game, table, state, 0)
        _write_state(game, table, state, version)
        await db.flush()
        # "Your turn" notices for whoever acts first, in this transaction.
        await notices.after_move(db, rt.settings, table, [], "waiting")
        await rt.hub.in_transaction(db, table.id, version)
    rt.hub.after_commit(table_id, version)
    rt.bots.kick(table_id)


def _trial_setup(game: Game, seats: int, options: dict[str, Any]) -> None:
    """Deal once with a throwaway rng: the game's own refusal (IllegalMove at
    setup) becomes a 400 with its sentence instead of an error at the start."""
    try:
        game.setup(seats, game.Options.model_validate(options), random.Random(0))
    except IllegalMove as exc:
        raise BadRequest(exc.code, exc.message, **exc.params) from None


MAX_AUTO_MOVES = 500  # a guard against a game whose auto moves never stop


def settle(db: AsyncSession, game: Game, table: GameTable, state: Any, version: int) -> tuple[Any, int]:
    """Apply the moves the server makes on the seats' behalf (Game.auto_move),
    each recorded as a move of its own, until none is due. Runs inside the
    caller's transaction: they land with the move that made them due, or not
    at all. Returns the new state and version."""
    # Open seats just dropped at the start may still be in the loaded list.
    prefs = {s.index: parse_prefs(game, s.prefs) for s in table.seats if not s.is_open}
    for _ in range(MAX_AUTO_MOVES):
        if game.result(state) is not None:
            break
        for seat in sorted(game.to_act(state)):
            move = game.auto_move(state, seat, prefs.get(seat))
            if move is not None:
                break
        else:
            break
        try:
            state = game.apply(state, seat, move, rng_for(table.seed, version + 1))
        except IllegalMove:  # a game bug: leave the seat to answer by hand
            log.exception("auto move refused at table %s (%s)", table.id, game.id)
            break
        version += 1
        db.add(
            MoveRecord(table_id=table.id, seq=version, seat=seat, move=dump_move(game, move), actor="auto")
        )
    return state, version


def _write_state(game: Game, table: GameTable, state: Any, version: int) -> None:
    """Store a new state and everything derived from it (to act, result)."""
    to_act = sorted(game.to_act(state))
    if to_act != list(table.to_act or []) or table.turn_started_at is None:
        table.turn_started_at = utcnow()
    table.state = game.dump_state(state)
    table.version = version
    table.to_act = to_act
    timeout = game.timeout(state)
    key = timeout.key if timeout else None
    if key != table.timer_key:
        table.timer_key = key
        table.timer_due_at = utcnow() + timedelta(seconds=timeout.after_seconds) if timeout else None
    result = game.result(state)
    if result is not None:
        table.result = result.dump()
        table.status = "finished"
        table.to_act = []
        table.timer_key = table.timer_due_at = None


async def rematch(rt: Runtime, user: User, table_id: int) -> int:
    """Same players, same options, a new table, started at once."""
    async with rt.sm.begin() as db:
        old = await load_table(db, table_id, lock=True)
        if seat_of(old, user.id) is None:
            raise Forbidden("no_seat", N_("You have no seat at this table."))
        if old.status != "finished":
            raise Conflict("not_finished", N_("A rematch can start once this game is over."))
        if old.rematch_id is not None:
            return old.rematch_id
        new = GameTable(
            game=old.game,
            options=old.options,
            seat_count=len(old.seats),
            status="waiting",
            seed=secrets.token_hex(32),
            version=0,
            to_act=[],
            host_id=user.id,
            invite_hash=None,
            rematch_of=old.id,
            turn_hours=old.turn_hours,
        )
        new.seats = [Seat(index=s.index, user_id=s.user_id, is_bot=s.is_bot) for s in old.seats]
        db.add(new)
        await db.flush()
        # The other players are seated by the host: tell them (outbox, same transaction).
        await notices.invited(db, rt.settings, new, user)
        old.rematch_id = new.id
        new_id = new.id
    await start(rt, user, new_id)
    _changed(rt, table_id)
    return new_id


def _changed(rt: Runtime, table_id: int) -> None:
    """Seat changes before the start: every page watching the table refreshes.

    (SQLite mode dispatches locally; PostgreSQL mode needs the notify too.)"""
    import asyncio

    async def _notify() -> None:
        async with rt.sm.begin() as db:
            version = await db.scalar(select(GameTable.version).where(GameTable.id == table_id))
            await rt.hub.in_transaction(db, table_id, int(version or 0))
        rt.hub.after_commit(table_id, int(version or 0))

    task = asyncio.get_running_loop().create_task(_notify())
    _background.add(task)
    task.add_done_callback(_background.discard)


_background: set[Any] = set()


# -- what a caller sees ---------------------------------------------------------------


def seats_public(table: GameTable) -> list[dict[str, Any]]:
    return [
        {
            "index": s.index,
            "name": s.user.name if s.user else None,
            "is_bot": s.is_bot,
            "is_open": s.is_open,
            "is_guest": bool(s.user and s.user.is_guest),
        }
        for s in table.seats
    ]


def snapshot(table: GameTable, user_id: int | None) -> dict[str, Any]:
    """The GET /api/tables/{id} shape for this caller: everything goes through
    the game's view for the caller's seat (spectators get the public view)."""
    game = game_or_error(table.game)
    seat = seat_of(table, user_id)
    view: dict[str, Any] | None = None
    legal: list[dict[str, Any]] = []
    if table.state is not None:
        state = game.load_state(table.state)
        view = game.view(state, seat)
        if seat is not None and table.status == "playing" and seat in (table.to_act or []):
            legal = [dump_move(game, m) for m in game.legal_moves(state, seat)]
    return {
        "id": table.id,
        "game": table.game,
        "title": game.title,
        "status": table.status,
        "version": table.version,
        "seat": seat,
        "host": table.host_id == user_id if user_id is not None else False,
        "seats": seats_public(table),
        "options": table.options,
        "to_act": list(table.to_act or []),
        "view": view,
        "legal_moves": legal,
        "result": table.result if table.status == "finished" else None,
        "rematch_id": table.rematch_id,
        "deadline": _as_utc(table.timer_due_at).isoformat() if table.timer_due_at else None,
        "prefs": _my_prefs(game, table, seat),
        **_pace(table, user_id, seat),
    }


def _pace(table: GameTable, user_id: int | None, seat: int | None) -> dict[str, Any]:
    """Asynchronous play: the per-turn deadline, the platform's log lines, and
    the votes about seats whose time ran out (counts only, and the caller's own)."""
    due = None
    if table.turn_hours and table.status == "playing" and table.turn_started_at is not None:
        due = _as_utc(table.turn_started_at) + timedelta(hours=table.turn_hours)
    missed = sorted({n.params.get("seat") for n in table.notes if n.params.get("seq") is not None})
    votable: list[int] = []
    if table.status == "playing" and seat is not None and not table.seats[seat].is_bot:
        votable = [
            i
            for i in missed
            if isinstance(i, int)
            and i != seat
            and i < len(table.seats)
            and table.seats[i].user_id is not None
            and not table.seats[i].is_bot
        ]
    votes: dict[int, dict[str, int]] = {}
    for v in table.votes:
        votes.setdefault(v.seat, {"bot": 0, "end": 0})[v.choice] += 1
    return {
        "turn_hours": table.turn_hours,
        "turn_deadline": due.isoformat() if due else None,
        "notes": [{"text": n.text, "params": dict(n.params or {})} for n in table.notes],
        "votable": votable,
        "votes": {str(k): c for k, c in votes.items()},
        "my_votes": {
            str(v.seat): v.choice for v in table.votes if user_id is not None and v.voter_id == user_id
        },
    }


def _my_prefs(game: Game, table: GameTable, seat: int | None) -> dict[str, Any] | None:
    """The caller's own seat preferences (never anyone else's)."""
    if seat is None:
        return None
    prefs = parse_prefs(game, table.seats[seat].prefs if seat < len(table.seats) else None)
    return prefs.model_dump(mode="json") if prefs is not None else None


async def set_prefs(rt: Runtime, user: User, table_id: int, data: Any) -> None:
    """A player changes his own seat preferences. If that makes an automatic
    answer due now (e.g. "never ask me" while a window waits on him), it is
    made at once, in the same transaction."""
    async with rt.sm.begin() as db:
        table = await load_table(db, table_id, lock=True)
        game = game_or_error(table.game)
        seat = seat_of(table, user.id)
        if seat is None:
            raise Forbidden("no_seat", N_("You have no seat at this table."))
        prefs_model = getattr(game, "Prefs", None)
        if prefs_model is None:
            raise BadRequest("no_prefs", N_("This game has no seat preferences."))
        if not isinstance(data, dict):
            raise Invalid("bad_prefs", N_("Preferences must be a JSON object."))
        try:
            prefs = prefs_model.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise Invalid(
                "bad_prefs",
                N_("That preference is not valid: %(problem)s"),
                problem=f"{'.'.join(str(p) for p in first.get('loc', ()))}: {first.get('msg', '')}",
            ) from None
        table.seats[seat].prefs = prefs.model_dump(mode="json")
        before = version = table.version
        if table.status == "playing" and table.state is not None:
            state, version = settle(db, game, table, game.load_state(table.state), table.version)
            if version != table.version:
                _write_state(game, table, state, version)
        await db.flush()
        if version != before:
            await rt.hub.in_transaction(db, table.id, version)
    if version != before:
        rt.hub.after_commit(table_id, version)
        rt.bots.kick(table_id)


def _as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes: they are UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


async def get_snapshot(rt: Runtime, table_id: int, user: User | None) -> dict[str, Any]:
    async with rt.sm() as db:
        table = await load_table(db, table_id)
        return snapshot(table, user.id if user else None)


async def get_table(rt: Runtime, table_id: int) -> GameTable:
    async with rt.sm() as db:
        return await load_table(db, table_id)


async def my_tables(rt: Runtime, user: User) -> list[dict[str, Any]]:
    """My tables, most urgent first: my turn (longest waiting first), then
    tables in play, then those waiting for players, then finished ones."""
    async with rt.sm() as db:
        rows = (
            await db.scalars(
                select(GameTable)
                .join(Seat, Seat.table_id == GameTable.id)
                .where(or_(Seat.user_id == user.id, GameTable.host_id == user.id))
                .distinct()
                .order_by(GameTable.id.desc())
                .limit(500)
            )
        ).all()
    out = []
    for t in rows:
        seat = seat_of(t, user.id)
        my_turn = t.status == "playing" and seat is not None and seat in (t.to_act or [])
        game = registry.get(t.game)
        waiting_on = [s.user.name if s.user else None for s in t.seats if s.index in (t.to_act or [])]
        out.append(
            {
                "id": t.id,
                "game": t.game,
                "title": game.title if game else t.game,
                "status": t.status,
                "my_turn": my_turn,
                "seat": seat,
                "players": [s.user.name if s.user else None for s in t.seats],
                "bots": [s.is_bot for s in t.seats],
                "waiting_on": waiting_on,
                "since": t.turn_started_at or t.created_at,
                # Pace: how long the table has waited on whom (lobby).
                "waited_seconds": (utcnow() - _as_utc(t.turn_started_at)).total_seconds()
                if t.status == "playing" and t.turn_started_at
                else None,
                "turn_hours": t.turn_hours,
                # Seconds left before the bot plays for the seats to act (per-turn deadline).
                "due_seconds": (
                    _as_utc(t.turn_started_at) + timedelta(hours=t.turn_hours) - utcnow()
                ).total_seconds()
                if t.status == "playing" and t.turn_started_at and t.turn_hours
                else None,
            }
        )
    order = {"playing": 1, "waiting": 2, "finished": 3}

    def urgency(row: dict[str, Any]) -> tuple[int, float]:
        since = row["since"]
        ts = since.timestamp() if since else 0.0
        if row["my_turn"]:
            return (0, ts)
        return (order.get(row["status"], 4), -ts)

    out.sort(key=urgency)
    return out


async def next_waiting(rt: Runtime, user: User, after: int | None = None) -> int | None:
    """The table that has waited longest for me (after `after` in that order)."""
    mine = [t["id"] for t in await my_tables(rt, user) if t["my_turn"]]
    if not mine:
        return None
    if after in mine:
        i = mine.index(after)
        rest = mine[i + 1 :] + mine[:i]
        return rest[0] if rest else None
    return mine[0]
