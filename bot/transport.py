"""An aiohttp transport for python-telegram-bot (a `telegram.request.BaseRequest`).

PTB's default transport is httpx. Measured in the bot benchmark (everything in one process),
httpx's per-request CPU dominates an update: its connection pool checks every idle connection
on each request, and httpcore looks for `sniffio` with an import on each one. Through this
transport the same report flow handles about three times the updates per second. PTB keeps
doing the rest (JSON decoding, errors, 429 retry_after, the rate limiter).

    build_application(core, settings, transport="aiohttp")
"""
from __future__ import annotations

import asyncio

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData


class AiohttpRequest(BaseRequest):
    """PTB requests over one aiohttp ClientSession with at most `pool_size` connections."""

    def __init__(self, pool_size: int = 32, *, read_timeout: float = 5.0,
                 connect_timeout: float = 5.0) -> None:
        self._pool_size = pool_size
        self._read, self._connect = read_timeout, connect_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float:
        return self._read

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size),
                headers={"User-Agent": self.USER_AGENT})

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(self, url: str, method: str, request_data: RequestData | None = None,
                         read_timeout=BaseRequest.DEFAULT_NONE,
                         write_timeout=BaseRequest.DEFAULT_NONE,
                         connect_timeout=BaseRequest.DEFAULT_NONE,
                         pool_timeout=BaseRequest.DEFAULT_NONE) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data else None
        data = request_data.json_parameters if request_data else None
        read = self._read if isinstance(read_timeout, DefaultValue) else read_timeout
        connect = self._connect if isinstance(connect_timeout, DefaultValue) else connect_timeout
        body: object = data
        if files:  # uploads: the other parameters go as form fields beside the files
            form = aiohttp.FormData()
            for key, value in (data or {}).items():
                form.add_field(key, value)
            for name, (filename, content, mime) in files.items():
                form.add_field(name, content, filename=filename, content_type=mime)
            body = form
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=connect, sock_read=read)
        try:
            async with self._session.request(method, url, data=body, timeout=timeout) as resp:
                return resp.status, await resp.read()
        except asyncio.TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp: {err!r}") from err
