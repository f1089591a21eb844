"""The Nominatim stand-in, driven by geopy's real Nominatim geocoder over aiohttp."""

from __future__ import annotations

import pytest
from geopy.adapters import AioHTTPAdapter
from geopy.exc import GeocoderRateLimited, GeocoderTimedOut
from geopy.geocoders import Nominatim

from sandbox.standin.nominatim import DORES_DO_INDAIA_CENTRE, NominatimStandIn, Place


@pytest.fixture
async def osm():
    async with NominatimStandIn() as stand_in:
        yield stand_in


def geocoder(osm: NominatimStandIn, timeout: float = 2.0) -> Nominatim:
    return Nominatim(domain=osm.domain, scheme="http", user_agent="via-livre-tests",
                     timeout=timeout, adapter_factory=AioHTTPAdapter)


async def test_geocode_a_street_address_in_dores_do_indaia(osm):
    async with geocoder(osm) as geo:
        place = await geo.geocode("Rua Getúlio Vargas, 100, Dores do Indaiá - MG",
                                  addressdetails=True, country_codes="br")
    assert place.raw["address"]["city"] == "Dores do Indaiá"
    assert place.raw["address"]["road"] == "Rua Getúlio Vargas"
    assert place.raw["address"]["house_number"] == "100"
    assert abs(place.latitude - DORES_DO_INDAIA_CENTRE[0]) < 0.02
    assert abs(place.longitude - DORES_DO_INDAIA_CENTRE[1]) < 0.02
    [request] = osm.requests
    assert request.path == "/search"
    assert request.params["format"] == "json" and request.params["limit"] == "1"
    assert request.user_agent == "via-livre-tests"


async def test_search_ignores_accents_and_case_and_finds_nothing_for_unknown_streets(osm):
    async with geocoder(osm) as geo:
        square = await geo.geocode("praca do rosario, dores do indaia")
        missing = await geo.geocode("Rua Inexistente, Dores do Indaiá")
        both = await geo.geocode("Rua Getúlio Vargas", exactly_one=False)
    assert square.address.startswith("Praça do Rosário")
    assert missing is None
    assert {p.raw["display_name"].split(",")[1].strip() for p in both} == {"100", "250"}


async def test_bounded_viewbox_excludes_the_place_in_belo_horizonte(osm):
    lat, lon = DORES_DO_INDAIA_CENTRE
    box = [(lat - 0.05, lon - 0.05), (lat + 0.05, lon + 0.05)]
    async with geocoder(osm) as geo:
        outside = await geo.geocode("Avenida Afonso Pena, 1212, Belo Horizonte")
        bounded = await geo.geocode("Avenida Afonso Pena, 1212, Belo Horizonte",
                                    viewbox=box, bounded=True)
    assert outside.raw["display_name"].endswith("Brasil")
    assert "Belo Horizonte" in outside.address
    assert bounded is None
    assert osm.requests[-1].params["bounded"] == "1"


async def test_reverse_gives_the_nearest_street_then_the_city_then_nothing(osm):
    async with geocoder(osm) as geo:
        street = await geo.reverse((-19.46215, -45.60100))
        city = await geo.reverse((-19.4800, -45.6200))
        far = await geo.reverse((-15.78, -47.93))
        coarse = await geo.reverse((-19.46215, -45.60100), zoom=10)
    assert street.raw["address"]["road"] == "Rua Getúlio Vargas"
    assert city.raw["address"]["city"] == "Dores do Indaiá" and "road" not in city.raw["address"]
    assert far is None
    assert coarse.raw["type"] == "administrative"
    assert osm.requests[0].path == "/reverse"


async def test_gazetteer_supplied_by_the_test(osm):
    osm.add(Place("Rua das Flores, 7", -19.4700, -45.5900,
                  "Rua das Flores, 7, Dores do Indaiá, Minas Gerais, Brasil",
                  {"road": "Rua das Flores", "house_number": "7", "city": "Dores do Indaiá",
                   "country_code": "br"}))
    async with geocoder(osm) as geo:
        place = await geo.geocode("Rua das Flores 7")
    assert (place.latitude, place.longitude) == (-19.47, -45.59)


async def test_slow_server_raises_geocoder_timed_out(osm):
    osm.delay = 1.0
    async with geocoder(osm, timeout=0.2) as geo:
        with pytest.raises(GeocoderTimedOut):
            await geo.geocode("Praça do Rosário")


async def test_server_down_answers_503(osm):
    osm.down = True
    async with geocoder(osm) as geo:
        # geopy maps HTTP 503 to GeocoderTimedOut (geopy.geocoders.base.ERROR_CODE_MAP)
        with pytest.raises(GeocoderTimedOut, match="503"):
            await geo.geocode("Praça do Rosário")
    assert osm.requests[-1].status == 503
    osm.down = False
    async with geocoder(osm) as geo:
        assert await geo.geocode("Praça do Rosário") is not None


async def test_more_than_the_allowed_rate_answers_429(osm):
    """The public Nominatim policy allows 1 request per second."""
    osm.max_requests_per_second = 1
    async with geocoder(osm) as geo:
        await geo.geocode("Praça do Rosário")
        with pytest.raises(GeocoderRateLimited):
            await geo.geocode("Praça do Rosário")
