"""Helpers for the owner's end-to-end tests (no tests here): cases built through the core
services (tests.support.owner_cases), the owner reaching them through the real bot."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from sandbox.standin.botapi import Call, User
from core.identifiers import format_case_code
from core.services.inspectors.accounts import bind_inspector, invite_inspector
from core.services.inspectors.tasks import assign_case
from core.storage.models import Tariff
from tests.support.bot_chat import said
from tests.support.owner_cases import OWNER, STAFF, in_depot

JOSE = User(777, "José")  # the owner (tests.support.owner_cases.OWNER)
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
PASSER_BY = User(4321, "Curioso", username="curioso")
OWNER_USER = User(OWNER, "José", username="jose_dono", last_name="da Silva")


async def assign_ana(bot, core, sub) -> None:
    bot.api.add_user(ANA)
    code = await invite_inspector(core, "Ana Fiscal", "posturas", "staff")
    ana = await bind_inspector(core, ANA.id, code, "Ana")
    await assign_case(core, sub.protocol, ana.inspector_id, STAFF)
SP = ZoneInfo("America/Sao_Paulo")


async def depot_case(core, photo, clock):
    """Removed Tuesday 22/12/2026; a new daily value from Saturday 26/12/2026; seen Monday
    28/12/2026 — the weekend and Christmas (25/12) in between."""
    clock.now = datetime(2026, 12, 22, 10, tzinfo=SP)
    async with core.db.unit_of_work() as s:
        s.add(Tariff(municipality=core.law.slug, code="daily_storage", amount=Decimal("35.00"),
                     currency="BRL", unit="day", valid_from=date(2026, 12, 26),
                     article="Art. 3º, §3º, II; Art. 9º, II", source="Decreto de teste"))
    core.invalidate()
    sub, res = await in_depot(core, photo)
    clock.now = datetime(2026, 12, 28, 9, tzinfo=SP)
    return sub, date.fromisoformat(res.deadline["due"])
