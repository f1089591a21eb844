"""The citizen's report conversation as a table: state → what the bot expects → next state.

This table is the specification; bot/citizen/report.py (with prompts, photos, location and
answers beside it) implements it and
tests/e2e/test_bot_report.py walks it. The state and the draft are stored in the database
(core.services.messaging.conversation) in the same transaction as each step's effect, so a restart
continues from the last acknowledged step. Every state also accepts /cancelar (draft dropped),
/ajuda, /status, /minhas and /privacidade (the draft stays), and answers any other input with
a clear Portuguese explanation and the question again; a protocol number typed alone is
/status. After /ajuda, /minhas, /status or /privacidade the pending question is asked again.

The pin decides the city (core.city_at): the report goes to that city's prefeitura, under its
law and with its categories. With ONE city served the category comes first. With several, the
conversation learns the city before it offers categories: /denunciar (or a photo sent first)
asks for the location, then the category of that city's law; a pin sent first works as with
one city. A category the pin's city has not (a "Corrigir" of the location into another city)
is asked again from that city's list."""
from __future__ import annotations

from dataclasses import dataclass

from core.laws.base import Law
from core.services.citizens.questions import (ALWAYS, LASTING, PLATED, SIGNED, VEHICLE,
                                            asked_when)

IDLE = "idle"
PREFIX = "report:"  # every state of the report conversation
FOLLOWUP = "followup:"  # the reporter's answer after the closing (bot/citizen/followup.py)
FOLLOWUP_PHOTO = "followup:photo"  # photos of the place after "Não, continua lá"
CATEGORY = "report:category"
PHOTOS = "report:photos"
LOCATION = "report:location"
ADDRESS_CONFIRM = "report:address_confirm"
DUPLICATES = "report:duplicates"
PLATE = "report:plate"
COLOUR = "report:colour"
MAKE_MODEL = "report:make_model"
TIME_THERE = "report:time_there"
SIGNS = "report:signs"
DESCRIPTION = "report:description"
SUMMARY = "report:summary"


#: Pseudo-state of the diagram: "Corrigir" on the summary reopens one answer (FIXABLE), and
#: that answer, given again, leads back to the summary.
FIX = "corrigir"

#: When a question is asked (Step.asked), by the category the citizen chose: ALWAYS, PLATED,
#: VEHICLE, SIGNED, LASTING (core.services.citizens.questions).


@dataclass(frozen=True)
class Edge:
    to: str  # a state, or FIX
    on: str  # Portuguese: what the citizen did (the diagram's label)


@dataclass(frozen=True)
class Step:
    state: str
    expects: str  # what the bot accepts here
    buttons: tuple[str, ...]  # actions valid here (Telegram: "rep:<draft>.<n>:<action>[:arg]")
    edges: tuple[Edge, ...]  # where the accepted input leads
    asked: str | None = None  # a question after the location: when it is asked (ALWAYS, ...)


def _e(*pairs: tuple[str, str]) -> tuple[Edge, ...]:
    return tuple(Edge(to, on) for to, on in pairs)


#: The conversation. Its order is the order of the questions (questions()); its buttons are
#: the only ones accepted (button_allowed()); the diagram in the README and in
#: bot/citizen/README.md is drawn from it (docs/conversation.py) and
#: tests/e2e/test_conversation_doc.py checks that the bot moves only along its edges.
STATES: tuple[Step, ...] = (
    Step(IDLE, "/denunciar, or a photo or a pin sent first (the report starts with it)", (),
         _e((CATEGORY, "/denunciar"), (CATEGORY, "foto ou pino antes de /denunciar"),
            (LOCATION, "/denunciar ou foto antes (várias cidades: o local primeiro)"))),
    Step(CATEGORY, "a category button (the law of the pin's city); photos and a pin sent "
         "meanwhile are kept", ("cat",),
         _e((CATEGORY, "foto / pino antes do tipo"), (PHOTOS, "categoria"),
            (DUPLICATES, "categoria corrigida + casos perto"),
            (PLATE, "categoria corrigida (com placa)"),
            (COLOUR, "categoria corrigida (chassi, sem placa)"),
            (TIME_THERE, "categoria corrigida (não veículo)"),
            (DESCRIPTION, "categoria corrigida (ambulante, animal)"))),
    Step(PHOTOS, "1–10 photos, singly or as an album, or images sent as files; 'Pronto'",
         ("done",), _e((PHOTOS, "foto / álbum"), (LOCATION, "Pronto"),
                       (DUPLICATES, "Pronto (pino já enviado) + casos perto"),
                       (PLATE, "Pronto (pino já enviado, com placa)"),
                       (COLOUR, "Pronto (pino já enviado, chassi sem placa)"),
                       (TIME_THERE, "Pronto (pino já enviado, não veículo)"),
                       (DESCRIPTION, "Pronto (pino já enviado, ambulante, animal)"))),
    Step(LOCATION, "a location pin (reply-keyboard button) or a typed address; with several "
         "cities and no category yet, photos sent meanwhile are kept", (),
         _e((ADDRESS_CONFIRM, "endereço digitado"),
            (LOCATION, "fora das cidades / endereço não encontrado / foto (várias cidades)"),
            (CATEGORY, "pino (várias cidades: tipo a escolher, ou que a cidade não tem)"),
            (DUPLICATES, "pino + casos perto"), (PLATE, "pino (com placa)"),
            (COLOUR, "pino (chassi, sem placa)"), (TIME_THERE, "pino (não veículo)"),
            (DESCRIPTION, "pino (ambulante, animal)"))),
    Step(ADDRESS_CONFIRM, "'Sim, é aqui' or 'Não' (then a pin)", ("addr",),
         _e((LOCATION, "Não"), (CATEGORY, "Sim (várias cidades: tipo a escolher)"),
            (DUPLICATES, "Sim + casos perto"),
            (PLATE, "Sim (com placa)"), (COLOUR, "Sim (chassi, sem placa)"),
            (TIME_THERE, "Sim (não veículo)"), (DESCRIPTION, "Sim (ambulante, animal)"))),
    Step(DUPLICATES, "'É este' (support that case, done) or 'É outro'", ("dup",),
         _e((IDLE, "É este (apoio ao caso)"), (PLATE, "É outro (com placa)"),
            (COLOUR, "É outro (chassi, sem placa)"), (TIME_THERE, "É outro (não veículo)"),
            (DESCRIPTION, "É outro (ambulante, animal)"))),
    Step(PLATE, "plate text (validated) or 'Pular'", ("skip",),
         _e((COLOUR, "placa / Pular")), PLATED),
    Step(COLOUR, "colour text or 'Pular'", ("skip",),
         _e((MAKE_MODEL, "cor / Pular")), VEHICLE),
    Step(MAKE_MODEL, "make/model text or 'Pular'", ("skip",),
         _e((TIME_THERE, "marca/modelo / Pular")), VEHICLE),
    Step(TIME_THERE, "a duration button or text", ("time",),
         _e((SIGNS, "tempo (a lei lista sinais)"), (DESCRIPTION, "tempo")), LASTING),
    Step(SIGNS, "toggle buttons for the abandonment signs; 'Continuar'", ("sign", "signs"),
         _e((SIGNS, "marcar sinal"), (DESCRIPTION, "Continuar")), SIGNED),
    Step(DESCRIPTION, "free text or 'Pular'", ("skip",),
         _e((SUMMARY, "texto / Pular")), ALWAYS),
    Step(SUMMARY, "'Confirmar' (protocol issued) or 'Corrigir' (pick a field, answer it "
         "again, back to the summary)", ("ok", "fix"),
         _e((IDLE, "Confirmar → protocolo"), (FIX, "Corrigir")), ALWAYS),
)
#: After "Corrigir": the answer given again leads back to the summary.
FIX_EDGES = _e((SUMMARY, "campo respondido de novo"))
#: Every state: /cancelar drops the draft.
ANYWHERE_EDGES = _e((IDLE, "/cancelar"))
BY_STATE: dict[str, Step] = {s.state: s for s in STATES}

#: Answer states the summary's "Corrigir" can go back to (label shown on the button).
FIXABLE: dict[str, str] = {
    CATEGORY: "Categoria", PHOTOS: "Fotos", LOCATION: "Local", PLATE: "Placa", COLOUR: "Cor",
    MAKE_MODEL: "Marca/modelo", TIME_THERE: "Tempo no local", SIGNS: "Sinais de abandono",
    DESCRIPTION: "Descrição",
}


def questions(law: Law, category: str) -> list[str]:
    """The per-category questions after the location, in the table's order (Step.asked; which
    are asked is core's rule, core.services.citizens.questions, shared with the panel)."""
    return [s.state for s in STATES
            if s.asked is not None and asked_when(law, category, s.asked)]


def next_question(law: Law, category: str, after: str | None) -> str:
    """The state after answering `after` (None: after the location)."""
    seq = questions(law, category)
    if after is None or after not in seq:
        return seq[0]
    return seq[min(seq.index(after) + 1, len(seq) - 1)]


def button_allowed(state: str, action: str) -> bool:
    step = BY_STATE.get(state)
    return step is not None and action in step.buttons
