"""WhatsApp updates that wait for the person: outside the 24 hours after their last message a
case's update may go only as an approved template (WHATSAPP_TEMPLATE_UPDATE); with none
configured, the update is held in the outbox, not lost. It goes as soon as the person writes
again (`person_wrote`: the window opens), and meanwhile the panel's "Cidadãos a avisar" lists it
(`held_updates`: the protocol, the situation, the number masked) for staff to see who has not
heard. Held for longer than the outbox's MAX_AGE, it becomes a dead letter on /entregas with
this reason in words."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select, update

from core.services.context import Core
from core.services.messaging.delivery import masked_number
from core.services.messaging.whatsapp_chats import window_open
from core.storage import outbox
from core.storage.models import Case, OutboxMessage
from core.storage.types import utcnow

#: The outbox's last_error while an update waits for the person (also its dead letter's).
HELD = ("Fora da janela de 24 horas do WhatsApp e sem modelo aprovado configurado "
        "(WHATSAPP_TEMPLATE_UPDATE): aguarda a pessoa escrever de novo.")
#: After this many days held, an update is a dead letter (the outbox's MAX_AGE).
HELD_DAYS = outbox.MAX_AGE.days
#: A held update is looked at again this often (the person writing wakes it at once).
RECHECK = timedelta(hours=1)


@dataclass(frozen=True)
class Held:
    protocol: str
    state_label: str
    who: str  # the number, masked
    since: datetime


async def person_wrote(core: Core, wa_id: str, before: datetime | None) -> int:
    """The person wrote; their message before this one was at `before`. If the window had
    closed meanwhile, updates may have been held for them: those are due now (the caller
    wakes its sender). Inside the window nothing was held and nothing is written."""
    if before is None or window_open(before, core.now()) or not wa_id.isdigit():
        return 0
    async with core.db.unit_of_work() as s:
        result = await s.execute(
            update(OutboxMessage).where(
                OutboxMessage.channel == outbox.WHATSAPP,
                OutboxMessage.chat_id == int(wa_id),
                OutboxMessage.status == outbox.PENDING,
                OutboxMessage.last_error == HELD)
            .values(next_attempt_at=utcnow()).execution_options(synchronize_session=False))
        return int(getattr(result, "rowcount", 0) or 0)


async def held_updates(core: Core, limit: int = 200) -> list[Held]:
    """This city's WhatsApp updates waiting for the person to write, oldest first."""
    async with core.db.read() as s:
        rows = (await s.execute(
            select(OutboxMessage.chat_id, OutboxMessage.payload, OutboxMessage.created_at)
            .where(OutboxMessage.channel == outbox.WHATSAPP,
                   OutboxMessage.status.in_(outbox.UNDELIVERED),
                   OutboxMessage.last_error == HELD)
            .order_by(OutboxMessage.id).limit(limit))).all()
        protocols = {str((p or {}).get("protocol") or "") for _, p, _ in rows}
        cases = {c.protocol: c for c in (await s.execute(select(Case).where(
            Case.protocol.in_(protocols), Case.municipality == core.municipality))).scalars()}
    out = []
    for chat_id, payload, created in rows:
        case = cases.get(str((payload or {}).get("protocol") or ""))
        if case is None:
            continue
        label = core.law.tracks[case.track].state(case.state).label
        out.append(Held(case.protocol, label, masked_number(chat_id), created))
    return out
