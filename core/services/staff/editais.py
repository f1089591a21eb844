"""The editais for the Diário Oficial: which cases wait for which edital (by the lifecycle
step that records its publication), the edital's text and PDF, worded by the law where it
words it (Law.editais) — one builder for the panel's download and for an edital kept on its
cases (issue_edital) — and the publication recorded on the cases it lists (publish_edital).
No owner and no reporter on an edital: only what the law requires."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.documents.data import CityHeader, EditalEntry, EditalInfo, ObjectData
from core.documents.edital import edital_pdf, edital_text
from core.formatting import fmt_date, fmt_time
from core.identifiers import format_case_code
from core.services.papers.facts import object_data
from core.services.papers.placeholders import depot_address
from core.services.cases.transitions import case_facts
from core.services.staff.scope import load_here
from core.services.context import Core
from core.services.errors import USER_ERRORS, InvalidInput
from core.services.papers.documents import Issued, keep
from core.services.staff.accounts import StaffUserInfo
from core.services.staff.edital_records import record_edital
from core.services.staff.common import state_label, today, tz
from core.services.staff.depot import collected_moments
from core.storage.models import Case, CaseOwner
from core.storage.timeline import ActorRef

#: Lifecycle steps that publish an edital, by edital kind (see core.documents.edital).
EDITAL_STEPS = {"notificacao": "record_publication", "notificacao_bens": "record_publication",
                "remocao": "publish_removal_edital", "leilao": "auction"}
#: Each kind's heading when the law words none of its own (Law.editais).
EDITAL_LABELS = {
    "notificacao": "Notificação a proprietário não identificado",
    "notificacao_bens": "Bens recolhidos de imediato — notificação",
    "remocao": "Remoção com proprietário não identificado",
    "leilao": "Leilão de objetos não reclamados",
}


# -- editais ---------------------------------------------------------------------------------

@dataclass
class EditalCase:
    protocol: str
    case_code: str
    category: str
    state: str
    address: str | None
    since: datetime


def _edital_pairs(core: Core, kind: str) -> list[tuple[str, str]]:
    """(track, state) where the edital of `kind` is the next publication."""
    step = EDITAL_STEPS[kind]
    out = []
    for lc in core.law.tracks.values():
        t = lc.transitions.get(step)
        if t is None:
            continue
        for st in t.sources:
            state = lc.states[st]
            # Art. 4º, II, b is about vehicles still on the street; Art. 5º, III about
            # furniture and machinery already removed to the depot (Art. 5º, II).
            if kind == "notificacao" and not state.in_public_space:
                continue
            if kind == "notificacao_bens" and not state.in_depot:
                continue
            out.append((lc.track, st))
    return out


def edital_label(core: Core, kind: str) -> str:
    """The list's heading, as the law words it, with the law's article (e.g. Dores Art. 4º,
    II, b; the auction: Dores Art. 3º and 8º, Dracena Art. 6º, §1º)."""
    wording = core.law.edital(kind)
    if wording is None:
        return EDITAL_LABELS[kind]
    return f"{wording.label or EDITAL_LABELS[kind]} ({wording.article})"


def edital_kinds(core: Core) -> list[str]:
    """The edital kinds this law has cases for (e.g. Dracena has no Art. 5º, III edital)."""
    return [k for k in EDITAL_STEPS if _edital_pairs(core, k)]


async def edital_cases(core: Core, kind: str) -> list[EditalCase]:
    if kind not in EDITAL_STEPS:
        raise InvalidInput("Tipo de edital desconhecido.")
    pairs = _edital_pairs(core, kind)
    if not pairs:
        return []
    async with core.db.read() as s:
        cases = (await s.execute(select(Case).where(
            Case.municipality == core.municipality, Case.is_open.is_(True),
            or_(*[and_(Case.track == t, Case.state == st) for t, st in pairs]))
            .order_by(Case.updated_at))).scalars().all()
        owners = set((await s.execute(select(CaseOwner.case_id).where(
            CaseOwner.case_id.in_([c.id for c in cases]),
            CaseOwner.owner_name.is_not(None)))).scalars().all()) if cases else set()
    out = []
    for c in cases:
        facts = case_facts(c)
        if kind == "remocao" and (c.id in owners or facts.get("edital_date")):
            continue  # Art. 6º, §1º: only unknown owners; published once
        if kind == "leilao" and facts.get("auction_edital_at"):
            continue
        out.append(EditalCase(c.protocol, c.case_code, core.law.categories[c.category].label,
                              state_label(core, c.track, c.state), c.address, c.updated_at))
    return out


def _object(core: Core, c: Case) -> ObjectData:
    """The object as the Diário Oficial prints it: only the facts the inspector reviewed on
    site (core.services.papers.facts.object_data), never the citizen's words; the plate as
    ABC-1234; furniture by its kind and the inspector's description (Art. 5º, III)."""
    return object_data(core, c)


async def _entries(core: Core, s: AsyncSession, kind: str, cases: list[Case]
                   ) -> list[EditalEntry]:
    """The edital's lines for `cases` (Dores Art. 4º, II, b: the vehicle's data and where it
    is; Art. 6º, §1º: where it was and where it went; Art. 5º, III: the date and hour it was
    collected)."""
    entered = await collected_moments(s, core, cases)
    entries = []
    for c in cases:
        facts = case_facts(c)
        where = c.address or f"coordenadas {c.lat:.5f}, {c.lon:.5f}"
        removed_on = fmt_date(entered[c.id]) if c.id in entered else ""
        if removed_on and kind == "notificacao_bens":  # Art. 5º, III: "data e hora"
            removed_on += f", às {fmt_time(entered[c.id])}"
        entries.append(EditalEntry(format_case_code(c.case_code), _object(core, c), where,
                                   destination=str(facts.get("depot") or
                                                   depot_address(core.city))
                                   if kind != "notificacao" else "",
                                   removed_on=removed_on))
    return entries


def _info(core: Core, number: str, signer_name: str, signer_role: str) -> EditalInfo:
    law = core.law
    city = core.city
    return EditalInfo(CityHeader(city.name, city.uf, law.title, law.slug), number or "____",
                      fmt_date(today(core)), f"{city.name}/{city.uf}", signer_name or "",
                      signer_role or "", core.now().astimezone(tz(core)).replace(tzinfo=None),
                      info=f"{depot_address(core.city)}; {core.city.depot_hours}",
                      wordings={k: w.intro for k, w in law.editais.items()})


async def edital_documents(core: Core, kind: str, protocols: list[str], number: str,
                           signer_name: str, signer_role: str) -> tuple[str, bytes]:
    """The edital for the chosen cases: (plain text to paste, PDF). No owner, no reporter."""
    if kind not in EDITAL_STEPS:
        raise InvalidInput("Tipo de edital desconhecido.")
    async with core.db.read() as s:
        entries = await _entries(core, s, kind, [await load_here(s, core, p) for p in protocols])
    info = _info(core, number, signer_name, signer_role)
    return edital_text(entries, kind, info), edital_pdf(entries, kind, info)


async def edital_entries(core: Core, kind: str) -> list[EditalEntry]:
    """The lines edital `kind` would print now: one per case waiting for it."""
    protocols = [c.protocol for c in await edital_cases(core, kind)]
    async with core.db.read() as s:
        return await _entries(core, s, kind, [await load_here(s, core, p) for p in protocols])


async def issue_edital(core: Core, kind: str, by: ActorRef, number: str, signer_name: str,
                       signer_role: str) -> Issued:
    """The edital PDF for every case waiting for it, stored once and kept on each case it
    lists (a staff-only "document_issued" event, document "edital_<kind>")."""
    protocols = [c.protocol for c in await edital_cases(core, kind)]
    if not protocols:
        raise InvalidInput("Nenhum caso aguarda este edital.")
    async with core.db.unit_of_work() as s:
        cases = [await load_here(s, core, p, for_update=True) for p in protocols]
        blob = edital_pdf(await _entries(core, s, kind, cases), kind,
                          _info(core, number, signer_name, signer_role))
        filename = f"edital-{kind}-{number.replace('/', '-')}.pdf"
        out: Issued = ("", filename, blob)
        for c in cases:
            out = await keep(core, s, c, by, f"edital_{kind}", filename, blob, None)
        return out


@dataclass
class Publication:
    """What publish_edital recorded: the protocols done, and each refused one with its
    Portuguese reason ("2026-000001: ...")."""

    done: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


async def publish_edital(core: Core, kind: str, protocols: list[str], published_on: date,
                         reference: str, by: StaffUserInfo) -> Publication:
    """Edital `kind` published in the Diário Oficial on `published_on` (edition and page in
    `reference`), recorded on each case it listed (record_edital: the publication step, Dores
    Art. 4º, II, b; Art. 5º, III; Art. 6º, §1º; or the auction edital's date, Dracena Art. 6º,
    §1º). A case refused keeps its reason; the others are recorded."""
    if not protocols:
        raise InvalidInput("Marque os casos incluídos no edital publicado.")
    out = Publication()
    for p in protocols:
        try:
            await record_edital(core, p, kind, published_on, reference, by)
            out.done.append(p)
        except USER_ERRORS as exc:
            out.refused.append(f"{p}: {exc.message}")
    return out
