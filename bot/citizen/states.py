"""The citizen's report conversation as a table: state → what the bot expects → next state.

This table is the specification; bot/citizen/report.py implements it and
tests/test_bot_report.py walks it. The state and the draft are stored in the database
(core.services.conversation) in the same transaction as each step's effect, so a restart
continues from the last acknowledged step. Every state also accepts /cancelar (draft dropped),
/ajuda, /status, /minhas and /privacidade (the draft stays), and answers any other input with
a clear Portuguese explanation and the question again."""
from __future__ import annotations

from dataclasses import dataclass

from core.laws.base import Law
from core.services.guidance import citizen_signs

IDLE = "idle"
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


@dataclass(frozen=True)
class Step:
    state: str
    expects: str  # what the bot accepts here
    buttons: tuple[str, ...]  # callback actions valid here ("rep:<draft>:<action>[:arg]")
    next: str  # where the accepted input leads


STATES: tuple[Step, ...] = (
    Step(IDLE, "/denunciar", (), CATEGORY),
    Step(CATEGORY, "a category button (the city's law)", ("cat",), PHOTOS),
    Step(PHOTOS, "1–10 photos, singly or as an album, or images sent as files; 'Pronto'",
         ("done",), LOCATION),
    Step(LOCATION, "a location pin (reply-keyboard button) or a typed address",
         (), "ADDRESS_CONFIRM if typed; else DUPLICATES if open cases nearby; else questions"),
    Step(ADDRESS_CONFIRM, "'Sim, é aqui' or 'Não' (then a pin)", ("addr",),
         "DUPLICATES if open cases nearby, else the first question; 'Não' → LOCATION"),
    Step(DUPLICATES, "'É este' (support that case, done) or 'É outro'", ("dup",),
         "IDLE after 'É este'; else the first question"),
    Step(PLATE, "plate text (validated) or 'Pular' — categories with plates", ("skip",),
         COLOUR),
    Step(COLOUR, "colour text or 'Pular' — vehicles", ("skip",), MAKE_MODEL),
    Step(MAKE_MODEL, "make/model text or 'Pular' — vehicles", ("skip",), TIME_THERE),
    Step(TIME_THERE, "a duration button or text", ("time",), "SIGNS if the law lists signs, "
         "else DESCRIPTION"),
    Step(SIGNS, "toggle buttons for the abandonment signs; 'Continuar'", ("sign", "signs"),
         DESCRIPTION),
    Step(DESCRIPTION, "free text or 'Pular'", ("skip",), SUMMARY),
    Step(SUMMARY, "'Confirmar' (protocol issued, IDLE) or 'Corrigir' (pick a field, answer it "
         "again, back to SUMMARY)", ("ok", "fix"), IDLE),
)
BY_STATE: dict[str, Step] = {s.state: s for s in STATES}

#: Answer states the summary's "Corrigir" can go back to (label shown on the button).
FIXABLE: dict[str, str] = {
    CATEGORY: "Categoria", PHOTOS: "Fotos", LOCATION: "Local", PLATE: "Placa", COLOUR: "Cor",
    MAKE_MODEL: "Marca/modelo", TIME_THERE: "Tempo no local", SIGNS: "Sinais de abandono",
    DESCRIPTION: "Descrição",
}


def questions(law: Law, category: str) -> list[str]:
    """The per-category questions, in order, after the location."""
    cat = law.categories[category]
    seq: list[str] = []
    if cat.has_plate:
        seq.append(PLATE)
    if cat.has_plate or cat.has_chassis:
        seq += [COLOUR, MAKE_MODEL]
    seq.append(TIME_THERE)
    if citizen_signs(law, category):
        seq.append(SIGNS)
    seq += [DESCRIPTION, SUMMARY]
    return seq


def next_question(law: Law, category: str, after: str | None) -> str:
    """The state after answering `after` (None: after the location)."""
    seq = questions(law, category)
    if after is None or after not in seq:
        return seq[0]
    return seq[min(seq.index(after) + 1, len(seq) - 1)]


def button_allowed(state: str, action: str) -> bool:
    step = BY_STATE.get(state)
    return step is not None and action in step.buttons


def mermaid() -> str:
    """The diagram in bot/citizen/README.md, generated from the table."""
    lines = ["stateDiagram-v2", "    [*] --> idle"]
    edges = [
        (IDLE, CATEGORY, "/denunciar"), (CATEGORY, PHOTOS, "categoria"),
        (PHOTOS, PHOTOS, "foto / álbum"), (PHOTOS, LOCATION, "Pronto"),
        (LOCATION, ADDRESS_CONFIRM, "endereço digitado"),
        (LOCATION, LOCATION, "fora da cidade / geocoder fora do ar"),
        (ADDRESS_CONFIRM, LOCATION, "Não"), (ADDRESS_CONFIRM, DUPLICATES, "Sim + casos perto"),
        (LOCATION, DUPLICATES, "pino + casos perto"), (DUPLICATES, IDLE, "É este (apoio)"),
        (DUPLICATES, PLATE, "É outro (veículo)"), (LOCATION, PLATE, "pino, sem casos perto"),
        (ADDRESS_CONFIRM, PLATE, "Sim, sem casos perto"),
        (PLATE, COLOUR, "placa / Pular"), (COLOUR, MAKE_MODEL, "cor / Pular"),
        (MAKE_MODEL, TIME_THERE, "marca/modelo / Pular"),
        (DUPLICATES, TIME_THERE, "É outro (não veículo)"),
        (TIME_THERE, SIGNS, "tempo"), (SIGNS, SIGNS, "marcar sinal"),
        (SIGNS, DESCRIPTION, "Continuar"), (DESCRIPTION, SUMMARY, "texto / Pular"),
        (SUMMARY, IDLE, "Confirmar → protocolo"), (SUMMARY, "fix", "Corrigir"),
    ]
    for a, b, label in edges:
        b_name = "corrigir" if b == "fix" else b.split(":")[-1]
        lines.append(f"    {a.split(':')[-1]} --> {b_name}: {label}")
    lines.append("    corrigir --> summary: campo respondido de novo")
    lines.append("    note right of idle: /cancelar em qualquer estado → idle")
    return "\n".join(lines)
