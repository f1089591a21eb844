"""An Open311 POST cannot make the server fetch from inside its network (server-side request
forgery): with OPEN311_FETCH_MEDIA=true, a media_url to loopback, a private or link-local
network (the cloud metadata address), the unspecified address, an IPv4 address wrapped in
IPv6 or written in hex, or behind a user@ prefix is refused before any connection; the name is
resolved once and the connection goes to the address checked (DNS rebinding cannot swap it);
a report that fails validation is refused before any fetch; and every failure gives the same
answer. No test here sends a packet anywhere but loopback: the refusals are checked against a
loopback server that must see zero requests, or without connecting at all."""
from __future__ import annotations

from ipaddress import ip_address

import pytest
from hypothesis import given
from hypothesis import strategies as st
from aiohttp import web
from aiohttp.test_utils import TestServer

from admin.egress import GuardedResolver, Refused, allowed_ip, check_url
from admin.open311_fetch import EGRESS, FAILED, Egress
from core.storage.models import Case
from sqlalchemy import func, select
from tests.support.core_fixtures import jpeg
from tests.support.panel import Panel
from tests.support.open311 import KEY, PUBLIC_NAME, PhotoHost, SPEC_POST, TEST_EGRESS, panel_with

API = "/open311/v2"

#: The issue's list, as addresses: none may be fetched.
FORBIDDEN_IPS = ["127.0.0.1", "127.255.255.254", "::1", "0.0.0.0", "::", "::ffff:127.0.0.1",
                 "::ffff:10.0.0.1", "169.254.169.254", "10.0.0.1", "10.255.255.255",
                 "172.16.0.1", "172.31.255.254", "192.168.0.1", "192.168.255.255", "fd00::1",
                 "fdff:ffff::1", "fe80::1", "100.64.0.1", "224.0.0.1", "255.255.255.255",
                 "2002:7f00:1::"]  # 6to4 of 127.0.0.1
PUBLIC_IPS = ["8.8.8.8", "200.160.2.3", "2001:4860:4860::8888", "172.32.0.1", "11.0.0.1"]


def test_only_global_addresses_are_allowed():
    assert [ip for ip in FORBIDDEN_IPS if allowed_ip(ip_address(ip))] == []
    assert [ip for ip in PUBLIC_IPS if not allowed_ip(ip_address(ip))] == []


INSIDE_NETWORKS = ["127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                   "169.254.0.0/16", "0.0.0.0/8", "100.64.0.0/10", "::1/128", "fc00::/7",
                   "fe80::/10", "2002:7f00::/24"]  # the last: 6to4 of 127/8


@given(st.sampled_from(INSIDE_NETWORKS).flatmap(
    lambda net: st.ip_addresses(network=net)))
def test_no_address_of_an_inside_network_is_ever_allowed(ip):
    assert not allowed_ip(ip)
    mapped = ip_address(f"::ffff:{ip}") if ip.version == 4 else None
    assert mapped is None or not allowed_ip(mapped)


#: The forms of the issue's list as URLs (port 1: nothing listens there, and nothing connects).
FORBIDDEN_URLS = ["http://127.0.0.1:1/a.jpg", "http://localhost:1/a.jpg", "http://[::1]:1/a.jpg",
                  "http://0.0.0.0:1/a.jpg", "http://[::ffff:127.0.0.1]:1/a.jpg",
                  "http://0x7f000001:1/a.jpg", "http://2130706433:1/a.jpg",
                  "http://127.1:1/a.jpg", "http://user@127.0.0.1:1/a.jpg",
                  "http://user:pw@localhost:1/a.jpg", "http://169.254.169.254/latest/meta-data/",
                  "http://10.0.0.1/a.jpg", "http://172.16.0.1/a.jpg", "http://192.168.1.1/a.jpg",
                  "http://[fd00::1]/a.jpg", "https://[fe80::1%25eth0]/a.jpg",
                  "ftp://8.8.8.8/a.jpg", "file:///etc/passwd", "http:///a.jpg"]


async def _no_dns(host: str, port: int) -> list[str]:
    """Only names the C library reads without asking a DNS server (localhost, numeric forms)."""
    import asyncio
    import socket
    if host not in ("localhost",) and not all(c in "0123456789abcdefx." for c in host.lower()):
        raise OSError("no DNS in tests")
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [i[4][0] for i in infos]


@pytest.mark.parametrize("url", FORBIDDEN_URLS)
async def test_every_form_of_an_inside_address_is_refused_without_connecting(url):
    with pytest.raises(Refused):
        await check_url(url, _no_dns)


@pytest.mark.parametrize("target", ["169.254.169.254", "10.1.2.3", "172.20.0.5", "192.168.0.10",
                                    "fd00::5", "127.0.0.1", "::ffff:169.254.169.254"])
async def test_a_name_that_resolves_inside_is_refused_by_the_resolver(target):
    """The resolver aiohttp connects through refuses the name: nothing to connect to."""
    async def dns(host, port):
        return [target]
    with pytest.raises(Refused):
        await GuardedResolver(dns).resolve("fotos.exemplo.com.br", 80)
    with pytest.raises(Refused):  # one inside address among public ones is enough
        await GuardedResolver(lambda h, p: _const(["8.8.8.8", target])).resolve("x.test", 80)


async def _const(value):
    return value


async def test_a_public_name_resolves_to_its_checked_addresses_only():
    found = await GuardedResolver(lambda h, p: _const(["8.8.8.8", "2001:4860:4860::8888"])
                                  ).resolve("fotos.exemplo.com.br", 443)
    assert [(r["host"], r["port"]) for r in found] == [("8.8.8.8", 443),
                                                       ("2001:4860:4860::8888", 443)]


class Inside:
    """A loopback server standing for the inside network: it must see no request at all."""

    def __init__(self, host: str = "127.0.0.1"):
        self.hits: list[str] = []
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self.serve)
        self.server = TestServer(app, host=host)

    async def serve(self, request: web.Request) -> web.Response:
        self.hits.append(request.path)
        return web.Response(body=jpeg(), content_type="image/jpeg")


async def _cases(core) -> int:
    async with core.db.read() as s:
        return (await s.execute(select(func.count(Case.id)))).scalar_one()


async def test_open311_never_fetches_inside_addresses_and_answers_alike(make_core):
    """The issue's list against a live loopback server with the production policy (system
    resolver, global addresses only): zero requests reach it, every POST is a 400 with the
    one same answer, no case is opened."""
    inside = Inside()
    async with inside.server:
        port = inside.server.port
        urls = [f"http://127.0.0.1:{port}/a.jpg", f"http://localhost:{port}/a.jpg",
                f"http://[::1]:{port}/a.jpg", f"http://0.0.0.0:{port}/a.jpg",
                f"http://[::ffff:127.0.0.1]:{port}/a.jpg", f"http://0x7f000001:{port}/a.jpg",
                f"http://2130706433:{port}/a.jpg", f"http://user@127.0.0.1:{port}/a.jpg",
                f"http://127.1:{port}/a.jpg"]
        core = await make_core(open311_api_key=KEY, open311_fetch_media=True,
                               open311_fetch_timeout_s=2)
        panel = Panel(core)
        panel.app[EGRESS] = Egress(resolve=_no_dns)  # the production check, no DNS server
        async with panel.client() as c:
            answers = []
            for url in urls:
                r = await c.post(f"{API}/requests.json", data={**SPEC_POST, "media_url": url})
                answers.append((r.status, (await r.json())[0]["description"]))
    assert inside.hits == []
    assert answers == [(400, FAILED)] * len(urls)
    assert await _cases(core) == 0


async def test_dns_rebinding_cannot_swap_the_checked_address(make_core):
    """The name is public when first asked and inside when asked again: every answer is
    checked, and the connection only goes to an address that was; nothing is fetched."""
    inside = Inside("127.0.0.2")  # the test-only allow-list lets 127.0.0.1 only
    calls: list[str] = []

    async def rebinding(name: str, port: int) -> list[str]:
        calls.append(name)
        return ["127.0.0.1"] if len(calls) == 1 else ["127.0.0.2"]

    async with inside.server:
        core = await make_core(open311_api_key=KEY, open311_fetch_media=True,
                               open311_fetch_timeout_s=2)
        async with panel_with(core, Egress(rebinding, TEST_EGRESS.allow)).client() as c:
            url = f"http://{PUBLIC_NAME}:{inside.server.port}/foto.jpg"
            r = await c.post(f"{API}/requests.json", data={**SPEC_POST, "media_url": url})
            assert (r.status, (await r.json())[0]["description"]) == (400, FAILED)
    assert len(calls) >= 2 and inside.hits == []


async def test_a_redirect_inside_is_refused(make_core):
    """A public server answering 302 to an inside address: the redirect's URL is checked
    like the first, so the inside server sees nothing."""
    inside = Inside("127.0.0.2")  # the test-only allow-list lets 127.0.0.1 only
    outside = web.Application()

    async def bounce(request: web.Request) -> web.Response:
        raise web.HTTPFound(f"http://127.0.0.2:{inside.server.port}/secret")

    outside.router.add_get("/foto.jpg", bounce)
    public = TestServer(outside, host="127.0.0.1")
    async with inside.server, public:
        core = await make_core(open311_api_key=KEY, open311_fetch_media=True,
                               open311_fetch_timeout_s=2)
        async with panel_with(core).client() as c:
            url = f"http://{PUBLIC_NAME}:{public.port}/foto.jpg"
            r = await c.post(f"{API}/requests.json", data={**SPEC_POST, "media_url": url})
            assert (r.status, (await r.json())[0]["description"]) == (400, FAILED)
    assert inside.hits == []


async def test_a_public_photo_behind_a_public_redirect_is_fetched(make_core):
    host = PhotoHost()
    outside = web.Application()

    async def bounce(request: web.Request) -> web.Response:
        raise web.HTTPFound(host.url("foto.jpg", PUBLIC_NAME))

    outside.router.add_get("/curta", bounce)
    short = TestServer(outside, host="127.0.0.1")
    async with host.server, short:
        core = await make_core(open311_api_key=KEY, open311_fetch_media=True,
                               open311_fetch_timeout_s=2)
        async with panel_with(core).client() as c:
            url = f"http://{PUBLIC_NAME}:{short.port}/curta"
            r = await c.post(f"{API}/requests.json", data={**SPEC_POST, "media_url": url})
            assert r.status == 201, await r.text()
    assert host.hits == ["foto.jpg"]


async def test_an_invalid_report_is_refused_before_any_fetch(make_core):
    """An unknown service_code, a point outside the city, a bad attribute: refused with their
    own reason, and the photo's server never asked."""
    host = PhotoHost()
    async with host.server:
        core = await make_core(open311_api_key=KEY, open311_fetch_media=True,
                               open311_fetch_timeout_s=2)
        async with panel_with(core).client() as c:
            url = host.url("foto.jpg", PUBLIC_NAME)
            for bad in ({"service_code": "033"}, {"lat": "-23.55", "long": "-46.63"},
                        {"attribute[location_kind]": "lua"}, {"lat": "nan", "long": "inf"}):
                r = await c.post(f"{API}/requests.json",
                                 data={**SPEC_POST, "media_url": url, **bad})
                assert r.status in (400, 404), (bad, r.status)
                assert (await r.json())[0]["description"] != FAILED
    assert host.hits == []
    assert await _cases(core) == 0
