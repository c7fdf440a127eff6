"""In CI (CI=true) an unreachable PostgreSQL fails the run; locally it skips."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run_pg_test(ci: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CI": ci, "FEYTABLE_TEST_PG": "postgresql://postgres@127.0.0.1:9/nowhere"}
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run(
        [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
            "tests/store/test_migrations.py", "-k", "upgrade and postgres",
        ],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_unreachable_postgres_fails_in_ci():
    done = _run_pg_test("true")
    assert done.returncode != 0
    assert "CI=true: this is a failure, not a skip" in done.stdout


def test_unreachable_postgres_skips_elsewhere():
    done = _run_pg_test("")
    assert done.returncode == 0
    assert "1 skipped" in done.stdout
