"""The bot's geocoder: core.services.geocoding with geopy's aiohttp adapter (the core never
imports aiohttp)."""
from __future__ import annotations

from geopy.adapters import AioHTTPAdapter

from core.services import geocoding as _core
from core.services.geocoding import (USER_AGENT, GeocodingUnavailable, Place,  # noqa: F401
                                     find_address, short_address, viewbox)


class Geocoder(_core.Geocoder):
    def __init__(self, nominatim_url, area, **kw) -> None:
        kw.setdefault("adapter_factory", AioHTTPAdapter)
        super().__init__(nominatim_url, area, **kw)
