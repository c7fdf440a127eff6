"""Operator commands: python -m app serve|migrate|create-admin|replay|deliver."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sys
from pathlib import Path

from app.config import get_settings

ROOT = Path(__file__).resolve().parents[1]


def migrate(database_url: str | None = None) -> None:
    """Apply every Alembic migration (upgrade head)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    if database_url:
        cfg.attributes["database_url"] = database_url
    cfg.attributes["configure_logger"] = False
    command.upgrade(cfg, "head")


def _serve(host: str, port: int) -> None:
    import uvicorn

    migrate()
    uvicorn.run(
        "app.web.app:create_app", factory=True, host=host, port=port, proxy_headers=True, log_level="info"
    )


async def _create_admin(name: str, password: str) -> None:
    from app.services import accounts
    from app.services.runtime import Runtime

    rt = Runtime.build(get_settings())
    try:
        user = await accounts.make_admin(rt.sm, name, password)
        print(f"admin account ready: {user.name}")
    finally:
        await rt.engine.dispose()


async def _deliver(once: bool) -> int:
    """Send queued notices from this process (besides, or instead of, the
    servers' own workers: leases keep any number of them from doubling a notice)."""
    from app.services.delivery import Worker
    from app.services.runtime import Runtime

    settings = get_settings()
    rt = Runtime.build(settings)
    worker = Worker(rt)
    try:
        while True:
            sent = await worker.run_once()
            if once:
                print(f"{sent} notices sent")
                return 0
            await asyncio.sleep(settings.delivery_poll or 5.0)
    finally:
        await rt.engine.dispose()


async def _replay(table_id: int) -> int:
    from app.services import moves
    from app.services.errors import ServiceError
    from app.services.runtime import Runtime

    rt = Runtime.build(get_settings())
    try:
        ok, _rebuilt, _stored = await moves.replay(rt, table_id)
    except ServiceError as exc:
        print(f"table {table_id}: {exc}")
        return 2
    finally:
        await rt.engine.dispose()
    if ok:
        print(f"table {table_id}: replay matches the stored state")
        return 0
    print(f"table {table_id}: replay DIFFERS from the stored state")
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app", description="feytable operator commands")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="apply migrations, then serve the app")
    serve.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    sub.add_parser("migrate", help="apply database migrations")
    admin = sub.add_parser("create-admin", help="create (or reset) an admin account")
    admin.add_argument("name")
    admin.add_argument("--password", help="default: asked on the terminal, or $ADMIN_PASSWORD")
    replay = sub.add_parser("replay", help="rebuild a table from seed + move log and compare")
    replay.add_argument("table_id", type=int)
    deliver = sub.add_parser("deliver", help="send queued notices (a separate delivery worker)")
    deliver.add_argument("--once", action="store_true", help="one pass, then exit")
    args = parser.parse_args(argv)

    if args.command == "serve":
        _serve(args.host, args.port)
        return 0
    if args.command == "migrate":
        migrate()
        print("database is up to date")
        return 0
    if args.command == "create-admin":
        password = args.password or os.environ.get("ADMIN_PASSWORD") or getpass.getpass("Password: ")
        asyncio.run(_create_admin(args.name, password))
        return 0
    if args.command == "replay":
        return asyncio.run(_replay(args.table_id))
    if args.command == "deliver":
        return asyncio.run(_deliver(args.once))
    return 2


if __name__ == "__main__":
    sys.exit(main())
