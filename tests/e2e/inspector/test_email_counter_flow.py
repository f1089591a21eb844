"""A counter case whose citizen left an e-mail, end to end with e-mail on: registered in the
panel, taken by the inspector in the real bot through the inspection (the notice affixed,
Dores Art. 4º, II, a), and the citizen receives each step by e-mail — sent by the panel's own
sender loop to a real local SMTP server — with no dead letter, no Telegram message to a chat
that does not exist, and nobody left on "Cidadãos a avisar"."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from core.services.staff.accounts import create_user
from core.storage import outbox
from core.storage.models import OutboxMessage, ReporterContact
from core.storage.models_email import EmailMessage
from tests.e2e.inspector.test_admin_counter_flow import _delivered, _inspect, _register
from tests.support.inspector import ANA, BOT_NAME, NEAR, bind, task_message
from tests.support.panel import PASSWORD, Panel
from tests.support.core_fixtures import jpeg
from tests.support.smtp import SmtpServer, bodies

PUBLIC = "https://vialivre.dores.example"


@pytest.fixture
def smtp():
    with SmtpServer() as server:
        yield server


@pytest.fixture
async def core(make_core, smtp):
    return await make_core(telegram_bot_username=BOT_NAME, smtp_url=smtp.url,
                           public_url=PUBLIC, smtp_from="Prefeitura <avisos@dores.example>")


async def test_counter_case_with_email_is_told_by_email_through_inspection(bot, core, smtp):
    await create_user(core, "bruno", PASSWORD, "staff")
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    async with Panel(core).client("bruno") as client:
        form = await (await client.get("/balcao")).text()
        assert "recebe o protocolo e cada mudança de situação por e-mail" in form
        protocol = await _register(client, channel="balcao", where=NEAR, photo=jpeg(),
                                   address="Rua Goiás, 120, Centro",
                                   contact_name="Maria", contact_email="maria@example.com")
        assert "Nova tarefa" in (await task_message(bot, ANA, protocol)).text
        await _inspect(bot, protocol, "N-1/2026")
        await _delivered(core)
        law = core.law.tracks["dores_vehicle"]
        async with core.db.read() as s:
            steps = (await s.execute(select(func.count()).select_from(EmailMessage))).scalar()
        received = await smtp.wait_for(steps)
        # registered (the diligence opened at once, with an inspector on duty), notice affixed
        assert steps == 2
        texts = [bodies(m)[0] for m in smtp.to("maria@example.com")]
        assert (f"Sua denúncia foi registrada com o protocolo {protocol} "
                f"({law.state('diligence').label})") in texts[0]
        assert (f"Atualização do protocolo {protocol}: "
                f"{law.state('notice_affixed').label}.") in texts[-1]
        assert all(m["Subject"].startswith(f"Protocolo {protocol}:") for m in received)
        assert all(f"{PUBLIC}/publico/protocolo/{protocol}" in t for t in texts)
        home = await (await client.get("/")).text()
        assert '<b><a href="/entregas">0</a></b>' in home  # no dead letter of any kind
        listed = await (await client.get("/balcao")).text()
        assert protocol not in listed[listed.index('id="to-tell"'):]
    async with core.db.read() as s:
        assert set((await s.execute(select(OutboxMessage.chat_id))).scalars()) == {ANA.id}
        assert set((await s.execute(select(EmailMessage.status))).scalars()) == {outbox.SENT}
        contact = (await s.execute(select(ReporterContact))).scalar_one()
        assert contact.told_state == "notice_affixed"
