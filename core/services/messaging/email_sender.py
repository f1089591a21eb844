"""Sending the queued e-mails over SMTP (aiosmtplib), and the loop that does it.

Where it runs: in the panel's process (admin.app starts `email_loop` when e-mail is enabled),
which serves the pages the e-mails link to and holds the secret that signs their stop links;
so e-mail goes out whether Telegram and the bot are up or not. Several panel processes may run
it at once: the claims keep each address's order and never send one message twice at a time.

SMTP_URL: `smtp://user:pass@host:587` sends with STARTTLS (required when there is a user, so
a password never travels in clear; without a user it is used when the server offers it);
`smtps://user:pass@host:465` speaks TLS from the start. Outcomes (core.storage.email_outbox):
the server took it → sent; unreachable, refused connection, timeout, dropped, or it refused our
login (a setting to fix) → the server is "down": the attempt is not counted, the next probe
waits 1 s, 2 s, 4 s … up to 5 min, and a message undelivered for outbox.MAX_AGE becomes a dead
letter; a 4xx answer (try again later, RFC 5321 §4.2.1) → counted, retried after the backoff,
a dead letter after outbox.MAX_ATTEMPTS; a 5xx answer (permanent: the mailbox does not exist,
the message is refused) → a dead letter at once, as retrying cannot help. Dead letters show
on the panel's "Mensagens não entregues" page (core.services.messaging.delivery)."""
from __future__ import annotations

import asyncio
import html
import io
import logging
import os
import secrets
import socket
import time
from dataclasses import dataclass, field
from email import policy
from email.generator import BytesGenerator
from email.message import EmailMessage as MimeMessage
from email.utils import formatdate, make_msgid, parseaddr
from typing import Callable
from urllib.parse import quote, unquote, urlsplit

import aiosmtplib
from sqlalchemy import select

from core.services.context import Core
from core.services.errors import StorageUnavailable
from core.services.messaging import email as mail
from core.services.messaging import links
from core.storage import email_outbox
from core.storage.db import Database
from core.storage.email_outbox import ClaimedEmail
from core.storage.models import Case
from core.stopping import rest

log = logging.getLogger(__name__)

SUBJECTS = {mail.REPORTER: "atualização do seu pedido", mail.OWNER: "atualização do seu caso",
            "email_welcome": "avisos por e-mail confirmados",
            "owner_reminder": "lembrete de prazo do seu caso",
            "email_confirm": "confirme seu e-mail para receber os avisos"}
TIMEOUT_S = 30.0


@dataclass(frozen=True)
class SmtpTarget:
    host: str
    port: int
    username: str | None
    password: str | None
    use_tls: bool
    start_tls: bool | None  # None: when the server offers it


def smtp_target(url: str) -> SmtpTarget:
    """SMTP_URL read: scheme smtp (STARTTLS) or smtps (TLS), user and password URL-quoted."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError("SMTP_URL deve ser smtp://usuario:senha@servidor:587 ou "
                         "smtps://usuario:senha@servidor:465")
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    tls = parts.scheme == "smtps"
    port = parts.port or (465 if tls else 587 if user else 25)
    return SmtpTarget(parts.hostname, port, user, password, tls,
                      False if tls else (True if user else None))


# -- the message ----------------------------------------------------------------------------

def compose(core: Core, secret: bytes, msg: ClaimedEmail) -> MimeMessage:
    """The e-mail in Portuguese, plain text and HTML (multipart/alternative), with the link to
    the case's public page and the one-click stop (List-Unsubscribe, RFC 8058)."""
    s = core.settings
    base = links.public_base(s)
    protocol = msg.payload.get("protocol") or ""
    status = links.status_page(s, protocol)
    stop = f"{base}/publico/email/parar/{mail.stop_token(secret, msg.id)}"
    owner = None
    if msg.role == mail.OWNER and msg.payload.get("case_code"):
        owner = f"{base}/publico/proprietario/{quote(msg.payload['case_code'], safe='')}"
    city = core.city.name
    footer = (f"Mensagem automática da Prefeitura de {city} (Via Livre); não responda a ela. "
              "Seu e-mail é usado somente para os avisos deste caso e é apagado junto com os "
              "dados do caso (Lei 13.709/2018, LGPD).")
    text = msg.payload.get("text") or ""
    lines = [text, "", f"Acompanhe o caso na página pública: {status}"]
    if owner:
        lines.append("Ver o seu caso (com a placa, o final do chassi ou o CPF/CNPJ): " + owner)
    lines += ["", f"Não quer mais receber e-mails deste caso? Pare com um clique: {stop}", "",
              footer]
    e = html.escape
    body = "".join(f"<p>{e(p)}</p>" for p in text.split("\n") if p.strip())
    body += f'<p><a href="{e(status)}">Acompanhe o caso {e(protocol)} na página pública</a></p>'
    if owner:
        body += (f'<p><a href="{e(owner)}">Ver o seu caso</a> (com a placa, o final do chassi '
                 "ou o CPF/CNPJ)</p>")
    body += (f'<hr><p style="font-size:small">Não quer mais receber e-mails deste caso? '
             f'<a href="{e(stop)}">Parar de receber</a>.</p>'
             f'<p style="font-size:small;color:#555">{e(footer)}</p>')
    # lines up to RFC 5322's 998 characters: List-Unsubscribe's URL stays one plain <…>
    # (a folded header would be encoded, and mail programs would not find the link)
    m = MimeMessage(policy=policy.SMTP.clone(max_line_length=998))
    m["Subject"] = f"Protocolo {protocol}: {SUBJECTS.get(msg.kind, SUBJECTS[msg.role])}"
    m["From"] = s.smtp_from or f"Prefeitura de {city} <nao-responda@localhost>"
    m["To"] = msg.address
    m["Date"] = formatdate(usegmt=True)
    domain = parseaddr(m["From"])[1].rpartition("@")[2] or "localhost"
    m["Message-ID"] = make_msgid(f"email{msg.id}", domain=domain)
    m["Auto-Submitted"] = "auto-generated"
    m["List-Unsubscribe"] = f"<{stop}>"
    m["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    m.set_content("\n".join(lines))
    m.add_alternative(f'<!doctype html><html lang="pt-BR"><body>{body}</body></html>',
                      subtype="html")
    return m


# -- one pass -------------------------------------------------------------------------------

def sender_name() -> str:
    return f"email@{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass
class SmtpState:
    """The SMTP server as this process sees it: up, or down until the next probe."""
    name: str = field(default_factory=sender_name)
    down_since: float | None = None
    next_probe: float = 0.0
    delay_s: float = 1.0
    first_s: float = 1.0
    max_s: float = 300.0
    clock: Callable[[], float] = time.monotonic

    def allowance(self, batch: int) -> int:
        if self.down_since is None:
            return batch
        return 1 if self.clock() >= self.next_probe else 0

    def wait_s(self) -> float:
        return max(0.0, self.next_probe - self.clock()) if self.down_since is not None else 0.0

    def failed(self) -> None:
        now = self.clock()
        if self.down_since is None:
            self.down_since, self.delay_s = now, self.first_s
        else:
            self.delay_s = min(self.delay_s * 2, self.max_s)
        self.next_probe = now + self.delay_s

    def answered(self) -> None:
        if self.down_since is not None:
            log.info("e-mail: the SMTP server answers again")
        self.down_since = None


class _Down(Exception):
    """The server could not be reached (or refused our login): not the message's fault."""


def _bytes(message: MimeMessage) -> bytes:
    """The message as sent, flattened with its own policy (aiosmtplib's would fold at 78)."""
    out = io.BytesIO()
    BytesGenerator(out, policy=message.policy).flatten(message)
    return out.getvalue()


async def _smtp_send(target: SmtpTarget, message: MimeMessage) -> None:
    try:
        await aiosmtplib.send(_bytes(message), sender=parseaddr(message["From"])[1],
                              recipients=[message["To"]],
                              hostname=target.host, port=target.port,
                              username=target.username, password=target.password,
                              use_tls=target.use_tls, start_tls=target.start_tls,
                              timeout=TIMEOUT_S)
    except aiosmtplib.SMTPAuthenticationError as exc:
        raise _Down(f"{exc.code}: login recusado pelo servidor SMTP ({exc.message})") from exc
    except (aiosmtplib.SMTPConnectError, aiosmtplib.SMTPServerDisconnected,
            aiosmtplib.SMTPTimeoutError, aiosmtplib.SMTPConnectResponseError, OSError) as exc:
        raise _Down(f"{type(exc).__name__}: {exc}") from exc


def _code_of(exc: Exception) -> int | None:
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused) and exc.recipients:
        return exc.recipients[0].code
    return getattr(exc, "code", None)


async def send_due(core: Core, secret: bytes, state: SmtpState | None = None,
                   batch: int = 20) -> int:
    """One pass: claim the due address heads (one probe while the server is down), send them,
    record each outcome. Returns how many were claimed."""
    state = state or SmtpState()
    allowance = state.allowance(batch)
    if allowance == 0:
        return 0
    target = smtp_target(core.settings.smtp_url)
    claimed = await email_outbox.claim_due(core.db, limit=allowance, sender=state.name)
    for i, msg in enumerate(claimed):
        if not await _send_one(core, secret, target, msg, state):
            await email_outbox.release(core.db, [m.id for m in claimed[i + 1:]])
            break
    return len(claimed)


async def _send_one(core: Core, secret: bytes, target: SmtpTarget, msg: ClaimedEmail,
                    state: SmtpState) -> bool:
    db: Database = core.db
    async with db.read() as s:
        if await mail.stopped(s, msg.case_id, msg.address):
            await _mark_stopped(core, msg.id)
            return True
        city = msg.case_id and (await s.execute(select(Case.municipality).where(
            Case.id == msg.case_id))).scalar_one_or_none()
    here = core.for_city(city) if city and core.city_named(city) else core  # the case's city
    try:
        await _smtp_send(target, compose(here, secret, msg))
    except _Down as exc:
        state.failed()
        await email_outbox.release(db, [msg.id], str(exc))
        log.warning("e-mail %s: SMTP server unavailable: %s", msg.id, exc)
        return False
    except aiosmtplib.SMTPException as exc:
        state.answered()
        code = _code_of(exc)
        error = f"{code or 'SMTP'}: {getattr(exc, 'message', None) or exc}"
        status = await email_outbox.mark_failed(db, msg.id, error,
                                                permanent=code is None or code >= 500)
        if status == email_outbox.FAILED:  # the server's words stay in the outbox for staff:
            # they quote the address refused ("550 5.1.1 <…>: Recipient address rejected")
            log.warning("e-mail %s to a %s is a dead letter: SMTP %s", msg.id, msg.role,
                        code or type(exc).__name__)
    except StorageUnavailable:
        raise
    except Exception as exc:  # a bug or a malformed payload: counted, then a dead letter
        log.exception("e-mail %s could not be sent", msg.id)
        await email_outbox.mark_failed(db, msg.id, f"{type(exc).__name__}: {exc}")
    else:
        state.answered()
        await email_outbox.mark_sent(db, msg.id)
    return True


async def _mark_stopped(core: Core, message_id: int) -> None:
    from core.storage.models_email import EmailMessage
    async with core.db.unit_of_work() as s:
        await s.execute(EmailMessage.__table__.update().where(
            EmailMessage.id == message_id, EmailMessage.status == email_outbox.SENDING)
            .values(status=email_outbox.STOPPED, last_error=mail.STOPPED_NOTE))


async def email_loop(core: Core, secret: bytes, interval_s: float = 2.0,
                     state: SmtpState | None = None,
                     stop: asyncio.Event | None = None) -> None:
    """Send what is due, then sleep `interval_s` (or, while the server is down, until the next
    probe), until `stop` is set (core.stopping.finish: the pass under way ends first, as the
    bot's loops do)."""
    state = state or SmtpState()
    stop = stop or asyncio.Event()
    while not stop.is_set():
        try:
            if await send_due(core, secret, state):
                continue
        except StorageUnavailable as exc:
            log.warning("e-mail: database unavailable: %s", exc.detail)
        except Exception:
            log.exception("e-mail pass failed")
        await rest(stop, max(0.05, state.wait_s()) if state.down_since is not None
                   else interval_s)
