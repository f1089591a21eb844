"""Pieces of the legal documents read from the recorded facts (core.services.documents):
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
from core.services.cases import case_facts
from core.services.context import Core
from core.services.errors import InvalidInput
from core.storage.models import Case, Evidence
from core.storage.timeline import ActorRef

#: The inspection fact holding make, model, colour and description as the inspector confirmed
#: or corrected them on site (core.services.step_forms asks it with the citizen's words).
REVIEWED = "reviewed_vehicle"


@dataclass(frozen=True)
class Recorded:
    """What a step recorded when it issued its document (core.services.reissue): the state it
    led to, the deadline it started and its moment; a re-issue prints the document as it was."""

    state: str
    deadline: dict[str, Any] | None
    at: datetime
    signer: ActorRef | None = None  # who signed the original (a re-issue keeps him)


def _as_of(core: Core, case: Case, recorded: Recorded | None
           ) -> tuple[str, dict[str, Any] | None, datetime]:
    """(state, deadline, moment) the document is issued for: now, or the recorded step."""
    if recorded is None:
        return case.state, case.deadline_json, core.now().astimezone(TZ)
    at = recorded.at if recorded.at.tzinfo else recorded.at.replace(tzinfo=timezone.utc)
    return recorded.state, recorded.deadline, at.astimezone(TZ)


async def _evidence_labels(s: AsyncSession, case: Case, hashes: list) -> tuple[D.Evidence, ...]:
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


def _moment(value: Any, default: datetime) -> datetime:
    when = as_moment(value) or default
    if not isinstance(when, datetime):
        when = datetime.combine(when, datetime.min.time(), TZ)
    return when.replace(tzinfo=TZ) if when.tzinfo is None else when.astimezone(TZ)


def _fine(facts: dict[str, Any]) -> Decimal:
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
    """What the document says of the object. Make, model, colour and the description are the
    citizen's words until the inspector confirmed or corrected them at the inspection (fact
    `reviewed_vehicle`, core.services.step_forms): only the reviewed words are printed, the
    unreviewed ones are left out. The plate is written by core.identifiers.format_plate."""
    reviewed = str(case_facts(case).get(REVIEWED) or "").strip()
    is_vehicle = "vehicle" in case.track
    description = reviewed
    if not is_vehicle and not description:
        description = core.law.categories[case.category].label
    return D.ObjectData(plate=plate_text(case.plate), chassis=case.chassis or "",
                        description=description, is_vehicle=is_vehicle)


def plate_text(plate: str | None) -> str:
    """A plate as printed everywhere: "ABC-1234", "ABC1D23" (core.identifiers)."""
    if not plate:
        return ""
    try:
        return format_plate(plate)
    except InvalidIdentifier:
        return plate
