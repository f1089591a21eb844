"""Whole cases worked from the inspector's chat: inspection to notification (Anexo I) to lapse
to removal with the termo (Dores Art. 4º, I; Art. 6º), owner unknown (Art. 4º, II), furniture
(Art. 5º, II), recidivism (Art. 6º, §5º) and a Dracena auto with a refusal to sign (Art. 2º,
§2º). PDFs are read back with pypdf."""
from __future__ import annotations

from sqlalchemy import select

from sandbox.harness import BotHarness
from core.identifiers import format_case_code
from core.services.cases.transitions import apply_transition
from core.storage.models import Evidence
from core.storage.timeline import ActorRef
from tests.support.inspector import (ANA, CARLA, DRACENA, NEAR, answer, bind, case_row, document,
                                     open_card, pdf_text, remove_and_termo, report, send_photo,
                                     sweep, tap, task_message, tick)
from tests.support.bot_chat import jpeg, said

STAFF = ActorRef("staff", "u1", "Maria (Secretaria)")


async def test_vehicle_inspection_notification_lapse_removal_termo_art_4_I_art_6(
        bot, core, photo, clock):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo, plate="ABC1D23")
    await task_message(bot, ANA, protocol)
    await tap(bot, ANA, "Aceitar", expect=f"Protocolo {protocol}")
    await tap(bot, ANA, "Notificar", expect="Passo 1 de")
    await tick(bot, ["Sem para-choques"])  # one sign alone does not qualify (Art. 3º, §4º)
    await tap(bot, ANA, "Continuar", expect="nome do proprietário")
    await answer(bot, ANA, "José da Silva", "CPF")
    bad = await answer(bot, ANA, "123.456.789-00", "CPF inválido")
    assert "Passo" in bad.text  # the same question again
    await answer(bot, ANA, "529.982.247-25", "contato")
    await tap(bot, ANA, "Pular", expect="número da notificação")
    await tap(bot, ANA, f"Usar: {protocol}", expect="Confira antes de registrar")
    refused = await tap(bot, ANA, "Confirmar", expect="Nada foi registrado")
    assert "Art. 4º, I" in refused.text and "José da Silva" in refused.text  # answers kept
    assert (await case_row(core, protocol)).state == "diligence"
    which = await tap(bot, ANA, "Corrigir", expect="Qual dado")
    n = next(line.split(".")[0] for line in which.text.splitlines()
             if "sinais de abandono" in line)  # the text names each answer, the button its n
    await tap(bot, ANA, f"Corrigir {n}", expect="Marque os sinais")
    await tick(bot, ["Há mais de 30 dias", "Faltam pneus", "Sem motor"])
    await tap(bot, ANA, "Continuar", expect="Confira antes de registrar")
    done = await tap(bot, ANA, "Confirmar", expect="Registrado: Notificar o proprietário")
    assert "Prazo: retirar o veículo do espaço público até 11/12/2026 (Art. 4º, I)" in done.text
    _, pdf = await document(bot, ANA, "notificacao-")
    text = pdf_text(pdf)
    assert "11/12/2026" in text and "Art. 4º" in text and "José da Silva" in text
    case = await case_row(core, protocol)
    assert case.state == "owner_notified"
    assert f"t.me/{'ViaLivreDoresBot'}?start={format_case_code(case.case_code)}" in text.replace("\n", "")
    clock.advance(days=11)
    await sweep(bot, core)
    due = await task_message(bot, ANA, protocol, heading="Remoção devida")
    assert (await case_row(core, protocol)).state == "removal_due"
    await bot.api.press_button(ANA, due.message_id, text="Abrir caso")
    await said(bot, ANA, f"Protocolo {protocol}")
    await remove_and_termo(bot, core, protocol)
    async with core.db.read() as s:
        kinds = (await s.execute(select(Evidence.kind).where(Evidence.case_id == case.id))
                 ).scalars().all()
    assert kinds.count("document") == 2 and kinds.count("photo") == 2

async def test_owner_unknown_notice_publication_lapse_removal_art_4_II(bot, core, photo, clock):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo)
    await task_message(bot, ANA, protocol)
    await open_card(bot, ANA, protocol)
    await tap(bot, ANA, "Afixar notificação", expect="Marque os sinais")
    await tick(bot, ["Há mais de 30 dias", "Faltam pneus", "Sem motor"])
    await tap(bot, ANA, "Continuar", expect="papel afixado")
    await tap(bot, ANA, "Preenchida à mão", expect="número da notificação")
    await answer(bot, ANA, "N-77/2026", "Confira antes de registrar")
    await tap(bot, ANA, "Confirmar", expect="Registrado: Afixar notificação")
    _, pdf = await document(bot, ANA, "notificacao-afixada")
    assert "Art. 4º" in pdf_text(pdf)
    await apply_transition(core, protocol, "record_publication", STAFF,
                           {"publication_date": "2026-12-02",
                            "publication_reference": "DOM nº 100, p. 3"})
    clock.advance(days=14)
    await sweep(bot, core)
    await task_message(bot, ANA, protocol, heading="Remoção devida")
    await open_card(bot, ANA, protocol)
    await remove_and_termo(bot, core, protocol)

async def test_furniture_removed_immediately_owner_unknown_art_5_II(bot, core, photo):
    await bind(bot, CARLA, "Carla Saúde", "saude", NEAR)
    protocol = await report(core, photo, category="large_furniture")
    await task_message(bot, CARLA, protocol)
    card = await tap(bot, CARLA, "Aceitar", expect=f"Protocolo {protocol}")
    assert not any("Anexo I" in b.text for row in card.buttons for b in row)
    await tap(bot, CARLA, "Remover agora", expect="Marque os sinais")
    await tap(bot, CARLA, "Há mais de 30 dias")
    await tap(bot, CARLA, "Mau estado a olho nu")
    await tap(bot, CARLA, "Continuar", expect="motivo da remoção imediata")
    await answer(bot, CARLA, "Proprietário não identificado no local", "fotos ou vídeo")
    await bot.api.send_photo(CARLA, jpeg(11))
    await said(bot, CARLA, "Recebidos: 1 foto e 0 vídeos")
    await tap(bot, CARLA, "Pronto", expect="início da remoção")
    await answer(bot, CARLA, "31/12/2099 10:00", "ainda não chegaram")
    await answer(bot, CARLA, "01/12/2026 12:30", "Confira antes de registrar")
    await tap(bot, CARLA, "Confirmar", expect="Registrado: Remover de imediato")
    assert (await case_row(core, protocol)).state == "removal_started"
    await said(bot, CARLA, f"Protocolo {protocol} —")
    await tap(bot, CARLA, "Entrada no depósito", expect="número do termo")
    await answer(bot, CARLA, "T-9/2026", "descrição do bem")
    await answer(bot, CARLA, "Sofá de três lugares, tecido marrom", "pátio de destino")
    await answer(bot, CARLA, "Depósito da Saúde", "data e hora do recolhimento")
    await tap(bot, CARLA, "Pular", expect="Confira antes de registrar")
    await tap(bot, CARLA, "Confirmar", expect="Registrado: Registrar entrada no depósito")
    _, termo = await document(bot, CARLA, "termo-de-recolhimento")
    assert len(termo.pages) == 3

async def test_recidivism_offered_for_the_same_plate_art_6_par_5(bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    first = await report(core, photo, plate="ABC1D23")
    await apply_transition(core, first, "notify_owner", ActorRef("inspector", 1, "Ana Fiscal"),
                           {"abandonment_criteria": ["days_in_place", "missing_tyres", "no_engine"],
                            "owner_name": "José", "owner_document": "52998224725",
                            "notification_number": "1"}, agency="posturas")
    second = await report(core, photo, plate="ABC-1D23")
    await task_message(bot, ANA, second)
    card = await open_card(bot, ANA, second)
    assert f"Caso anterior do mesmo veículo: {first}" in card.text
    await tap(bot, ANA, "Remover: reincidência", expect="Marque os sinais")
    await tick(bot, ["Há mais de 30 dias", "Faltam pneus", "Sem motor"])
    await tap(bot, ANA, "Continuar", expect="caso anterior")
    await tap(bot, ANA, first, expect="fotos ou vídeo")
    await send_photo(bot, ANA, 5)
    await tap(bot, ANA, "Pronto", expect="início da remoção")
    await tap(bot, ANA, "Agora", expect="Confira antes de registrar")
    await tap(bot, ANA, "Confirmar", expect="Registrado: Remover de imediato (reincidência)")
    assert (await case_row(core, second)).state == "removal_started"

async def test_dracena_auto_with_refusal_to_sign_and_witnesses_art_2_par_2(make_core, photo):
    core = await make_core("dracena", telegram_bot_username="ViaLivreDracenaBot")
    async with BotHarness(core) as bot:
        await bind(bot, ANA, "Ana Fiscal", "fiscalizacao", DRACENA)
        protocol = await report(core, photo, category="infraction", where=DRACENA)
        await task_message(bot, ANA, protocol)
        await tap(bot, ANA, "Aceitar", expect=f"Protocolo {protocol}")
        await tap(bot, ANA, "Lavrar auto", expect="nome do infrator")
        await answer(bot, ANA, "Fulano de Tal", "fato constitutivo")
        await answer(bot, ANA, "Calçada obstruída com entulho", "lugar da infração")
        await answer(bot, ANA, "Rua Brasil, 100", "dia e hora")
        await tap(bot, ANA, "Agora", expect="preceito de lei")
        await answer(bot, ANA, "Código de Posturas, art. 10", "valor da multa")
        await answer(bot, ANA, "abc", "Não entendi o valor")
        # A dot before the centavos is refused, never read as R$ 150.000,00.
        await answer(bot, ANA, "1500.00", "use vírgula: 1500,00")
        await answer(bot, ANA, "R$ 1.500,00", "assinatura do funcionário")
        await tap(bot, ANA, "Sim", expect="entrega da cópia")
        await tap(bot, ANA, "Sim", expect="assinatura do infrator")
        await tap(bot, ANA, "Não", expect="se recusou a assinar")
        await tap(bot, ANA, "Sim", expect="duas testemunhas")
        await answer(bot, ANA, "Pedro Souza", "duas testemunhas")
        summary = await answer(bot, ANA, "Pedro Souza, Joana Lima", "Confira antes")
        assert "R$\xa01.500,00" in summary.text and "Pedro Souza, Joana Lima" in summary.text
        done = await tap(bot, ANA, "Confirmar", expect="Registrado: Lavrar auto")
        assert "Art. 3º" in done.text  # 5 days to appeal to the Mayor
        _, pdf = await document(bot, ANA, "auto-de-infracao")
        text = pdf_text(pdf)
        assert "Fulano de Tal" in text and "Pedro Souza" in text and "Joana Lima" in text
        assert "recus" in text.lower()
        assert (await case_row(core, protocol)).state == "appeal_window"
