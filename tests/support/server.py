"""Run `python -m app serve` as a real subprocess for process-level tests.

    with ServerProcess(database_url, log_dir=tmp_path) as server:
        httpx.get(server.base_url + "/healthz")
        server.kill()      # SIGKILL, like a crash
        server.start()     # the same port and database again

The process runs in its own session (process group), so kill/stop reach
anything it spawned; `close()` (also on __exit__ and, as a last resort, at
interpreter exit) always leaves no process behind. Its stdout and stderr go to
a log file (`log_path`) whose tail is shown when it fails to come up.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import weakref
from pathlib import Path
from typing import IO, Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
SECRET_KEY = "process-test-secret-key-shared-by-every-server"
TALLY_SPEC = "tests.support.tally:GAME"
START_TIMEOUT = 20.0

_live: weakref.WeakSet[ServerProcess] = weakref.WeakSet()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(database_url: str, port: int, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": database_url,
            "SECRET_KEY": SECRET_KEY,
            "BASE_URL": f"http://127.0.0.1:{port}",
            "BOT_DELAY": "0",
            "EXTRA_GAMES": TALLY_SPEC,
            "LOGIN_ATTEMPTS_PER_MINUTE": "1000",
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.update(extra or {})
    return env


def app_command(*args: str, database_url: str, timeout: float = 30.0) -> subprocess.CompletedProcess[str]:
    """Run another operator command (`replay 7`, `migrate`) against a database."""
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT,
        env=server_env(database_url, 0),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


class ServerError(RuntimeError):
    pass


class ServerProcess:
    """One `python -m app serve` process on 127.0.0.1 (restartable on the same port)."""

    def __init__(
        self,
        database_url: str,
        *,
        port: int | None = None,
        env: dict[str, str] | None = None,
        log_dir: Path | str | None = None,
        name: str = "server",
    ) -> None:
        self.database_url = database_url
        self.port = port or free_port()
        self.extra_env = dict(env or {})
        self.name = name
        folder = Path(log_dir) if log_dir else Path(tempfile.mkdtemp(prefix="feytable-server-"))
        folder.mkdir(parents=True, exist_ok=True)
        self.log_path = folder / f"{name}-{self.port}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self.starts = 0
        _live.add(self)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    # -- lifecycle --------------------------------------------------------------------

    def start(self, timeout: float = START_TIMEOUT) -> ServerProcess:
        if self.running():
            raise ServerError(f"{self.name} is already running (pid {self.pid})")
        self._reap()
        self.starts += 1
        self._log = open(self.log_path, "ab")  # noqa: SIM115 (closed in _reap)
        self._log.write(f"\n===== start #{self.starts} on port {self.port} =====\n".encode())
        self._log.flush()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT,
            env=server_env(self.database_url, self.port, self.extra_env),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            self._wait_healthy(timeout)
        except BaseException:
            self.kill()
            raise
        return self

    def _wait_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        last: Any = None
        with httpx.Client(timeout=2.0) as client:
            while time.monotonic() < deadline:
                if self.proc is None or self.proc.poll() is not None:
                    code = self.proc.returncode if self.proc else None
                    raise ServerError(f"{self.name} exited with {code} while starting:\n{self.log_tail()}")
                try:
                    r = client.get(self.base_url + "/healthz")
                    if r.status_code == 200:
                        return
                    last = f"HTTP {r.status_code}: {r.text[:200]}"
                except httpx.HTTPError as exc:
                    last = repr(exc)
                time.sleep(0.1)
        raise ServerError(f"{self.name} not healthy after {timeout:.0f} s (last: {last}):\n{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL the whole process group, like a crash, and reap it."""
        self._signal(signal.SIGKILL)
        self._reap()

    def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM (graceful shutdown), wait; SIGKILL if it does not exit in time."""
        if self.proc is None:
            return None
        self._signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self._signal(signal.SIGKILL)
        code = self.proc.returncode if self.proc.poll() is not None else None
        self._reap()
        return code

    def restart(self, timeout: float = START_TIMEOUT) -> ServerProcess:
        self.kill()
        return self.start(timeout)

    def close(self) -> None:
        self.kill()
        _live.discard(self)

    def _signal(self, sig: int) -> None:
        if self.proc is None or self.proc.poll() is not None:
            # The leader is gone; anything it left in its group must go too.
            if self.proc is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, sig)

    def _reap(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)  # stragglers in its group
            self.proc = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_tail(self, chars: int = 4000) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return text[-chars:]

    def __enter__(self) -> ServerProcess:
        if not self.running():
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ServerProcess {self.name} {self.base_url} pid={self.pid}>"


@atexit.register
def _close_all() -> None:
    for server in list(_live):
        with contextlib.suppress(Exception):
            server.close()
