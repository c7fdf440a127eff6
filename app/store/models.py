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
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )

    # Every UPDATE says "WHERE version = <what we read>": compare-and-set.
    __mapper_args__: ClassVar[dict[str, Any]] = {"version_id_col": version, "version_id_generator": False}

    seats: Mapped[list[Seat]] = relationship(
        back_populates="table", order_by="Seat.index", lazy="selectin", cascade="all, delete-orphan"
    )


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


__all__ = ["Base", "GameTable", "LoginSession", "MoveRecord", "Seat", "User"]
