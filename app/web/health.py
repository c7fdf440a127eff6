"""GET /healthz: the database answers."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from app.web.deps import RuntimeDep

router = APIRouter()


@router.get("/healthz")
async def healthz(rt: RuntimeDep) -> JSONResponse:
    try:
        async with rt.sm() as db:
            await db.execute(text("SELECT 1"))
    except Exception:
        return JSONResponse({"status": "error", "database": "unreachable"}, status_code=503)
    return JSONResponse({"status": "ok", "database": "ok", "sockets": rt.hub.connections()})
