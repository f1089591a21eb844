"""Open311 GeoReport v2 test data (no tests here): the API key, the personal fields a post may
carry, a valid post, and a photo host for the client's tests."""
from __future__ import annotations

import asyncio
from ipaddress import IPv4Address

from aiohttp import web
from aiohttp.test_utils import TestServer

from admin.open311_fetch import EGRESS, Egress
from tests.support.core_fixtures import jpeg
from tests.support.panel import CENTRE, Panel

KEY = "chave-open311-teste"
#: The spec's POST example body (service_code and lat/long changed to this city's: the spec's
#: "001" and San Francisco are not in it).
SPEC_POST = {"api_key": KEY, "jurisdiction_id": "city.gov", "service_code": "motor_vehicle",
             "lat": str(CENTRE[0]), "long": str(CENTRE[1]), "address_string": "1234 5th street",
             "email": "smit333@sfgov.edu", "device_id": "tt222111", "account_id": "123456",
             "first_name": "john", "last_name": "smith", "phone": "111111111",
             "description": "A large sinkhole is destroying the street",
             "media_url": "http://example.com/images/12.jpg"}
PERSONAL = ("smit333", "tt222111", "john", "smith", "111111111", "sinkhole", "ABC1D23",
            "Fulano", "Cidadão", "reporter", "owner", "example.com/images")


class PhotoHost:
    """A local HTTP server holding a photo, a web page, a huge file and a slow one."""

    def __init__(self):
        self.hits: list[str] = []
        app = web.Application()
        app.router.add_get("/{name}", self.serve)
        self.server = TestServer(app)

    async def serve(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        self.hits.append(name)
        if name == "lenta.jpg":
            await asyncio.sleep(3)
        if name == "pagina.jpg":
            return web.Response(body=b"<html><script>alert(1)</script></html>",
                                content_type="image/jpeg")
        if name == "enorme.jpg":
            return web.Response(body=jpeg() + b"\0" * 300_000, content_type="image/jpeg")
        return web.Response(body=jpeg((10, 200, 10)), content_type="image/jpeg")

    def url(self, name: str, host: str = "127.0.0.1") -> str:
        return str(self.server.make_url(f"/{name}")).replace("127.0.0.1", host, 1)
#: A made-up public name that the tests' DNS maps to the loopback test server.
PUBLIC_NAME = "fotos.prefeitura.test"


async def fake_dns(host: str, port: int) -> list[str]:
    if host == PUBLIC_NAME:
        return ["127.0.0.1"]
    raise OSError(f"unknown name {host}")
#: The test-only allow-list: 127.0.0.1 stands for a public address (never in production).
TEST_EGRESS = Egress(resolve=fake_dns, allow=lambda ip: ip == IPv4Address("127.0.0.1"))


def panel_with(core, egress: Egress = TEST_EGRESS) -> Panel:
    panel = Panel(core)
    panel.app[EGRESS] = egress
    return panel
