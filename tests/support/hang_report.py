"""A hung test fails with its name and the stacks of every asyncio task and every thread.

pytest-timeout (the `timeout` in pyproject.toml) stops a test that runs too long; by itself
it prints the threads' stacks to the terminal, which an xdist worker's output loses, and no
asyncio task's. This plugin takes over its signal method: when the time is up it fails the
test with a message naming it and holding, for each task of the running event loop, where it
is suspended (`Task.print_stack`), then each thread's stack; so a hang in CI reads as which
await never returned. The thread method (a test not on the main thread) stays pytest-timeout's.
"""
from __future__ import annotations

import asyncio
import io
import signal
import sys
import threading
import traceback

import pytest


def stacks() -> str:
    """Every task of the running event loop (if any) and every thread, as text."""
    out = io.StringIO()
    try:
        loop = asyncio.get_running_loop()  # in the signal handler: the loop running the test
    except RuntimeError:
        loop = None
    tasks = sorted(asyncio.all_tasks(loop), key=lambda t: t.get_name()) if loop else []
    for task in tasks:
        out.write(f"--- task {task.get_name()}: {task.get_coro()!r}\n")
        task.print_stack(file=out)
    names = {t.ident: t.name for t in threading.enumerate()}
    for ident, frame in sys._current_frames().items():
        out.write(f"--- thread {names.get(ident, ident)}\n")
        out.write("".join(traceback.format_stack(frame)))
    return out.getvalue()


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_set_timer(item, settings):
    if (settings.method != "signal" or not settings.timeout
            or threading.current_thread() is not threading.main_thread()):
        return None  # pytest-timeout's own way

    def handler(signum, frame) -> None:
        __tracebackhide__ = True
        pytest.fail(f"Timeout: {item.nodeid} ran over {settings.timeout:g} s; where every "
                    f"task and thread was:\n{stacks()}", pytrace=False)

    def cancel() -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)

    item.cancel_timeout = cancel  # pytest-timeout's cancel hook calls it
    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, settings.timeout)
    return True
