"""The docs tell the truth about the citizen's conversation (docs/flows/citizen.md and
bot/citizen/README.md): its diagram and table are the
rendering of core/services/citizens/conversation/states.py (docs/conversation.py), the table the bot runs on, and the
bot, walked end to end, moves only along that table's edges (tests/support/conversation_walk.py)."""
from __future__ import annotations

import pytest

from core.services.citizens.conversation import step
from core.services.citizens.conversation.states import (CATEGORY, FIX, FIXABLE, LOCATION, STATES, SUMMARY,
                                questions)
from core.laws import registry
from docs.conversation import ROOT, edges, render
from tests.support.conversation_walk import TABLE
from tests.support.bot_chat import MARIA, pin, press, said, send_photos, start_report

CATEGORIES = [(law, code) for law in registry().values() for code in law.categories]


@pytest.mark.parametrize("path", ["docs/flows/citizen.md", "bot/citizen/README.md"])
def test_readme_shows_the_conversation_the_bot_runs(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    assert render() in text, f"{path}: the conversation is stale: run `python -m docs.conversation`"


@pytest.mark.parametrize("law,category", CATEGORIES,
                         ids=[f"{law.slug}:{code}" for law, code in CATEGORIES])
def test_every_category_s_questions_follow_the_table_s_edges(law, category):
    """The questions asked after the location (ordered by the table) for each category of both
    laws: from the location to the first one, then one to the next, are edges of the table."""
    seq = questions(law, category)
    assert seq[-1] == SUMMARY
    assert (LOCATION, seq[0]) in TABLE and (CATEGORY, seq[0]) in TABLE
    for a, b in zip(seq, seq[1:]):
        assert (a, b) in TABLE, f"{law.slug}/{category}: {a} → {b} is not in the table"


def test_no_edge_between_questions_that_no_category_takes():
    """The diagram shows no path that no category of either law can take."""
    asked = {s.state for s in STATES if s.asked is not None}
    taken = {(a, b) for law, code in CATEGORIES
             for a, b in zip(questions(law, code), questions(law, code)[1:])}
    between = {(a, b) for a, b in TABLE if a in asked and b in asked and a != b}
    assert between <= taken
    firsts = {questions(law, code)[0] for law, code in CATEGORIES}
    assert {b for a, b in TABLE if a == LOCATION and b in asked} == firsts


def test_every_button_the_bot_answers_is_in_the_table_and_back():
    in_table = {b for s in STATES for b in s.buttons}
    assert in_table == set(step.ACTIONS)  # each taken by the core, for every face
    assert set(FIXABLE) <= {s.state for s in STATES} and (SUMMARY, FIX) in TABLE


def test_the_diagram_has_one_line_per_edge():
    from docs.conversation import mermaid
    assert len(mermaid().splitlines()) == len(edges()) + 3  # header, [*], the /cancelar note


async def test_a_chassis_without_plate_is_asked_its_colour_art_1_caput(bot,
                                                                         conversation_walk):
    """Dores Art. 1º, caput: "chassis" are objects of the law. A chassis has no plate: after the
    location the bot asks the colour (an edge the old hand-drawn diagram lacked); then the
    category is corrected to a piece of furniture and the vehicle questions fall away."""
    await start_report(bot, MARIA, "Chassi ou carroceria")
    await send_photos(bot, MARIA)
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    await pin(bot, MARIA)
    await said(bot, MARIA, "Qual é a cor")
    await bot.api.send_text(MARIA, "azul")
    await said(bot, MARIA, "marca e o modelo")
    await press(bot, MARIA, "Pular", expect="Há quanto tempo")
    await press(bot, MARIA, "Não sei", expect="sinais de abandono")
    await press(bot, MARIA, "Continuar", expect="acrescentar")
    await press(bot, MARIA, "Pular", expect="Confira sua denúncia")
    await press(bot, MARIA, "Corrigir", expect="O que você quer corrigir")
    await press(bot, MARIA, "Categoria", expect="O que você quer denunciar")
    await press(bot, MARIA, "Móvel de grande porte", expect="Há quanto tempo")
    moves = list(conversation_walk)
    assert ("report:location", "report:colour", False) in moves
    assert ("report:category", "report:time_there", True) in moves
