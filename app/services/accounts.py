"""Accounts, guests, login sessions."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import defaultdict, deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.games.base import N_
from app.services.errors import Conflict, Forbidden, Invalid, NotAuthenticated, TooMany
from app.store.models import LoginSession, User

_hasher = PasswordHasher()
NAME_MIN, NAME_MAX, PASSWORD_MIN = 2, 40, 8


def _check_name(name: str) -> str:
    name = " ".join(name.split())
    if not (NAME_MIN <= len(name) <= NAME_MAX):
        raise Invalid("bad_name", N_("A name has 2 to 40 characters."))
    return name


def _check_password(password: str) -> None:
    if len(password) < PASSWORD_MIN:
        raise Invalid("weak_password", N_("A password has at least 8 characters."))
    if len(password) > 1000:
        raise Invalid("long_password", N_("That password is too long."))


async def _name_taken(db: AsyncSession, name: str) -> bool:
    # SQLite's lower() folds ASCII only: compare the exact name too ("Émile" twice).
    found = await db.scalar(
        select(User.id).where(or_(User.name == name, func.lower(User.name) == name.lower())).limit(1)
    )
    return found is not None


async def _hash(password: str) -> str:
    """Argon2 is deliberately slow: hash in a thread, before any transaction, so
    a burst of sign-ups never freezes the event loop or holds SQLite's write lock."""
    return await asyncio.to_thread(_hasher.hash, password)


async def register(sm: async_sessionmaker, name: str, password: str, *, invited: bool = True) -> User:
    """Create an account. The first account of the server is its admin."""
    name = _check_name(name)
    _check_password(password)
    password_hash = await _hash(password)
    async with sm.begin() as db:
        first = (await db.scalar(select(func.count(User.id)))) == 0
        if not first and not invited:
            raise Forbidden("invite_only", N_("Registration on this server is by invitation only."))
        if await _name_taken(db, name):
            raise Conflict("name_taken", N_("That name is already taken."))
        user = User(name=name, password_hash=password_hash, is_admin=first, is_guest=False)
        db.add(user)
    return user


async def create_guest(sm: async_sessionmaker, name: str) -> User:
    name = _check_name(name)
    async with sm.begin() as db:
        if await _name_taken(db, name):
            raise Conflict("name_taken", N_("That name is already taken."))
        user = User(name=name, password_hash=None, is_admin=False, is_guest=True)
        db.add(user)
    return user


async def set_password(sm: async_sessionmaker, user_id: int, password: str) -> None:
    """A guest keeps their identity by choosing a password."""
    _check_password(password)
    password_hash = await _hash(password)
    async with sm.begin() as db:
        user = await db.get(User, user_id)
        if user is None:
            raise NotAuthenticated()
        user.password_hash = password_hash
        user.is_guest = False


class LoginLimiter:
    """At most N failed attempts per name per minute (per process)."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._failures: dict[str, deque[float]] = defaultdict(deque)

    def check(self, key: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        q = self._failures[key]
        while q and now - q[0] > 60:
            q.popleft()
        if len(q) >= self.per_minute:
            raise TooMany("too_many_attempts", N_("Too many login attempts. Please wait a minute."))

    def failed(self, key: str, now: float | None = None) -> None:
        self._failures[key].append(time.monotonic() if now is None else now)


async def authenticate(sm: async_sessionmaker, name: str, password: str, limiter: LoginLimiter) -> User:
    key = " ".join(name.split()).lower()
    limiter.check(key)
    async with sm() as db:
        user = await db.scalar(select(User).where(func.lower(User.name) == key))
    ok = False
    if user is not None and user.password_hash:
        try:
            ok = await asyncio.to_thread(_hasher.verify, user.password_hash, password)
        except (VerificationError, InvalidHashError):
            ok = False
    if not ok or user is None:
        limiter.failed(key)
        raise NotAuthenticatedLogin()
    return user


class NotAuthenticatedLogin(NotAuthenticated):
    def __init__(self) -> None:
        super(NotAuthenticated, self).__init__("bad_login", N_("That name and password do not match."))


async def open_session(sm: async_sessionmaker, user_id: int) -> str:
    sid = secrets.token_urlsafe(32)
    async with sm.begin() as db:
        db.add(LoginSession(id=sid, user_id=user_id))
    return sid


async def close_session(sm: async_sessionmaker, sid: str) -> None:
    async with sm.begin() as db:
        row = await db.get(LoginSession, sid)
        if row is not None:
            await db.delete(row)


async def user_for_session(sm: async_sessionmaker, sid: str | None) -> User | None:
    if not sid or not isinstance(sid, str) or len(sid) > 64:
        return None
    async with sm() as db:
        return await db.scalar(
            select(User).join(LoginSession, LoginSession.user_id == User.id).where(LoginSession.id == sid)
        )


async def count_users(sm: async_sessionmaker) -> int:
    async with sm() as db:
        return int(await db.scalar(select(func.count(User.id))) or 0)


async def make_admin(sm: async_sessionmaker, name: str, password: str) -> User:
    """For the CLI: create an admin account, or promote and reset an existing one."""
    name = _check_name(name)
    _check_password(password)
    password_hash = await _hash(password)
    async with sm.begin() as db:
        user = await db.scalar(select(User).where(func.lower(User.name) == name.lower()))
        if user is None:
            user = User(name=name, is_guest=False)
            db.add(user)
        user.password_hash = password_hash
        user.is_admin = True
        user.is_guest = False
    return user
