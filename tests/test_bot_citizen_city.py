"""Each city speaks its own law (issue 12, part 11): /start, /ajuda and the report's prompts
name the categories of the configured law module — Dracena's ambulantes, animais soltos,
anúncios... (Lei 56/1951, Art. 1º and Art. 4º); Dores do Indaiá's vehicles, chassis, furniture
and machinery (Lei 3.043/2022, Art. 1º) — read from core/laws, never written in bot/."""
from __future__ import annotations

import pytest

from bot.harness import BotHarness
from tests.conversation_walk import conversation_walk  # noqa: F401
from tests.test_bot_support import MARIA, clock, jpeg, make_core, press, said  # noqa: F401

pytestmark = pytest.mark.usefixtures("conversation_walk")

#: What each city's greeting must name, and what it must not (the other city's objects).
CITIES = {
    "dracena": (("Mercadorias de ambulante", "Animais soltos", "Anúncios ou reclames"),
                ("carcaças", "Maquinário", "Móvel de grande porte", "Dores")),
    "dores-do-indaia": (("Veículo motorizado", "Chassi ou carroceria", "Móvel de grande porte",
                         "Maquinário"),
                        ("ambulante", "Animais soltos", "Dracena")),
}


@pytest.fixture(params=sorted(CITIES))
async def city(request, make_core):  # noqa: F811
    core = await make_core(request.param)
    async with BotHarness(core) as bot:
        yield request.param, bot


async def test_start_and_help_name_the_city_s_categories(city):
    slug, bot = city
    names, foreign = CITIES[slug]
    law = bot.core.law
    await bot.api.send_command(MARIA, "start")
    welcome = (await said(bot, MARIA, f"Prefeitura de {law.city}")).text
    await bot.api.send_command(MARIA, "ajuda")
    help_ = (await said(bot, MARIA, "Como denunciar")).text
    for text in (welcome, help_):
        assert law.short in text
        for c in law.categories.values():  # every category of the law, by its own label
            assert c.label in text
        assert all(n in text for n in names)
        assert not [f for f in foreign if f in text], text


async def test_the_report_s_prompts_follow_the_city_s_categories(city):
    slug, bot = city
    law = bot.core.law
    await bot.api.send_command(MARIA, "denunciar")
    asked = await said(bot, MARIA, "O que você quer denunciar")
    offered = [b.text for b in bot.api.last_message(MARIA).flat_buttons()]
    assert offered == [c.label for c in law.categories.values()]
    assert "abandonado?" not in asked.text  # not every report is about an abandoned thing
    unplated = next(c for c in law.categories.values() if not c.has_plate)
    await press(bot, MARIA, unplated.label, expect="Envie de 1 a 10 fotos")
    prompt = bot.api.last_message(MARIA).text
    assert f"Tipo: {unplated.label}" in prompt and "placa" not in prompt
    assert "veículo" not in prompt.lower()
    await bot.api.send_photo(MARIA, jpeg(1))
    await said(bot, MARIA, "1 foto recebida")
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    assert "objeto" not in bot.api.last_message(MARIA).text


async def test_dracena_s_street_vendor_report_asks_no_vehicle_question(make_core):  # noqa: F811
    """Dracena Art. 4º: goods of an unlicensed street vendor. The photo prompt asks no plate."""
    core = await make_core("dracena")
    async with BotHarness(core) as bot:
        await bot.api.send_command(MARIA, "denunciar")
        await said(bot, MARIA, "O que você quer denunciar")
        await press(bot, MARIA, "Mercadorias de ambulante", expect="Envie de 1 a 10 fotos")
        assert "placa" not in bot.api.last_message(MARIA).text
