"""What the services share in one process: settings, database, hub, bot driver."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from app.config import Settings
from app.realtime.hub import LocalHub, PostgresHub, asyncpg_dsn
from app.services.accounts import LoginLimiter
from app.store.db import make_engine, make_sessionmaker

if TYPE_CHECKING:
    from app.services.bots import BotDriver


@dataclass
class Runtime:
    settings: Settings
    engine: AsyncEngine
    sm: async_sessionmaker
    hub: LocalHub
    limiter: LoginLimiter
    bots: BotDriver = field(init=False)

    @classmethod
    def build(cls, settings: Settings) -> Runtime:
        from app.services.bots import BotDriver

        load_extra_games(settings.extra_games)
        engine = make_engine(settings.database_url)
        hub: LocalHub = LocalHub() if settings.is_sqlite else PostgresHub(asyncpg_dsn(settings.database_url))
        rt = cls(
            settings, engine, make_sessionmaker(engine), hub, LoginLimiter(settings.login_attempts_per_minute)
        )
        rt.bots = BotDriver(rt)
        return rt

    async def start(self) -> None:
        from app.services import deadlines, turn_deadlines
        from app.services.delivery import Worker
        from app.services.periodic import Periodic

        await self.hub.start()
        await self.bots.resume_all()
        s = self.settings
        sender = Worker(self)
        self.loops = [
            Periodic("timeout watcher", s.deadline_poll, lambda: deadlines.run_due(self)),
            # Asynchronous play: per-turn deadlines and the notice outbox's sender.
            Periodic("turn deadline watcher", s.turn_deadline_poll, lambda: turn_deadlines.run_due(self)),
            Periodic("notice sender", s.delivery_poll, sender.run_once),
        ]
        for loop in self.loops:
            loop.start()

    async def stop(self) -> None:
        for loop in getattr(self, "loops", []):
            await loop.stop()
        await self.bots.stop()
        await self.hub.stop()
        await self.engine.dispose()


def rng_for(seed: str, seq: int | str) -> random.Random:
    """The randomness of move `seq` (0 = setup): a pure function of the table's
    secret seed, so replaying the log rebuilds the same state."""
    return random.Random(f"{seed}:{seq}")


def load_extra_games(spec: str) -> None:
    import importlib

    from app.games import registry

    for entry in filter(None, (part.strip() for part in spec.split(","))):
        module, _, attr = entry.partition(":")
        registry.register(getattr(importlib.import_module(module), attr or "GAME"))
