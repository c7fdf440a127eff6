"""Refuse oversize bodies before anything reads them."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.i18n import _


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.max_bytes
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(send)
                    return
        if not any(name == b"content-length" for name, _v in scope.get("headers", [])):
            # A chunked body: read it here, within the limit, before the app
            # sees it (the app's body parser would turn our refusal into a 400).
            await self._buffered(scope, receive, send)
            return
        received = 0
        refused = False

        async def limited() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    refused = True
                    raise _TooLarge()
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            if refused:
                await self._refuse(send)

    async def _buffered(self, scope: Scope, receive: Receive, send: Send) -> None:
        chunks: list[bytes] = []
        size = 0
        first: Message | None = None
        while True:
            message = await receive()
            if message["type"] != "http.request":
                first = message  # the client left: let the app see it
                break
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        pending: list[Message] = [first or whole]

        async def replay() -> Message:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"code": "too_large", "message": _("The request is too large.")}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass
