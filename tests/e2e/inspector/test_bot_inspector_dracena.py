"""Dracena (Lei 56/1951) from the inspector's chat: the auto drawn up without the offender and
the written intimação (Art. 2º, §3º; Art. 3º), the low-value goods note (Art. 4º, §1º) and the
apprehension with its entry in the depot register (Art. 4º; Art. 6º). Each step's PDF is sent
in chat, read back with pypdf, and kept as evidence with its hash in the timeline."""
from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import select

from sandbox.harness import BotHarness
from core.storage.models import Event
from tests.support.inspector import (ANA, DRACENA, answer, bind, case_row, document, pdf_text,
                                     report, tap, task_message)
from tests.support.bot_chat import said


@pytest.fixture
async def core(make_core):
    return await make_core("dracena", telegram_bot_username="ViaLivreDracenaBot")


@pytest.fixture
async def dracena(core):
    async with BotHarness(core) as bot:
        await bind(bot, ANA, "Ana Fiscal", "fiscalizacao", DRACENA)
        yield bot


async def issued(core, protocol) -> dict[str, str]:
    case = await case_row(core, protocol)
    async with core.db.read() as s:
        rows = (await s.execute(select(Event.data).where(
            Event.case_id == case.id, Event.action == "document_issued"))).scalars().all()
    return {d["document"]: d["sha256"] for d in rows}


async def test_auto_without_the_offender_then_intimacao_art_2_par_3_art_3(dracena, photo):
    bot, core = dracena, dracena.core
    protocol = await report(core, photo, category="infraction", where=DRACENA)
    await task_message(bot, ANA, protocol)
    await tap(bot, ANA, "Aceitar", expect=f"Protocolo {protocol}")
    await tap(bot, ANA, "Auto sem o infrator", expect="nome do infrator")
    await answer(bot, ANA, "Fulano de Tal", "fato constitutivo")
    await answer(bot, ANA, "Entulho sobre a calçada", "lugar da infração")
    await answer(bot, ANA, "Rua Brasil, 100", "dia e hora")
    await tap(bot, ANA, "Agora", expect="preceito de lei")
    await answer(bot, ANA, "Código de Posturas, art. 10", "valor da multa")
    await answer(bot, ANA, "200,00", "assinatura do funcionário")
    await tap(bot, ANA, "Sim", expect="circunstância que impediu")  # no offender signature
    await answer(bot, ANA, "Infrator não estava no local", "duas testemunhas")
    await answer(bot, ANA, "Pedro Souza, Joana Lima", "Confira antes")
    await tap(bot, ANA, "Confirmar", expect="Registrado: Lavrar auto")
    _, auto = await document(bot, ANA, "auto-de-infracao")
    assert "intimado por escrito" in pdf_text(auto)
    assert (await case_row(core, protocol)).state == "awaiting_intimacao"

    await said(bot, ANA, f"Protocolo {protocol} —")  # the card: the intimação is next
    await tap(bot, ANA, "Registrar intimação", expect="data da intimação")
    await answer(bot, ANA, "01/12/2026", "endereço em que o infrator foi intimado")
    await answer(bot, ANA, "Rua Bahia, 10, Dracena", "Confira antes")
    done = await tap(bot, ANA, "Confirmar", expect="Registrado: Registrar intimação")
    case = await case_row(core, protocol)
    due = case.deadline_json["due"]
    assert case.state == "appeal_window" and "Art. 3º" in done.text
    call, pdf = await document(bot, ANA, "intimacao-")
    text = pdf_text(pdf).replace("\n", " ")
    assert "INTIMAÇÃO" in text and "Fulano de Tal" in text and "Rua Bahia, 10" in text
    assert "Entulho sobre a calçada" in text and "200,00" in text  # the auto's whole content
    assert f"{due[8:10]}/{due[5:7]}/{due[:4]}" in text and "Art. 2º, § 3º" in text
    blob = next(f.data for f in call.files.values())
    assert (await issued(core, protocol))["intimacao"] == hashlib.sha256(blob).hexdigest()


async def test_low_value_note_for_street_vendor_goods_art_4_par_1(dracena, photo):
    bot, core = dracena, dracena.core
    protocol = await report(core, photo, category="street_vendor_goods", where=DRACENA)
    await task_message(bot, ANA, protocol)
    await tap(bot, ANA, "Aceitar", expect=f"Protocolo {protocol}")
    await tap(bot, ANA, "Nota simplificada", expect="relação das mercadorias")
    await answer(bot, ANA, "12 óculos de sol\n30 capinhas de celular", "nome do ambulante")
    await tap(bot, ANA, "Pular", expect="valor da multa")
    await answer(bot, ANA, "80,00", "preceito de lei")
    await answer(bot, ANA, "Código de Posturas, art. 80", "nota assinada")
    await tap(bot, ANA, "Sim", expect="dia e hora da apreensão")
    await tap(bot, ANA, "Agora", expect="livro do depósito")
    await tap(bot, ANA, f"Usar: {protocol}", expect="impostos devidos")
    await tap(bot, ANA, "Pular", expect="peso das mercadorias")  # Art. 7º, b
    await answer(bot, ANA, "4,5", "gêneros perecíveis")  # Art. 6º, §2º
    summary = await tap(bot, ANA, "Não", expect="Confira antes")
    assert "12 óculos de sol; 30 capinhas de celular" in summary.text
    done = await tap(bot, ANA, "Confirmar", expect="Registrado: Apreender com nota")
    assert "Art. 4º, §2º" in done.text  # 48 hours to appeal
    call, pdf = await document(bot, ANA, "nota-de-apreensao")
    text = pdf_text(pdf)
    assert "NOTA DE APREENSÃO" in text and "NÃO IDENTIFICADO" in text
    assert "1. 12 óculos de sol" in text and "2. 30 capinhas de celular" in text
    assert "80,00" in text and "Código de Posturas, art. 80" in text and protocol in text
    blob = next(f.data for f in call.files.values())
    assert (await issued(core, protocol))["nota_apreensao"] == hashlib.sha256(blob).hexdigest()
    assert (await case_row(core, protocol)).state == "apprehended"


async def test_apprehension_registered_in_the_depot_book_art_6(dracena, photo):
    bot, core = dracena, dracena.core
    protocol = await report(core, photo, category="abandoned_thing", where=DRACENA)
    await task_message(bot, ANA, protocol)
    card = await tap(bot, ANA, "Aceitar", expect=f"Protocolo {protocol}")
    labels = [b.text for row in card.buttons for b in row]
    assert "Apreender" in labels and "Apreender e registrar no livro" in card.text
    assert "Nota simplificada" not in labels  # Art. 4º, §1º: vendors only
    await tap(bot, ANA, "Apreender", expect="especificação das mercadorias")
    await answer(bot, ANA, "Sofá de três lugares; geladeira branca", "lugar da infração")
    await answer(bot, ANA, "Rua Bahia, 5", "dia e hora da apreensão")
    await tap(bot, ANA, "Agora", expect="preceito de lei")
    await answer(bot, ANA, "Lei nº 56/1951, Art. 4º", "valor da multa")
    await answer(bot, ANA, "100,00", "livro do depósito")
    await answer(bot, ANA, "Livro 1, fl. 45", "impostos devidos")
    # Art. 7º: a sofa is neither animal (a) nor mercadoria by the kilo (b): no such questions
    summary = await tap(bot, ANA, "Pular", expect="Confira antes")
    assert "animais" not in summary.text and "peso" not in summary.text
    await tap(bot, ANA, "Confirmar", expect="Registrado: Apreender e registrar")
    _, pdf = await document(bot, ANA, "auto-de-infracao-e-apreensao")
    text = " ".join(pdf_text(pdf).split())
    assert "Livro 1, fl. 45" in text and "Sofá de três lugares" in text
    assert "geladeira branca" in text and "Art. 6º" in text and "VERSO" in text  # Art. 5º
    assert "registro_apreensao" in await issued(core, protocol)
    # one name throughout the paper; "recolhidos ao Pátio" (two items)
    assert "AUTO DE INFRAÇÃO E APREENSÃO" in text
    lowered = text.lower().replace("auto de infração e apreensão", "")
    assert "auto de apreensão" not in lowered and "auto de infração" not in lowered
    assert "recolhidos ao Pátio municipal" in text
    assert "https://t.me/ViaLivreDracenaBot?start=" in text.split("VERSO")[0]  # QR on the front
    assert "leilão dentro de três dias" not in text  # a sofa is not gêneros (Art. 6º, §2º)


async def test_livestock_apprehension_asks_animals_and_states_the_3_day_auction_art_6_par_2(
        dracena, photo):
    """Art. 7º, a: animals are counted for semoventes only; Art. 6º, §2º: they go to auction
    within three days of the apprehension — the auto states that date with its article."""
    bot, core = dracena, dracena.core
    protocol = await report(core, photo, category="livestock", where=DRACENA)
    await task_message(bot, ANA, protocol)
    await tap(bot, ANA, "Aceitar", expect=f"Protocolo {protocol}")
    await tap(bot, ANA, "Apreender", expect="especificação das mercadorias")
    await answer(bot, ANA, "Duas vacas malhadas", "lugar da infração")
    await answer(bot, ANA, "Estrada Municipal DRC-020, km 3", "dia e hora da apreensão")
    await answer(bot, ANA, "30/11/2026 10:00", "preceito de lei")
    await answer(bot, ANA, "Código de Posturas, art. 90", "valor da multa")
    await answer(bot, ANA, "150,00", "livro do depósito")
    await answer(bot, ANA, "Livro 1, fl. 46", "impostos devidos")
    await tap(bot, ANA, "Pular", expect="número de animais")  # Art. 7º, a
    summary = await answer(bot, ANA, "2", "Confira antes")  # no kilograms for animals
    assert "peso" not in summary.text
    await tap(bot, ANA, "Confirmar", expect="Registrado: Apreender e registrar")
    _, pdf = await document(bot, ANA, "auto-de-infracao-e-apreensao")
    text = " ".join(pdf_text(pdf).split())
    # 30/11/2026 (Monday) + 3 days = 03/12/2026 (Thursday)
    assert "vão a leilão dentro de três dias da apreensão: até quinta-feira, 3 de " \
           "dezembro de 2026 (03/12/2026) (Art. 6º, §2º)" in text


async def test_street_vendor_apprehension_asks_kilograms_not_animals_art_7(dracena, photo):
    """Art. 7º, b: goods are charged by the kilogram; whether they are gêneros (Art. 6º,
    §2º) is asked too; animals are not."""
    bot, core = dracena, dracena.core
    protocol = await report(core, photo, category="street_vendor_goods", where=DRACENA)
    await task_message(bot, ANA, protocol)
    await tap(bot, ANA, "Aceitar", expect=f"Protocolo {protocol}")
    await tap(bot, ANA, "Apreender", expect="especificação das mercadorias")
    await answer(bot, ANA, "Duas caixas de tomate", "lugar da infração")
    await answer(bot, ANA, "Praça Central", "dia e hora da apreensão")
    await tap(bot, ANA, "Agora", expect="preceito de lei")
    await answer(bot, ANA, "Código de Posturas, art. 80", "valor da multa")
    await answer(bot, ANA, "80,00", "livro do depósito")
    await answer(bot, ANA, "Livro 1, fl. 47", "impostos devidos")
    await tap(bot, ANA, "Pular", expect="peso das mercadorias")  # Art. 7º, b
    await answer(bot, ANA, "40", "gêneros perecíveis")  # Art. 6º, §2º
    summary = await tap(bot, ANA, "Sim", expect="Confira antes")
    assert "animais" not in summary.text
    await tap(bot, ANA, "Confirmar", expect="Registrado: Apreender e registrar")
    _, pdf = await document(bot, ANA, "auto-de-infracao-e-apreensao")
    assert "(Art. 6º, §2º)" in " ".join(pdf_text(pdf).split())
