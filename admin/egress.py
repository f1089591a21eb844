"""Outgoing requests a caller steers (an Open311 POST's media_url): only to public addresses.

No maintained guard library on PyPI fits aiohttp with connection pinning (the maintained ones
wrap httpx or requests), so this is a small one:

- `allowed_ip`: an address is allowed only when `ipaddress` calls it global — never loopback,
  private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16: the cloud metadata
  service; fe80::/10), unspecified (0.0.0.0, ::), multicast, reserved or documentation; an
  IPv4 address wrapped in IPv6 (::ffff:127.0.0.1, 6to4, Teredo) is judged by the IPv4 inside.
- `GuardedResolver`: aiohttp's resolver for the fetch. It resolves the name, refuses it when
  ANY of its addresses is not allowed, and hands aiohttp only the addresses it checked, so the
  connection goes to a checked address (pinned: a second DNS answer — rebinding — is never
  asked for). aiohttp skips resolvers for IP literals, so `check_url` judges those itself and
  refuses the legacy numeric forms (0x7f000001, 2130706433, 127.1) by resolving them the same
  way (the C library turns them into 127.0.0.1).
- every URL is checked before its request, the first and each redirect's.

Tests inject `resolve` (a fake DNS) and `allow` (a test-only allow-list for a loopback test
server); production uses the system resolver and `allowed_ip`.
"""
from __future__ import annotations

import asyncio
import socket
from ipaddress import IPv4Address, IPv6Address, ip_address
from typing import Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp.abc import AbstractResolver, ResolveResult

IP = IPv4Address | IPv6Address
Resolve = Callable[[str, int], Awaitable[list[str]]]
Allow = Callable[[IP], bool]


class Refused(Exception):
    """The URL leads to an address that is not public (or to nothing)."""


def allowed_ip(ip: IP) -> bool:
    """A public unicast address (IPv4 inside IPv6 judged as IPv4)."""
    if isinstance(ip, IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if inner is not None:
            return allowed_ip(inner) and ip.is_global
    return ip.is_global and not ip.is_multicast


def literal(host: str) -> IP | None:
    """`host` as an IP address when it is one written canonically (brackets, zone dropped)."""
    try:
        return ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return None


async def system_resolve(host: str, port: int) -> list[str]:
    """The system resolver's addresses for `host` (TCP)."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]).split("%", 1)[0] for info in infos))


async def checked_addresses(host: str, port: int, resolve: Resolve = system_resolve,
                            allow: Allow = allowed_ip) -> list[IP]:
    """`host`'s addresses, all allowed; Refused otherwise (or when it resolves to nothing)."""
    ip = literal(host)
    if ip is not None:
        found = [ip]
    else:
        try:
            found = [ip_address(a) for a in await resolve(host, port)]
        except (OSError, ValueError, UnicodeError):
            raise Refused(host) from None
    if not found or not all(allow(a) for a in found):
        raise Refused(host)
    return found


async def check_url(url: str, resolve: Resolve = system_resolve,
                    allow: Allow = allowed_ip) -> None:
    """Refused unless `url` is http(s) to a host whose every address is allowed."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Refused(url) from None
    if parts.scheme not in ("http", "https") or not host:
        raise Refused(url)
    await checked_addresses(host, port, resolve, allow)


class GuardedResolver(AbstractResolver):
    """aiohttp's resolver that resolves once, checks, and returns only checked addresses."""

    def __init__(self, resolve: Resolve = system_resolve, allow: Allow = allowed_ip):
        self._resolve, self._allow = resolve, allow

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        found = await checked_addresses(host, port, self._resolve, self._allow)
        return [ResolveResult(hostname=host, host=str(ip), port=port,
                              family=socket.AF_INET6 if ip.version == 6 else socket.AF_INET,
                              proto=0, flags=socket.AI_NUMERICHOST) for ip in found]

    async def close(self) -> None:
        return None
