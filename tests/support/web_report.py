"""A visitor on the web report page (/publico/denunciar), driven over HTTP as a browser
without JavaScript drives it: each page's form read (its CSRF token and the key of the
question it shows), each answer posted as the form would post it."""
from __future__ import annotations

import html as html_lib
import re

from aiohttp import FormData
from aiohttp.test_utils import TestClient

from tests.support.panel import csrf_of

KEY_RE = re.compile(r'name="key" value="([^"]*)"')
STATE_RE = re.compile(r'<h1>([^<]+)</h1>')


class WebReporter:
    def __init__(self, client: TestClient, path: str = "/publico/denunciar"):
        self.client, self.path = client, path
        self.html, self.status = "", 0

    @property
    def key(self) -> str:
        m = KEY_RE.search(self.html)
        return m.group(1) if m else ""

    @property
    def text(self) -> str:
        """The page's words, without tags (as a person reads them)."""
        body = re.sub(r"<(script|style)\b.*?</\1>", " ", self.html, flags=re.S)
        return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))

    async def open(self) -> "WebReporter":
        resp = await self.client.get(self.path)
        self.status, self.html = resp.status, await resp.text()
        return self

    async def send(self, fields: dict | None = None, files: list[tuple[str, bytes]] = (),
                   *, key: str | None = None, choice: str | None = None) -> "WebReporter":
        data = FormData()
        data.add_field("csrf", csrf_of(self.html))
        data.add_field("key", self.key if key is None else key)
        if "site" not in (fields or {}):
            data.add_field("site", "")  # the hidden field a person leaves blank
        if choice is not None:
            data.add_field("choice", choice)
        for name, value in (fields or {}).items():
            for v in (value if isinstance(value, list) else [value]):
                data.add_field(name, str(v))
        for name, content in files:
            data.add_field("photos", content, filename=name, content_type="image/jpeg")
        resp = await self.client.post(self.path, data=data)
        self.status, self.html = resp.status, await resp.text()
        return self

    async def choose(self, value: str) -> "WebReporter":
        return await self.send(choice=value)

    async def type(self, text: str) -> "WebReporter":
        return await self.send({"text": text})
