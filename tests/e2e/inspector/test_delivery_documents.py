"""No document lost to a bad moment: the legal document an inspector's step
produces is sent at once, and when the Bot API fails that call (502) it is queued and arrives
after recovery, with its caption, as the same PDF."""
from __future__ import annotations

from tests.support.inspector import (ANA, NEAR, affix_notice_up_to_confirm, bind, document,
                                     open_card, pdf_text, report, tap, task_message)


async def test_document_refused_by_a_502_arrives_from_the_outbox(bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo)
    await task_message(bot, ANA, protocol)
    await open_card(bot, ANA, protocol)
    await affix_notice_up_to_confirm(bot, ANA, "N-77/2026")  # photo: after the PDF
    bot.api.fail_next("sendDocument", 502, times=2)
    await tap(bot, ANA, "Confirmar", expect="Registrado: Afixar notificação")
    call, pdf = await document(bot, ANA, "notificacao-afixada")
    assert protocol in call.params["caption"] and "Art. 4º" in pdf_text(pdf)
    refused = [c for c in bot.api.sent(ANA, "sendDocument", ok=False) if c.error_code == 502]
    assert len(refused) == 2 and call.time > refused[-1].time
