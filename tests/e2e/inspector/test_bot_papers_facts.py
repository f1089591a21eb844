"""The inspector's chat puts on paper the facts the steps recorded (Dores Art. 4º, I: the
Anexo I's DADOS DO VEÍCULO; Art. 6º, I, b: the termo; Art. 3º, caput: the collection):
the citizen's make, model and colour are offered one box at a time as "Usar: …", never the
citizen's free description; "➕ Mais dados" lets the inspector type the chassis, RENAVAM and the
plate's municipality and UF; the depot entry offers the removal's recorded start as the
collection ("Usar: 12/12/2026 13:00"), not "Agora"."""
from __future__ import annotations

from tests.support.inspector import (ANA, NEAR, answer, bind, case_row, document, pdf_text, report,
                                     send_photo, sweep, tap, task_message, tick)
from tests.support.bot_chat import said

NOTE = "junta mosquito da dengue"


def buttons(bot) -> list[str]:
    return [b.text for b in bot.api.messages(ANA)[-1].flat_buttons()]


async def test_the_papers_carry_the_reviewed_boxes_and_the_collection_art_4_I_art_3(
        bot, core, photo, clock):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo, plate="ABC1D23", make_model="Fiat Uno Mille",
                            colour="branco", description=NOTE)
    await task_message(bot, ANA, protocol)
    await tap(bot, ANA, "Aceitar", expect=f"Protocolo {protocol}")
    await tap(bot, ANA, "Notificar", expect="marca do veículo")
    assert "Usar: Fiat" in buttons(bot)
    assert not [b for b in buttons(bot) if NOTE in b or "sugestão" in b]
    await tap(bot, ANA, "Usar: Fiat", expect="modelo do veículo")
    await tap(bot, ANA, "Usar: Uno Mille", expect="cor do veículo")
    await answer(bot, ANA, "Branco", "Marque os sinais")  # corrected by typing
    await tick(bot, ["Há mais de 30 dias", "Faltam pneus", "Sem motor"])
    await tap(bot, ANA, "Continuar", expect="nome do proprietário")
    await answer(bot, ANA, "José da Silva", "CPF")
    await answer(bot, ANA, "529.982.247-25", "contato")
    await tap(bot, ANA, "Pular", expect="número da notificação")
    summary = await tap(bot, ANA, f"Usar: {protocol}", expect="Confira antes de registrar")
    assert "número do chassi" in summary.text and "RENAVAM" in summary.text
    await tap(bot, ANA, "Mais dados", expect="número do chassi")
    await answer(bot, ANA, "9BD15822AB4012345", "RENAVAM")
    await answer(bot, ANA, "00123456789", "município da placa")
    await answer(bot, ANA, "Dores do Indaiá", "UF da placa")
    bad = await answer(bot, ANA, "Minas", "duas letras")
    assert "UF da placa" in bad.text  # asked again, nothing lost
    summary = await answer(bot, ANA, "mg", "Confira antes de registrar")
    assert "UF da placa (sigla, ex.: MG): MG" in summary.text
    assert not [b for b in buttons(bot) if "Mais dados" in b]  # asked once
    await tap(bot, ANA, "Confirmar", expect="Registrado: Notificar o proprietário")
    _, pdf = await document(bot, ANA, "notificacao-")
    text = " ".join(pdf_text(pdf).split())
    assert ("PLACA ABC1D23 MUNICÍPIO Dores do Indaiá UF MG MARCA Fiat MODELO Uno Mille "
            "COR Branco CHASSI 9BD15822AB4012345 RENAVAM 00123456789") in text
    assert NOTE not in text and "Matr." in text

    clock.advance(days=11)  # Saturday 12/12, 13:00: the 10 days lapsed
    await sweep(bot, core)
    due = await task_message(bot, ANA, protocol, heading="Remoção devida")
    await bot.api.press_button(ANA, due.message_id, text="Abrir caso")
    await said(bot, ANA, f"Protocolo {protocol}")
    await tap(bot, ANA, "Iniciar remoção", expect="fotos ou vídeo")
    await send_photo(bot, ANA, 3)
    await tap(bot, ANA, "Pronto", expect="início da remoção")
    assert "Agora" in buttons(bot)  # on site, the removal starts now
    await tap(bot, ANA, "Agora", expect="Confira antes de registrar")
    await tap(bot, ANA, "Confirmar", expect="Registrado: Iniciar a remoção")
    await said(bot, ANA, f"Protocolo {protocol} —")
    clock.advance(days=3)  # the entry is registered on Tuesday 15/12
    await tap(bot, ANA, "Entrada no pátio", expect="número do termo")
    await tap(bot, ANA, f"Usar: {protocol}", expect="itens faltantes")
    await tap(bot, ANA, "Continuar", expect="hodômetro")
    await tap(bot, ANA, "Sem hodômetro", expect="pátio de destino")
    await tap(bot, ANA, "Usar: Pátio municipal", expect="data e hora do recolhimento")
    offered = buttons(bot)
    assert "Usar: 12/12/2026 13:00" in offered and "Agora" not in offered
    await tap(bot, ANA, "Usar: 12/12/2026 13:00", expect="Confira antes de registrar")
    await tap(bot, ANA, "Confirmar", expect="Registrado: Registrar entrada no pátio")
    _, termo = await document(bot, ANA, "termo-de-recolhimento")
    text = " ".join(pdf_text(termo).split())
    assert "DATA E HORA DA REMOÇÃO: 12/12/2026, às 13:00" in text
    assert "MARCA Fiat" in text and "Matr." in text
    # Art. 3º, caput: the 60 days count from the collection, not from the entry on 15/12
    assert (await case_row(core, protocol)).deadline_json["start"].startswith(
        "2026-12-12T13:00")
