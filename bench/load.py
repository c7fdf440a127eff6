"""Load driver: real server processes on 127.0.0.1, N tables x 4 seats, one
websocket per seat, moves over HTTP as fast as the game allows.

    .venv/bin/python bench/load.py                      # 25, 250, 1000 sockets; all backends
    .venv/bin/python bench/load.py --sizes 25,250 --backends sqlite,pg1
    .venv/bin/python bench/load.py --sizes 1000 --backends pg1 --profile bench/profile.txt

For each backend (SQLite, 1 process; PostgreSQL, 1 and 2 processes, on a fresh
database created and dropped here) and each size it starts `python -m app
serve`, opens one JSON websocket per seat (4 players, each seated at every
table), lets them sit idle to measure the server's memory per connection, then
drives every table at once: the seat to act submits a legal move (HTTP), and
the latency of that move is the time from its submission until EVERY OTHER
seat of the table has received a view of the new version. The next move of a
table is made from the view its socket pushed, so a table moves as fast as the
server lets it. Prints one row per run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from tests.support.server import ServerProcess, app_command  # noqa: E402

PG_ADMIN_URL = os.environ.get("FEYTABLE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
PASSWORD = "correct horse battery"
SEATS = 4
OPTIONS = {"hand_size": 3, "turns_per_seat": 30}  # 120 moves per table at most


# -- servers and databases ------------------------------------------------------------


class ProfiledServer(ServerProcess):
    """`python -m pyinstrument … -m app serve …`: the report is written when it stops."""

    def __init__(self, *args: Any, profile_to: Path, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.profile_to = profile_to

    def start(self, timeout: float = 30.0) -> ServerProcess:
        real = sys.executable
        wrapper = Path(tempfile.mkdtemp()) / "python"
        # ServerProcess runs `<python> -m app serve …`: swap `-m app` for the profiling runner.
        wrapper.write_text(f'#!/bin/sh\nshift 2\nexec {real} {ROOT / "bench" / "profiled_serve.py"} "$@"\n')
        wrapper.chmod(0o755)
        self.extra_env["FEYTABLE_PROFILE_TO"] = str(self.profile_to)
        sys.executable = str(wrapper)
        try:
            return super().start(timeout)
        finally:
            sys.executable = real


async def _pg(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN_URL)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextlib.contextmanager
def database(backend: str, workdir: Path) -> Any:
    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{workdir / f'bench-{uuid.uuid4().hex[:8]}.sqlite3'}"
        yield url
        return
    name = f"feytable_bench_{uuid.uuid4().hex[:10]}"
    asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
    try:
        base = PG_ADMIN_URL.rsplit("/", 1)[0].split("://", 1)[1]
        yield f"postgresql+asyncpg://{base}/{name}"
    finally:
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def rss_kib(pid: int) -> int:
    """VmRSS of a process and its children (uvicorn runs in the process itself)."""
    total = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            total += int(line.split()[1])
    return total


# -- the clients ------------------------------------------------------------------------


@dataclass
class Seat:
    table: int
    seat: int
    ws: ClientConnection | None = None
    latest: dict[str, Any] | None = None
    arrivals: dict[int, float] = field(default_factory=dict)  # version -> first seen
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                now = time.perf_counter()
                view = json.loads(raw)
                self.arrivals.setdefault(view["version"], now)
                self.latest = view
                self.changed.set()

    async def until(self, version: int, timeout: float = 30.0) -> float:
        """When this seat first saw `version` or later."""
        deadline = time.perf_counter() + timeout
        while True:
            seen = [t for v, t in self.arrivals.items() if v >= version]
            if seen:
                return min(seen)
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"table {self.table} seat {self.seat} never saw version {version}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)


@dataclass
class Run:
    backend: str
    processes: int
    sockets: int
    moves: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    held: int = 0
    rss_per_conn_kib: float = 0.0
    errors: list[str] = field(default_factory=list)

    def row(self) -> str:
        lat = sorted(self.latencies)

        def pct(p: float) -> float:
            return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

        rate = self.moves / self.seconds if self.seconds else 0.0
        return (
            f"| {self.sockets:>5} | {self.backend:<10} | {self.processes} | {self.moves:>6} | {rate:>8.0f} "
            f"| {pct(0.50):>6.1f} | {pct(0.95):>6.1f} | {pct(0.99):>6.1f} | {self.held:>5} "
            f"| {self.rss_per_conn_kib:>6.1f} | {len(self.errors):>3} |"
        )


HEADER = (
    "| socks | backend    | P |  moves |  moves/s |  p50ms |  p95ms |  p99ms |  held "
    "| KiB/ws | err |\n"
    "|------:|:-----------|--:|-------:|---------:|-------:|-------:|-------:|------:"
    "|-------:|----:|"
)


async def login_all(base: str, n: int) -> list[httpx.AsyncClient]:
    players = []
    for i in range(n):
        c = httpx.AsyncClient(base_url=base, timeout=30.0, limits=httpx.Limits(keepalive_expiry=3))
        r = await c.post("/api/auth/register", json={"name": f"bench{i}", "password": PASSWORD})
        assert r.status_code == 201, r.text
        players.append(c)
    return players


async def post(client: httpx.AsyncClient, url: str, body: dict[str, Any]) -> httpx.Response:
    """Setup requests, retried if a kept-alive connection was closed under them."""
    for attempt in range(5):
        try:
            return await client.post(url, json=body)
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.2)
    raise AssertionError("unreachable")


async def open_table(host: httpx.AsyncClient, others: list[httpx.AsyncClient]) -> int:
    r = await post(host, "/api/tables", {"game": "tally", "seats": SEATS, "options": OPTIONS})
    assert r.status_code == 201, r.text
    table = r.json()
    token = table["invite_url"].rsplit("/", 1)[1]
    for other in others:
        r = await post(other, f"/api/tables/{table['id']}/join", {"invite": token})
        assert r.status_code == 200, r.text
    r = await post(host, f"/api/tables/{table['id']}/start", {})
    assert r.status_code == 200, r.text
    return int(table["id"])


async def drive_table(seats: list[Seat], movers: list[httpx.AsyncClient], until: float, run: Run) -> None:
    """Play one table: the seat to act moves from the view its socket pushed."""
    first = seats[0].latest
    assert first is not None
    version = first["version"]
    while time.perf_counter() < until:
        view = next((s.latest for s in seats if s.latest and s.latest["legal_moves"]), None)
        acting = [s for s in seats if s.latest and s.latest["version"] == version and s.latest["legal_moves"]]
        if not acting:
            if view is not None and view["status"] != "playing":
                return
            await asyncio.sleep(0.001)
            continue
        seat = acting[0]
        assert seat.latest is not None
        if seat.latest["status"] != "playing":
            return
        move = seat.latest["legal_moves"][0]
        start = time.perf_counter()
        r = await movers[seat.seat].post(
            f"/api/tables/{seat.table}/moves", json={"version": version, "move": move}
        )
        if r.status_code != 200:
            run.errors.append(f"{r.status_code}: {r.text[:120]}")
            return
        version = r.json()["version"]
        try:
            arrived = [await s.until(version) for s in seats if s is not seat]
        except TimeoutError as exc:
            run.errors.append(str(exc))
            return
        run.latencies.append(max(arrived) - start)
        run.moves += 1
        if r.json()["status"] != "playing":
            return


async def one_run(backend: str, processes: int, sockets: int, url: str, args: argparse.Namespace) -> Run:
    run = Run(backend, processes, sockets)
    workdir = Path(tempfile.mkdtemp(prefix="feytable-bench-"))
    servers: list[ServerProcess] = []
    env = {"DEADLINE_POLL": "0"}
    try:
        for i in range(processes):
            if args.profile and i == 0:
                server: ServerProcess = ProfiledServer(
                    url, log_dir=workdir, name=f"s{i}", env=env, profile_to=Path(args.profile).resolve()
                )
            else:
                server = ServerProcess(url, log_dir=workdir, name=f"s{i}", env=env)
            servers.append(server.start(timeout=60))
        tables = sockets // SEATS
        # Each process gets its own players' sessions (same accounts; cookies carry the session).
        players = await login_all(servers[0].base_url, SEATS)
        per_server = []
        for server in servers:
            clients = []
            for p in players:
                c = httpx.AsyncClient(
                    base_url=server.base_url,
                    timeout=30.0,
                    cookies=p.cookies,
                    # Drop idle connections before uvicorn does (5 s): no request on a closing one.
                    limits=httpx.Limits(
                        max_connections=200, max_keepalive_connections=200, keepalive_expiry=3
                    ),
                )
                clients.append(c)
            per_server.append(clients)
        sem = asyncio.Semaphore(16)

        async def make(i: int) -> int:
            async with sem:
                clients = per_server[i % processes]
                return await open_table(clients[0], clients[1:])

        table_ids = await asyncio.gather(*[make(i) for i in range(tables)])
        before = sum(rss_kib(s.pid) for s in servers if s.pid)
        by_table: dict[int, list[Seat]] = {}
        readers: list[asyncio.Task[None]] = []
        for n, tid in enumerate(table_ids):
            server = servers[n % processes]
            seats = []
            for i in range(SEATS):
                seat = Seat(tid, i)
                cookie = players[i].cookies.get("feytable_session")
                seat.ws = await connect(
                    f"{server.ws_url}/ws/tables/{tid}?format=json",
                    origin=server.base_url,  # type: ignore[arg-type]
                    additional_headers={"Cookie": f"feytable_session={cookie}"},
                    open_timeout=60,
                    max_size=2**22,
                )
                readers.append(asyncio.create_task(seat.read()))
                seats.append(seat)
            by_table[tid] = seats
        everyone = [s for seats in by_table.values() for s in seats]
        for s in everyone:
            await s.until(0)
        await asyncio.sleep(1.0)
        after = sum(rss_kib(s.pid) for s in servers if s.pid)
        run.rss_per_conn_kib = (after - before) / max(1, len(everyone))

        start = time.perf_counter()
        until = start + args.seconds
        await asyncio.gather(
            *[
                drive_table(seats, per_server[n % processes], until, run)
                for n, seats in enumerate(by_table.values())
            ]
        )
        run.seconds = time.perf_counter() - start
        run.held = sum(1 for s in everyone if s.ws is not None and s.ws.state.name == "OPEN")
        for s in everyone:
            if s.ws is not None:
                with contextlib.suppress(Exception):
                    await s.ws.close()
        for task in readers:
            task.cancel()
        for clients in per_server:
            for c in clients:
                await c.aclose()
        for p in players:
            await p.aclose()
    finally:
        for server in servers:
            server.stop(timeout=120)
            server.close()
    return run


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="25,250,1000", help="websockets per run, comma-separated")
    parser.add_argument("--backends", default="sqlite,pg1,pg2", help="sqlite, pg1, pg2")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each run drives moves")
    parser.add_argument(
        "--profile", default="", help="run the (first) server under pyinstrument; report here"
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    backends = [b for b in args.backends.split(",") if b]
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8192)), hard))
    print(
        f"feytable load: {os.cpu_count()} cores; tally, {SEATS} seats per table; {args.seconds:.0f} s per run"
    )
    print("latency = move submitted (HTTP) -> every other seat of the table has the new view (websocket)\n")
    print(HEADER, flush=True)
    for backend in backends:
        kind, processes = ("sqlite", 1) if backend == "sqlite" else ("pg", int(backend.removeprefix("pg")))
        for size in sizes:
            with database(kind, Path(tempfile.gettempdir())) as url:
                done = app_command("migrate", database_url=url, timeout=120)
                if done.returncode != 0:
                    raise SystemExit(done.stdout + done.stderr)
                run = asyncio.run(
                    one_run("SQLite" if kind == "sqlite" else "PostgreSQL", processes, size, url, args)
                )
            print(run.row(), flush=True)
            for e in sorted(set(run.errors))[:5]:
                print(f"    error: {e}")


if __name__ == "__main__":
    main()
