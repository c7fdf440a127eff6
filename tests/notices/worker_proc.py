"""A delivery worker in its own process, for the kill-and-restart test.

    python -m tests.notices.worker_proc MODE MARKER [NOW_OFFSET_SECONDS]

MODE `pause-after-claim`: claim due notices, write MARKER, then wait (to be
SIGKILLed) before sending anything. MODE `once`: one full pass, then write
MARKER with the number sent, then wait. The database comes from DATABASE_URL.
"""

from __future__ import annotations

import asyncio
import sys
import time
from datetime import timedelta
from pathlib import Path

from app.config import Settings
from app.services.delivery import Claimed, Worker
from app.services.notices import utcnow
from app.services.runtime import Runtime


async def main(mode: str, marker: Path, offset: float) -> None:
    rt = Runtime.build(Settings())
    now = utcnow() + timedelta(seconds=offset)

    async def freeze(item: Claimed) -> None:
        marker.write_text(f"claimed {item.id}")
        while True:  # the dangerous moment: claimed, not yet sent
            time.sleep(1)

    sent = await Worker(rt).run_once(now, on_claimed=freeze if mode == "pause-after-claim" else None)
    marker.write_text(f"sent {sent}")
    while True:  # wait to be killed, like a server that keeps running
        await asyncio.sleep(1)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 0.0))
