"""The owner without Telegram leaves an e-mail on the web owner page ("Receber avisos por
e-mail", with the LGPD consent, Lei 13.709/2018 art. 7º, I and art. 8º) and receives the
case's owner updates by e-mail, sent by the panel's own sender loop to a real local SMTP
server, each with the link to their page and the one-click stop."""
from __future__ import annotations

from sqlalchemy import select

from core.services.cases.transitions import apply_transition
from core.services.messaging.email import OWNER_CONSENT
from core.storage.models_email import OwnerEmail
from core.storage.timeline import ActorRef
from tests.support.panel import Panel, csrf_of, new_case, to_notice_affixed
from tests.support.smtp import SmtpServer, bodies

PUBLIC = "https://vialivre.dores.example"
JOAO = "joao@example.com"


async def _proven(client, code: str, answer: str = "ABC1D23") -> str:
    form = await client.get("/publico/proprietario")
    page = await client.post("/publico/proprietario", data={
        "codigo": code, "placa": answer, "csrf": csrf_of(await form.text())})
    assert page.status == 200
    return await page.text()


async def test_owner_leaves_an_email_with_consent_and_gets_the_updates(make_core, photo):
    with SmtpServer() as smtp:
        core = await make_core(smtp_url=smtp.url, public_url=PUBLIC)
        case = await new_case(core, photo, 0, plate="ABC1D23")
        await to_notice_affixed(core, case.protocol)
        async with Panel(core).client() as client:
            html = await _proven(client, case.case_code)
            assert "Receber avisos por e-mail" in html and OWNER_CONSENT in html
            token = csrf_of(html)
            form = {"csrf": token, "codigo": case.case_code, "placa": "ABC1D23", "email": JOAO}
            refused = await client.post("/publico/proprietario/email", data=form)
            page = await refused.text()
            assert refused.status == 400 and "marque a autorização" in page
            assert f'value="{JOAO}"' in page  # what was typed is kept
            bad = await client.post("/publico/proprietario/email",
                                    data={**form, "email": "joao@", "consentimento": "sim"})
            assert bad.status == 400 and "E-mail inválido" in await bad.text()
            wrong = await client.post("/publico/proprietario/email",
                                      data={**form, "placa": "XYZ9Z99", "consentimento": "sim"})
            assert wrong.status == 404  # the proof is checked again: no address kept
            async with core.db.read() as s:
                assert (await s.execute(select(OwnerEmail))).first() is None
            ok = await client.post("/publico/proprietario/email",
                                   data={**form, "consentimento": "sim"})
            assert ok.status == 200 and f"serão enviados para {JOAO}" in await ok.text()
            welcome = (await smtp.wait_for(1))[0]  # sent by the panel's own sender loop
            assert welcome["Subject"] == (f"Protocolo {case.protocol}: avisos por e-mail "
                                          "confirmados")
            await apply_transition(core, case.protocol, "record_publication",
                                   ActorRef("staff", 0, "Clara"), {
                                       "publication_date": "2026-12-01",
                                       "publication_reference": "Diário Oficial nº 1"})
            update = (await smtp.wait_for(2))[1]
        assert update["To"] == JOAO
        text, html = bodies(update)
        assert text.startswith("Atualização do seu caso")
        assert f"{PUBLIC}/publico/proprietario/{case.case_code}" in text
        assert f"{PUBLIC}/publico/protocolo/{case.protocol}" in html
        assert update["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        async with core.db.read() as s:
            kept = (await s.execute(select(OwnerEmail))).scalar_one()
            assert kept.consent == OWNER_CONSENT


async def test_no_email_form_without_smtp(make_core, photo):
    core = await make_core()
    case = await new_case(core, photo, 0, plate="ABC1D23")
    await to_notice_affixed(core, case.protocol)
    async with Panel(core).client() as client:
        html = await _proven(client, case.case_code)
        assert "Prazo:" in html and "Receber avisos por e-mail" not in html


async def test_owner_without_telegram_gets_the_deadline_reminder_by_email_once_art_4_I(
        make_core, photo, clock):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from core.services.owners.reminders import owner_reminders
    from core.storage.models import Case
    from core.storage.models_email import EmailMessage
    from tests.support.owner_cases import notified

    core = await make_core(smtp_url="smtp://127.0.0.1:1", public_url=PUBLIC)
    sub = await notified(core, photo)  # due Friday 11/12/2026 (Art. 4º, I); no owner in Telegram
    async with core.db.unit_of_work() as s:
        case = (await s.execute(select(Case))).scalar_one()
        s.add(OwnerEmail(case_id=case.id, address=JOAO, consent=OWNER_CONSENT))
    clock.now = datetime(2026, 12, 9, 12, tzinfo=ZoneInfo("America/Sao_Paulo"))
    assert (await owner_reminders(core)).queued == [(sub.protocol, "d3")]
    assert (await owner_reminders(core)).queued == []  # once
    async with core.db.read() as s:
        (msg,) = (await s.execute(select(EmailMessage).where(
            EmailMessage.kind == "owner_reminder"))).scalars()
    assert msg.address == JOAO and "11/12/2026" in msg.payload["text"]
    assert "Art. 4º, I" in msg.payload["text"]
