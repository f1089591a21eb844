"""Dracena through the real bot: the auto's data, the appeal to the Mayor written in the chat
with attachments inside its deadline, refused outside it (Art. 3º; Art. 4º, §2º), and the
decision sent to the owner."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from sandbox.harness import BotHarness
from core.services.cases.transitions import apply_transition
from core.storage.models import Case, ConversationState, Evidence
from tests.support.owner_chat import JOSE, button_texts, open_by_qr
from tests.support.bot_chat import jpeg, press, said
from tests.support.owner_cases import STAFF, dracena_apprehension

LATE = "O prazo para recorrer ao Prefeito terminou em quinta-feira, 3 de dezembro de 2026, às 13:00"


@pytest.fixture
async def dracena(make_core):
    return await make_core("dracena")


@pytest.fixture
async def dbot(dracena):
    async with BotHarness(dracena) as h:
        yield h


async def refusal(h, user) -> str:
    """The service's refusal for a pressed button: an alert, or a message when long."""
    answer = await h.api.wait_for(method="answerCallbackQuery")
    if answer.params.get("text"):
        return answer.params["text"]
    return (await said(h, user)).text


async def test_appeal_inside_the_deadline_with_attachments_art_4_par_2(dbot, dracena, clock):
    core = dracena
    sub = await dracena_apprehension(core, _photo(core), clock)
    view = await open_by_qr(dbot, JOSE, sub.case_code)
    assert "Auto de infração e apreensão:" in view.text and "R$\xa0100,00" in view.text
    # Art. 6º, §2º: semoventes go to auction within three days of the apprehension
    # (01/12/2026 13:00): the date, with its article, not "poderá ir a leilão após"
    assert "vão a leilão dentro de três dias da apreensão: até 04/12/2026 (Art. 6º, §2º)" \
        in view.text
    assert "poderá ir a leilão após" not in view.text
    # Art. 7º, a: what each further day is charged by
    assert "Cada dia a mais custa" in view.text and ": depósito de 3 animais (Art. 7º, a)." \
        in view.text
    assert "Você pode recorrer ao Prefeito até 03/12/2026 às 13:00 (Art. 4º, §2º)" in view.text
    assert "Recorrer ao Prefeito" in button_texts(view)
    clock.advance(hours=20)
    await appellant(dbot)
    await dbot.api.send_text(JOSE, "O gado não é meu:")
    await said(dbot, JOSE, "Texto recebido")
    await dbot.restart()  # the draft survives a restart
    await dbot.api.send_photo(JOSE, jpeg(5))
    await said(dbot, JOSE, "Anexo recebido (1 no total)")
    await dbot.api.send_document(JOSE, b"%PDF-1.4 nota fiscal", "nota.pdf", "application/pdf",
                                 caption="nota fiscal dos meus animais")
    await said(dbot, JOSE, "Anexo recebido (2 no total)")
    done = await press(dbot, JOSE, "Enviar recurso", expect="registrado")
    assert "O Prefeito deve decidir até 04/12/2026 às 09:00 (Art. 4º, §2º)" in done.text
    assert "Recurso de José da Silva (CPF/CNPJ 529.982.247-25)" in done.text
    async with core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
        assert case.state == "appeal_pending"
        facts = case.details["facts"]
        assert "O gado não é meu:" in facts["appeal_grounds"]
        assert "nota fiscal dos meus animais" in facts["appeal_grounds"]
        assert len(facts["appeal_attachments"]) == 2
        # Art. 3º: who appeals (the autuado or a co-responsible) is recorded
        assert facts["appellant_name"] == "José da Silva"
        assert facts["appellant_document"] == "52998224725"
        assert await s.scalar(select(func.count()).select_from(Evidence).where(
            Evidence.case_id == case.id, Evidence.kind == "document")) == 1
        assert (await s.execute(select(ConversationState))).first() is None
    await apply_transition(core, sub.protocol, "decide_appeal_rejected", STAFF,
                           {"decision_text": "Recurso improcedente: animais identificados."})
    told = await dbot.api.wait_for(method="sendMessage", chat_id=JOSE, text="Decisão:",
                                   since=0)
    assert "Recurso improcedente" in told.text and "Ver meu caso" in button_texts(told)


async def test_appeal_outside_the_deadline_is_refused_naming_it_art_4_par_2(dbot, dracena,
                                                                            clock):
    core = dracena
    sub = await dracena_apprehension(core, _photo(core), clock)
    await open_by_qr(dbot, JOSE, sub.case_code)
    clock.advance(hours=49)
    await press(dbot, JOSE, "Recorrer ao Prefeito")
    assert LATE in await refusal(dbot, JOSE)
    async with core.db.read() as s:
        assert (await s.execute(select(ConversationState))).first() is None
        assert (await s.execute(select(Case.state))).scalar_one() == "apprehended"
    view = await open_by_qr(dbot, JOSE, sub.case_code)
    assert "O prazo de recurso terminou" in view.text
    assert "Recorrer ao Prefeito" not in button_texts(view)


async def test_deadline_passing_while_writing_refuses_on_send(dbot, dracena, clock):
    core = dracena
    sub = await dracena_apprehension(core, _photo(core), clock)
    await open_by_qr(dbot, JOSE, sub.case_code)
    clock.advance(hours=47)
    await appellant(dbot)
    await dbot.api.send_text(JOSE, "Não fui intimado.")
    await said(dbot, JOSE, "Texto recebido")
    clock.advance(hours=2)
    await press(dbot, JOSE, "Enviar recurso")
    assert LATE in await refusal(dbot, JOSE)
    async with core.db.read() as s:
        assert (await s.execute(select(ConversationState))).first() is None
        assert (await s.execute(select(Case.state))).scalar_one() == "apprehended"


async def appellant(dbot) -> None:
    """"Recorrer ao Prefeito": who appeals, name and CPF/CNPJ (Art. 3º), then the grounds."""
    await press(dbot, JOSE, "Recorrer ao Prefeito", expect="Quem recorre ao Prefeito")
    await dbot.api.send_text(JOSE, "José da Silva")
    await said(dbot, JOSE, "CPF ou o CNPJ de José da Silva")
    await dbot.api.send_text(JOSE, "529.982.247-25")
    await said(dbot, JOSE, "razões do seu recurso")


async def test_appellant_with_a_wrong_cpf_is_asked_again_nothing_lost_art_3(dbot, dracena,
                                                                           clock):
    """A CPF whose check digits do not match is refused in Portuguese and asked again; the
    name already given is kept; a name without letters is refused too."""
    core = dracena
    sub = await dracena_apprehension(core, _photo(core), clock)
    await open_by_qr(dbot, JOSE, sub.case_code)
    await press(dbot, JOSE, "Recorrer ao Prefeito", expect="Quem recorre ao Prefeito")
    await dbot.api.send_text(JOSE, "123")
    await said(dbot, JOSE, "nome completo de quem recorre")
    await dbot.api.send_text(JOSE, "Maria Corresponsável")
    await said(dbot, JOSE, "CPF ou o CNPJ de Maria Corresponsável")
    await dbot.api.send_text(JOSE, "529.982.247-26")
    wrong = await said(dbot, JOSE, "CPF inválido")
    assert "dígitos verificadores" in wrong.text
    await dbot.restart()  # the name survives a restart
    await dbot.api.send_text(JOSE, "11.222.333/0001-81")
    await said(dbot, JOSE, "razões do seu recurso")
    await dbot.api.send_text(JOSE, "Sou sócia do autuado e o gado foi vendido.")
    await said(dbot, JOSE, "Texto recebido")
    done = await press(dbot, JOSE, "Enviar recurso", expect="registrado")
    assert "Maria Corresponsável (CPF/CNPJ 11.222.333/0001-81)" in done.text
    async with core.db.read() as s:
        facts = (await s.execute(select(Case))).scalar_one().details["facts"]
    assert facts["appellant_name"] == "Maria Corresponsável"
    assert facts["appellant_document"] == "11222333000181"


def _photo(core):
    from core.services.cases.evidence import EvidenceIn
    from tests.support.core_fixtures import jpeg as small_jpeg

    def make(i: int = 0) -> EvidenceIn:
        sha = core.evidence.put(small_jpeg((i * 7 % 256, 30, 30)))
        return EvidenceIn(sha, "image/jpeg", "photo", f"file-{i}", f"uniq-{i}")
    return make
