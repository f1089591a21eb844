"""Texts per track and state: in every state of every track of both laws, the owner and the
citizen are told where the object is — on the street, on its way, in the depot (Dores Art. 4º,
5º and 6º; Dracena Art. 4º and 6º) — and what comes next on that track, citing the article.
A state code can mean the street in one track and the depot in another ("published": Dores
Art. 4º, II, b for vehicles still on the street; Art. 5º, III for furniture already removed)."""
from __future__ import annotations

import pytest

from core.laws import get_law
from core.services.owners import owner_next_step
from core.services.citizens.case_status import citizen_situation

STREET, DEPOT = ("na rua",), ("no pátio", "no depósito")
MOVING = ("sendo removido", "sendo levado")


def _states():
    for slug in ("dores-do-indaia", "dracena"):
        law = get_law(slug)
        for track, lc in law.tracks.items():
            for state in lc.states.values():
                yield pytest.param(law, track, state, id=f"{slug}-{track}-{state.code}")


def _where(law, track, state) -> str:
    return law.state_text(track, state.code).where


@pytest.mark.parametrize("law, track, state", list(_states()))
def test_owner_and_citizen_are_told_where_it_is_and_what_comes_next(law, track, state):
    owner = owner_next_step(law, track, state, is_open=True)
    citizen = citizen_situation(law, track, state.code)
    if state.final:
        assert owner.startswith("Caso encerrado.") and state.label in owner
        return
    text = law.state_text(track, state.code)
    assert text is not None, f"{law.slug}/{track}/{state.code} has no text"
    where = text.where.lower()
    assert owner.startswith(text.where) and citizen.startswith(text.where)
    if state.in_public_space:
        assert any(w in where for w in STREET) and not any(w in where for w in DEPOT)
    elif state.in_depot:
        assert any(w in where for w in DEPOT) and not any(w in where for w in STREET)
    else:  # on its way, sold, or nothing seized: neither on the street nor in the depot
        assert not any(w in where for w in STREET + DEPOT) or any(w in where for w in MOVING)
    for told in (owner, citizen):  # what comes next, with its article
        assert len(told) > len(text.where) + 20 and "Art. " in told[len(text.where):]


def test_a_published_vehicle_is_on_the_street_and_published_furniture_in_the_depot():
    """The bug this replaces: NEXT_BY_STATE keyed by state alone told the owner of a vehicle
    whose notice was published (Art. 4º, II, b) that it was in the depot."""
    law = get_law("dores-do-indaia")
    vehicle = law.tracks["dores_vehicle"].state("published")
    furniture = law.tracks["dores_furniture"].state("published")
    assert "na rua" in owner_next_step(law, "dores_vehicle", vehicle, True)
    assert "depósito" not in _where(law, "dores_vehicle", vehicle)
    assert "no depósito" in owner_next_step(law, "dores_furniture", furniture, True)


def test_each_track_words_its_own_next_step():
    """The same state code on two tracks of one law says what comes next on that track."""
    for slug in ("dores-do-indaia", "dracena"):
        law = get_law(slug)
        tracks = list(law.tracks)
        shared = set(law.tracks[tracks[0]].states) & set(law.tracks[tracks[1]].states)
        for code in shared:
            a, b = (law.state_text(t, code) for t in tracks)
            if a is not None and b is not None:
                assert a.for_citizen() != b.for_citizen(), f"{slug}/{code}"


async def test_the_owner_is_told_where_the_vehicle_is_when_it_moves_art_6(core, photo):
    """A case update tells the linked owner where the object is and what comes next on its
    track: the lapsed notice leaves the vehicle on the street, removal authorised (Art. 6º)."""
    from core.services.cases.transitions import apply_transition
    from core.services.owners import link_by_code
    from core.storage.timeline import ActorRef
    from tests.support.owner_cases import OWNER, notified, outbox_for
    sub = await notified(core, photo)
    await link_by_code(core, OWNER, sub.case_code)
    await apply_transition(core, sub.protocol, "lapse_deadline", ActorRef("system"))
    [msg] = await outbox_for(core, OWNER)
    assert "O que acontece agora: O veículo continua na rua, e a remoção ao pátio está " \
           "autorizada (Art. 6º, caput)." in msg.payload["text"]
    assert "Art. 6º, §3º" in msg.payload["text"]  # what the owner can still do
