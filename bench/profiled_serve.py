"""`python -m app serve` under pyinstrument (used by `bench/load.py --profile`).

    FEYTABLE_PROFILE_TO=profile.txt python bench/profiled_serve.py serve --host H --port P

The report (text, wall clock of the server's main thread) is written when the
server stops (SIGTERM/SIGINT: uvicorn shuts down gracefully, then hands the
signal back to the handler installed here).
"""

from __future__ import annotations

import os
import runpy
import signal
import sys
from pathlib import Path
from types import FrameType

from pyinstrument import Profiler

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

OUT = Path(os.environ.get("FEYTABLE_PROFILE_TO", "profile.txt"))
profiler = Profiler(interval=0.001, async_mode="disabled")


def finish(_signum: int | None = None, _frame: FrameType | None = None) -> None:
    if profiler.is_running:
        profiler.stop()
        OUT.write_text(profiler.output_text(unicode=False, color=False, show_all=False))
    os._exit(0)


signal.signal(signal.SIGTERM, finish)
signal.signal(signal.SIGINT, finish)
profiler.start()
sys.argv = ["app", *sys.argv[1:]]
try:
    runpy.run_module("app", run_name="__main__", alter_sys=True)
finally:
    finish()
