"""Configuration, from environment variables only (pydantic-settings)."""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_SQLITE = "sqlite+aiosqlite:///data/feytable.sqlite3"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore")

    database_url: str = DEFAULT_SQLITE
    secret_key: str = ""
    base_url: str = "http://127.0.0.1:8000"
    registration: Literal["open", "invite"] = "open"
    # Seconds a bot waits before it moves, so people can follow its play.
    bot_delay: float = Field(1.0, ge=0)
    # How often each process looks for waits that ran out (seconds; 0 = never).
    deadline_poll: float = Field(30.0, ge=0)
    # Notices: how often each process sends queued notices, and looks for
    # per-turn deadlines, reminders and digests (seconds; 0 = never).
    delivery_poll: float = Field(5.0, ge=0)
    turn_deadline_poll: float = Field(60.0, ge=0)
    # A worker's claim on a notice it is sending; after a crash, another worker
    # sends it once the claim has run out (seconds).
    delivery_lease: float = Field(300.0, gt=0)
    # "Not while my table page is visible": a page counts as visible this long
    # after it last said so (it repeats every minute while it is).
    presence_seconds: float = Field(90.0, gt=0)
    # The contact sent to browser push services with every push (VAPID "sub").
    push_contact: str = "mailto:feytable@localhost"
    max_body_bytes: int = 64 * 1024
    https_only_cookies: bool = False
    login_attempts_per_minute: int = 10
    # Extra game packages to offer, as "module:ATTRIBUTE" entries separated by
    # commas (a group's own game; the test suite's Tally game).
    extra_games: str = ""

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def sqlite_path(self) -> Path | None:
        if not self.is_sqlite:
            return None
        path = self.database_url.split(":///", 1)[1] if ":///" in self.database_url else ""
        return Path(path) if path and path != ":memory:" else None

    def resolved_secret_key(self) -> str:
        """SECRET_KEY, or one generated once and kept beside the SQLite file so
        sessions survive restarts."""
        if self.secret_key:
            return self.secret_key
        folder = self.sqlite_path.parent if self.sqlite_path else Path("data")
        keyfile = folder / "secret_key"
        if keyfile.exists():
            return keyfile.read_text().strip()
        folder.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        keyfile.write_text(key)
        keyfile.chmod(0o600)
        return key


@lru_cache
def get_settings() -> Settings:
    return Settings()
