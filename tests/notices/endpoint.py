"""A local HTTP endpoint that records POSTs: the target of apprise's json://
scheme, and the stand-in for a browser push service (whose messages the test
decrypts with the subscription's own keys, as a browser would)."""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


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

    def push_subscription(self, path: str = "push/device-1") -> PushKeys:
        return PushKeys(f"http://127.0.0.1:{self.port}/{path}")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushKeys:
    """A browser's side of a push subscription: its ECDH key pair and auth
    secret, so the test can read what the server encrypted for it."""

    def __init__(self, endpoint: str) -> None:
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        self.endpoint = endpoint
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.private_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        self.p256dh = b64url(point)
        self.auth_b64 = b64url(self.auth)

    def json(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth_b64}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        import http_ece

        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)
