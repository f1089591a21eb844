"""A hung test fails with its name and where every task was suspended (tests/support/
hang_report.py): a test whose task waits on an event nobody sets, run by a real pytest with a
one-second timeout, fails naming the test, the waiting task and the await it is stuck on."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

HUNG = '''
import asyncio

async def wait_for_a_reply_that_never_comes(event):
    await event.wait()

async def test_it_hangs():
    event = asyncio.Event()
    waiter = asyncio.create_task(wait_for_a_reply_that_never_comes(event), name="the-waiter")
    await waiter
'''


def test_a_hung_test_names_itself_and_every_task(tmp_path):
    (tmp_path / "test_hung.py").write_text(HUNG)
    (tmp_path / "pytest.ini").write_text("[pytest]\nasyncio_mode = auto\n")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.support.hang_report",
         "-p", "no:randomly", "-p", "no:cacheprovider", "--timeout", "1", "test_hung.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "Timeout: test_hung.py::test_it_hangs ran over 1 s" in out
    assert "--- task the-waiter" in out  # the task, by its name
    assert "await event.wait()" in out  # and the await it never left
    assert "--- thread MainThread" in out
