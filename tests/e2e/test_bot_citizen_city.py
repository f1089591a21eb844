"""Each city speaks its own law: /start, /ajuda and the report's prompts
name the categories of the configured law module — Dracena's ambulantes, animais soltos,
anúncios... (Lei 56/1951, Art. 1º and Art. 4º); Dores do Indaiá's vehicles, chassis, furniture
and machinery (Lei 3.043/2022, Art. 1º) — read from core/laws, never written in bot/."""
from __future__ import annotations

import pytest

from sandbox.harness import BotHarness
from tests.support.bot_chat import MARIA, jpeg, press, said

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
async def city(request, make_core):
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


async def test_dracena_s_street_vendor_report_asks_no_vehicle_question(make_core):
    """Dracena Art. 4º: goods of an unlicensed street vendor. The photo prompt asks no plate."""
    core = await make_core("dracena")
    async with BotHarness(core) as bot:
        await bot.api.send_command(MARIA, "denunciar")
        await said(bot, MARIA, "O que você quer denunciar")
        await press(bot, MARIA, "Mercadorias de ambulante", expect="Envie de 1 a 10 fotos")
        assert "placa" not in bot.api.last_message(MARIA).text


@pytest.mark.parametrize("category", ["Animais soltos", "Mercadorias de ambulante"])
async def test_dracena_vendor_or_loose_animal_is_not_asked_time_in_place(make_core,
                                                                          category):
    """A street vendor or an animal on the loose is not abandoned (Dracena Art. 4º): the
    report asks no "Há quanto tempo" with the 30-day options, and its confirmation says
    nothing was seized yet — not that the goods are still on the street."""
    from tests.support.bot_chat import pin, send_photos, start_report
    core = await make_core("dracena")
    async with BotHarness(core) as bot:
        await start_report(bot, MARIA, category)
        await send_photos(bot, MARIA)
        await press(bot, MARIA, "Pronto", expect="Onde fica")
        await pin(bot, MARIA, *core.law.centre)
        await said(bot, MARIA, "acrescentar alguma informação")
        await bot.api.send_text(MARIA, "Perto da praça")
        summary = await said(bot, MARIA, "Confira sua denúncia")
        assert "Tempo no local" not in summary.text
        done = await press(bot, MARIA, "Confirmar", expect="Protocolo:")
        assert "Nada foi apreendido ainda" in done.text
        assert "continuam na rua" not in done.text
        asked = [m.text or "" for m in bot.api.messages(MARIA)]
        assert not [t for t in asked if "Há quanto tempo" in t or "30 dias" in t]


async def test_dracena_abandoned_thing_is_still_asked_time_in_place(make_core):
    """Abandoned things (Art. 4º: "coisas abandonadas") are still asked how long."""
    from tests.support.bot_chat import pin, send_photos, start_report
    core = await make_core("dracena")
    async with BotHarness(core) as bot:
        await start_report(bot, MARIA, "Outras coisas abandonadas")
        await send_photos(bot, MARIA)
        await press(bot, MARIA, "Pronto", expect="Onde fica")
        await pin(bot, MARIA, *core.law.centre)
        await said(bot, MARIA, "Há quanto tempo")
