"""A city recorded in the panel (another process) reaches the running bot without a restart:
the sweep's loop reads the municipality records again every `core.cache_seconds`."""
from __future__ import annotations

import time

from bot.loops import refresh_cities
from core.laws import get_law
from core.services.context import Core
from core.services.installation.municipalities import add_municipality


async def test_a_city_added_in_the_panel_reaches_the_bot_within_the_cache_time(make_core):
    bot = await make_core("dores-do-indaia")
    await bot.load_cities(adopt=True)
    panel = Core(bot.db, get_law("dores-do-indaia"), bot.settings, bot.evidence, bot.clock)
    await panel.load_cities()
    await add_municipality(panel, "dracena")  # the panel's process
    assert bot.city_named("dracena") is None
    read_at = time.monotonic()
    assert await refresh_cities(bot, read_at) == read_at  # not yet: within the cache time
    assert bot.city_named("dracena") is None
    later = await refresh_cities(bot, read_at - bot.cache_seconds - 1)
    assert later > read_at - 1
    assert bot.city_named("dracena") is not None and bot.many_cities
    assert bot.municipality == "dores-do-indaia"  # still acting for its own city
