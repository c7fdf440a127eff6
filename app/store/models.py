"""The tables: users, login sessions, game tables, seats, and the move log."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    func,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

JsonType = JSON().with_variant(JSONB(), "postgresql")
BigId = BigInteger().with_variant(Integer(), "sqlite")  # SQLite autoincrements only INTEGER


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class LoginSession(Base):
    """The opaque id kept in the signed cookie points here, so logout and
    password changes can end sessions."""

    __tablename__ = "login_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class GameTable(Base):
    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JsonType)
    seat_count: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="waiting", index=True)
    # Secret: the source of every shuffle. Never leaves the server.
    seed: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    result: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    to_act: Mapped[list[int]] = mapped_column(JsonType, default=list)
    host_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    invite_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    rematch_of: Mapped[int | None] = mapped_column(ForeignKey("tables.id", ondelete="SET NULL"))
    rematch_id: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    # When the seats now asked to act were first asked: "waiting since".
    turn_started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The game's current timeout (see Game.timeout): its key and when it is due.
    timer_key: Mapped[str | None] = mapped_column(String(64))
    timer_due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    # Platform deadline chosen at creation: hours per turn (None = no deadline).
    turn_hours: Mapped[int | None] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )

    # Every UPDATE says "WHERE version = <what we read>": compare-and-set.
    __mapper_args__: ClassVar[dict[str, Any]] = {"version_id_col": version, "version_id_generator": False}

    seats: Mapped[list[Seat]] = relationship(
        back_populates="table", order_by="Seat.index", lazy="selectin", cascade="all, delete-orphan"
    )
    # Platform lines for the table's log, and votes about absent seats (asynchronous play).
    notes: Mapped[list[TableNote]] = relationship(order_by="TableNote.id", lazy="selectin", viewonly=True)
    votes: Mapped[list[SeatVote]] = relationship(lazy="selectin", viewonly=True)


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "index", name="uq_seats_table_index"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    # The player's private preferences for this game (Game.Prefs), e.g. when
    # to be asked to react. Only that player sees or edits them.
    prefs: Mapped[dict[str, Any] | None] = mapped_column(JsonType)

    table: Mapped[GameTable] = relationship(back_populates="seats")
    user: Mapped[User | None] = relationship(lazy="selectin")

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.is_bot


class MoveRecord(Base):
    """The append-only move log. Unique (table, seq): a move can never land twice."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_moves_table_seq"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[dict[str, Any]] = mapped_column(JsonType)
    by_host: Mapped[bool] = mapped_column(Boolean, default=False)
    actor: Mapped[str] = mapped_column(String(16), default="player")  # player | bot | timeout | auto
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


# -- asynchronous play: notices, presence, deadline votes ---------------------------------


class NoticeSettings(Base):
    """What a user wants to be told, and when (one row per user; absent = defaults)."""

    __tablename__ = "notice_settings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    # Event name -> wanted (turn, game_over, invited, reminder); missing = on.
    events: Mapped[dict[str, Any]] = mapped_column(JsonType, default=dict)
    # Quiet hours in the user's own time zone: [start, end) local hours, None = none.
    quiet_start: Mapped[int | None] = mapped_column(Integer)
    quiet_end: Mapped[int | None] = mapped_column(Integer)
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    # One daily digest at this local hour instead of one notice per turn (None = off).
    digest_hour: Mapped[int | None] = mapped_column(Integer)
    digest_sent_on: Mapped[str | None] = mapped_column(String(10))  # local date of the last digest
    skip_when_visible: Mapped[bool] = mapped_column(Boolean, default=True)


class NoticeChannel(Base):
    """Where a user's notices go: an apprise URL, or a browser's push subscription."""

    __tablename__ = "notice_channels"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # apprise | webpush
    # A secret (tokens, passwords): never shown back unmasked.
    url: Mapped[str] = mapped_column(String(2000))
    keys: Mapped[dict[str, Any] | None] = mapped_column(JsonType)  # webpush: p256dh, auth
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    last_ok_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(String(500))
    last_error_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class OutboxNotice(Base):
    """One notice for one channel, written in the transaction that caused it and
    delivered by app.services.delivery. `dedupe` is unique: the same event can
    never be queued twice for one channel."""

    __tablename__ = "notice_outbox"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    dedupe: Mapped[str] = mapped_column(String(120), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("notice_channels.id", ondelete="CASCADE"), index=True)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    event: Mapped[str] = mapped_column(String(16))
    title: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(String(2000))
    link: Mapped[str] = mapped_column(String(300))
    # pending -> sent | skipped | failed
    status: Mapped[str] = mapped_column(String(12), default="pending", index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_try_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    # The lease of the worker that is sending it now (see delivery.py).
    claimed_by: Mapped[str | None] = mapped_column(String(32))
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    error: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Presence(Base):
    """Is this user's page of this table open and visible? Written by the table's
    websocket, read by the delivery worker (maybe in another process)."""

    __tablename__ = "presence"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    visible: Mapped[bool] = mapped_column(Boolean, default=False)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatVote(Base):
    """A player's vote about a seat whose deadline passed: hand it to a bot, or end the table."""

    __tablename__ = "seat_votes"
    __table_args__ = (UniqueConstraint("table_id", "seat", "voter_id", name="uq_seat_votes_voter"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    voter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    choice: Mapped[str] = mapped_column(String(8))  # bot | end
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class TableNote(Base):
    """A platform line in a table's log (the game's own log is the rules layer's):
    "Bob's time ran out: the bot played for him", votes and their outcome."""

    __tablename__ = "table_notes"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    text: Mapped[str] = mapped_column(String(200))  # an N_() sentence
    params: Mapped[dict[str, Any]] = mapped_column(JsonType, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class ServerSecret(Base):
    """Secrets generated once by the server and shared by its processes (VAPID keys)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(2000))


__all__ = [
    "Base",
    "GameTable",
    "LoginSession",
    "MoveRecord",
    "NoticeChannel",
    "NoticeSettings",
    "OutboxNotice",
    "Presence",
    "Seat",
    "SeatVote",
    "ServerSecret",
    "TableNote",
    "User",
]
