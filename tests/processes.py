"""Helpers for tests that run the project in another process: a free port on 127.0.0.1
and ``manage.py`` run with an environment of the test's own."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def manage(env: dict[str, str], *args: str, timeout: float = 180) -> str:
    """Run ``manage.py ARGS`` in ``env`` (timeout in seconds); its standard output. Fails
    the test, with the end of its standard error, when the command fails."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout
