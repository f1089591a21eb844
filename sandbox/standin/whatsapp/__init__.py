"""A WhatsApp Cloud API stand-in as strict as the platform: every send checked against the request
schemas of Meta's published OpenAPI description (``cloudapi-schemas.json``), the 24-hour window,
approved templates, media, and signed webhooks for what a user sends."""
from sandbox.standin.whatsapp.errors import GraphError
from sandbox.standin.whatsapp.server import (DEFAULT_APP_SECRET, DEFAULT_PHONE_NUMBER_ID,
                                             DEFAULT_TOKEN, WINDOW_SECONDS, Media, Sent,
                                             WhatsAppStandIn)
from sandbox.standin.whatsapp.webhooks import Delivery, signature, verify_endpoint

__all__ = [
    "DEFAULT_APP_SECRET", "DEFAULT_PHONE_NUMBER_ID", "DEFAULT_TOKEN", "WINDOW_SECONDS",
    "Delivery", "GraphError", "Media", "Sent", "WhatsAppStandIn", "signature", "verify_endpoint",
]
