"""The in-process app driven from synchronous code (hypothesis state machines,
schemathesis): the app, its HTTP clients and its websockets live on an event
loop in a background thread (an anyio blocking portal); the test calls into it.

    with AppInThread(settings) as h:
        alice = h.client()
        r = h.request(alice, "POST", "/api/auth/register", json={...})
        sock = h.open_socket(alice, table_id)   # reads pushes in the background
        sock.latest()                            # the last view it received
        sock.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import httpx
from anyio.from_thread import BlockingPortal, start_blocking_portal
from httpx_ws import aconnect_ws

from app.config import Settings
from tests.conftest import client_for, running_app, ws_client

T = TypeVar("T")


class Socket:
    """One websocket (`?format=json`), read by a task on the portal's loop."""

    def __init__(self, harness: AppInThread, like: httpx.AsyncClient, table_id: int, label: str) -> None:
        self.harness = harness
        self.label = label
        self.path = f"/ws/tables/{table_id}?format=json"
        self.like = like
        self.received: list[dict[str, Any]] = []
        self.error: BaseException | None = None
        self._stop: asyncio.Event | None = None
        self._opened = harness.portal.call(asyncio.Event)
        self._done = harness.portal.start_task_soon(self._run)
        harness.wait_until(lambda: self._opened.is_set() or self._done.done(), what=f"{label} to connect")
        if self._done.done():
            self._done.result()

    async def _run(self) -> None:
        self._stop = asyncio.Event()
        try:
            async with ws_client(self.harness.app, self.like) as wc, aconnect_ws(self.path, wc) as ws:
                self._opened.set()
                reader = asyncio.create_task(self._read(ws))
                stopper = asyncio.create_task(self._stop.wait())
                await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
                for task in (reader, stopper):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                if reader.done() and not reader.cancelled() and reader.exception() is not None:
                    raise reader.exception()  # type: ignore[misc]
        except BaseException as exc:
            self.error = exc
            self._opened.set()
            raise

    async def _read(self, ws: Any) -> None:
        while True:
            self.received.append(json.loads(await ws.receive_text()))

    def latest(self) -> dict[str, Any] | None:
        return self.received[-1] if self.received else None

    def close(self) -> None:
        if self._done.done():
            return
        if self._stop is not None:
            self.harness.portal.call(self._stop.set)
        with contextlib.suppress(asyncio.CancelledError):
            self._done.result(timeout=10)


class AppInThread:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._stack = contextlib.ExitStack()
        self.portal: BlockingPortal
        self.app: Any = None
        self.clients: list[httpx.AsyncClient] = []
        self.sockets: list[Socket] = []

    def __enter__(self) -> AppInThread:
        self.portal = self._stack.enter_context(start_blocking_portal())
        lifespan = self.portal.wrap_async_context_manager(running_app(self.settings))
        self.app = self._stack.enter_context(lifespan)
        self._stack.callback(self._close_clients)
        self._stack.callback(self._close_sockets)  # runs first: a failed test may leave some open
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def _close_sockets(self) -> None:
        for sock in self.sockets:
            with contextlib.suppress(Exception):
                sock.close()

    def _close_clients(self) -> None:
        for c in self.clients:
            self.portal.call(c.aclose)

    @property
    def rt(self) -> Any:
        return self.app.state.rt

    def run(self, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
        return self.portal.call(functools.partial(fn, *args, **kwargs))

    def client(self) -> httpx.AsyncClient:
        c = client_for(self.app)
        self.clients.append(c)
        return c

    def request(self, client: httpx.AsyncClient, method: str, url: str, **kwargs: Any) -> httpx.Response:
        return self.run(client.request, method, url, **kwargs)

    def together(self, *calls: tuple[httpx.AsyncClient, str, str, dict[str, Any]]) -> list[httpx.Response]:
        """Several requests at the same moment (asyncio.gather on the app's loop)."""

        async def go() -> list[httpx.Response]:
            return list(await asyncio.gather(*[c.request(m, u, **kw) for c, m, u, kw in calls]))

        return self.run(go)

    def open_socket(self, like: httpx.AsyncClient, table_id: int, label: str = "socket") -> Socket:
        sock = Socket(self, like, table_id, label)
        self.sockets.append(sock)
        return sock

    @staticmethod
    def wait_until(predicate: Callable[[], bool], *, what: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.002)


@contextlib.contextmanager
def app_in_thread(settings: Settings) -> Iterator[AppInThread]:
    with AppInThread(settings) as h:
        yield h
