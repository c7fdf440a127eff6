"""Per-turn deadlines chosen at table creation (`tables.turn_hours`), the
reminder before one runs out, the bot that plays an absent seat's turn, and
the other players' vote to hand that seat to a bot for good or end the table.

The deadline of the seats now asked to act is `turn_started_at + turn_hours`
(turn_started_at moves whenever the set of seats to act changes). When it
passes, the game's own bot (`Game.bot_move`) plays for each human seat still
to act, through the ordinary move service: the move is recorded with actor
"deadline" and a platform line in the table's log says so. A reminder goes
out when a quarter of the time is left.

Every process may run the watcher: moves are compare-and-set on the table's
version and reminders are de-duplicated by the outbox's unique key, so two
watchers never double anything. The clock is injectable for tests.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.games.base import N_, dump_move
from app.services import notices
from app.services.errors import BadRequest, Conflict, Forbidden, Invalid, ServiceError
from app.services.tables import _changed, game_or_error, load_table, seat_of, utcnow
from app.store.models import GameTable, MoveRecord, SeatVote, TableNote, User

if TYPE_CHECKING:
    from app.services.runtime import Runtime

log = logging.getLogger("feytable.turn_deadlines")

MAX_MOVES_PER_TURN = 20  # a turn of several moves (draw, then discard) is played whole
CHOICES = ("bot", "end")


def due_at(table: GameTable) -> datetime | None:
    if not table.turn_hours or table.status != "playing" or table.turn_started_at is None:
        return None
    return notices.as_utc(table.turn_started_at) + timedelta(hours=table.turn_hours)


def _waiting_humans(table: GameTable) -> list[int]:
    return [
        i
        for i in (table.to_act or [])
        if i < len(table.seats) and table.seats[i].user_id is not None and not table.seats[i].is_bot
    ]


async def run_due(rt: Runtime, now: datetime | None = None) -> int:
    """Send due reminders and play every overdue turn; return how many moves were made."""
    now = now or utcnow()
    async with rt.sm() as db:
        ids = (
            await db.scalars(
                select(GameTable.id).where(GameTable.status == "playing", GameTable.turn_hours.is_not(None))
            )
        ).all()
    played = 0
    for table_id in ids:
        try:
            await _remind(rt, table_id, now)
            played += await _play_overdue(rt, table_id, now)
        except Exception:  # one broken table must not stop the others
            log.exception("turn deadline at table %s failed", table_id)
    return played


async def _remind(rt: Runtime, table_id: int, now: datetime) -> None:
    try:
        async with rt.sm.begin() as db:
            table = await load_table(db, table_id)
            due = due_at(table)
            if due is None or now >= due or now < due - timedelta(hours=table.turn_hours or 0) / 4:
                return
            turn_key = str(int(notices.as_utc(table.turn_started_at).timestamp()))  # type: ignore[arg-type]
            for index in _waiting_humans(table):
                await notices.reminder(db, rt.settings, table, table.seats[index], due, turn_key)
    except IntegrityError:  # another process queued the same reminder first
        pass


async def _play_overdue(rt: Runtime, table_id: int, now: datetime) -> int:
    """The bot plays the turn of the first overdue human seat (all its moves,
    while it stays that seat's turn). One seat per pass: the next seat's own
    time starts now."""
    from app.services.moves import submit
    from app.services.runtime import rng_for

    target: int | None = None
    moves = 0
    for _ in range(MAX_MOVES_PER_TURN):
        async with rt.sm() as db:
            table = await load_table(db, table_id)
        due = due_at(table)
        if due is None or table.state is None:
            break
        waiting = _waiting_humans(table)
        if target is None:
            if due > now or not waiting:
                break
            target = waiting[0]
        elif target not in waiting:
            break
        game = game_or_error(table.game)
        state = game.load_state(table.state)
        rng = rng_for(table.seed, f"deadline:{table.version}:{target}")
        try:
            move = game.bot_move(state, target, rng)
        except Exception:  # a bot bug must not stall the table: any legal move
            log.exception("bot of %s failed at table %s; playing a random legal move", game.id, table_id)
            move = rng.choice(game.legal_moves(state, target))
        try:
            await submit(rt, table_id, None, table.version, dump_move(game, move), deadline_seat=target)
        except ServiceError as exc:  # the player moved just in time: fine
            log.info("deadline move at table %s not applied: %s", table_id, exc.code)
            break
        moves += 1
    return moves


# -- votes ---------------------------------------------------------------------------


async def vote(rt: Runtime, user: User, table_id: int, seat: int, choice: str) -> str | None:
    """`user` votes about `seat` (whose deadline has passed): "bot" hands it to a
    bot for good, "end" ends the table. A strict majority of the other seated
    humans decides. Returns the outcome ("bot", "end") once decided, else None."""
    if choice not in CHOICES:
        raise Invalid("bad_vote", N_("Vote 'bot' or 'end'."))
    outcome: str | None = None
    async with rt.sm.begin() as db:
        table = await load_table(db, table_id, lock=True)
        if table.status != "playing":
            raise Conflict("not_playing", N_("Votes are only for tables in play."))
        mine = seat_of(table, user.id)
        if mine is None or table.seats[mine].is_bot:
            raise Forbidden("no_seat", N_("You have no seat at this table."))
        if not isinstance(seat, int) or not (0 <= seat < len(table.seats)) or seat == mine:
            raise Invalid("bad_seat", N_("You can vote only about another player's seat."))
        target = table.seats[seat]
        if target.user_id is None or target.is_bot:
            raise BadRequest("already_bot", N_("A bot already plays that seat."))
        missed = await db.scalar(
            select(MoveRecord.id)
            .where(MoveRecord.table_id == table_id, MoveRecord.seat == seat, MoveRecord.actor == "deadline")
            .limit(1)
        )
        if missed is None:
            raise BadRequest("no_missed_deadline", N_("That player has not missed a deadline."))
        existing = await db.scalar(
            select(SeatVote).where(
                SeatVote.table_id == table_id, SeatVote.seat == seat, SeatVote.voter_id == user.id
            )
        )
        if existing is None:
            db.add(SeatVote(table_id=table_id, seat=seat, voter_id=user.id, choice=choice))
        else:
            existing.choice = choice
        await db.flush()
        voters = {s.user_id for s in table.seats if s.user_id is not None and not s.is_bot} - {target.user_id}
        ballots = (
            await db.scalars(select(SeatVote).where(SeatVote.table_id == table_id, SeatVote.seat == seat))
        ).all()
        counts = {c: sum(1 for b in ballots if b.choice == c and b.voter_id in voters) for c in CHOICES}
        for option in CHOICES:
            if counts[option] * 2 > len(voters):
                outcome = option
        if outcome is not None:
            for ballot in ballots:
                await db.delete(ballot)
            params = {"seat": seat, "player": ""}
            if outcome == "bot":
                # The player leaves the seat; the game's bot plays it from now on.
                db.add(
                    TableNote(
                        table_id=table_id,
                        text=N_("By vote, a bot now plays for %(player)s."),
                        params=params,
                    )
                )
                target.user_id, target.is_bot = None, True
            else:
                game = game_or_error(table.game)
                result = game.result(game.load_state(table.state)) if table.state is not None else None
                db.add(TableNote(table_id=table_id, text=N_("By vote, the table was ended."), params=params))
                before = table.status
                table.status = "finished"
                table.to_act = []
                table.timer_key = table.timer_due_at = None
                # A game cut short has no final scores unless the game says it has.
                table.result = result.dump() if result is not None else None
                await db.flush()
                await notices.after_move(db, rt.settings, table, [], before)
    _changed(rt, table_id)
    if outcome == "bot":
        rt.bots.kick(table_id)
    return outcome
