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
        from app.services.deadlines import DeadlineWatcher
        from app.services.delivery import DeliveryWorker
        from app.services.turn_deadlines import TurnDeadlineWatcher

        await self.hub.start()
        await self.bots.resume_all()
        self.deadlines = DeadlineWatcher(self, self.settings.deadline_poll)
        self.deadlines.start()
        # Asynchronous play: per-turn deadlines and the notice outbox's sender.
        self.turn_deadlines = TurnDeadlineWatcher(self, self.settings.turn_deadline_poll)
        self.turn_deadlines.start()
        self.delivery = DeliveryWorker(self, self.settings.delivery_poll)
        self.delivery.start()

    async def stop(self) -> None:
        if hasattr(self, "deadlines"):
            await self.deadlines.stop()
        for worker in ("delivery", "turn_deadlines"):
            if hasattr(self, worker):
                await getattr(self, worker).stop()
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
