"""The payment tests run on a Core of a city that takes PIX (tests.support.payments.PIX)."""
from __future__ import annotations

import pytest

from tests.support.payments import PIX


@pytest.fixture
async def core(make_core):
    return await make_core(**PIX)
