"""Cases and facts for the papers' service tests (no tests here): a reported case, the facts an
inspector gives, and the text of a rendered PDF."""
from __future__ import annotations

import io

from pypdf import PdfReader
from sqlalchemy import select

from core.services.cases.transitions import apply_transition
from core.services.citizens.reports import ReportIn, submit_report
from core.storage.models import Case
from core.storage.timeline import ActorRef

BOT = "ViaLivreTesteBot"
STAFF = ActorRef("staff", "u1", "Maria (Secretaria)")
FISCAL = ActorRef("inspector", None, "João Fiscal")
ABANDONED = {"abandonment_criteria": ["days_in_place", "missing_tyres", "no_bumpers"]}
OWNER = {"owner_name": "José da Silva", "owner_document": "52998224725",
         "notification_number": "7/2026"}


def text_of(blob: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(blob)).pages).split())


async def new_case(core, photo, category="motor_vehicle", **kw) -> Case:
    r = ReportIn(category=category, lat=core.law.centre[0], lon=core.law.centre[1],
                 photos=[photo(1)], address="Rua Tiradentes, 120, Centro", **kw)
    done = await submit_report(core, 555, r)
    await apply_transition(core, done.protocol, "open_diligence", STAFF)
    async with core.db.read() as s:
        return (await s.execute(select(Case).where(Case.protocol == done.protocol))).scalar_one()
AUTO = {"offender_name": "José Ambulante", "infraction_fact": "Calçada obstruída por entulho",
        "place": "Rua São Paulo, 10", "occurred_at": "2026-12-01T10:20:00-03:00",
        "provision_violated": "Código de Posturas, art. 80", "fine_amount": "250.00",
        "agent_signature": True, "witnesses": ["Pedro Lima", "Rita Alves"]}
