"""The panel's passwords are kept as argon2id hashes of RFC 9106's second recommended
option (the tests' own accounts use a cheap hasher: tests/conftest.py), and the hashing never
runs on the event loop."""
from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from argon2 import PasswordHasher, Type

from core.services.staff import accounts


def test_the_product_hashes_with_argon2id_at_rfc_9106_s_second_recommended_option():
    # the module's own hasher, as a process loads it (the autouse fixture swaps the attribute
    # only; PasswordHasher() is what the module builds)
    real = PasswordHasher()
    assert real.type is Type.ID
    assert real.time_cost >= 3 and real.memory_cost >= 64 * 1024 and real.parallelism >= 4
    source = Path(accounts.__file__).read_text(encoding="utf-8")
    assert "_hasher = PasswordHasher()\n" in source  # the defaults above, not weakened


def test_a_hash_and_a_check_run_off_the_event_loop():
    seen: list[str] = []

    class Spy(PasswordHasher):
        def hash(self, password, *, salt=None):  # type: ignore[override]
            seen.append(threading.current_thread().name)
            return super().hash(password, salt=salt)

    async def go() -> tuple[str, bool, bool]:
        accounts._hasher = Spy(time_cost=1, memory_cost=8, parallelism=1)
        made = await accounts._hash("uma senha longa")
        return (made, await accounts._verifies(made, "uma senha longa"),
                await accounts._verifies(made, "outra senha"))
    saved = accounts._hasher
    try:
        made, right, wrong = asyncio.run(go())
    finally:
        accounts._hasher = saved
    assert made.startswith("$argon2id$") and right and not wrong
    assert seen and threading.main_thread().name not in seen


def test_an_unknown_user_costs_a_verification_too():
    """A miss checks the dummy hash, so it takes as long as a wrong password."""
    async def go() -> bool:
        return await accounts._verifies(None, "qualquer senha")
    assert asyncio.run(go()) is False
