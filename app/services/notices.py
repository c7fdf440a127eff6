"""Notices: what to tell whom, written to the outbox in the caller's transaction.

A notice is queued once per channel (apprise URL or browser push subscription)
of the user, in the SAME transaction as the move, start or vote that caused it:
if that transaction rolls back, no notice exists; if it commits, the notice is
stored and app.services.delivery will send it, even after a restart.

A notice says only what every seat may know: the game's title, the table
number, whose turn it is, the players' names and the link. It never reads the
game state or any view, so it cannot leak a hand, a deck or a secret choice.

Per user (NoticeSettings): which events, quiet hours, a daily digest instead of
one notice per turn, and "not while my table page is visible". Event choices
and the digest are applied when a notice is queued; quiet hours and visibility
when it is about to be sent (they depend on the moment of sending).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import secrets
import warnings
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import delete, inspect, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.games import registry
from app.games.base import N_
from app.i18n import ngettext, render
from app.services.errors import Invalid, NotFound
from app.store.models import (
    GameTable,
    NoticeChannel,
    NoticeSettings,
    OutboxNotice,
    Presence,
    Seat,
    ServerSecret,
    User,
)

log = logging.getLogger("feytable.notices")

# The events a user can switch on or off (all on by default).
EVENTS: tuple[str, ...] = ("turn", "game_over", "invited", "reminder")
# Events switched on or off together with another one.
PREFERENCE_OF = {"missed": "reminder"}
# Events the daily digest replaces, for users who chose it.
DIGESTED = frozenset({"turn", "reminder"})
MAX_CHANNELS = 10


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes: they are UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def table_link(settings: Settings, table_id: int) -> str:
    return f"{settings.base_url.rstrip('/')}/tables/{table_id}"


def _title(table: GameTable) -> str:
    game = registry.get(table.game)
    return f"{game.title if game else table.game} #{table.id}"


def _names(table: GameTable, but: int | None = None) -> str:
    names = [
        (s.user.name if s.user else render(N_("Bot %(n)s"), {"n": s.index + 1}))
        for s in sorted(_live_seats(table).values(), key=lambda s: s.index)
        if s.user_id != but and (s.user is not None or s.is_bot)
    ]
    return ", ".join(names)


# -- settings ---------------------------------------------------------------------------


def defaults(user_id: int) -> NoticeSettings:
    return NoticeSettings(
        user_id=user_id,
        events={},
        quiet_start=None,
        quiet_end=None,
        timezone="UTC",
        digest_hour=None,
        digest_sent_on=None,
        skip_when_visible=True,
    )


async def settings_of(db: AsyncSession, user_id: int) -> NoticeSettings:
    """The user's settings (defaults, not stored, when he never saved any)."""
    return await db.get(NoticeSettings, user_id) or defaults(user_id)


def wants(prefs: NoticeSettings, event: str) -> bool:
    return bool((prefs.events or {}).get(event, True))


def zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def quiet_until(prefs: NoticeSettings, now: datetime) -> datetime | None:
    """If `now` falls in the user's quiet hours, when they end (UTC); else None.

    Quiet hours are [start, end) in the user's local time and may wrap midnight
    (22 to 7)."""
    start, end = prefs.quiet_start, prefs.quiet_end
    if start is None or end is None or start == end:
        return None
    local = now.astimezone(zone(prefs.timezone))
    hour = local.hour
    inside = start <= hour < end if start < end else (hour >= start or hour < end)
    if not inside:
        return None
    day = local.date() if hour < end else local.date() + timedelta(days=1)
    wake = datetime(day.year, day.month, day.day, end, tzinfo=local.tzinfo)
    return wake.astimezone(UTC)


async def save_settings(
    db: AsyncSession,
    user_id: int,
    *,
    events: dict[str, bool],
    quiet_start: int | None,
    quiet_end: int | None,
    timezone: str,
    digest_hour: int | None,
    skip_when_visible: bool,
) -> NoticeSettings:
    for hour in (quiet_start, quiet_end, digest_hour):
        if hour is not None and not (0 <= hour <= 23):
            raise Invalid("bad_hour", N_("Hours go from 0 to 23."))
    if (quiet_start is None) != (quiet_end is None):
        raise Invalid("bad_quiet_hours", N_("Quiet hours need both a start and an end."))
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise Invalid("bad_timezone", N_("'%(zone)s' is not a time zone name."), zone=timezone[:64]) from None
    prefs = await db.get(NoticeSettings, user_id)
    if prefs is None:
        prefs = defaults(user_id)
        db.add(prefs)
    prefs.events = {e: bool(events.get(e, False)) for e in EVENTS}
    prefs.quiet_start, prefs.quiet_end = quiet_start, quiet_end
    prefs.timezone = timezone
    if prefs.digest_hour != digest_hour:
        prefs.digest_sent_on = None
    prefs.digest_hour = digest_hour
    prefs.skip_when_visible = skip_when_visible
    return prefs


# -- channels ---------------------------------------------------------------------------


@functools.cache
def load_apprise() -> Any:
    """apprise, with its plugins loaded once. Some plugins import modules that
    Python 3.11+ deprecates (imghdr): that is apprise's business, not a warning
    for our logs (nor an error in our tests)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import apprise
        from apprise.plugins import N_MGR

        N_MGR.load_modules()
    return apprise


def apprise_check(url: str) -> str | None:
    """None if apprise understands this URL, else the reason it does not."""
    apprise = load_apprise()

    if not (5 <= len(url) <= 2000):
        return N_("That address is empty or too long.")
    if apprise.Apprise.instantiate(url) is None:
        return N_("That is not an address apprise knows (see the apprise list of services).")
    return None


def masked(channel: NoticeChannel) -> str:
    """An apprise URL as apprise prints it in privacy mode: tokens and passwords hidden."""
    if channel.kind == "webpush":
        return render(N_("This browser's push notifications"))
    apprise = load_apprise()

    plugin = apprise.Apprise.instantiate(channel.url)
    # Without the query (apprise's own defaults), which says nothing to the user.
    return plugin.url(privacy=True).split("?", 1)[0] if plugin is not None else "****"


async def add_apprise(db: AsyncSession, user_id: int, url: str) -> NoticeChannel:
    url = url.strip()
    problem = apprise_check(url)
    if problem:
        raise Invalid("bad_channel", problem)
    count = len((await db.scalars(select(NoticeChannel.id).where(NoticeChannel.user_id == user_id))).all())
    if count >= MAX_CHANNELS:
        raise Invalid("too_many_channels", N_("You can have at most %(n)s channels."), n=MAX_CHANNELS)
    channel = NoticeChannel(user_id=user_id, kind="apprise", url=url)
    db.add(channel)
    await db.flush()
    return channel


async def add_push(
    db: AsyncSession, user_id: int, endpoint: str, keys: dict[str, str], *, require_https: bool = True
) -> NoticeChannel:
    """Store a browser's push subscription (one channel per endpoint).

    Browsers' push services are always https: a server reached over https
    accepts no other endpoint, so a user cannot point it at plain-http hosts
    (a server on http, i.e. a test or a LAN, accepts http too)."""
    schemes = ("https://",) if require_https else ("https://", "http://")
    if not endpoint.startswith(schemes) or len(endpoint) > 2000:
        raise Invalid("bad_subscription", N_("That push subscription is not valid."))
    if not isinstance(keys.get("p256dh"), str) or not isinstance(keys.get("auth"), str):
        raise Invalid("bad_subscription", N_("That push subscription is not valid."))
    existing = await db.scalar(
        select(NoticeChannel).where(NoticeChannel.kind == "webpush", NoticeChannel.url == endpoint)
    )
    if existing is not None:
        # The same browser re-subscribing (or now logged in as someone else).
        existing.user_id, existing.keys = user_id, {"p256dh": keys["p256dh"], "auth": keys["auth"]}
        return existing
    channel = NoticeChannel(
        user_id=user_id, kind="webpush", url=endpoint, keys={"p256dh": keys["p256dh"], "auth": keys["auth"]}
    )
    db.add(channel)
    await db.flush()
    return channel


async def remove_channel(db: AsyncSession, user_id: int, channel_id: int) -> None:
    channel = await db.get(NoticeChannel, channel_id)
    if channel is None or channel.user_id != user_id:
        raise NotFound("no_channel", N_("There is no such channel."))
    await db.delete(channel)


async def remove_push(db: AsyncSession, user_id: int, endpoint: str) -> None:
    await db.execute(
        delete(NoticeChannel).where(
            NoticeChannel.user_id == user_id, NoticeChannel.kind == "webpush", NoticeChannel.url == endpoint
        )
    )


async def channels_of(db: AsyncSession, user_id: int) -> list[NoticeChannel]:
    return list(
        (
            await db.scalars(
                select(NoticeChannel).where(NoticeChannel.user_id == user_id).order_by(NoticeChannel.id)
            )
        ).all()
    )


async def recent_failures(db: AsyncSession, user_id: int, limit: int = 5) -> list[OutboxNotice]:
    """The user's latest notices that failed or are being retried, with their error."""
    return list(
        (
            await db.scalars(
                select(OutboxNotice)
                .where(OutboxNotice.user_id == user_id, OutboxNotice.error.is_not(None))
                .order_by(OutboxNotice.id.desc())
                .limit(limit)
            )
        ).all()
    )


# -- queueing ---------------------------------------------------------------------------


async def enqueue(
    db: AsyncSession,
    settings: Settings,
    user_id: int,
    event: str,
    key: str,
    title: str,
    body: str,
    link: str,
    table_id: int | None = None,
    now: datetime | None = None,
) -> int:
    """Queue one notice on each of the user's channels; return how many were queued.

    `key` names the event (e.g. "turn:12:7:1"): queuing it twice does nothing."""
    prefs = await settings_of(db, user_id)
    choice = PREFERENCE_OF.get(event, event)
    if choice in EVENTS and not wants(prefs, choice):
        return 0
    if event in DIGESTED and prefs.digest_hour is not None:
        return 0  # the daily digest will list this table
    channels = await channels_of(db, user_id)
    if not channels:
        return 0
    keys = {f"{key}:{c.id}" for c in channels}
    already = set((await db.scalars(select(OutboxNotice.dedupe).where(OutboxNotice.dedupe.in_(keys)))).all())
    moment = now or utcnow()
    queued = 0
    for channel in channels:
        dedupe = f"{key}:{channel.id}"
        if dedupe in already:
            continue
        db.add(
            OutboxNotice(
                dedupe=dedupe[:120],
                user_id=user_id,
                channel_id=channel.id,
                table_id=table_id,
                event=event,
                title=title[:200],
                body=body[:2000],
                link=link[:300],
                status="pending",
                attempts=0,
                next_try_at=moment,
            )
        )
        queued += 1
    return queued


def _live_seats(table: GameTable) -> dict[int, Seat]:
    """The table's seats by index, leaving out seats deleted in this transaction
    (the start drops open seats and renumbers the others, and a loaded
    collection still lists the dropped ones)."""
    live = {}
    for seat in table.seats:
        state = inspect(seat)
        if not (state.deleted or state.was_deleted):
            live[seat.index] = seat
    return live


def _humans(table: GameTable) -> list[Seat]:
    return [s for s in _live_seats(table).values() if s.user_id is not None and not s.is_bot]


async def after_move(
    db: AsyncSession, settings: Settings, table: GameTable, before_to_act: list[int], before_status: str
) -> None:
    """Called inside a move's (or a start's) transaction once the new state is
    written: "your turn" for humans who newly have to act, "game over" when
    the table has just finished."""
    link = table_link(settings, table.id)
    title = _title(table)
    if table.status == "finished" and before_status != "finished":
        for seat in _humans(table):
            await enqueue(
                db,
                settings,
                seat.user_id,  # type: ignore[arg-type]
                "game_over",
                f"over:{table.id}:{seat.user_id}",
                render(N_("Game over: %(table)s"), {"table": title}),
                render(
                    N_("The game at %(table)s is over. See the scores: %(link)s"),
                    {"table": title, "link": link},
                ),
                link,
                table.id,
            )
        return
    newly = sorted(set(table.to_act or []) - set(before_to_act))
    seats = _live_seats(table)
    for index in newly:
        seat = seats.get(index)
        if seat is None or seat.user_id is None or seat.is_bot:
            continue
        await enqueue(
            db,
            settings,
            seat.user_id,
            "turn",
            f"turn:{table.id}:{table.version}:{index}",
            render(N_("Your turn: %(table)s"), {"table": title}),
            render(
                N_("It is your turn at %(table)s (with %(players)s). %(link)s"),
                {"table": title, "players": _names(table, but=seat.user_id), "link": link},
            ),
            link,
            table.id,
        )


async def invited(db: AsyncSession, settings: Settings, table: GameTable, host: User) -> None:
    """Tell the other players that `host` has seated them at a new table (a rematch)."""
    link = table_link(settings, table.id)
    for seat in _humans(table):
        if seat.user_id == host.id:
            continue
        await enqueue(
            db,
            settings,
            seat.user_id,  # type: ignore[arg-type]
            "invited",
            f"invited:{table.id}:{seat.user_id}",
            render(N_("%(host)s invites you to %(table)s"), {"host": host.name, "table": _title(table)}),
            render(
                N_("%(host)s has started %(table)s with you. %(link)s"),
                {"host": host.name, "table": _title(table), "link": link},
            ),
            link,
            table.id,
        )


async def reminder(
    db: AsyncSession, settings: Settings, table: GameTable, seat: Seat, due: datetime, turn_key: str
) -> int:
    link = table_link(settings, table.id)
    return await enqueue(
        db,
        settings,
        seat.user_id,  # type: ignore[arg-type]
        "reminder",
        f"remind:{table.id}:{turn_key}:{seat.index}",
        render(N_("Reminder: your turn at %(table)s"), {"table": _title(table)}),
        render(
            N_("Your time at %(table)s runs out at %(when)s UTC; then the bot plays for you. %(link)s"),
            {"table": _title(table), "when": as_utc(due).strftime("%Y-%m-%d %H:%M"), "link": link},
        ),
        link,
        table.id,
    )


async def bot_played_for(db: AsyncSession, settings: Settings, table: GameTable, index: int, seq: int) -> int:
    """The seat's time ran out and the bot played for it: tell its player (the
    "reminder" choice covers both the warning and what followed)."""
    seat = _live_seats(table).get(index)
    if seat is None or seat.user_id is None or seat.is_bot:
        return 0
    link = table_link(settings, table.id)
    return await enqueue(
        db,
        settings,
        seat.user_id,
        "missed",
        f"botplayed:{table.id}:{seq}:{index}",
        render(N_("Your time ran out at %(table)s"), {"table": _title(table)}),
        render(
            N_(
                "The bot played your turn at %(table)s. The other players may now vote "
                "to give your seat to a bot. %(link)s"
            ),
            {"table": _title(table), "link": link},
        ),
        link,
        table.id,
    )


async def test_notice(db: AsyncSession, settings: Settings, user_id: int) -> int:
    link = f"{settings.base_url.rstrip('/')}/settings"
    return await enqueue(
        db,
        settings,
        user_id,
        "test",
        f"test:{user_id}:{secrets.token_hex(6)}",
        render(N_("feytable: a test notice")),
        render(N_("Notices reach you here. Your settings: %(link)s"), {"link": link}),
        link,
    )


# -- the daily digest -------------------------------------------------------------------


async def queue_digests(sm: Any, settings: Settings, now: datetime | None = None) -> int:
    """For each user who chose a digest and whose local digest hour has come
    today: one notice listing the tables waiting for him (none if none wait)."""
    now = now or utcnow()
    queued = 0
    async with sm() as db:
        users = (
            await db.scalars(select(NoticeSettings.user_id).where(NoticeSettings.digest_hour.is_not(None)))
        ).all()
    for user_id in users:
        async with sm.begin() as db:
            prefs = await db.get(NoticeSettings, user_id, with_for_update=True)
            if prefs is None or prefs.digest_hour is None:
                continue
            local = now.astimezone(zone(prefs.timezone))
            today = local.date().isoformat()
            if local.hour < prefs.digest_hour or prefs.digest_sent_on == today:
                continue
            prefs.digest_sent_on = today
            waiting = await _waiting_for(db, user_id)
            if not waiting:
                continue
            lines = [f"{_title(t)}: {table_link(settings, t.id)}" for t in waiting]
            queued += await enqueue(
                db,
                settings,
                user_id,
                "digest",
                f"digest:{user_id}:{today}",
                ngettext("%(n)s table waits for you", "%(n)s tables wait for you", len(waiting))
                % {"n": len(waiting)},
                "\n".join(lines),
                f"{settings.base_url.rstrip('/')}/next",
                now=now,
            )
    return queued


async def _waiting_for(db: AsyncSession, user_id: int) -> list[GameTable]:
    rows = (
        await db.scalars(
            select(GameTable)
            .join(Seat, Seat.table_id == GameTable.id)
            .where(GameTable.status == "playing", Seat.user_id == user_id, Seat.is_bot.is_(False))
            .order_by(GameTable.turn_started_at)
        )
    ).all()
    out = []
    for table in rows:
        mine = [s.index for s in table.seats if s.user_id == user_id]
        if any(i in (table.to_act or []) for i in mine):
            out.append(table)
    return out


# -- presence ("not while my table page is visible") -------------------------------------


async def record_presence(
    sm: Any, user_id: int, table_id: int, visible: bool, now: datetime | None = None
) -> None:
    now = now or utcnow()
    try:
        async with sm.begin() as db:
            row = await db.get(Presence, (user_id, table_id))
            if row is None:
                db.add(Presence(user_id=user_id, table_id=table_id, visible=visible, seen_at=now))
            else:
                row.visible, row.seen_at = visible, now
    except IntegrityError:  # two sockets of one user raced to create it: either is fine
        pass


async def page_visible(
    db: AsyncSession, settings: Settings, user_id: int, table_id: int, now: datetime
) -> bool:
    row = await db.get(Presence, (user_id, table_id))
    if row is None or not row.visible:
        return False
    return as_utc(row.seen_at) >= now - timedelta(seconds=settings.presence_seconds)


# -- VAPID keys (browser push) -----------------------------------------------------------


async def vapid_keys(sm: Any) -> tuple[str, str]:
    """(private, public) keys, base64url: generated once, shared by every process
    through the database. The public one is the browser's applicationServerKey."""
    async with sm() as db:
        found = await db.execute(
            select(ServerSecret.name, ServerSecret.value).where(ServerSecret.name.like("vapid_%"))
        )
        rows = {name: value for name, value in found.all()}
    if "vapid_private" in rows and "vapid_public" in rows:
        return rows["vapid_private"], rows["vapid_public"]
    private, public = _new_vapid()
    with contextlib.suppress(IntegrityError):  # another process made them first: use theirs
        async with sm.begin() as db:
            db.add_all(
                [
                    ServerSecret(name="vapid_private", value=private),
                    ServerSecret(name="vapid_public", value=public),
                ]
            )
    return await vapid_keys(sm)


def _new_vapid() -> tuple[str, str]:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    from py_vapid import Vapid
    from py_vapid.utils import b64urlencode

    vapid = Vapid()
    vapid.generate_keys()
    raw = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    point = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64urlencode(raw), b64urlencode(point)
