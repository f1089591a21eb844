"""One installation, two cities, end to end: one bot and one panel serve Dores do Indaiá (MG,
Lei 3.043/2022) and Dracena (SP, Lei 56/1951) together, on every engine.

- each citizen's report goes to the city whose boundary holds its pin, under that city's law;
- each city's inspector (bound with an invite of their city) receives only their city's task;
- each staff account sees only its city: the other city's case answers 404 as a missing one;
- a deadline ending on 09/07/2027 (Revolução Constitucionalista, a São Paulo state holiday) runs
  to the next business day in Dracena and not in Dores do Indaiá (Lei 9.784/1999, art. 66,
  § 1º), and the panel of each city prints its own date;
- Open311 lists one jurisdiction per city, and each jurisdiction reads its own city only."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import select

from core.formatting import TZ
from core.services.cases.transitions import apply_transition
from core.services.inspectors.accounts import invite_inspector
from core.services.staff.accounts import create_user
from core.storage.models import Case
from sandbox.harness import BotHarness
from sandbox.standin.botapi import User
from tests.support.bot_chat import (JOAO, MARIA, buttons, jpeg, pin, press, said,
                                    until_summary)
from tests.support.owner_cases import ABANDONED, FISCAL
from tests.support.panel import PASSWORD, Panel

DORES = (-19.4628, -45.6003)
DRACENA = (-21.4843, -51.5353)
ANA = User(901, "Ana")  # fiscal de posturas, Dores do Indaiá
DANI = User(902, "Dani")  # fiscalização, Dracena
API = "/open311/v2"
NOTICE = {**ABANDONED, "owner_name": "José da Silva", "owner_document": "529.982.247-25",
          "notification_number": "1/2027"}
AUTO = {"offender_name": "Fulano de Tal", "infraction_fact": "Entulho sobre a calçada",
        "place": "Rua Brasil, 100", "provision_violated": "Código de Posturas, art. 10",
        "fine_amount": "200.00", "agent_signature": True, "copy_delivered": True,
        "offender_signature": True, "witnesses": ["Pedro Souza", "Joana Lima"]}


def local(y: int, m: int, d: int, h: int = 10) -> datetime:
    return datetime(y, m, d, h, 0, tzinfo=TZ).astimezone(timezone.utc)


async def report_by_pin(h: BotHarness, user: User, where, category: str) -> tuple[str, str]:
    """A citizen's whole report through the bot: the place first (several cities), then the
    category that city's law offers. (the categories offered, the receipt)"""
    h.api.add_user(user)
    await h.api.send_command(user, "denunciar")
    await said(h, user, "Onde fica?")
    await pin(h, user, *where)
    offered = buttons(h, user)
    await press(h, user, category, expect="Envie de 1 a 10 fotos")
    await h.api.send_photo(user, jpeg(user.id % 7))
    await said(h, user, "1 foto recebida")
    await press(h, user, "Pronto", expect="")
    await until_summary(h, user)
    done = await press(h, user, "Confirmar", expect="Protocolo:")
    return ", ".join(offered), done.text


async def protocol_of(core, city: str) -> str:
    async with core.db.read() as s:
        return (await s.execute(select(Case.protocol).where(Case.municipality == city))
                ).scalar_one()


async def test_one_bot_and_one_panel_serve_dores_and_dracena_together(make_two_cities, clock):
    core = await make_two_cities()  # the process's default city: Dores do Indaiá
    dracena = core.for_city("dracena")
    await create_user(core, "clara", PASSWORD, "staff", "dores-do-indaia")
    await create_user(dracena, "davi", PASSWORD, "staff", "dracena")
    panel = Panel(core)
    async with BotHarness(core) as h:
        for user, city, agency in ((ANA, core, "posturas"), (DANI, dracena, "fiscalizacao")):
            code = await invite_inspector(city, user.first_name, agency, "staff")
            h.api.add_user(user)
            await h.api.send_command(user, "fiscal", code)
            await said(h, user, "Conta vinculada")

        # the pin decides: Maria's report is Dores do Indaiá's, João's Dracena's
        clock.now = local(2027, 6, 29)
        offered, receipt = await report_by_pin(h, MARIA, DORES, "Veículo motorizado")
        assert "Móvel de grande porte" in offered and "ambulante" not in offered
        assert "Prefeitura de Dores do Indaiá (MG)" in receipt
        dores_protocol = await protocol_of(core, "dores-do-indaia")
        await h.api.wait_for(method="sendMessage", chat_id=ANA,
                             text=f"Nova tarefa — protocolo {dores_protocol}", since=0)
        # Dores Art. 4º, I: the owner notified on 29/06/2027, 10 days: 09/07/2027, a
        # business day in Minas Gerais
        await apply_transition(core, dores_protocol, "notify_owner", FISCAL, NOTICE,
                               agency="posturas")

        clock.now = local(2027, 7, 4)
        offered, receipt = await report_by_pin(h, JOAO, DRACENA,
                                               "Infração a lei ou postura municipal")
        assert "Mercadorias de ambulante sem licença" in offered and "Móvel" not in offered
        assert "Prefeitura de Dracena (SP)" in receipt
        dracena_protocol = await protocol_of(core, "dracena")
        await h.api.wait_for(method="sendMessage", chat_id=DANI,
                             text=f"Nova tarefa — protocolo {dracena_protocol}", since=0)
        # Dracena Art. 3º: the auto drawn up on 04/07/2027, 5 days: 09/07/2027, a São Paulo
        # state holiday, then the weekend: Monday 12/07/2027
        await apply_transition(core, dracena_protocol, "issue_auto", FISCAL,
                               {**AUTO, "occurred_at": clock.now.isoformat()},
                               agency="fiscalizacao")

        # each inspector received only their city's task
        for user, other in ((ANA, dracena_protocol), (DANI, dores_protocol)):
            assert not any(other in (m.text or "") for m in h.api.messages(user)), user

    async with panel.client("clara") as c:
        cases = await (await c.get("/casos")).text()
        page = await (await c.get(f"/casos/{dores_protocol}")).text()
        theirs = await c.get(f"/casos/{dracena_protocol}")
        missing = await c.get("/casos/2027-999999")
        assert dores_protocol in cases and dracena_protocol not in cases
        assert "09/07/2027" in page and "feriado estadual" not in page
        assert theirs.status == missing.status == 404
    async with panel.client("davi") as c:
        cases = await (await c.get("/casos")).text()
        page = await (await c.get(f"/casos/{dracena_protocol}")).text()
        assert dracena_protocol in cases and dores_protocol not in cases
        assert "12/07/2027" in page
        assert "09/07/2027 é feriado estadual (Revolução Constitucionalista)" in page
        assert (await c.get(f"/casos/{dores_protocol}")).status == 404

        found = await (await c.get(f"{API}/discovery.json")).json()
        assert [j["name"] for j in found["jurisdictions"]] == ["Dores do Indaiá (MG)",
                                                               "Dracena (SP)"]
        ids = {j["name"]: j["jurisdiction_id"] for j in found["jurisdictions"]}
        for name, mine, _other in (("Dracena (SP)", dracena_protocol, dores_protocol),
                                  ("Dores do Indaiá (MG)", dores_protocol, dracena_protocol)):
            rows = await (await c.get(f"{API}/requests.json?jurisdiction_id={ids[name]}")).json()
            assert [r["service_request_id"] for r in rows] == [mine], name
        assert (await c.get(f"{API}/requests.json")).status == 400  # which city? required
