"""The questions a report asks after the location, by category: one text for every channel
(the bot's conversation, core/services/citizens/conversation/states.py and
core.services.citizens.conversation.guide, and the panel's counter intake).

Which are asked follows the category (core.laws): the plate only where the category has one,
colour and make/model for vehicles, the abandonment signs where the law module lists signs
for citizens (core.services.citizens.guidance.citizen_signs); time in place where it means something
(Category.time_in_place: abandonment, not a street vendor or a loose animal); the description
always.
"""
from __future__ import annotations

from dataclasses import dataclass

from core.laws.base import Criterion, Law
from core.services.citizens.guidance import citizen_signs

ALWAYS, PLATED, VEHICLE, SIGNED, LASTING = "always", "plate", "vehicle", "signs", "lasting"


@dataclass(frozen=True)
class Question:
    field: str  # core.services.citizens.reports.ReportIn field
    label: str  # short Portuguese label (summary, panel form)
    prompt: str  # the question, in Portuguese
    asked: str  # when: ALWAYS, PLATED, VEHICLE, SIGNED, LASTING


PLATE = Question("plate", "Placa", "Qual é a placa? (ex.: ABC1D23 ou ABC-1234).", PLATED)
COLOUR = Question("colour", "Cor", "Qual é a cor?", VEHICLE)
MAKE_MODEL = Question("make_model", "Marca/modelo", "Qual é a marca e o modelo? (ex.: VW Gol)",
                      VEHICLE)
TIME_THERE = Question("time_there", "Tempo no local", "Há quanto tempo está nesse lugar?",
                      LASTING)
SIGNS = Question("signs", "Sinais de abandono", "Marque os sinais de abandono que você vê",
                 SIGNED)
DESCRIPTION = Question("description", "Descrição",
                       "Quer acrescentar alguma informação? (ex.: ponto de referência, se "
                       "atrapalha a passagem).", ALWAYS)
#: In the order they are asked.
QUESTIONS: tuple[Question, ...] = (PLATE, COLOUR, MAKE_MODEL, TIME_THERE, SIGNS, DESCRIPTION)


def time_options(law: Law) -> tuple[str, ...]:
    """How long it has been there, with no gap between the options: the middle one ends where
    the law's "mais de 30 (trinta) dias" begins (Dores Art. 1º, caput: the law's
    minimum_days_in_place setting when it has one; 30 otherwise)."""
    days = law.settings.get("minimum_days_in_place")
    n = days.value if days is not None else 30
    return ("Menos de 1 semana", f"De 1 semana a {n} dias", f"Mais de {n} dias", "Não sei")


def asked_when(law: Law, category: str, when: str) -> bool:
    """Is a question asked `when` (ALWAYS, PLATED, VEHICLE, SIGNED, LASTING) asked for
    `category`. LASTING: only where time in place means something to the law
    (Category.time_in_place: not a street vendor nor an animal on the loose)."""
    cat = law.categories[category]
    return {ALWAYS: True, PLATED: cat.has_plate, VEHICLE: cat.has_plate or cat.has_chassis,
            SIGNED: bool(citizen_signs(law, category)), LASTING: cat.time_in_place}[when]


def is_asked(law: Law, category: str, question: Question) -> bool:
    return asked_when(law, category, question.asked)


def questions_for(law: Law, category: str) -> list[Question]:
    """The questions asked for `category`, in order (an unknown category: none)."""
    if category not in law.categories:
        return []
    return [q for q in QUESTIONS if is_asked(law, category, q)]


def signs_for(law: Law, category: str) -> tuple[Criterion, ...]:
    return citizen_signs(law, category)
