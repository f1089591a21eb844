"""A real SMTP server for the e-mail tests (aiosmtpd's Controller on a free local port, in its
own thread): it keeps what it accepted as parsed messages, or refuses with the answer given
(e.g. "550 5.1.1 Caixa postal inexistente"). `free_port()` alone is a server that is down."""
from __future__ import annotations

import asyncio
import socket
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Handler:
    def __init__(self, server: "SmtpServer"):
        self.server = server

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.server.refuse:
            self.server.refused += 1
            return self.server.refuse
        raw = envelope.original_content or envelope.content
        self.server.raw.append(raw)
        self.server.received.append((list(envelope.rcpt_tos),
                                     message_from_bytes(raw, policy=policy.default)))
        return "250 OK"


class SmtpServer:
    def __init__(self, port: int | None = None, refuse: str | None = None):
        self.port = port or free_port()
        self.refuse = refuse
        self.refused = 0
        self.received: list[tuple[list[str], EmailMessage]] = []
        self.raw: list[bytes] = []  # as the server got them
        self._controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def __enter__(self) -> "SmtpServer":
        self._controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self._controller.stop()

    def to(self, address: str) -> list[EmailMessage]:
        return [m for rcpts, m in self.received if address in rcpts]

    async def wait_for(self, count: int, timeout_s: float = 10.0) -> list[EmailMessage]:
        for _ in range(int(timeout_s / 0.05)):
            if len(self.received) >= count:
                break
            await asyncio.sleep(0.05)
        assert len(self.received) >= count, f"{len(self.received)} e-mails, {count} expected"
        return [m for _, m in self.received]


def bodies(msg: EmailMessage) -> tuple[str, str]:
    """The message's plain text and HTML parts."""
    assert msg.get_content_type() == "multipart/alternative"
    return (msg.get_body(("plain",)).get_content(), msg.get_body(("html",)).get_content())
