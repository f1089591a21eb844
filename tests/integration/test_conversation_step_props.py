"""Properties of the conversation every face walks (core.services.citizens.conversation.step),
over random sequences of what people send — texts, taps on the question shown, pins,
photos — stored as every face stores them: an answer is stored only for the question it
answers (a colour is never kept as the plate, a plate never as the make; the time in place
is typed there or one of its choices), and no report reaches "Confirmar" without a photo and a place (Dores Lei 3.043/2022,
Art. 4º caput: the report is of an object seen at a place)."""
from __future__ import annotations

from datetime import datetime, timezone

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.services.citizens.conversation import step, steps, words
from core.services.citizens.conversation.answers import Refused, Taken
from core.services.citizens.conversation.states import (CATEGORY, COLOUR, DESCRIPTION,
                                                        MAKE_MODEL, PLATE, TIME_THERE)
from tests.support.engine_world import EngineWorld

CENTRE = (-19.4628, -45.6003)
TEXTS = ["ABC1D23", "Prata", "Fiat Uno", "pular", "1", "2", "Mais de 30 dias", "oi", "xyz",
         "Em frente à padaria", "confirmar"]
FIELDS = {PLATE: "plate", COLOUR: "colour", MAKE_MODEL: "make_model",
          TIME_THERE: "time_there", DESCRIPTION: "description"}


TIME_CHOICES = {"Menos de 1 semana", "De 1 semana a 30 dias", "Mais de 30 dias", "Não sei"}


class NoGeocoder:
    async def reverse(self, lat, lon):
        return None

    async def geocode(self, query, area=None):
        return None


inputs = st.lists(st.one_of(
    st.tuples(st.just("text"), st.sampled_from(TEXTS)),
    st.tuples(st.just("tap"), st.integers(0, 12)),  # the n-th choice of the question shown
    st.tuples(st.just("pin"), st.just(0)),
    st.tuples(st.just("photo"), st.integers(0, 3)),
), min_size=1, max_size=40)


async def _walk(core, sent):
    state, d = CATEGORY, {"id": "a1b2c3", "photos": []}
    typed_in: dict[str, set[str]] = {f: set() for f in FIELDS.values()}
    confirmed = None
    for kind, n in sent:
        prompt = step.shown(core, state, d)
        if kind == "text":
            said = step.Said(step.TEXT, text=n)
        elif kind == "tap":
            if not prompt.choices:
                continue
            c = prompt.choices[n % len(prompt.choices)]
            said = step.Said(step.CHOICE, action=c.action, value=c.value or "")
        elif kind == "pin":
            said = step.Said(step.PIN, lat=CENTRE[0], lon=CENTRE[1])
        else:
            sha = f"{n:064x}"
            if not step.takes_photo(core, state, d):
                said = step.Said(step.OTHER)
            else:
                said = step.Said(step.PHOTO, photo={"sha": sha, "mime": "image/jpeg",
                                                    "file_id": None, "unique_id": sha})
        if said.kind == step.TEXT and state in FIELDS:
            typed_in[FIELDS[state]].add(n)
        outcome = await step.take(core, state, d, said, NoGeocoder())
        if isinstance(outcome, Taken):
            d = steps.advance(dict(outcome.draft), state, outcome.state, None)
            state = outcome.state
        elif isinstance(outcome, step.Toggled):
            d = outcome.draft
        elif isinstance(outcome, step.Confirmed):
            confirmed = outcome.draft
            break
        elif outcome is None or isinstance(outcome, (Refused, step.Menu)):
            pass
    return d, typed_in, confirmed


def _check(d, typed_in, confirmed):
    from core.identifiers import normalize_plate
    for field, typed in typed_in.items():
        if field not in d:
            continue
        if field == "time_there":
            assert d[field] in typed or d[field] in TIME_CHOICES, (d, typed_in)
            continue
        if field == "plate":
            assert d["plate"] in {normalize_plate(t).value for t in typed
                                  if _plate(t)}, (d, typed_in)
        else:
            assert d[field] in typed, (field, d, typed_in)
    if confirmed is not None:
        assert confirmed["photos"] and "lat" in confirmed and "category" in confirmed


def _plate(text):
    from core.identifiers import InvalidIdentifier, normalize_plate
    try:
        normalize_plate(text)
        return True
    except InvalidIdentifier:
        return False


def test_an_answer_is_stored_only_for_the_question_it_answers(tmp_path):
    world = EngineWorld("sqlite", tmp_path, datetime(2026, 12, 1, 16, tzinfo=timezone.utc))
    assert set(words.time_options(world.core)) == TIME_CHOICES
    try:
        @settings(max_examples=150, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(sent=inputs)
        def prop(sent):
            _check(*world.run(_walk(world.core, sent)))

        prop()
    finally:
        world.close()
