"""Issue a legal document again ("Emitir de novo", panel and inspector's chat).

A clerk who lost the paper, or needs another via, gets the same document: it is produced
again from what was recorded when the step issued it (core.services.papers.documents.keep records
the state, the deadline and the moment: `basis`), signed by the same inspector. The facts
are the case's; the deadline is the one the step started (Dores Art. 4º, I and II, a;
Art. 6º, I, b; Dracena Art. 2º, Art. 2º, §3º, Art. 4º, §1º and Art. 6º), never recounted.
The re-issue is recorded in the timeline like the first issue (staff-only). What can be issued
again, its name and its button are the document kinds' (core.services.papers.kinds).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping

from sqlalchemy import select

from core.services.papers import documents as docs
from core.services.inspectors.day_notices import reissue_prepared
from core.services.cases.transitions import load_case
from core.services.context import Core
from core.services.papers.facts import Recorded
from core.services.papers.kinds import DocumentKind, document_kinds
from core.services.errors import InvalidInput
from core.storage.models import Event
from core.storage.timeline import ActorRef

NOT_ISSUED = ("Este documento ainda não foi emitido neste caso: ele é emitido junto com o "
              "passo correspondente.")


@dataclass(frozen=True)
class IssuedDocument:
    kind: str
    label: str  # Portuguese
    sha256: str  # of the latest issue
    button: str  # Portuguese: the document's name on a phone's button (DocumentKind.button)


def _latest(events: list[Event], kinds: Mapping[str, DocumentKind]) -> dict[str, Event]:
    out: dict[str, Event] = {}
    for ev in events:
        kind = (ev.data or {}).get("document")
        if ev.action == "document_issued" and kind in kinds:
            out[kind] = ev  # events in seq order: the last one wins
    return out


async def _events(s: Any, case_id: int) -> list[Event]:
    return list((await s.execute(select(Event).where(Event.case_id == case_id)
                                 .order_by(Event.seq))).scalars().all())


async def issued_documents(core: Core, ref: str) -> list[IssuedDocument]:
    """The legal documents issued on the case that can be issued again, in the order issued."""
    async with core.db.read() as s:
        case = await load_case(s, ref)
        core = core.for_case(case)  # the case's city: header, law, depot
        kinds = document_kinds(core.law)
        latest = _latest(await _events(s, case.id), kinds)
    return [IssuedDocument(k, kinds[k].label, str(ev.data.get("sha256") or ""),
                           kinds[k].button or kinds[k].label)
            for k, ev in sorted(latest.items(), key=lambda kv: kv[1].seq)]


def _recorded(ev: Event) -> Recorded | None:
    basis = (ev.data or {}).get("basis")
    if not isinstance(basis, dict):
        return None  # issued before bases were recorded: only while the case is still there
    at = datetime.fromisoformat(str(basis["at"]))
    who = basis.get("signer") or {}
    signer = ActorRef(str(who.get("kind") or ev.actor_kind), who.get("id", ev.actor_id),
                      who.get("name", ev.actor_name))
    return Recorded(str(basis["state"]), basis.get("deadline"), at, signer)


async def reissue(core: Core, ref: str, kind: str, by: ActorRef) -> docs.Issued:
    """Document `kind` of case `ref` again, as it was issued (InvalidInput, in Portuguese, if
    it was never issued on this case)."""
    async with core.db.unit_of_work() as s:
        case = await load_case(s, ref, for_update=True)
        core = core.for_case(case)  # the case's city: header, law, depot
        kinds = document_kinds(core.law)
        if kind not in kinds:
            raise InvalidInput("Documento desconhecido.")
        ev = _latest(await _events(s, case.id), kinds).get(kind)
        if ev is None:
            raise InvalidInput(NOT_ISSUED)
        if ((ev.data or {}).get("basis") or {}).get("prepared"):  # printed before its step
            return await reissue_prepared(core, s, case, by, ev)
        return await kinds[kind].issue(core, case.protocol, by, session=s,
                                       recorded=_recorded(ev))
