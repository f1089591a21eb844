"""Fixtures for service tests: a `Core` on the `db` fixture's engine with a controllable clock.

A pytest plugin of tests/conftest.py: every test can ask for `clock`, `make_core`, `core` and
`photo`; `Clock` and `jpeg` are imported.
"""
from __future__ import annotations

import io
from datetime import datetime, timedelta, timezone

import pytest
from PIL import Image

from core.laws import get_law
from core.services.context import Core
from core.services.cases.evidence import EvidenceIn
from core.settings import Settings
from core.storage.evidence import EvidenceStore


class Clock:
    """A clock tests move by hand (aware UTC)."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs) -> None:
        self.now += timedelta(**kwargs)


@pytest.fixture
def clock() -> Clock:
    # Tuesday 01/12/2026, 13:00 in São Paulo
    return Clock(datetime(2026, 12, 1, 16, 0, tzinfo=timezone.utc))


@pytest.fixture
def make_core(db, data_dir, clock):
    async def make(municipality: str = "dores-do-indaia", **settings) -> Core:
        s = Settings(_env_file=None, municipality=municipality, data_dir=data_dir, **settings)
        core = Core(db, get_law(municipality), s, EvidenceStore(data_dir), clock)
        await core.seed_tariffs()
        return core
    return make


@pytest.fixture
def make_two_cities(make_core):
    """A Core bound to Dores do Indaiá (MG) in an installation that also serves Dracena (SP),
    each within its law's default circle: `core.for_city("dracena")` acts for the other."""
    async def make(**settings) -> Core:
        from core.services.installation.municipalities import add_municipality
        core = await make_core("dores-do-indaia", **settings)
        await core.load_cities(adopt=True)
        await add_municipality(core, "dracena")
        return core
    return make


@pytest.fixture
async def core(make_core) -> Core:
    return await make_core()


def jpeg(colour=(120, 30, 30)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (32, 24), colour).save(buf, "JPEG")
    return buf.getvalue()


@pytest.fixture
def photo(core):
    """`photo(i)`: a distinct JPEG stored as evidence, as the bot stores it on arrival."""
    def make(i: int = 0) -> EvidenceIn:
        sha, _ = core.evidence.put_image(jpeg((i * 7 % 256, 30, 30)))  # public copy made too
        return EvidenceIn(sha, "image/jpeg", "photo", f"file-{i}", f"uniq-{i}")
    return make
