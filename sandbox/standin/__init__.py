"""Local stand-in servers (Telegram Bot API, Nominatim) for end-to-end tests and a sandbox."""

from sandbox.standin.botapi import BotApiStandIn, BotMessage, Button, Call, User
from sandbox.standin.nominatim import NominatimStandIn, Place, default_gazetteer

__all__ = [
    "BotApiStandIn", "BotMessage", "Button", "Call", "User",
    "NominatimStandIn", "Place", "default_gazetteer",
]
