"""The owner's case code people can type: 8 characters of Crockford's base
32, printed grouped ("K7QM-42XD"), read case-insensitively with spaces, dashes and the O/0,
I/L/1 confusions forgiven; old 11-character codes keep working as printed; a wrong attempt
says what to check and the cool-down says when to try again."""
from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import update

from core.documents.data import OwnerLink as DocumentLink
from core.identifiers import (BAD_CASE_CODE, InvalidIdentifier, case_code_keys,
                              format_case_code, parse_case_code)
from core.services.owners import WRONG_ANSWER
from core.storage.models import Case
from core.storage.protocol import new_case_code
from tests.support.owner_chat import JOSE
from tests.support.bot_chat import said
from tests.support.owner_cases import notified

#: Telegram deep-link payload: up to 64 characters of [A-Za-z0-9_-].
PAYLOAD = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def test_one_render_one_parse_round_trip():
    for _ in range(200):
        code = new_case_code()
        shown = format_case_code(code)
        assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}", shown)
        assert parse_case_code(shown) == code
        assert parse_case_code(shown.lower().replace("-", " ")) == code
        assert format_case_code(shown) == shown  # rendering twice changes nothing


@pytest.mark.parametrize("typed", ["K7QM-42XD", "k7qm42xd", " k7qm 42xd ", "K7QM.42XD",
                                   "k7-qm-42-xd"])
def test_typed_forms_read_the_same(typed):
    assert parse_case_code(typed) == "K7QM42XD"


def test_letters_mistaken_for_digits_are_forgiven():
    # Crockford: O is read as 0, I and L as 1 (the alphabet has neither)
    assert parse_case_code("AO1I-L2XD") == "A01112XD"


def test_old_eleven_character_codes_keep_their_exact_form():
    assert parse_case_code("Ab-cD_e9fG1") == "Ab-cD_e9fG1"
    assert format_case_code("Ab-cD_e9fG1") == "Ab-cD_e9fG1"
    # an old code that also reads as a new one is looked up both ways, new form first
    assert case_code_keys("AB-CD-EF-GH") == ("ABCDEFGH", "AB-CD-EF-GH")


@pytest.mark.parametrize("bad", ["", "curto", "K7QM-42X", "K7QM-42XDZ", "K7QM-42XU",
                                 "ÇÇÇÇ-ÇÇÇÇ", "/start"])
def test_what_is_not_a_code_is_explained(bad):
    with pytest.raises(InvalidIdentifier) as err:
        parse_case_code(bad)
    assert err.value.message == BAD_CASE_CODE and "K7QM-42XD" in BAD_CASE_CODE


def test_the_qr_deep_link_carries_the_printed_form():
    url = DocumentLink("ViaLivreBot", "K7QM42XD").url
    assert url == "https://t.me/ViaLivreBot?start=K7QM-42XD"
    assert PAYLOAD.match(url.rsplit("=", 1)[1])


async def test_owner_types_the_code_loosely_and_sees_it_grouped(bot, core, photo):
    sub = await notified(core, photo)
    shown = format_case_code(sub.case_code)
    await bot.api.send_command(JOSE, "proprietario")
    await said(bot, JOSE, "Envie o código do caso")
    await bot.api.send_text(JOSE, shown.lower().replace("-", " "))
    await said(bot, JOSE, "Agora envie a placa")
    await bot.api.send_text(JOSE, "ABC1D23")
    view = await said(bot, JOSE, f"Seu caso {shown} (protocolo {sub.protocol})")
    assert sub.case_code not in view.text.replace(shown, "")


async def test_code_in_two_halves_with_the_plate_on_the_command(bot, core, photo):
    sub = await notified(core, photo)
    shown = format_case_code(sub.case_code)
    await bot.api.send_command(JOSE, "proprietario", [shown[:4], shown[5:].lower(), "abc1d23"])
    await said(bot, JOSE, f"Seu caso {shown}")


async def test_an_old_code_still_opens_its_case(bot, core, photo):
    sub = await notified(core, photo)
    async with core.db.unit_of_work() as s:
        await s.execute(update(Case).where(Case.id == sub.case_id)
                        .values(case_code="Ab-cD_e9fG1"))
    await bot.api.send_command(JOSE, "start", "Ab-cD_e9fG1")
    await said(bot, JOSE, "Seu caso Ab-cD_e9fG1")
    await bot.api.send_command(JOSE, "start", "AB-CD_E9FG1")  # old codes are exact
    assert (await said(bot, JOSE)).text == WRONG_ANSWER


async def test_wrong_attempts_say_what_to_check_and_when_to_try_again(bot, core, photo, clock):
    sub = await notified(core, photo)
    await bot.api.send_command(JOSE, "proprietario", [sub.case_code, "XYZ9999"])
    first = await said(bot, JOSE)
    assert "Confira o código" in first.text and "a placa" in first.text
    for _ in range(4):
        await bot.api.send_command(JOSE, "proprietario", [sub.case_code, "XYZ9999"])
        last = await said(bot, JOSE)
    local = (clock.now + timedelta(hours=1)).astimezone(ZoneInfo("America/Sao_Paulo"))
    assert f"a partir de {local:%d/%m/%Y} às {local:%H:%M}" in last.text
