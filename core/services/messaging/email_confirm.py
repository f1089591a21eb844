"""A web reporter's e-mail, confirmed before anything is sent to it: the report's page offers
an optional address (anonymous by default); the address gets one e-mail with a link, and only
once that link is opened does it become the case's reporter contact (ReporterContact, channel
WEB), which core.services.messaging.contact_updates then tells of each change of state by
e-mail, with the one-click stop (core.services.messaging.email). An address typed by mistake,
or someone else's, is sent that one message and nothing more (LGPD, Lei 13.709/2018 art. 6º,
III: no more data than needed; art. 8º: consent given by the one who owns the address).

The link carries a random token; only its SHA-256 is kept. It is good for VALID_FOR."""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.parsing import ParseError, parse_email
from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.services.messaging import email as mail
from core.services.messaging import links
from core.storage.dialect import insert_ignore
from core.storage.models import Case, ReporterContact
from core.storage.models_email import EmailStop
from core.storage.models_web import EmailConfirmation

WEB = "site"  # ReporterContact.channel of a web reporter
KIND = "email_confirm"
VALID_FOR = timedelta(days=7)
PATH = "/publico/email/confirmar/"
#: What the reporter agrees to, shown beside the address on the report page.
CONSENT = (
    "Se quiser receber os avisos deste caso por e-mail, informe seu endereço (opcional). "
    "Enviaremos um link para confirmar; sem a confirmação, nada mais é enviado. O endereço é "
    "visto só por servidores da Prefeitura, nunca aparece nas páginas públicas, e é apagado "
    "junto com os dados do caso (Lei 13.709/2018, LGPD). Cada e-mail traz um link para parar "
    "de receber.")
BAD_LINK = ("Este link de confirmação não é válido ou já foi usado. Confira se o endereço foi "
            "copiado inteiro do e-mail.")
EXPIRED = ("Este link de confirmação venceu (vale por 7 dias). Acompanhe o caso pela página "
           "pública do protocolo.")


def read_address(typed: str) -> str | None:
    """The optional address typed on the report page: None when left empty; InvalidInput
    (Portuguese) for one that cannot be an address, or while e-mail is not offered."""
    if not typed.strip():
        return None
    try:
        return parse_email(typed)
    except ParseError as exc:
        raise InvalidInput(str(exc), "email") from None


def offered(core: Core) -> bool:
    return mail.enabled(core.settings)


async def ask(core: Core, s: AsyncSession, case: Case, address: str) -> None:
    """In the report's transaction: the address waits for its confirmation, and the e-mail
    with the link is queued."""
    token = secrets.token_urlsafe(24)
    digest = hashlib.sha256(token.encode()).hexdigest()
    s.add(EmailConfirmation(case_id=case.id, address=address, token_hash=digest,
                            created_at=core.now()))
    url = f"{links.public_base(core.settings)}{PATH}{token}"
    text = (f"Recebemos a denúncia {case.protocol} pelo site da Prefeitura, com este e-mail "
            "para os avisos do caso.\n\n"
            f"Para confirmar e passar a receber os avisos, abra este link: {url}\n\n"
            "Se não foi você, ignore esta mensagem: sem a confirmação, nada mais será enviado "
            "a este endereço.")
    await mail.queue(s, case, address, mail.REPORTER, text, f"confirm:{digest[:32]}", KIND)


@dataclass(frozen=True)
class Confirmed:
    protocol: str
    address: str  # masked (j***@exemplo.com.br)


async def confirm(core: Core, token: str) -> Confirmed:
    """The link opened: the address becomes the case's reporter contact. NotFound for a
    token that is not one (or was used); InvalidInput once expired or the case closed."""
    if not (16 <= len(token) <= 64) or not all(c.isalnum() or c in "-_" for c in token):
        raise NotFound(BAD_LINK)
    digest = hashlib.sha256(token.encode()).hexdigest()
    async with core.db.unit_of_work() as s:
        row = (await s.execute(select(EmailConfirmation).where(
            EmailConfirmation.token_hash == digest).with_for_update())).scalar_one_or_none()
        if row is None:
            raise NotFound(BAD_LINK)
        case = await s.get(Case, row.case_id)
        if case is None or core.now() - row.created_at > VALID_FOR:
            await s.delete(row)
            raise InvalidInput(EXPIRED)
        protocol, address = case.protocol, row.address
        if not case.is_open:
            await s.delete(row)
            raise InvalidInput(f"O caso {protocol} já foi encerrado: não há mais avisos a "
                               "enviar.")
        await s.execute(insert_ignore(s, ReporterContact.__table__, {
            "case_id": case.id, "email": address, "channel": WEB, "taken_by": WEB,
            "told_state": case.state, "created_at": core.now()}, ["case_id"]))
        await s.execute(delete(EmailStop).where(  # asked again: consent renewed
            EmailStop.case_id == case.id, EmailStop.address_hash == mail.address_hash(address)))
        await s.execute(delete(EmailConfirmation).where(
            EmailConfirmation.case_id == case.id, EmailConfirmation.address == address))
    return Confirmed(protocol, masked(address))


def masked(address: str) -> str:
    """The address as the confirmation page shows it: "j***@exemplo.com.br"."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"
