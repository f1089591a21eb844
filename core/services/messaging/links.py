"""The public addresses a message links to (PUBLIC_URL, the panel's public pages): one place
for every channel that writes them."""
from __future__ import annotations

from urllib.parse import quote

from core.settings import Settings


def public_base(settings: Settings) -> str:
    return settings.public_url.strip().rstrip("/")


def status_page(settings: Settings, protocol: str) -> str:
    """The case's public status page (/publico/protocolo/<protocol>)."""
    return f"{public_base(settings)}/publico/protocolo/{quote(protocol, safe='')}"
