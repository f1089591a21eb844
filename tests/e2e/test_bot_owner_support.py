"""Helpers for the owner's end-to-end tests (no tests here): cases built through the core
services (tests.integration.test_services_owners), the owner reaching them through the real bot."""
from __future__ import annotations

from sandbox.standin.botapi import Call, User
from core.identifiers import format_case_code
from tests.integration.test_bot_support import said

JOSE = User(777, "José")  # the owner (tests.integration.test_services_owners.OWNER)
ANA = User(900, "Ana")  # an inspector
INTRUDER = User(888, "Intruso")


async def open_by_qr(h, user: User, code: str) -> Call:
    """The owner scans the notice's QR code: `/start <case code>`, printed grouped."""
    await h.api.send_command(user, "start", format_case_code(code))
    return await said(h, user, f"Seu caso {format_case_code(code)}")


def button_data(call: Call) -> list[str]:
    return [b.callback_data for row in call.buttons for b in row if b.callback_data]


def button_texts(call: Call) -> list[str]:
    return [b.text for row in call.buttons for b in row]
