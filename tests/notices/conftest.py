"""Notices tests: the app without background workers (tests drive delivery and
deadlines by hand, with a fake clock), and a local HTTP endpoint that records
what apprise's json:// scheme (or a push service stand-in) posts to it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from app.config import Settings
from tests.conftest import make_settings


class Endpoint:
    """An HTTP server on 127.0.0.1 that records every POST and answers `status`."""

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []
        self.status = 200
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                with outer.lock:
                    outer.posts.append({"path": self.path, "headers": dict(self.headers), "raw": raw})
                    status = outer.status
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def apprise_url(self, path: str = "hook") -> str:
        return f"json://127.0.0.1:{self.port}/{path}"

    def json_posts(self) -> list[dict[str, Any]]:
        with self.lock:
            return [json.loads(p["raw"]) for p in self.posts]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    ep = Endpoint()
    try:
        yield ep
    finally:
        ep.close()


@pytest.fixture
def settings(fresh_database: str) -> Settings:
    # No background passes: each test runs delivery and deadlines itself.
    return make_settings(fresh_database, delivery_poll=0, turn_deadline_poll=0, deadline_poll=0)
