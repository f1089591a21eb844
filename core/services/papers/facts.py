"""Pieces of the legal documents read from the recorded facts (core.services.papers.documents):
the moment a step issued its document (a re-issue prints it as it was), the termo's evidence
list, the Dracena auto's moment, fine and seized goods."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.documents import data as D
from core.formatting import TZ
from core.identifiers import InvalidIdentifier, format_plate
from core.laws.common import as_moment
from core.services.cases.transitions import case_facts
from core.services.context import Core
from core.services.errors import InvalidInput
from core.storage.models import Case, Evidence
from core.storage.timeline import ActorRef

#: The inspection fact of earlier versions holding make, model, colour and description as one
#: text the inspector confirmed; still read for the cases that have it (OBSERVAÇÕES), and the
#: inspector's own description of a piece of furniture or machinery (Dores Art. 5º, I).
REVIEWED = "reviewed_vehicle"
#: The boxes of DADOS DO VEÍCULO (Dores Anexo I; Art. 4º, II, b: "qualquer dado que identifique
#: o veículo"), each a fact the inspector confirms, corrects or fills at the inspection
#: (core.services.inspectors.step_forms): make, model and colour start from the citizen's answers; the
#: rest only the inspector fills, when known (the vehicle's papers, the plate's municipality).
MAKE, MODEL, COLOUR = "vehicle_make", "vehicle_model", "vehicle_colour"
CHASSIS, RENAVAM = "vehicle_chassis", "vehicle_renavam"
PLATE_MUNICIPALITY, PLATE_UF = "plate_municipality", "plate_uf"
VEHICLE_BOXES = (MAKE, MODEL, COLOUR, CHASSIS, RENAVAM, PLATE_MUNICIPALITY, PLATE_UF)


@dataclass(frozen=True)
class Recorded:
    """What a step recorded when it issued its document (core.services.papers.reissue): the state it
    led to, the deadline it started and its moment; a re-issue prints the document as it was."""

    state: str
    deadline: dict[str, Any] | None
    at: datetime
    signer: ActorRef | None = None  # who signed the original (a re-issue keeps him)


def issued_for(core: Core, case: Case, recorded: Recorded | None
           ) -> tuple[str, dict[str, Any] | None, datetime]:
    """(state, deadline, moment) the document is issued for: now, or the recorded step."""
    if recorded is None:
        return case.state, case.deadline_json, core.now().astimezone(TZ)
    at = recorded.at if recorded.at.tzinfo else recorded.at.replace(tzinfo=timezone.utc)
    return recorded.state, recorded.deadline, at.astimezone(TZ)


async def evidence_labels(s: AsyncSession, case: Case, hashes: list) -> tuple[D.Evidence, ...]:
    """The termo's list of the removal evidence (Art. 6º, I, a: "fotografado ou filmado"):
    "foto 1", "vídeo 1", ... with each file's SHA-256."""
    kinds = dict((await s.execute(select(Evidence.sha256, Evidence.kind).where(
        Evidence.case_id == case.id, Evidence.sha256.in_([str(h) for h in hashes])))).all())
    counts: dict[str, int] = {}
    out = []
    for h in hashes:
        label = "vídeo" if kinds.get(str(h)) == "video" else "foto"
        counts[label] = counts.get(label, 0) + 1
        out.append(D.Evidence(f"{label} {counts[label]}", str(h)))
    return tuple(out)


def local_moment(value: Any, default: datetime) -> datetime:
    when = as_moment(value) or default
    if not isinstance(when, datetime):
        when = datetime.combine(when, datetime.min.time(), TZ)
    return when.replace(tzinfo=TZ) if when.tzinfo is None else when.astimezone(TZ)


def fine_of(facts: dict[str, Any]) -> Decimal:
    try:
        return Decimal(str(facts.get("fine_amount")).replace(",", "."))
    except InvalidOperation:
        raise InvalidInput("Valor da multa inválido.") from None


def seized_items(text: Any) -> tuple[D.SeizedItem, ...]:
    """The goods as typed by the agent, one item per line or per ";"."""
    if isinstance(text, (list, tuple)):
        parts = [str(p) for p in text]
    else:
        parts = str(text or "").replace("\n", ";").split(";")
    return tuple(D.SeizedItem(p.strip()) for p in parts if p.strip())


def object_data(core: Core, case: Case) -> D.ObjectData:
    """What a legal document says of the object: every box from the facts the inspector
    recorded at the inspection (the citizen's make, model and colour as confirmed or
    corrected, the chassis, RENAVAM and the plate's municipality/UF when known); the
    citizen's free description never (a free text is not a reviewed fact). A piece of
    furniture or machinery is its kind, with the inspector's description (Dores Art. 5º, III:
    "as características do bem móvel"). The plate is written by core.identifiers.format_plate."""
    facts = case_facts(case)
    category = core.for_case(case).law.categories[case.category]
    is_vehicle = "vehicle" in case.track

    def fact(name: str) -> str:
        return " ".join(str(facts.get(name) or "").split())

    if not is_vehicle:
        described = fact("item_description") or fact(REVIEWED)
        description = f"{category.label} — características: {described}" if described \
            else category.label
        return D.ObjectData(plate=plate_text(case.plate), description=description,
                            is_vehicle=False)
    boxes = {name: fact(name) for name in VEHICLE_BOXES}
    # A case reviewed before the boxes were asked keeps its one confirmed text.
    legacy = "" if any(boxes.values()) else fact(REVIEWED)
    return D.ObjectData(plate=plate_text(case.plate), municipality=boxes[PLATE_MUNICIPALITY],
                        uf=boxes[PLATE_UF].upper(), make=boxes[MAKE], model=boxes[MODEL],
                        colour=boxes[COLOUR], chassis=boxes[CHASSIS] or (case.chassis or ""),
                        renavam=boxes[RENAVAM], description=legacy, is_vehicle=True)


def plate_text(plate: str | None) -> str:
    """A plate as printed everywhere: "ABC-1234", "ABC1D23" (core.identifiers)."""
    if not plate:
        return ""
    try:
        return format_plate(plate)
    except InvalidIdentifier:
        return plate
