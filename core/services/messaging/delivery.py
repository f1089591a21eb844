"""What happens to a message that does not reach its person: dead letters listed for staff and
re-sent once the cause is fixed, the cases whose inspector was never told of the task, people
who blocked the bot, and the bot's direct replies queued when Telegram fails at that moment.

The sending itself is the bot's (bot/sender.py); this module holds the rules and the queries,
so the panel only renders them."""
from __future__ import annotations

import logging
import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping

from sqlalchemy import and_, func, select, update

from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.services.inspectors.tasks import OPEN as OPEN_TASK
from core.storage import outbox
from core.storage.models import Case, Inspector, OutboxMessage, Person, Task
from core.storage.models_email import EmailMessage
from core.storage.types import utcnow

log = logging.getLogger(__name__)

REPLY = "reply"  # a direct answer to a person's update that Telegram refused at that moment
TASK_OFFER = "task_offer"
KIND_LABELS = {
    "task_offer": "Nova tarefa", "task_withdrawn": "Tarefa transferida",
    "deadline_warning": "Aviso de prazo", "task_removal_due": "Remoção devida",
    "owner_statement": "Declaração do proprietário", "case_update": "Atualização do caso",
    "owner_reminder": "Lembrete de prazo", REPLY: "Resposta do bot",
    "owner_statement_withdrawn": "Declaração do proprietário desfeita",
    "deadline_extended": "Prazo prorrogado", "deadline_extended_inspector": "Prazo prorrogado",
    "email_welcome": "Confirmação dos avisos por e-mail",
    "followup_question": "Pergunta após o encerramento",
    "followup_photo": "Foto do cidadão (vistoria reaberta)",
}
INSPECTOR_KINDS = {"task_offer", "task_withdrawn", "deadline_warning", "task_removal_due",
                   "owner_statement", "owner_statement_withdrawn",
                   "deadline_extended_inspector", "followup_photo"}
ROLE_LABELS = {"inspector": "Fiscal", "owner": "Proprietário", "citizen": "Cidadão"}
BLOCKED = "A pessoa bloqueou o bot no Telegram (403)."
STILL_BLOCKED = ("Esta pessoa bloqueou o bot. A mensagem só pode ser reenviada depois que ela "
                 "voltar a escrever ao bot.")
_CASE_KEY = re.compile(r"^(?:case|owner):(\d+):")
_TASK_KEY = re.compile(r"^task:(\d+):")


@dataclass(frozen=True)
class DeadLetter:
    id: int
    role: str
    kind: str
    protocol: str | None
    error: str
    attempts: int
    created_at: datetime
    failed_at: datetime | None
    blocked: bool  # the recipient still blocks the bot: a re-send would be refused
    channel: str = "telegram"  # or "email" (core.storage.email_outbox: its own ids)


@dataclass(frozen=True)
class UntoldCase:
    """A case whose inspector's new-task message is a dead letter while the task is open."""
    protocol: str
    inspector: str
    message_id: int
    error: str
    failed_at: datetime | None


# -- dead letters ---------------------------------------------------------------------------

async def dead_letters(core: Core, limit: int = 200) -> list[DeadLetter]:
    """Messages given up (newest first), Telegram's and e-mail's, with the recipient's role
    and the case they concern."""
    rows = await _telegram_dead_letters(core, limit) + await _email_dead_letters(core, limit)
    rows.sort(key=lambda d: (d.failed_at or d.created_at, d.id), reverse=True)
    return rows[:limit]


EMAIL_ROLES = {"reporter": ROLE_LABELS["citizen"], "owner": ROLE_LABELS["owner"]}
EMAIL_STOPPED = ("Esta pessoa pediu para parar de receber os e-mails deste caso: a mensagem "
                 "não pode ser reenviada.")


async def _email_dead_letters(core: Core, limit: int) -> list[DeadLetter]:
    async with core.db.read() as s:
        rows = (await s.execute(
            select(EmailMessage, Case.protocol).outerjoin(Case, Case.id == EmailMessage.case_id)
            .where(EmailMessage.status == outbox.FAILED)
            .order_by(EmailMessage.failed_at.desc(), EmailMessage.id.desc())
            .limit(limit))).all()
    return [DeadLetter(m.id, f"{EMAIL_ROLES.get(m.role, m.role)} — e-mail {m.address}",
                       KIND_LABELS.get(m.kind, "Aviso por e-mail"), protocol,
                       m.last_error or "—", m.attempts, m.created_at, m.failed_at, False,
                       "email")
            for m, protocol in rows]


async def resend_email(core: Core, message_id: int, by: str) -> None:
    """Staff re-send an e-mail dead letter after fixing its cause (the SMTP settings, the
    address): queued again, attempts from zero. Refused once the person stopped the e-mails."""
    from core.services.messaging.email import stopped
    async with core.db.unit_of_work() as s:
        msg = await s.get(EmailMessage, message_id, with_for_update=True)
        if msg is None or msg.status != outbox.FAILED:
            raise NotFound("Mensagem não encontrada entre as não entregues.")
        if await stopped(s, msg.case_id, msg.address):
            raise InvalidInput(EMAIL_STOPPED)
        msg.status, msg.attempts, msg.failed_at = outbox.PENDING, 0, None
        msg.next_attempt_at = utcnow()
    log.info("e-mail dead letter %s re-sent by %s", message_id, by)


async def _telegram_dead_letters(core: Core, limit: int) -> list[DeadLetter]:
    async with core.db.read() as s:
        rows = (await s.execute(
            select(OutboxMessage, Person.roles, Person.blocked_bot_at)
            .outerjoin(Person, and_(OutboxMessage.channel == outbox.TELEGRAM,
                                    Person.telegram_id == OutboxMessage.chat_id))
            .where(OutboxMessage.status == outbox.FAILED)
            .order_by(OutboxMessage.failed_at.desc(), OutboxMessage.id.desc())
            .limit(limit))).all()
        protocols = await _protocols(s, [m for m, _, _ in rows])
    return [DeadLetter(m.id, _role(m, roles) if m.channel == outbox.TELEGRAM
                       else f"{ROLE_LABELS['citizen']} — WhatsApp {masked_number(m.chat_id)}",
                       KIND_LABELS.get(m.kind, m.kind),
                       protocols.get(m.id), m.last_error or "—", m.attempts, m.created_at,
                       m.failed_at, blocked is not None)
            for m, roles, blocked in rows]


def masked_number(number: int | str) -> str:
    """A WhatsApp number as staff see it: the country and area code and the last four digits
    ("+55 37 •••••-0001"); the whole number is personal data the page does not need."""
    digits = str(number)
    if len(digits) < 8:
        return "•" * len(digits)
    return f"+{digits[:2]} {digits[2:4]} •••••-{digits[-4:]}"


async def dead_letter_count(core: Core) -> int:
    async with core.db.read() as s:
        return (await s.scalar(select(func.count()).select_from(OutboxMessage).where(
            OutboxMessage.status == outbox.FAILED)) or 0) + (await s.scalar(
            select(func.count()).select_from(EmailMessage).where(
                EmailMessage.status == outbox.FAILED)) or 0)


def _role(msg: OutboxMessage, roles: list[Any] | None) -> str:
    if msg.kind in INSPECTOR_KINDS:
        return ROLE_LABELS["inspector"]
    if msg.kind == "owner_reminder":
        return ROLE_LABELS["owner"]
    if roles is None:
        return "Grupo" if msg.chat_id < 0 else "Pessoa sem cadastro"
    known = [ROLE_LABELS[r] for r in ("inspector", "owner", "citizen") if r in roles]
    return " / ".join(known) or ROLE_LABELS["citizen"]


async def _protocols(s, msgs: list[OutboxMessage]) -> dict[int, str]:
    """The case protocol of each message: from its payload, else from its dedupe key
    ("case:<id>:…", "owner:<id>:…", "task:<id>:…")."""
    out: dict[int, str] = {}
    case_of: dict[int, int] = {}
    task_of: dict[int, int] = {}
    for m in msgs:
        if (m.payload or {}).get("protocol"):
            out[m.id] = m.payload["protocol"]
        elif match := _CASE_KEY.match(m.dedupe_key):
            case_of[m.id] = int(match.group(1))
        elif match := _TASK_KEY.match(m.dedupe_key):
            task_of[m.id] = int(match.group(1))
    if task_of:
        cases = dict((await s.execute(select(Task.id, Task.case_id).where(
            Task.id.in_(set(task_of.values()))))).all())
        case_of.update({mid: cases[t] for mid, t in task_of.items() if t in cases})
    if case_of:
        names = dict((await s.execute(select(Case.id, Case.protocol).where(
            Case.id.in_(set(case_of.values()))))).all())
        out.update({mid: names[c] for mid, c in case_of.items() if c in names})
    return out


async def resend(core: Core, message_id: int, by: str) -> None:
    """Staff re-send a dead letter after fixing its cause: it is queued again (attempts from
    zero, parts already delivered are not sent twice). Refused while the person blocks the
    bot, since Telegram would refuse it again."""
    async with core.db.unit_of_work() as s:
        msg = await s.get(OutboxMessage, message_id, with_for_update=True)
        if msg is None or msg.status != outbox.FAILED:
            raise NotFound("Mensagem não encontrada entre as não entregues.")
        blocked = (await s.execute(select(Person.blocked_bot_at).where(
            Person.telegram_id == msg.chat_id))).scalar_one_or_none()
        if blocked is not None:
            raise InvalidInput(STILL_BLOCKED)
        msg.status, msg.attempts, msg.failed_at = outbox.PENDING, 0, None
        msg.next_attempt_at = utcnow()
    log.info("dead letter %s re-sent by %s", message_id, by)


async def untold_cases(core: Core) -> list[UntoldCase]:
    """Open cases whose inspector's task message (the new-task notification) is a dead letter
    while the task is still open: the inspector does not know they have it."""
    async with core.db.read() as s:
        msgs = (await s.execute(select(OutboxMessage).where(
            OutboxMessage.status == outbox.FAILED, OutboxMessage.kind == TASK_OFFER)
            .order_by(OutboxMessage.id))).scalars().all()
        task_ids = {int(m.payload["task_id"]) for m in msgs if m.payload.get("task_id")}
        if not task_ids:
            return []
        tasks = {t.id: (t, case, name) for t, case, name in (await s.execute(
            select(Task, Case.protocol, Inspector.name)
            .join(Case, Case.id == Task.case_id).join(Inspector, Inspector.id == Task.inspector_id)
            .where(Task.id.in_(task_ids), Task.status.in_(OPEN_TASK),
                   Case.is_open.is_(True)))).all()}
    out: dict[str, UntoldCase] = {}
    for m in msgs:
        hit = tasks.get(int(m.payload.get("task_id") or 0))
        if hit:
            _, protocol, name = hit
            out[protocol] = UntoldCase(protocol, name, m.id, m.last_error or "—", m.failed_at)
    return list(out.values())


# -- people who blocked the bot -------------------------------------------------------------

async def record_blocked(core: Core, message_id: int, chat_id: int, error: str) -> None:
    """Telegram answered 403: the message is a dead letter at once (never retried) and the
    person is marked, so their next messages are not tried until they write again."""
    now = utcnow()
    async with core.db.unit_of_work() as s:
        await s.execute(update(OutboxMessage).where(
            OutboxMessage.id == message_id, OutboxMessage.status == outbox.SENDING)
            .values(status=outbox.FAILED, failed_at=now, last_error=error[:2000]))
        await s.execute(update(Person).where(Person.telegram_id == chat_id,
                                             Person.blocked_bot_at.is_(None))
                        .values(blocked_bot_at=now))


async def mark_person_blocked(core: Core, telegram_id: int) -> None:
    """A direct reply got 403: the person blocked the bot."""
    async with core.db.unit_of_work() as s:
        await s.execute(update(Person).where(Person.telegram_id == telegram_id,
                                             Person.blocked_bot_at.is_(None))
                        .values(blocked_bot_at=utcnow()))


async def clear_blocked(core: Core, telegram_id: int) -> bool:
    """The person wrote to the bot again: they no longer block it."""
    async with core.db.unit_of_work() as s:
        result = await s.execute(update(Person).where(
            Person.telegram_id == telegram_id, Person.blocked_bot_at.is_not(None))
            .values(blocked_bot_at=None))
        return result.rowcount == 1


async def blocked_people(core: Core) -> set[int]:
    async with core.db.read() as s:
        return set((await s.execute(select(Person.telegram_id).where(
            Person.blocked_bot_at.is_not(None)))).scalars().all())


# -- direct replies that could not go out at once -------------------------------------------

async def queue_reply(core: Core, chat_id: int, payload: Mapping[str, Any],
                      not_before: datetime | None = None) -> None:
    """Queue a direct reply Telegram did not take (5xx, connection error, 429): the outbox
    delivers it when Telegram answers again, after any earlier message of the chat."""
    async with core.db.unit_of_work() as s:
        await outbox.enqueue(s, chat_id, REPLY, payload, f"reply:{chat_id}:{uuid.uuid4().hex}",
                             not_before=not_before)


async def chats_with_queued_replies(core: Core, chat_ids: set[int] | None = None) -> set[int]:
    """Chats with a queued reply not yet delivered (all of them, or among `chat_ids`): the
    bot's next replies to them go through the outbox too, so they keep their order."""
    q = select(OutboxMessage.chat_id).where(OutboxMessage.kind == REPLY,
                                            OutboxMessage.channel == outbox.TELEGRAM,
                                            OutboxMessage.status.in_(outbox.UNDELIVERED))
    if chat_ids is not None:
        if not chat_ids:
            return set()
        q = q.where(OutboxMessage.chat_id.in_(chat_ids))
    async with core.db.read() as s:
        return set((await s.execute(q.distinct())).scalars().all())


# -- the sender's side (bot/sender.py, bot/loops.py): the faces reach the outbox through here ---
from core.storage.outbox import (FAILED, WHATSAPP, ClaimedMessage, claim_due,  # noqa: E402
                                 mark_failed, mark_sent, release, release_claims_of,
                                 release_orphaned_claims, save_progress)

__all__ = ["FAILED", "WHATSAPP", "ClaimedMessage", "claim_due", "mark_failed", "mark_sent", "release",
           "release_claims_of", "release_orphaned_claims", "save_progress", "utcnow"]
