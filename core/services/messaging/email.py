"""E-mail for people without Telegram: a counter or phone reporter who gave an e-mail
(ReporterContact) and an owner who left one on the web owner page (OwnerEmail) receive the
case's updates by e-mail, queued in the same transaction as the change (core.storage.
email_outbox) and sent by core.services.messaging.email_sender.

On only when SMTP_URL and PUBLIC_URL are set (`enabled`): without them nothing is queued and a
reporter with an e-mail stays on the panel's "Cidadãos a avisar" list, as before.

Each e-mail carries a one-click stop (LGPD, Lei 13.709/2018 art. 8º, §5º: consent may be
revoked at any time, free of charge and easily): a link signed with the panel's secret that
stops the e-mails of that case to that address (`stop`), also offered to mail programs as
List-Unsubscribe with List-Unsubscribe-Post (RFC 8058). A stop is stored as the address's
hash and checked when a message is queued and again when it is sent: nothing is e-mailed to
that address about that case after it."""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.parsing import ParseError, parse_email
from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.settings import Settings
from core.storage import email_outbox
from core.storage.dialect import insert_ignore
from core.storage.models import Case, ReporterContact
from core.storage.models_email import EmailMessage, EmailStop, OwnerEmail

REPORTER, OWNER = "reporter", "owner"
UPDATE = "case_update"
#: What the owner agrees to on the web owner page (LGPD art. 7º, I and art. 8º).
OWNER_CONSENT = (
    "Autorizo a Prefeitura a usar este e-mail somente para me enviar os avisos deste caso "
    "(prazos, mudanças de situação, pagamentos e liberação). Posso parar de recebê-los a "
    "qualquer momento pelo link “Parar de receber” de cada e-mail. O endereço é visto só por "
    "servidores e é apagado junto com os demais dados do caso (Lei 13.709/2018, LGPD).")
NO_CONSENT = "Para receber os avisos por e-mail, marque a autorização."
NOT_OFFERED = "O envio de avisos por e-mail não está disponível nesta prefeitura."
STOPPED_NOTE = "Não enviado: a pessoa pediu para parar de receber os e-mails deste caso."
BAD_STOP = ("Este link para parar os e-mails não é válido. Confira se o endereço foi copiado "
            "inteiro do e-mail, ou procure a prefeitura.")


def enabled(settings: Settings) -> bool:
    """Whether e-mail is sent at all (an SMTP server and the public address for the links)."""
    return bool(settings.smtp_url.strip() and settings.public_url.strip())


def address_hash(address: str) -> str:
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()


async def stopped(s: AsyncSession, case_id: int | None, address: str) -> bool:
    if case_id is None:
        return False
    return (await s.execute(select(EmailStop.id).where(
        EmailStop.case_id == case_id, EmailStop.address_hash == address_hash(address)))
    ).first() is not None


async def queue(s: AsyncSession, case: Case, address: str, role: str, text: str,
                dedupe_key: str, kind: str = UPDATE) -> bool:
    """Queue `text` for `address` about `case` (caller's transaction); False when the address
    stopped this case's e-mails or the message was queued already."""
    if await stopped(s, case.id, address):
        return False
    payload = {"text": text, "protocol": case.protocol}
    if role == OWNER:  # their page's link (the code alone shows nothing without the proof)
        payload["case_code"] = case.case_code
    return await email_outbox.enqueue(s, case_id=case.id, address=address, role=role,
                                      kind=kind, payload=payload, dedupe_key=dedupe_key)


class EmailChannel:
    """The contact channel (core.services.messaging.contact_updates) for a reporter's e-mail.
    A reporter who stopped the e-mails is taken all the same (and sent nothing): they asked
    not to be written to about this case, so staff are not asked to either."""

    def takes(self, contact: ReporterContact, settings: Settings | None) -> bool:
        return bool(contact.email) and settings is not None and enabled(settings)

    async def send(self, s: AsyncSession, case: Case, contact: ReporterContact, text: str,
                   dedupe_key: str) -> None:
        await queue(s, case, contact.email, REPORTER, text, dedupe_key + ":email")


# -- owners ---------------------------------------------------------------------------------

async def tell_owners(s: AsyncSession, settings: Settings | None, case: Case, text: str,
                      dedupe_key: str, kind: str = UPDATE) -> int:
    """Queue an owner's update (the text their Telegram chat gets) for every address left on
    the web owner page; returns how many were queued."""
    if settings is None or not enabled(settings):
        return 0
    addresses = (await s.execute(select(OwnerEmail.id, OwnerEmail.address).where(
        OwnerEmail.case_id == case.id).order_by(OwnerEmail.id))).all()
    queued = 0
    for row_id, address in addresses:
        queued += await queue(s, case, address, OWNER, text, f"{dedupe_key}:email:o{row_id}",
                              kind)
    return queued


async def add_owner_email(core: Core, case_code: str, typed: str, consent: bool) -> str:
    """The owner (already proven on the web owner page) leaves an address: their case's
    updates go to it by e-mail from now on. Returns the address; InvalidInput for a bad
    address, no consent, or e-mail not offered."""
    if not enabled(core.settings):
        raise InvalidInput(NOT_OFFERED)
    try:
        address = parse_email(typed)
    except ParseError as exc:
        raise InvalidInput(str(exc)) from None
    if not consent:
        raise InvalidInput(NO_CONSENT)
    async with core.db.unit_of_work() as s:
        case = (await s.execute(select(Case).where(Case.case_code == case_code))
                ).scalar_one_or_none()
        if case is None:
            raise NotFound("Caso não encontrado.")
        if not case.is_open:
            raise InvalidInput("Este caso já foi encerrado: não há mais avisos a enviar.")
        await s.execute(insert_ignore(s, OwnerEmail.__table__, {
            "case_id": case.id, "address": address, "consent": OWNER_CONSENT,
            "created_at": core.now()}, ["case_id", "address"]))
        await s.execute(EmailStop.__table__.delete().where(  # asked again: consent renewed
            EmailStop.case_id == case.id, EmailStop.address_hash == address_hash(address)))
        text = (f"Você passará a receber por e-mail os avisos do caso {case.protocol}: "
                "prazos, mudanças de situação, pagamentos e liberação.")
        await queue(s, case, address, OWNER, text,
                    f"owner:{case.id}:email-welcome:{address_hash(address)[:16]}:"
                    f"{core.now().timestamp():.0f}", kind="email_welcome")
    return address


# -- the stop (one click) -------------------------------------------------------------------

_TOKEN = re.compile(r"([0-9]{1,12})\.[A-Za-z0-9_=-]{1,40}", re.ASCII)


def _key(secret: bytes) -> bytes:
    return hashlib.sha256(b"via-livre-email-stop:" + secret).digest()


def stop_token(secret: bytes, message_id: int) -> str:
    """The stop link's token for one sent e-mail: its id and a MAC (no address in the URL)."""
    mac = hmac.new(_key(secret), f"stop:{message_id}".encode(), hashlib.sha256).digest()[:18]
    return f"{message_id}.{base64.urlsafe_b64encode(mac).decode()}"


def _message_of(secret: bytes, token: str) -> int:
    match = _TOKEN.fullmatch(token or "")
    if match is None or not hmac.compare_digest(
            stop_token(secret, int(match.group(1))).encode(), token.encode()):
        raise InvalidInput(BAD_STOP)
    return int(match.group(1))


@dataclass(frozen=True)
class StopPage:
    protocol: str
    done: bool  # the e-mails are stopped (now or earlier)


async def stop_page(core: Core, secret: bytes, token: str) -> StopPage:
    """What the stop link's page shows (GET: nothing changes yet)."""
    message_id = _message_of(secret, token)
    async with core.db.read() as s:
        row = await _message(s, message_id)
        return StopPage(row[1], await stopped(s, row[0], row[2]))


async def stop(core: Core, secret: bytes, token: str) -> StopPage:
    """Stop the e-mails of the token's case to the token's address; the messages still queued
    for them are dropped. Idempotent."""
    message_id = _message_of(secret, token)
    async with core.db.unit_of_work() as s:
        case_id, protocol, address = await _message(s, message_id)
        digest = address_hash(address)
        await s.execute(insert_ignore(s, EmailStop.__table__, {
            "case_id": case_id, "address_hash": digest, "stopped_at": core.now()},
            ["case_id", "address_hash"]))
        await s.execute(OwnerEmail.__table__.delete().where(
            OwnerEmail.case_id == case_id, OwnerEmail.address == address))
        await s.execute(EmailMessage.__table__.update().where(
            EmailMessage.case_id == case_id, EmailMessage.address == address,
            EmailMessage.status == email_outbox.PENDING).values(
            status=email_outbox.STOPPED, last_error=STOPPED_NOTE))
    return StopPage(protocol, True)


async def _message(s: AsyncSession, message_id: int) -> tuple[int, str, str]:
    row = (await s.execute(select(EmailMessage.case_id, Case.protocol, EmailMessage.address)
                           .join(Case, Case.id == EmailMessage.case_id)
                           .where(EmailMessage.id == message_id))).first()
    if row is None:
        raise NotFound("Este link para parar os e-mails não vale mais: os dados do caso já "
                       "foram apagados e nenhum e-mail dele será enviado.")
    return row[0], row[1], row[2]
