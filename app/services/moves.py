"""One move = one transaction: seat, version, legality, log, state, notify."""

from __future__ import annotations

import json
import logging
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from app.games.base import N_, IllegalMove, Timeout, dump_move, parse_move
from app.services import notices
from app.services.errors import (
    Conflict,
    Forbidden,
    IllegalMoveError,
    Invalid,
    StaleVersion,
)
from app.services.runtime import Runtime, rng_for
from app.services.tables import _write_state, game_or_error, load_table, seat_of, settle, snapshot
from app.store.models import GameTable, MoveRecord, TableNote, User

log = logging.getLogger("feytable.moves")


def _event(**fields: Any) -> str:
    """A structured log line (JSON). Never the move's parameters: they may
    name hidden cards or secret choices."""
    return json.dumps(fields, separators=(",", ":"), default=str)


def _move_summary(data: Any) -> str:
    if isinstance(data, dict):
        action = data.get("action") or data.get("type")
        return str(action)[:40] if action is not None else "?"
    return "?"


async def submit(
    rt: Runtime,
    table_id: int,
    user: User | None,
    version: Any,
    move_data: Any,
    *,
    claimed_seat: Any = None,
    bot_seat: int | None = None,
    timeout: Timeout | None = None,
    deadline_seat: int | None = None,
) -> dict[str, Any]:
    """Apply one move and return the caller's fresh snapshot.

    Humans are identified by `user`; the bot driver passes `bot_seat`, the
    deadline watcher the game's `timeout`, the per-turn deadline watcher
    (turn_deadlines.py) the `deadline_seat` whose time ran out; all go
    through the same checks."""
    user_id = user.id if user else None
    try:
        result = await _submit(
            rt, table_id, user_id, version, move_data, claimed_seat, bot_seat, timeout, deadline_seat
        )
    except (IllegalMoveError, StaleVersion, Forbidden, Invalid, Conflict) as exc:
        log.info(
            _event(
                event="move_rejected",
                table=table_id,
                user=user_id,
                bot_seat=bot_seat,
                timeout=timeout.key if timeout else None,
                action=_move_summary(move_data),
                code=exc.code,
            )
        )
        raise
    table, seq, seat = result
    log.info(
        _event(
            event="move", table=table_id, seq=seq, seat=seat, user=user_id, action=_move_summary(move_data)
        )
    )
    rt.hub.after_commit(table_id, seq)
    if any(s.is_bot for s in table.seats):  # the profile's third item: a read per move for nothing
        rt.bots.kick(table_id)
    return snapshot(table, user_id) if user is not None else {}


async def _submit(
    rt: Runtime,
    table_id: int,
    user_id: int | None,
    version: Any,
    move_data: Any,
    claimed_seat: Any,
    bot_seat: int | None,
    timeout: Timeout | None,
    deadline_seat: int | None = None,
) -> tuple[GameTable, int, int]:
    if not isinstance(version, int) or isinstance(version, bool):
        raise Invalid("bad_version", N_("Send the table's version as a whole number."))
    try:
        async with rt.sm.begin() as db:
            table = await load_table(db, table_id, lock=True)
            game = game_or_error(table.game)
            if timeout is not None:
                seat: int | None = timeout.seat
            elif deadline_seat is not None:
                seat = deadline_seat
            elif bot_seat is not None:
                seat = bot_seat if table.seats[bot_seat].is_bot else None
            else:
                seat = seat_of(table, user_id)
            if seat is None:
                raise Forbidden("no_seat", N_("You have no seat at this table, so you cannot play here."))
            if claimed_seat is not None and claimed_seat != seat:
                raise Forbidden("not_your_seat", N_("You can only act for your own seat."))
            if table.status == "waiting":
                raise Conflict("not_started", N_("The game has not started yet."))
            if table.status == "finished":
                raise IllegalMoveError("game_over", N_("The game is over."))
            if version != table.version:
                raise StaleVersion(snapshot(table, user_id))
            try:
                move = parse_move(game, move_data)
            except ValidationError as exc:
                raise Invalid(
                    "malformed_move",
                    N_("That move is not well-formed: %(problem)s"),
                    problem=_first_error(exc),
                ) from None
            state = game.load_state(table.state or {})
            # What notices compare against: who had to act before this move.
            before_to_act, before_status = list(table.to_act or []), table.status
            seq = table.version + 1
            if timeout is not None:
                by_host = timeout.as_host
            else:
                by_host = user_id is not None and table.host_id == user_id
            try:
                new_state = game.apply(state, seat, move, rng_for(table.seed, seq), host=by_host)
            except IllegalMove as exc:
                raise IllegalMoveError(exc.code, exc.message, **exc.params) from None
            db.add(
                MoveRecord(
                    table_id=table.id,
                    seq=seq,
                    seat=seat,
                    move=dump_move(game, move),
                    by_host=by_host,
                    actor=_actor(timeout, bot_seat, deadline_seat),
                )
            )
            if deadline_seat is not None:
                # The game's log belongs to the rules layer: the platform says it here.
                db.add(
                    TableNote(
                        table_id=table.id,
                        text=N_("Time ran out for %(player)s: the bot played this turn for them."),
                        params={"seat": seat, "player": "", "seq": seq},
                    )
                )
                await notices.bot_played_for(db, rt.settings, table, seat, seq)
            new_state, seq = settle(db, game, table, new_state, seq)
            await db.flush()
            # Compare-and-set: the UPDATE carries "WHERE version = <the version we
            # read>" (version_id_col), so a racing writer can never both land.
            _write_state(game, table, new_state, seq)
            await db.flush()
            # Notices go to the outbox in this transaction: no move, no notice.
            await notices.after_move(db, rt.settings, table, before_to_act, before_status)
            await rt.hub.in_transaction(db, table.id, seq)
    except (IntegrityError, StaleDataError):
        # Another submission took this seq first: ours is stale.
        async with rt.sm() as db:
            table = await load_table(db, table_id)
            raise StaleVersion(snapshot(table, user_id)) from None
    return table, seq, seat


def _actor(timeout: Timeout | None, bot_seat: int | None, deadline_seat: int | None) -> str:
    if timeout is not None:
        return "timeout"
    if deadline_seat is not None:
        return "deadline"
    return "bot" if bot_seat is not None else "player"


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    return f"{where}: {err.get('msg', '')}" if where else str(err.get("msg", ""))


async def replay(rt: Runtime, table_id: int) -> tuple[bool, dict[str, Any] | None, dict[str, Any] | None]:
    """Rebuild a table's state from its seed and move log; compare with the stored state."""
    async with rt.sm() as db:
        table = await load_table(db, table_id)
        records = (
            await db.scalars(
                select(MoveRecord).where(MoveRecord.table_id == table_id).order_by(MoveRecord.seq)
            )
        ).all()
    if table.state is None:
        return True, None, None
    game = game_or_error(table.game)
    options = game.Options.model_validate(table.options)
    state = game.setup(table.seat_count, options, rng_for(table.seed, 0))
    for i, rec in enumerate(records, start=1):
        if rec.seq != i:
            return False, None, table.state
        state = game.apply(
            state, rec.seat, parse_move(game, rec.move), rng_for(table.seed, rec.seq), host=rec.by_host
        )
    rebuilt = json.loads(json.dumps(game.dump_state(state)))
    stored = json.loads(json.dumps(table.state))
    return rebuilt == stored and len(records) == table.version, rebuilt, stored
