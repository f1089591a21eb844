"""One bot, two cities (Dores do Indaiá, MG, Lei 3.043/2022; Dracena, SP, Lei 56/1951), end to
end through the Bot API and Nominatim stand-ins: the conversation learns the city (the location
first) before it offers the categories of that city's law, a typed address is looked for in
each city, a point in neither city is refused naming both and keeps what was given, and a
"Corrigir" of the location into the other city asks the category again from that city's list.
Every move is an edge of core/services/citizens/conversation/states.py."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from sandbox.harness import BotHarness
from sandbox.standin.nominatim import Place
from core.storage.models import Case, ConversationState
from tests.support.bot_chat import (MARIA, buttons, jpeg, pin, press, said, send_photos,
                                    until_summary)

pytestmark = pytest.mark.usefixtures("conversation_walk")

DORES = (-19.4628, -45.6003)
DRACENA = (-21.4843, -51.5353)
SAO_PAULO = (-23.5505, -46.6333)
BOTH = "Dores do Indaiá (MG) e Dracena (SP)"


@pytest.fixture
async def two(make_two_cities):
    core = await make_two_cities()
    async with BotHarness(core) as h:
        yield h


def dracena_street(road: str, number: str, lat: float, lon: float) -> Place:
    return Place(f"{road}, {number}", lat, lon,
                 f"{road}, {number}, Centro, Dracena, São Paulo, Região Sudeste, 17900-000, "
                 "Brasil",
                 {"house_number": number, "road": road, "suburb": "Centro", "city": "Dracena",
                  "state": "São Paulo", "ISO3166-2-lvl4": "BR-SP", "postcode": "17900-000",
                  "country": "Brasil", "country_code": "br"})


async def _draft(core) -> tuple[str, dict]:
    async with core.db.read() as s:
        row = (await s.execute(select(ConversationState))).scalar_one()
        return row.state, row.draft


async def test_denunciar_asks_the_place_first_then_that_city_s_categories(two):
    """Dracena Art. 4º: a pin in Dracena offers Dracena's categories (ambulantes, animais
    soltos...), never Dores's; the receipt names the city; a photo sent before the pin is
    kept; a pin in São Paulo is refused naming both cities, the photo still there."""
    h, dracena = two, two.core.for_city("dracena")
    await h.api.send_command(MARIA, "denunciar")
    asked = await said(h, MARIA, "Onde fica?")
    assert BOTH in asked.text and asked.keyboard == "reply"
    await h.api.send_photo(MARIA, jpeg(1))
    await said(h, MARIA, "1 foto recebida para a sua denúncia")
    await h.api.send_location(MARIA, *SAO_PAULO)
    refused = await said(h, MARIA, "fora dos municípios que atendemos")
    assert BOTH in refused.text
    state, draft = await _draft(h.core)
    assert state == "report:location" and len(draft["photos"]) == 1  # nothing lost
    placed = await pin(h, MARIA, *DRACENA)
    assert "Local registrado em Dracena (SP)" in placed.text
    assert "O que você quer denunciar" in placed.text
    assert buttons(h, MARIA) == [c.label for c in dracena.law.categories.values()]
    await press(h, MARIA, "Outras coisas abandonadas", expect="Já recebi 1 foto.")
    await press(h, MARIA, "Pronto", expect="Há quanto tempo")
    summary = await until_summary(h, MARIA)
    assert "Município: Dracena (SP)\nLocal: -21.48430, -51.53530" in summary
    done = await press(h, MARIA, "Confirmar", expect="Protocolo:")
    assert "Denúncia registrada na Prefeitura de Dracena (SP)!" in done.text
    async with h.core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
    assert (case.municipality, case.category) == ("dracena", "abandoned_thing")
    await h.api.send_text(MARIA, case.protocol)
    shown = await said(h, MARIA, f"Protocolo {case.protocol}")
    assert "Município: Dracena (SP)" in shown.text


async def test_a_photo_first_asks_the_place_and_a_pin_first_the_category(two):
    h = two
    await h.api.send_photo(MARIA, jpeg(2))
    first = await said(h, MARIA, "1 foto recebida para a sua denúncia")
    assert "Onde fica?" in first.text and "O que você quer denunciar" not in first.text
    await pin(h, MARIA, *DORES)
    shown = buttons(h, MARIA)
    assert "Móvel de grande porte" in shown and "Animais soltos (semoventes)" not in shown
    await h.api.send_command(MARIA, "cancelar")
    await said(h, MARIA, "Denúncia cancelada")
    await pin(h, MARIA, *DRACENA)  # a pin before /denunciar: as with one city
    shown = buttons(h, MARIA)
    assert "Animais soltos (semoventes)" in shown and "Maquinário" not in shown


async def test_a_typed_address_is_looked_for_in_each_city(two):
    """Without the city's name the address is asked in both cities: found in one, it is that
    city's; found in both, the citizen is asked to say which."""
    h = two
    h.osm.add(dracena_street("Rua Bahia", "500", -21.4850, -51.5340))
    h.osm.add(dracena_street("Rua Getúlio Vargas", "100", -21.4830, -51.5360))
    await h.api.send_command(MARIA, "denunciar")
    await said(h, MARIA, "Onde fica?")
    await h.api.send_text(MARIA, "Rua Getúlio Vargas, 100")
    twice = await said(h, MARIA, "mais de uma cidade")
    assert BOTH in twice.text
    await h.api.send_text(MARIA, "Rua Bahia, 500")
    await said(h, MARIA, "Rua Bahia, 500 — Centro")
    await press(h, MARIA, "Sim, é aqui", expect="O que você quer denunciar")
    assert "Mercadorias de ambulante sem licença" in buttons(h, MARIA)
    state, draft = await _draft(h.core)
    assert state == "report:category" and draft["city"] == "dracena"


async def test_moving_the_place_to_the_other_city_asks_the_category_again(two):
    """A "Corrigir" of the location from Dores into Dracena: Dracena's law has no "Móvel de
    grande porte" (Dores Art. 1º), so the category is asked again from Dracena's list."""
    h = two
    await pin(h, MARIA, *DORES)
    await press(h, MARIA, "Móvel de grande porte", expect="Envie de 1 a 10 fotos")
    await send_photos(h, MARIA)
    await press(h, MARIA, "Pronto", expect="Há quanto tempo")
    await until_summary(h, MARIA)
    await press(h, MARIA, "Corrigir", expect="O que você quer corrigir")
    await press(h, MARIA, "Local", expect="Onde fica")
    again = await pin(h, MARIA, *DRACENA)
    assert "A lei de Dracena (SP) não tem o tipo “Móvel de grande porte”" in again.text
    assert "Mercadorias de ambulante sem licença" in buttons(h, MARIA)
    await press(h, MARIA, "Outras coisas abandonadas", expect="Há quanto tempo")
    summary = await until_summary(h, MARIA)
    assert "Outras coisas abandonadas" in summary and "Fotos: 1" in summary
    await press(h, MARIA, "Confirmar", expect="Dracena (SP)")
    async with h.core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
    assert case.municipality == "dracena"


async def test_start_help_and_privacy_name_both_cities(two):
    h = two
    await h.api.send_command(MARIA, "start")
    hello = await said(h, MARIA, "Atendemos")
    assert f"Atendemos {BOTH}:" in hello.text
    assert "Maquinário" in hello.text and "Animais soltos" in hello.text
    await h.api.send_command(MARIA, "ajuda")
    help_ = await said(h, MARIA, "Como denunciar")
    assert "Lei 56/1951" in help_.text and "Lei 3.043/2022" in help_.text
    await h.api.send_command(MARIA, "privacidade")
    privacy = await said(h, MARIA, "LGPD")
    assert "Encarregados de dados (DPO)" in privacy.text
    assert "Dores do Indaiá (MG):" in privacy.text and "Dracena (SP):" in privacy.text
    # in a report whose place is known: that city's prefeitura only
    await pin(h, MARIA, *DRACENA)
    await h.api.send_command(MARIA, "privacidade")
    own = await said(h, MARIA, "LGPD")
    assert "Quem trata os dados: Prefeitura de Dracena." in own.text
    assert "Lei 56/1951" in own.text and "Dores" not in own.text


# -- the real `python -m bot` process, two cities recorded before it starts -------------------

@pytest.mark.serial  # a real bot process, started within 30 s: alone on the machine
async def test_the_real_bot_process_routes_each_report_by_its_pin(tmp_path):
    """The real `python -m bot` on a database where Dracena was recorded beside Dores before it
    started: its profile and /start name both cities; a report in Dores and one in Dracena,
    each offered its own city's categories and receipted in its city's name; a pin in São
    Paulo (capital) refused naming both."""
    from types import SimpleNamespace

    from core.services.context import Core
    from core.services.installation.municipalities import add_municipality
    from core.settings import Settings
    from tests.support.bot_process import BotProcess

    async with BotProcess.around(tmp_path) as proc:
        setup = await Core.open(Settings(_env_file=None, municipality="dores-do-indaia",
                                         data_dir=tmp_path, database_url=""))
        await add_municipality(setup, "dracena")
        await setup.close()
        await proc.start()
        h = SimpleNamespace(api=proc.api)
        profile = await proc.api.wait_for(method="setMyDescription", since=0)
        assert BOTH in profile.params["description"]
        await proc.api.send_command(MARIA, "start")
        assert f"Atendemos {BOTH}:" in (await said(h, MARIA, "Atendemos")).text
        receipts = {}
        for centre, category, city in ((DORES, "Móvel de grande porte", "Dores do Indaiá (MG)"),
                                       (DRACENA, "Animais soltos (semoventes)", "Dracena (SP)")):
            await proc.api.send_command(MARIA, "denunciar")
            await said(h, MARIA, "Onde fica?")
            placed = await pin(h, MARIA, *centre)
            assert city in placed.text
            offered = buttons(h, MARIA)
            assert category in offered
            assert not {"Móvel de grande porte", "Animais soltos (semoventes)"} <= set(offered)
            await press(h, MARIA, category, expect="Envie de 1 a 10 fotos")
            await send_photos(h, MARIA)
            await press(h, MARIA, "Pronto", expect="")
            await until_summary(h, MARIA)
            done = await press(h, MARIA, "Confirmar", expect="Protocolo:")
            assert f"Denúncia registrada na Prefeitura de {city}!" in done.text
            receipts[city] = done.text
        await proc.api.send_location(MARIA, *SAO_PAULO)
        refused = await said(h, MARIA, "fora dos municípios")
        assert BOTH in refused.text
        print("\n\n".join(f"[{c.method}] {c.text}" for c in proc.api.sent(MARIA)
                          if c.text))  # read as a citizen would: pytest -s
