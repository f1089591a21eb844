"""The city staff's web panel (aiohttp + Jinja2, server-rendered, works without JavaScript)."""
from admin.app import create_app

__all__ = ["create_app"]
