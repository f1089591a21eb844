"""The owner proves more than a glance at the notice (core.services.owners.proof): the case code
is printed on the notice, so the QR link alone may show the case, but a statement that
postpones the removal (Dores Art. 6º, §3º) needs the plate, the chassis tail or the owner's
CPF/CNPJ as well; the inspector sees who made it and with which proof. End to end through the
Bot API stand-in."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from core.identifiers import format_case_code
from core.services.errors import Forbidden
from core.services.owners.proof import NEEDS_PROOF, WRONG_PROOF
from core.services.owners import link_by_code, owner_statement
from core.storage.models import Event, OwnerLink
from tests.support.owner_chat import ANA, OWNER_USER, PASSER_BY, assign_ana, open_by_qr
from tests.support.bot_chat import press, said
from tests.support.owner_cases import notified


async def _statements(core) -> list[Event]:
    async with core.db.read() as s:
        return list((await s.execute(select(Event).where(
            Event.action.in_(("owner_commits", "owner_statement"))))).scalars())


async def test_the_code_alone_cannot_postpone_the_removal_art_6_par_3(core, photo):
    sub = await notified(core, photo)
    await link_by_code(core, PASSER_BY.id, sub.case_code)  # read the notice, scanned the QR
    with pytest.raises(Forbidden) as refused:
        await owner_statement(core, PASSER_BY.id, sub.case_code, "removed")
    assert refused.value.message == NEEDS_PROOF
    assert await _statements(core) == []


async def test_passer_by_with_the_qr_code_reads_the_case_but_cannot_make_a_statement(
        bot, core, photo):
    sub = await notified(core, photo)
    await open_by_qr(bot, PASSER_BY, sub.case_code)  # reading stays as it was
    await press(bot, PASSER_BY, "Já retirei", expect="confirme que o objeto é seu")
    for guess in ("XYZ9Z99", "1234", "111.111.111-11"):
        await bot.api.send_text(PASSER_BY, guess)
        assert (await said(bot, PASSER_BY)).text == WRONG_PROOF
    await bot.api.send_text(PASSER_BY, "ABC1D22")  # one character off
    await said(bot, PASSER_BY, "não conferem")
    await bot.api.send_text(PASSER_BY, "ABC1D21")  # the fifth wrong answer: cooled down
    await said(bot, PASSER_BY, "Muitas tentativas")
    assert await _statements(core) == []
    async with core.db.read() as s:
        link = (await s.execute(select(OwnerLink))).scalar_one()
    assert link.via == "deep_link"  # no proof kept


async def test_owner_proves_with_the_document_and_the_inspector_sees_who_art_6_par_3(
        bot, core, photo):
    sub = await notified(core, photo)  # the inspector recorded CPF 529.982.247-25
    await assign_ana(bot, core, sub)
    await open_by_qr(bot, OWNER_USER, sub.case_code)
    await press(bot, OWNER_USER, "Vou retirar", expect="confirme que o objeto é seu")
    await bot.api.send_text(OWNER_USER, "529.982.247-25")
    asked = await said(bot, OWNER_USER, "Conferido (CPF/CNPJ do proprietário)")
    assert "Até que dia" in asked.text
    await bot.api.send_text(OWNER_USER, "05/12/2026")
    await said(bot, OWNER_USER, "Registramos sua declaração")
    verify = await bot.api.wait_for(method="sendMessage", chat_id=ANA,
                                    text="o proprietário declarou", timeout=5)
    assert ("Declarado por: José da Silva (Telegram @jose_dono, id 777); comprovou com: "
            "CPF/CNPJ do proprietário") in verify.text
    [event] = await _statements(core)
    assert "@jose_dono" in str(event.data)  # the panel's timeline shows it too
    # proven once: the next statement needs no second proof
    await press(bot, OWNER_USER, "Já retirei", expect="Registramos sua declaração")


async def test_owner_who_linked_with_code_and_plate_states_at_once(bot, core, photo):
    sub = await notified(core, photo)
    await bot.api.send_command(OWNER_USER, "proprietario", [sub.case_code, "ABC1D23"])
    await said(bot, OWNER_USER, f"Seu caso {format_case_code(sub.case_code)}")
    await press(bot, OWNER_USER, "Já retirei", expect="Registramos sua declaração")
    [event] = await _statements(core)
    assert "comprovou com: placa" in str(event.data)
