"""The report conversation's questions, decided once in the core for every face
(core.services.citizens.conversation.prompts): each state's choices are exactly actions the
state table accepts there, so whatever a face renders is an answer the conversation takes;
and a face without buttons can show any question as numbered lines and read the answer back
by number or by the choice's words."""
from __future__ import annotations

import pytest

from core.laws import get_law
from core.services.citizens.conversation import prompts, states
from core.services.citizens.conversation.states import BY_STATE

ASKED = [s.state for s in states.STATES if s.state != states.IDLE]


def _draft(category: str) -> dict:
    return {"id": "a1b2c3", "step": 4, "category": category, "lat": -19.4603, "lon": -45.6022,
            "address": "Rua Principal, 100 — Centro",
            "photos": [{"sha": "0" * 64, "mime": "image/jpeg", "file_id": "f", "unique_id": "u"}],
            "plate": "ABC1D23", "colour": "prata", "signs": [],
            "pending": {"lat": -19.46, "lon": -45.60, "address": "Rua Principal, 100",
                        "neighbourhood": "Centro", "typed": "rua principal 100",
                        "city": None},
            "candidates": [{"protocol": "2026-000007", "address": "Rua Principal, 90",
                            "photo": None, "state": "open", "situation": None,
                            "distance": 40.0, "category": "Veículo"}]}


@pytest.mark.parametrize("slug", ["dores-do-indaia", "dracena"])
async def test_every_question_offers_only_answers_its_state_takes(make_core, slug):
    core = await make_core(slug)
    for category in get_law(slug).categories:
        d = _draft(category)
        for state in ASKED:
            p = prompts.question(core, d, state)
            assert p.text.strip(), (category, state)
            taken = set(BY_STATE[state].buttons)
            assert {c.action for c in p.choices} <= taken, (category, state)
            labels = [c.label for c in p.choices]
            assert len(labels) == len(set(labels)), (category, state)  # told apart by words
            assert p.location == (state == states.LOCATION)


@pytest.mark.parametrize("slug", ["dores-do-indaia", "dracena"])
async def test_a_question_as_numbered_lines_is_read_back_by_number_or_words(make_core, slug):
    core = await make_core(slug)
    for category in get_law(slug).categories:
        for state in ASKED:
            p = prompts.question(core, _draft(category), state)
            shown = prompts.numbered(p)
            for i, choice in enumerate(p.choices, 1):
                assert f"{i}. {choice.label}" in shown
                assert prompts.chosen(p, f" {i} ") == choice
                assert prompts.chosen(p, choice.label.upper()) == choice
            assert prompts.chosen(p, str(len(p.choices) + 1)) is None
            assert prompts.chosen(p, "qualquer coisa") is None


async def test_the_summary_reads_back_every_answer(make_core):
    core = await make_core()
    d = dict(_draft("motor_vehicle"), description="Em frente à padaria")
    text = prompts.summary(core, d)
    assert "Tipo: Veículo motorizado" in text and "Placa: ABC1D23" in text
    assert "Cor: prata" in text and "Descrição: Em frente à padaria" in text
    assert "Fotos: 1" in text and "Rua Principal, 100" in text
