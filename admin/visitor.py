"""Who is asking: the visitor's address, the key of the public pages' rate limit and owner
cool-down (core.services.public.access) and of the panel's login throttle.

It is the TCP peer (`request.remote`), unless the peer is one of TRUSTED_PROXIES (addresses
or CIDR networks; none by default). Then X-Forwarded-For is read from the right, skipping the
trusted proxies, and the first address that is not one of them is the visitor: a client can
prepend anything to the header, but it cannot get past the entry its own proxy appended.
(aiohttp-remotes' XForwardedStrict answers 400 to a peer outside its list, so direct
connections would fail; its relaxed mode believes anyone: hence this small function.)
"""
from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address, ip_address

from aiohttp import hdrs, web

from admin.web import SETTINGS


def _ip(text: str) -> IPv4Address | IPv6Address | None:
    try:
        ip = ip_address(text.strip())
    except ValueError:
        return None
    mapped = getattr(ip, "ipv4_mapped", None)
    return mapped or ip


def visitor_ip(request: web.Request) -> str:
    """The visitor's address as text ("?" when the peer is unknown)."""
    peer = _ip(request.remote or "")
    if peer is None:
        return request.remote or "?"
    proxies = request.app[SETTINGS].trusted_proxies

    def trusted(ip) -> bool:
        return any(ip in net for net in proxies)

    if not trusted(peer):
        return str(peer)
    hops = [h for value in request.headers.getall(hdrs.X_FORWARDED_FOR, [])
            for h in value.split(",") if h.strip()]
    visitor = peer
    for hop in reversed(hops):
        ip = _ip(hop)
        if ip is None:  # garbage written by a trusted hop: believe no further
            break
        visitor = ip
        if not trusted(ip):
            break
    return str(visitor)
