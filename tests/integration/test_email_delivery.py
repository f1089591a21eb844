"""E-mail for people without Telegram (core.services.messaging.email, email_sender), sent to a
real SMTP server started by the test: the counter reporter's e-mail in Portuguese, plain text
and HTML, with the case's public page and a one-click stop (LGPD, Lei 13.709/2018 art. 8º,
§5º; RFC 8058) that is honoured; a server that refuses (5xx: a dead letter at once; 4xx:
retried, then a dead letter) and one that is down (retried, not counted, then a dead letter
after outbox.MAX_AGE), each shown on the panel's dead-letters page; one address's e-mails in
order."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

from admin.views_email import EMAIL_SECRET
from core.services.cases.transitions import apply_transition
from core.services.messaging import email as mail
from core.services.messaging.email_sender import SmtpState, send_due
from core.services.staff import counter_intake as intake
from core.services.staff.accounts import create_user
from core.storage import email_outbox, outbox
from core.storage.models import Case, ReporterContact
from core.storage.models_email import EmailMessage
from core.storage.timeline import ActorRef
from core.storage.types import utcnow
from tests.support.panel import PASSWORD, Panel, counter_case
from tests.support.smtp import SmtpServer, bodies, free_port

PUBLIC = "https://vialivre.dores.example"
SECRET = b"segredo-de-teste"
STAFF = ActorRef("staff", 0, "Clara")
MARIA = "maria@example.com"


async def _core(make_core, url: str):
    return await make_core(smtp_url=url, public_url=PUBLIC,
                           smtp_from="Prefeitura de Dores do Indaiá <avisos@dores.example>")


async def _rows(core) -> list[EmailMessage]:
    async with core.db.read() as s:
        return list((await s.execute(select(EmailMessage).order_by(EmailMessage.id))).scalars())


async def _send_all(core, state: SmtpState | None = None) -> int:
    """Passes until nothing is due (one pass takes one message per address: its head)."""
    state, total = state or SmtpState(), 0
    while n := await send_due(core, SECRET, state):
        total += n
    return total


async def _due_now(core) -> None:
    """Time passes: every message waiting for its retry is due."""
    async with core.db.unit_of_work() as s:
        await s.execute(update(EmailMessage).where(EmailMessage.status == outbox.PENDING)
                        .values(next_attempt_at=utcnow() - timedelta(seconds=1)))


async def test_counter_reporter_gets_portuguese_mail_with_status_link_and_one_click_stop(
        make_core, photo):
    with SmtpServer() as smtp:
        core = await _core(make_core, smtp.url)
        protocol = await counter_case(core, photo)
        await apply_transition(core, protocol, "open_diligence", STAFF)
        assert await send_due(core, SECRET, SmtpState()) == 1  # the address's head first
        assert await _send_all(core) == 1
        first, second = smtp.to(MARIA)
        raw_second = smtp.raw[1]
    assert first["Subject"] == f"Protocolo {protocol}: atualização do seu pedido"
    assert first["From"] == "Prefeitura de Dores do Indaiá <avisos@dores.example>"
    text, html = bodies(first)
    assert f"Sua denúncia foi registrada com o protocolo {protocol}" in text
    status = f"{PUBLIC}/publico/protocolo/{protocol}"
    assert status in text and f'href="{status}"' in html
    label = core.law.tracks["dores_vehicle"].state("diligence").label
    assert f"Atualização do protocolo {protocol}: {label}." in bodies(second)[0]
    stop = second["List-Unsubscribe"].strip("<>")
    assert stop.startswith(f"{PUBLIC}/publico/email/parar/")
    assert second["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # as sent: one plain <URL> a mail program can read (a folded header would be encoded)
    assert f"\r\nList-Unsubscribe: <{stop}>\r\n".encode() in raw_second
    assert f"Pare com um clique: {stop}" in bodies(second)[0] and "LGPD" in bodies(second)[0]
    async with core.db.read() as s:  # told by e-mail: off the panel's "Cidadãos a avisar"
        contact = (await s.execute(select(ReporterContact))).scalar_one()
        assert contact.told_state == "diligence"
    assert await intake.contacts_to_tell(core) == []

    # the mail program's one-click POST (RFC 8058): no form token, the signed link is enough
    panel = Panel(core)
    panel.app[EMAIL_SECRET] = SECRET  # the secret the sender above signed with
    path = stop[len(PUBLIC):]
    async with panel.client() as client:
        shown = await client.get(path)
        assert shown.status == 200 and "Parar os e-mails do caso" in await shown.text()
        done = await client.post(path, data={"List-Unsubscribe": "One-Click"})
        page = await done.text()
        assert done.status == 200
        assert f"Você não receberá mais e-mails sobre o caso {protocol}" in page
        bad = await client.get(path[:-3] + "xyz")
        assert bad.status == 404 and "não é válido" in await bad.text()
    await apply_transition(core, protocol, "notify_owner", ActorRef("inspector", 1, "F"), {
        "abandonment_criteria": ["days_in_place", "missing_tyres", "no_bumpers"],
        "owner_name": "Fulano", "owner_document": "52998224725", "notification_number": "1"},
        agency="transito")
    with SmtpServer() as smtp2:
        core.settings.smtp_url = smtp2.url
        await _send_all(core)
        assert smtp2.received == []  # never e-mailed after the stop
    assert [r.status for r in await _rows(core)] == [outbox.SENT, outbox.SENT]
    async with core.db.read() as s:  # they asked for silence: staff are not asked to write
        told = (await s.execute(select(ReporterContact))).scalar_one().told_state
        assert told == (await s.execute(select(Case.state))).scalar_one() != "diligence"
    assert await intake.contacts_to_tell(core) == []


async def test_refused_mail_is_a_dead_letter_on_the_panel_and_can_be_sent_again(
        make_core, photo):
    with SmtpServer(refuse="550 5.1.1 Caixa postal inexistente") as smtp:
        core = await _core(make_core, smtp.url)
        protocol = await counter_case(core, photo, "nao.existe@example.com")
        await send_due(core, SECRET, SmtpState())
        assert smtp.refused == 1  # 5xx is permanent (RFC 5321 §4.2.1): not tried again
        (row,) = await _rows(core)
        assert row.status == outbox.FAILED and row.last_error.startswith("550")
        await create_user(core, "bruno", PASSWORD, "staff")
        async with Panel(core).client("bruno") as client:
            home = await (await client.get("/")).text()
            assert '<a href="/entregas">1</a>' in home
            page = await (await client.get("/entregas")).text()
            assert "e-mail nao.existe@example.com" in page and protocol in page
            assert "Caixa postal inexistente" in page
            assert f'action="/entregas/email/{row.id}/reenviar"' in page
            smtp.refuse = None  # the cause fixed (here: the server accepts it now)
            from tests.support.panel import csrf_of
            again = await client.post(f"/entregas/email/{row.id}/reenviar",
                                      data={"csrf": csrf_of(page)}, allow_redirects=False)
            assert again.status == 302
        await send_due(core, SECRET, SmtpState())
        assert len(smtp.to("nao.existe@example.com")) == 1
        assert [r.status for r in await _rows(core)] == [outbox.SENT]


async def test_a_try_later_answer_is_retried_then_given_up_and_holds_the_address_order(
        make_core, photo):
    with SmtpServer(refuse="451 4.3.0 Tente mais tarde") as smtp:
        core = await _core(make_core, smtp.url)
        protocol = await counter_case(core, photo)
        await apply_transition(core, protocol, "open_diligence", STAFF)
        for attempt in range(1, outbox.MAX_ATTEMPTS + 1):
            await _due_now(core)
            assert await send_due(core, SECRET, SmtpState()) == 1  # only the address's head
            first, second = await _rows(core)
            assert first.attempts == attempt and second.status == outbox.PENDING
        assert first.status == outbox.FAILED and first.last_error.startswith("451")
        assert smtp.refused == outbox.MAX_ATTEMPTS
        smtp.refuse = None
        await send_due(core, SECRET, SmtpState())  # a dead letter no longer holds the address
        (got,) = smtp.to(MARIA)
        assert "Atualização do protocolo" in bodies(got)[0]


async def test_a_server_that_is_down_is_retried_uncounted_then_dead_after_max_age(
        make_core, photo):
    port = free_port()  # nothing listens there: connection refused
    core = await _core(make_core, f"smtp://127.0.0.1:{port}")
    await counter_case(core, photo)
    state = SmtpState()
    assert await send_due(core, SECRET, state) == 1
    (row,) = await _rows(core)
    assert (row.status, row.attempts) == (outbox.PENDING, 0) and state.down_since is not None
    assert "Connect" in row.last_error or "refused" in row.last_error.lower()
    assert await send_due(core, SECRET, state) == 0  # waiting for the next probe
    with SmtpServer(port=port) as smtp:  # the server is back: the probe delivers it
        state.next_probe = 0
        assert await send_due(core, SECRET, state) == 1
        assert len(smtp.to(MARIA)) == 1 and state.down_since is None
    # another message, and the server down for longer than MAX_AGE: a dead letter
    async with core.db.unit_of_work() as s:
        case_id = (await s.execute(select(ReporterContact.case_id))).scalar_one()
        case = await s.get(Case, case_id)
        await mail.queue(s, case, MARIA, mail.REPORTER, "Teste", "teste:1")
        await s.execute(update(EmailMessage).where(EmailMessage.status == outbox.PENDING)
                        .values(created_at=utcnow() - outbox.MAX_AGE - timedelta(hours=1)))
    await send_due(core, SECRET, SmtpState())
    last = (await _rows(core))[-1]
    assert last.status == outbox.FAILED and last.last_error.startswith("Não entregue em 3 dias")


async def test_without_smtp_url_nothing_is_queued_and_staff_are_asked_to_tell(make_core, photo):
    core = await make_core(public_url=PUBLIC)
    protocol = await counter_case(core, photo)
    await apply_transition(core, protocol, "open_diligence", STAFF)
    assert await _rows(core) == []
    assert [t.protocol for t in await intake.contacts_to_tell(core)] == [protocol]


def test_stop_tokens_are_signed_and_per_message():
    token = mail.stop_token(SECRET, 7)
    assert token.startswith("7.") and token != mail.stop_token(SECRET, 8)
    assert token != mail.stop_token(b"outro", 7)
    assert email_outbox.STOPPED == "stopped"
