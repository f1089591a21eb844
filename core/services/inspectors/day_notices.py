"""The notice affixed on the object when the owner is not identified (Dores Art. 4º, II, a:
"Afixada uma notificação ... no vidro ou lataria do veículo"), and the day's notices an
inspector prints before going out.

A fiscal in the street has no printer, so the step records how the paper reached the object
(fact `notice_paper`, asked by the step's form):
- PREPARED: printed before going out from the day's notices (prepare_day_notices: the
  inspector's /notificacoes, the panel's button on the inspectors' page): one PDF with a
  notice per case the inspector holds where the notice may be affixed, each with its number
  (the protocol) and the owner's QR code, dated the day, the hour left blank for the pen.
  Each notice is rendered here, kept in the evidence store and noted on its case (a
  staff-only "notice_prepared" event with its SHA-256); the step taken that day by that
  inspector records exactly that document — the same number, bytes and SHA-256 — as the
  step's document, and a re-issue gives the same bytes again. Printed twice the same day, a
  case's notice is the same document (the first one kept), so any copy printed is the one
  the step records. Another day, it is not valid (its date is printed): the step refuses it.
- HANDWRITTEN: a printed blank form filled by hand on the spot (as Dracena's Lei 56/1951,
  Art. 5º, allows for its auto: "fórmula impressa com os claros"): the inspector types the
  number written on it; the photo of the paper affixed is the record, and the system's copy
  is issued at the step with that same number and says so.
Either way the photo of the notice affixed is asked right after the step (the step's
Transition.photo_after)."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, time, timezone
from typing import Any, Mapping

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core import documents as pdfs
from core.documents import data as D
from core.documents.data import PAPER_HANDWRITTEN, PAPER_PREPARED
from core.formatting import TZ, fmt_date, fmt_time, local_date
from core.identifiers import format_case_code
from core.services.cases.transitions import case_facts, deadline_for, load_case
from core.services.context import Core
from core.services.papers.facts import Recorded, issued_for, object_data
from core.services.papers.documents import (DocumentUnavailable, Issued, recorded_basis, require_state,
                                     deadline_text, header, keep, owner_link, signer)
from core.services.errors import InvalidInput
from core.services.inspectors.accounts import actor_ref, inspector_core, require_inspector
from core.services.papers.placeholders import depot_address, office_contact
from core.services.inspectors.tasks import OPEN
from core.storage.models import Case, Event, Inspector, Task
from core.storage.timeline import ActorRef, append_event

STEP = "affix_notice"
ARTICLE = "Art. 4º, II, a"
KIND = "notificacao_afixada"
PREPARED_EVENT = "notice_prepared"
PAPER_FACT = "notice_paper"
PAPER_LABEL = "papel afixado no objeto"
NOTHING_PRINTED = ("; nenhuma notificação deste caso foi impressa hoje por você em "
                   "/notificacoes")
NUMBER_LABEL = "número da notificação (o escrito no formulário preenchido à mão)"
NOT_PREPARED = ("Não há notificação deste caso impressa hoje por você (/notificacoes): a "
                "impressa em outro dia traz outra data e não vale. Corrija o papel afixado: "
                "formulário em branco preenchido à mão.")
PAST_DAY = "As notificações do dia só podem ser impressas para hoje ou um dia seguinte."


@dataclass(frozen=True)
class Prepared:
    """A notice printed before the step (the "notice_prepared" event)."""

    number: str
    sha256: str
    filename: str
    day: date
    basis: Recorded


@dataclass(frozen=True)
class DayNotice:
    protocol: str
    case_code: str
    number: str
    address: str
    sha256: str


@dataclass(frozen=True)
class DayNotices:
    """The day's notices of one inspector: one PDF (`blob`, empty when there is none)."""

    day: date
    inspector: str
    notices: list[DayNotice]
    filename: str = ""
    blob: bytes = b""
    sha256: str = ""


def _info(core: Core) -> str:
    city = core.city
    return f"{office_contact(city, city.name)}. Pátio: {depot_address(city)} — {city.depot_hours}"


def _waits_for_publication(core: Core) -> bool:
    """The law reading of Art. 4º, II, a and b (setting affixed_notice_lapses): when the
    affixed notice's own 10 days do not lapse, removal waits for the publication's."""
    setting = core.law.settings.get("affixed_notice_lapses")
    return setting is not None and not setting.value


async def _render(core: Core, s: AsyncSession, case: Case, by: ActorRef,
                  recorded: Recorded | None, number: str, paper: str) -> tuple[str, bytes]:
    state, d, now = issued_for(core, case, recorded)
    require_state(case, ("notice_affixed",), "A notificação afixada", state)
    if not d:
        raise InvalidInput("O caso não tem prazo registrado para a notificação afixada.")
    data = D.AffixedNoticeData(
        header(core), format_case_code(case.case_code), object_data(core, case),
        case.address or f"{case.lat:.5f}, {case.lon:.5f}", deadline_text(d),
        fmt_date(now), fmt_time(now), await signer(core, s, case, by, recorded),
        await owner_link(core, s, case), _info(core), now,
        removal_after_publication=_waits_for_publication(core), number=number, paper=paper)
    return f"notificacao-afixada-{case.protocol}.pdf", pdfs.affixed_notice_pdf(data)


async def issue_affixed_notice(core: Core, protocol: str, by: ActorRef, *,
                               session: AsyncSession | None = None,
                               recorded: Recorded | None = None) -> Issued:
    """The step's document: the notice printed before (PREPARED: the same document), or the
    notice as issued at the step (the system's copy of a hand-filled form, or a notice issued
    without saying how it was affixed, e.g. by a staff tool)."""
    async with core.transaction(session) as s:
        case = await load_case(s, protocol, for_update=True)
        core = core.for_case(case)  # the case's city: header, law, depot
        facts = case_facts(case)
        paper = str(facts.get(PAPER_FACT) or "")
        if recorded is None and paper == PAPER_PREPARED:
            return await _issue_prepared(core, s, case, by)
        number = str(facts.get("notification_number") or case.protocol)
        filename, blob = await _render(core, s, case, by, recorded, number, paper)
        state, d, now = issued_for(core, case, recorded)
        return await keep(core, s, case, by, KIND, filename, blob, d["article"],
                          basis=recorded_basis(state, d, now, recorded))


async def _issue_prepared(core: Core, s: AsyncSession, case: Case, by: ActorRef) -> Issued:
    inspector_id = int(by.id) if by.kind == "inspector" and str(by.id).isdigit() else None
    found = None if inspector_id is None else await prepared_notice(
        s, case, inspector_id, local_date(core.now()))
    if found is None:
        raise DocumentUnavailable(NOT_PREPARED)
    blob = _stored(core, found.sha256)
    return await keep(core, s, case, by, KIND, found.filename, blob, ARTICLE,
                      basis=found.basis, prepared=True)


def _stored(core: Core, sha256: str) -> bytes:
    try:
        return core.evidence.get(sha256)
    except (FileNotFoundError, ValueError):
        raise DocumentUnavailable("O arquivo da notificação impressa não está mais guardado; "
                                  "use um formulário em branco preenchido à mão.") from None


async def reissue_prepared(core: Core, s: AsyncSession, case: Case, by: ActorRef,
                           ev: Event) -> Issued:
    """"Emitir de novo" of a notice printed before its step: the very same bytes."""
    data = ev.data or {}
    blob = _stored(core, str(data.get("sha256") or ""))
    return await keep(core, s, case, by, KIND, str(data.get("filename")), blob, ev.article,
                      basis=_recorded(data.get("basis") or {}), prepared=True)


def _recorded(basis: Mapping[str, Any]) -> Recorded:
    at = datetime.fromisoformat(str(basis["at"]))
    who = basis.get("signer") or {}
    return Recorded(str(basis["state"]), basis.get("deadline"),
                    at if at.tzinfo else at.replace(tzinfo=timezone.utc),
                    ActorRef(str(who.get("kind") or "inspector"), who.get("id"),
                             who.get("name")))


async def prepared_notice(s: AsyncSession, case: Case, inspector_id: int, day: date
                          ) -> Prepared | None:
    """The notice of `case` printed by (for) `inspector_id` for `day`, if any (the first)."""
    events = (await s.execute(select(Event).where(
        Event.case_id == case.id, Event.action == PREPARED_EVENT).order_by(Event.seq))
    ).scalars().all()
    for ev in events:
        data = ev.data or {}
        if data.get("day") == day.isoformat() and data.get("inspector_id") == inspector_id:
            return Prepared(str(data["number"]), str(data["sha256"]), str(data["filename"]),
                            day, _recorded(data["basis"]))
    return None


async def due_cases(core: Core, s: AsyncSession, inspector: Inspector) -> list[Case]:
    """The open cases `inspector` holds where the notice may be affixed now (the step's
    sources, the inspector's agency), in protocol order."""
    rows = (await s.execute(select(Case).join(Task, Task.case_id == Case.id).where(
        Task.inspector_id == inspector.id, Task.status.in_(OPEN), Case.is_open.is_(True),
        Case.municipality == core.municipality).order_by(Case.protocol))).scalars().unique().all()
    out = []
    for case in rows:
        t = core.law.tracks[case.track].transitions.get(STEP)
        if t is not None and case.state in t.sources and (
                not t.agencies or inspector.agency in t.agencies):
            out.append(case)
    return out


async def _prepare(core: Core, s: AsyncSession, case: Case, inspector: Inspector,
                   by: ActorRef, day: date) -> Prepared:
    """Render `case`'s notice for `day` as the step would issue it that day, keep it and note
    it on the case."""
    lifecycle = core.law.tracks[case.track]
    t = lifecycle.transitions[STEP]
    now = core.now()
    moment = now.astimezone(TZ) if day == local_date(now) else datetime.combine(day, time(8), TZ)
    deadline = await deadline_for(core, t, case_facts(case), moment, lifecycle) \
        if t.deadline else None
    who = actor_ref(inspector)
    basis = Recorded(t.target, deadline, moment, who)
    filename, blob = await _render(core, s, case, who, basis, case.protocol, PAPER_PREPARED)
    sha = core.evidence.put(blob)
    await append_event(s, case, by, PREPARED_EVENT, ARTICLE, {
        "document": KIND, "sha256": sha, "filename": filename, "number": case.protocol,
        "day": day.isoformat(), "inspector_id": inspector.id,
        "basis": {"state": basis.state, "deadline": deadline, "at": moment.isoformat(),
                  "signer": {"kind": who.kind, "id": who.id, "name": who.name}}},
        public=False, at=now)
    return Prepared(case.protocol, sha, filename, day, basis)


async def prepare_day_notices(core: Core, inspector_id: int, by: ActorRef,
                              day: date | None = None) -> DayNotices:
    """The notices `inspector_id` may affix on `day` (today by default), in one PDF to print
    before going out: a cover listing them, then each notice exactly as the step will record
    it. Asked again the same day, the same notices (and any case assigned since)."""
    today = local_date(core.now())
    day = day or today
    if day < today:
        raise InvalidInput(PAST_DAY)
    async with core.db.unit_of_work() as s:
        inspector = await s.get(Inspector, inspector_id)
        if inspector is None or not inspector.active or \
                inspector.municipality not in (core.municipality, ""):
            raise InvalidInput("Fiscal não encontrado ou inativo.")
        notices, blobs, lines = [], [], []
        for case in await due_cases(core, s, inspector):
            found = await prepared_notice(s, case, inspector.id, day) \
                or await _prepare(core, s, case, inspector, by, day)
            blobs.append(_stored(core, found.sha256))
            notices.append(DayNotice(case.protocol, format_case_code(case.case_code),
                                     found.number, case.address or "", found.sha256))
            lines.append(D.DayNoticeLine(found.number, format_case_code(case.case_code),
                                         object_data(core, case).short(),
                                         case.address or f"{case.lat:.5f}, {case.lon:.5f}",
                                         found.sha256))
        if not notices:
            return DayNotices(day, inspector.name, [])
        who = await signer(core, s, case, actor_ref(inspector))
    cover = D.DayNoticesCover(header(core), fmt_date(day), who, tuple(lines),
                              core.now().astimezone(TZ))
    blob = pdfs.day_notices_pdf(cover, blobs)
    filename = f"notificacoes-do-dia-{day.isoformat()}-{_slug(inspector.name)}.pdf"
    return DayNotices(day, inspector.name, notices, filename, blob, core.evidence.put(blob))


def _slug(name: str) -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return "-".join("".join(c if c.isalnum() else " " for c in text).split()) or "fiscal"


# -- the step's form ----------------------------------------------------------------------------

async def paper_choice(core: Core, telegram_id: int, protocol: str
                       ) -> tuple[str, tuple[tuple[str, str], ...], tuple[str, ...]]:
    """The affixing step's question "which paper was affixed": (label, options, buttons);
    the printed notice is offered only if this inspector printed the case's notice today."""
    async with core.db.read() as s:
        inspector = await require_inspector(core, telegram_id, session=s)
        here = inspector_core(core, inspector)
        case = await load_case(s, protocol, municipality=here.municipality)
        found = await prepared_notice(s, case, inspector.id, local_date(core.now()))
    options: tuple[tuple[str, str], ...] = (
        (PAPER_HANDWRITTEN, "formulário em branco preenchido à mão (em seguida, digite o "
                            "número escrito nele)" + ("" if found else NOTHING_PRINTED)),)
    buttons: tuple[str, ...] = ("Preenchida à mão",)
    if found is not None:
        options = ((PAPER_PREPARED, f"a notificação nº {found.number} impressa hoje "
                                    "(/notificacoes), com o código QR"), *options)
        buttons = ("Impressa do dia", *buttons)
    return PAPER_LABEL, options, buttons


async def paper_facts(core: Core, s: AsyncSession, code: str, protocol: str,
                      inspector: Inspector, given: dict[str, Any]) -> dict[str, Any]:
    """The step's facts with the printed notice's number (PREPARED); refused (nothing
    recorded) when no notice of the case was printed today by this inspector."""
    if code != STEP or given.get(PAPER_FACT) != PAPER_PREPARED:
        return given
    found = await prepared_notice(s, await load_case(
        s, protocol, municipality=inspector_core(core, inspector).municipality), inspector.id,
                                  local_date(core.now()))
    if found is None:
        raise DocumentUnavailable(NOT_PREPARED)
    return {**given, "notification_number": found.number}
