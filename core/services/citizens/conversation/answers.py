"""What the report conversation understands from the answers after the location: the plate,
colour, make/model, time in place, the abandonment signs and the description — typed, skipped
or chosen. Each function takes the draft and what the person gave, and says either what was
understood (`Taken`: the draft to store and the next state) or why not (`Refused`: the
Portuguese answer, nothing stored). A face renders either; it decides neither."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.identifiers import InvalidIdentifier, normalize_plate
from core.services.citizens.conversation import words
from core.services.citizens.conversation.prompts import SKIP, Prompt, city_core
from core.services.citizens.conversation.states import (COLOUR, DESCRIPTION, MAKE_MODEL, PLATE,
                                                        SIGNS, SUMMARY, TIME_THERE,
                                                        next_question)
from core.services.citizens.guidance import citizen_signs
from core.services.citizens.reports import MAX_TEXT
from core.services.context import Core

SHORT_TEXT = 120  # colour, make/model, how long

#: The draft's key of each typed answer.
FIELDS = {PLATE: "plate", COLOUR: "colour", MAKE_MODEL: "make_model",
          TIME_THERE: "time_there", DESCRIPTION: "description"}


@dataclass(frozen=True)
class Taken:
    draft: dict[str, Any]
    state: str  # the next state (its question is asked next)
    said: str = ""  # an acknowledgement shown above the question ("📍 Local registrado: …")
    prompt: Prompt | None = None  # the state's question worded for this moment instead


@dataclass(frozen=True)
class Refused:
    text: str  # Portuguese: why, and what to send instead
    again: bool = True  # ask the question again after it
    prompt: Prompt | None = None  # the answer carries its own choices instead


def after(core: Core, d: dict[str, Any], answered: str) -> str:
    """The state after answering `answered`: back to the summary when correcting one
    answer, otherwise the category's next question."""
    if d.get("fixing"):
        return SUMMARY
    return next_question(city_core(core, d).law, d["category"], answered)


def _next(core: Core, d: dict[str, Any], answered: str) -> Taken:
    state = after(core, d, answered)
    d.pop("fixing", None)
    return Taken(d, state)


def typed(core: Core, d: dict[str, Any], state: str, text: str | None) -> Taken | Refused:
    """A text typed for the question of `state` (PLATE, COLOUR, MAKE_MODEL, TIME_THERE or
    DESCRIPTION)."""
    text = (text or "").strip()
    if not text:
        return Refused(words.NEED_TEXT)
    if state == PLATE:
        try:
            plate = normalize_plate(text)
        except InvalidIdentifier as exc:
            return Refused("", again=False, prompt=Prompt(
                f"{exc} Confira e envie de novo, ou toque em Pular.", ((SKIP,),)))
        return _next(core, dict(d, plate=plate.value), PLATE)
    limit = MAX_TEXT if state == DESCRIPTION else SHORT_TEXT
    if len(text) > limit:
        return Refused(words.TOO_LONG.format(n=limit), again=False)
    return _next(core, dict(d, **{FIELDS[state]: text}), state)


def skipped(core: Core, d: dict[str, Any], state: str) -> Taken:
    """"Pular": the question of `state` left unanswered (an earlier answer to it dropped)."""
    d = dict(d)
    d.pop(FIELDS[state], None)
    return _next(core, d, state)


def time_chosen(core: Core, d: dict[str, Any], index: str) -> Taken | None:
    """One of the time-in-place options, by its index (None: not one of them)."""
    options = words.time_options(city_core(core, d))
    if not index.isdigit() or int(index) >= len(options):
        return None
    return _next(core, dict(d, time_there=options[int(index)]), TIME_THERE)


def sign_toggled(core: Core, d: dict[str, Any], code: str) -> tuple[dict[str, Any], bool] | None:
    """An abandonment sign marked or unmarked: the draft, and whether it is marked now (None:
    not a sign the law lists for this category). The signs stay in the law's order."""
    law = city_core(core, d).law
    if code not in {c.code for c in citizen_signs(law, d["category"])}:
        return None
    signs = list(d.get("signs", []))
    signs.remove(code) if code in signs else signs.append(code)
    return dict(d, signs=[c.code for c in law.criteria if c.code in signs]), code in signs


def signs_done(core: Core, d: dict[str, Any]) -> Taken:
    """"Continuar" after the signs."""
    return _next(core, dict(d), SIGNS)
