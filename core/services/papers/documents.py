"""Legal documents for a case: build the data from the case, render the PDF
(core/documents), keep it as evidence (kind "document"), record its SHA-256 in the timeline.

Each `issue_*` returns (sha256, filename, bytes); the bot sends the bytes in chat. Given the
caller's `session`, it runs in the step's own transaction (core.services.cases.steps: a step that
starts a legal deadline never commits without its document). Deadlines are the ones the core
counted when the step was taken (case.deadline_json), formatted with core.formatting. The
owner's link is https://t.me/<bot username>?start=<case code> (the case code, never the
protocol; the username from core.services.messaging.bot_identity). Documents carry owner data, so
their timeline events are staff-only (public=False).
"""
from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core import documents as pdfs
from core.documents import data as D
from core.formatting import TZ, fmt_date, fmt_time
from core.identifiers import format_case_code
from core.laws.base import ReleaseSituation
from core.laws.common import FACT_LABELS, START_EVENTS
from core.services.messaging.bot_identity import bot_username
from core.services.cases.transitions import case_facts, load_case
from core.services.context import Core
from core.services.cases.depot_dates import depot_dates, without_restated
from core.services.papers.facts import (Recorded, issued_for, evidence_labels, fine_of,
                                          local_moment, object_data, seized_items)
from core.services.errors import InvalidInput
from core.services.cases.evidence import EvidenceIn, attach
from core.services.inspectors.accounts import agency_name
from core.services.papers.placeholders import depot_address, office_contact
from core.services.inspectors.tasks import current_task
from core.storage.models import Case, CaseOwner, Inspector
from core.storage.timeline import ActorRef, append_event

Issued = tuple[str, str, bytes]
NO_BOT_USERNAME = ("O documento deste passo não pode ser emitido, e por isso o passo não foi "
                   "registrado: o nome do bot no Telegram ainda não é conhecido (o link do "
                   "proprietário depende dele). Inicie o bot uma vez (python -m bot) ou defina "
                   "TELEGRAM_BOT_USERNAME.")


NO_REGISTRATION = "não informada"



class DocumentUnavailable(InvalidInput):
    """The step's legal document cannot be produced: the step is refused with it."""


# -- shared pieces ----------------------------------------------------------------------------

def header(core: Core) -> D.CityHeader:
    """The city's header, with the office's contact (OFFICE_ADDRESS, OFFICE_PHONE,
    OFFICE_HOURS) on its own line on every document."""
    return D.CityHeader(core.city.name, core.city.uf, core.law.title, core.law.slug,
                        office_contact(core.city, core.city.name))


async def owner_link(core: Core, s: AsyncSession, case: Case) -> D.OwnerLink:
    """The owner's deep link, with the username the bot learnt from getMe (or the
    TELEGRAM_BOT_USERNAME override): a document is never issued without it."""
    username = await bot_username(core, s)
    if not username:
        raise DocumentUnavailable(NO_BOT_USERNAME)
    return D.OwnerLink(username, case.case_code, core.settings.whatsapp_link_number)


def deadline_text(d: dict[str, Any]) -> D.DeadlineText:
    return D.DeadlineText(d["due_in_full"], fmt_date(date.fromisoformat(d["due"])),
                          d["article"], paper_wording(d.get("explanation", "")))


def paper_wording(text: str) -> str:
    """A deadline explained as a paper says it: a deadline recorded with the start fact's
    form label ("contado de 01/12/2026 (data e hora do recolhimento, se não foi …)") reads
    with the event's name ("(recolhimento)")."""
    for fact, event in START_EVENTS.items():
        label = FACT_LABELS.get(fact)
        if label:
            text = text.replace(f"({label})", f"({event})")
    return text


def depot(core: Core, name: str | None = None) -> D.Depot:
    return D.Depot(name or "Pátio municipal", depot_address(core.city), core.city.depot_hours)


async def signer(core: Core, s: AsyncSession, case: Case, by: ActorRef,
                 recorded: Recorded | None = None) -> D.Inspector:
    """The inspector signing: the one who signed the recorded document (a re-issue), `by` if
    an inspector, else the one holding the case, with his matrícula as recorded at the
    invitation (never a database id)."""
    if recorded is not None and recorded.signer is not None:
        by = recorded.signer
    row = None
    if by.kind == "inspector" and by.id is not None and str(by.id).isdigit():
        row = await s.get(Inspector, int(by.id))
    if row is None:
        task = await current_task(s, case.id)
        row = await s.get(Inspector, task.inspector_id) if task else None
    if row is None:
        return D.Inspector(by.name or "", "", role="Servidor municipal")
    role = "Fiscal de Posturas" if row.agency == "posturas" else "Agente fiscal"
    return D.Inspector(row.name, agency_name(core, row.agency),
                       row.registration or NO_REGISTRATION, role)


async def _owner_name(s: AsyncSession, case: Case) -> str | None:
    return (await s.execute(select(CaseOwner.owner_name).where(
        CaseOwner.case_id == case.id))).scalar_one_or_none()


def require_state(case: Case, states: tuple[str, ...], what: str,
                   state: str | None = None) -> None:
    if (state or case.state) not in states:
        raise InvalidInput(f"{what} não pode ser emitido(a) nesta etapa do caso "
                           f"{case.protocol}. Registre antes a ação correspondente.")


async def keep(core: Core, s: AsyncSession, case: Case, by: ActorRef, kind: str,
               filename: str, blob: bytes, article: str | None, *,
               basis: Recorded | None = None, prepared: bool = False) -> Issued:
    """Store the PDF, attach it to the case and record its hash in the timeline, with the
    state, deadline and moment it was issued for (`basis`: what a re-issue prints again;
    `prepared`: the paper was printed before the step, so a re-issue gives the same bytes)."""
    sha = core.evidence.put(blob)
    await attach(core, s, case.id, EvidenceIn(sha, "application/pdf", "document"))
    data: dict[str, Any] = {"document": kind, "sha256": sha, "filename": filename}
    if basis is not None:
        who = basis.signer or by
        data["basis"] = {"state": basis.state, "deadline": basis.deadline,
                         "at": basis.at.isoformat(),
                         "signer": {"kind": who.kind, "id": who.id, "name": who.name}}
        if prepared:
            data["basis"]["prepared"] = True
    await append_event(s, case, by, "document_issued", article, data,
                       public=False, at=core.now())
    return sha, filename, blob


def recorded_basis(state: str, d: dict[str, Any] | None, now: datetime,
           recorded: Recorded | None) -> Recorded:
    """What keep() records for a re-issue: the same signer as the first issue, if any."""
    return Recorded(state, d, now, recorded.signer if recorded else None)


# -- Dores: notification, termo (the affixed notice: core.services.inspectors.day_notices) ------------------------------------------------

async def issue_notification(core: Core, protocol: str, by: ActorRef, *,
                             session: AsyncSession | None = None,
                             recorded: Recorded | None = None) -> Issued:
    """Notificação (Anexo I): owner identified (Art. 4º, I), owner unknown after the Diário
    Oficial publication (Art. 4º, II, b), or furniture/machinery (Art. 5º, I)."""
    async with core.transaction(session) as s:
        case = await load_case(s, protocol, for_update=True)
        core = core.for_case(case)  # the case's city: header, law, depot
        furniture = "furniture" in case.track
        state, d, now = issued_for(core, case, recorded)
        require_state(case, ("owner_notified",) if furniture else ("owner_notified", "published"),
                       "A notificação", state)
        facts = case_facts(case)
        if not d:
            raise InvalidInput("O caso não tem prazo registrado para a notificação.")
        track = D.FURNITURE if furniture else (
            D.OWNER_IDENTIFIED if state == "owner_notified" else D.OWNER_UNIDENTIFIED)
        owner = await _owner_name(s, case) if track != D.OWNER_UNIDENTIFIED else None
        number = str(facts.get("notification_number") or case.protocol)
        data = D.NotificationData(
            header=header(core), number=number, case_code=format_case_code(case.case_code),
            owner_name=owner,
            obj=object_data(core, case), address=case.address or f"{case.lat:.5f}, {case.lon:.5f}",
            deadline=deadline_text(d), inspector=await signer(core, s, case, by, recorded),
            place=f"{core.city.name}/{core.city.uf}", issued_on=fmt_date(now),
            issued_at=fmt_time(now), link=await owner_link(core, s, case), generated_at=now,
            track=track,
            depot_address=depot_address(core.city) if track == D.OWNER_UNIDENTIFIED else "")
        return await keep(core, s, case, by, "notificacao",
                          f"notificacao-{case.protocol}.pdf", pdfs.notification_pdf(data),
                          d["article"], basis=recorded_basis(state, d, now, recorded))


_NO_DATE = D.DeadlineText("—", "—", "—", "")


async def issue_removal_term(core: Core, protocol: str, by: ActorRef, *,
                             session: AsyncSession | None = None,
                             recorded: Recorded | None = None) -> Issued:
    """Termo de recolhimento in 3 vias (Art. 6º, I, b), after the depot entry: the 10 days
    to retrieve (Art. 6º, caput) and the 60 days before auction (Art. 3º, caput)."""
    async with core.transaction(session) as s:
        case = await load_case(s, protocol, for_update=True)
        core = core.for_case(case)  # the case's city: header, law, depot
        _state, recorded_d, now = issued_for(core, case, recorded)
        facts = case_facts(case)
        if not facts.get("termo_number") or not facts.get("removal_started_at"):
            raise InvalidInput("O termo de recolhimento só pode ser emitido depois de "
                               "registrada a entrada no pátio (Art. 6º, I, b).")
        # Art. 3º, caput: the 60 days (and the termo's 10) count from the collection.
        removed = core.law.collected_at(facts)
        if not isinstance(removed, datetime):
            removed = datetime.combine(removed, datetime.min.time(), TZ)
        elif removed.tzinfo is None:
            removed = removed.replace(tzinfo=TZ)
        law = core.law
        # One count for every channel (core.services.cases.depot_dates): the owner's view states
        # the same dates (Art. 6º, caput: 10 days; Art. 3º, caput: 60 days, vehicles only).
        dates = await depot_dates(core, case.category, facts, removed)
        retrieval = next((dt for dt in dates if dt.due), None)  # the first dated term
        d = recorded_d if (recorded_d or {}).get("transition") == "depot_entry" else None
        auction_text = deadline_text(d) if d else None
        missing = facts.get("missing_parts") or []
        missing = [missing] if isinstance(missing, str) else list(missing)
        known = frozenset(m for m in missing if m in D.MISSING_PARTS)
        others = "; ".join(str(m) for m in missing if m not in D.MISSING_PARTS)
        photos = facts.get("removal_photos") or []
        photos = [photos] if isinstance(photos, str) else list(photos)
        category = law.categories[case.category]
        conditions = without_restated(tuple(law.release_conditions(
            category, ReleaseSituation()) if law.release_conditions else ()), dates)
        owner = await _owner_name(s, case)
        data = D.RemovalTermData(
            header=header(core), number=str(facts.get("notification_number")
                                            or facts["termo_number"]),
            case_code=format_case_code(case.case_code), owner_name=owner,
            obj=object_data(core, case),
            removed_from=case.address or f"{case.lat:.5f}, {case.lon:.5f}",
            depot=depot(core, str(facts.get("depot") or "")), removed_on=fmt_date(removed),
            removed_at=fmt_time(removed),
            retrieval_deadline=D.DeadlineText(retrieval.due_in_full, fmt_date(retrieval.due),
                                              retrieval.article, retrieval.explanation)
            if retrieval and retrieval.due else _NO_DATE,
            auction_after=auction_text or _NO_DATE,
            inspector=await signer(core, s, case, by, recorded),
            link=await owner_link(core, s, case), generated_at=now, missing=known,
            others=others,
            odometer=str(facts.get("odometer") or ""),
            evidence=await evidence_labels(s, case, photos),
            release_conditions=tuple(f"{c.label} ({c.article})" for c in conditions),
            dates=tuple(dt.paper for dt in dates))
        return await keep(core, s, case, by, "termo_recolhimento",
                          f"termo-de-recolhimento-{case.protocol}.pdf",
                          pdfs.removal_term_pdf(data), "Art. 6º, I, b",
                          basis=recorded_basis(_state, recorded_d, now, recorded))


# -- Dracena: auto de infração, intimação, note, depot register ----------------------------------

async def _auto_data(core: Core, s: AsyncSession, case: Case, by: ActorRef,
                     appeal: D.DeadlineText, now: datetime, recorded: Recorded | None = None,
                     **kw: Any) -> D.AutoInfracaoData:
    """The Art. 2º content of the auto from the case facts: a) the offender; b) the fact,
    place, day and hour; c) the provision and the fine; d) signatures (§2º refusal)."""
    facts = case_facts(case)
    when = local_moment(facts.get("occurred_at") or facts.get("apprehended_at"), now)
    company = facts.get("company_liability")
    values: dict[str, Any] = dict(
        header=header(core), number=str(facts.get("auto_number") or case.protocol),
        offender=D.Person(str(facts["offender_name"]), "",
                          str(facts.get("offender_address") or ""))
        if facts.get("offender_name") else None,
        fact=str(facts.get("infraction_fact") or ""), place=str(facts.get("place") or ""),
        day=fmt_date(when), hour=fmt_time(when), provision=str(facts.get("provision_violated")
                                                              or ""),
        fine=fine_of(facts), agent=await signer(core, s, case, by, recorded), appeal_deadline=appeal,
        depot=depot(core), generated_at=now, link=await owner_link(core, s, case),
        company=D.CompanyLiability(str(company.get("company", "")),
                                   str(company.get("relation", "")))
        if isinstance(company, dict) else None,
        in_presence=not facts.get("absence_reason"),
        refused_to_sign=bool(facts.get("refusal_declaration")),
        witnesses=tuple(D.Person(str(w)) for w in facts.get("witnesses") or ()))
    values.update(kw)
    return D.AutoInfracaoData(**values)


async def issue_auto_infracao(core: Core, protocol: str, by: ActorRef, *,
                              session: AsyncSession | None = None,
                              recorded: Recorded | None = None) -> Issued:
    """Auto de infração (Dracena Art. 2º; back of the form, Art. 5º): two witnesses and the
    refusal to sign (§2º), intimação when the offender was absent (§3º), appeal in 5 days
    (Art. 3º)."""
    async with core.transaction(session) as s:
        case = await load_case(s, protocol, for_update=True)
        core = core.for_case(case)  # the case's city: header, law, depot
        state, d, now = issued_for(core, case, recorded)
        require_state(case, ("appeal_window", "awaiting_intimacao"), "O auto de infração",
                       state)
        appeal = deadline_text(d) if d else D.DeadlineText(
            "5 (cinco) dias contados da intimação escrita", "—", "Art. 3º",
            "O prazo de recurso conta da data da intimação (Art. 2º, §3º; Art. 3º).")
        data = await _auto_data(core, s, case, by, appeal, now, recorded)
        return await keep(core, s, case, by, "auto_infracao",
                          f"auto-de-infracao-{case.protocol}.pdf",
                          pdfs.auto_infracao_pdf(data), "Art. 2º",
                          basis=recorded_basis(state, d, now, recorded))


async def issue_intimacao(core: Core, protocol: str, by: ActorRef, *,
                          session: AsyncSession | None = None,
                          recorded: Recorded | None = None) -> Issued:
    """Intimação (Dracena Art. 2º, §3º: "Se pela circunstância especial da infração não for o
    auto lavrado em presença do infrator, será este intimado por escrito do seu inteiro
    teor"), after the step serve_intimacao; the 5 days to appeal run from the intimação
    (Art. 3º: "e da data da intimação no caso do § 3º do artigo anterior")."""
    async with core.transaction(session) as s:
        case = await load_case(s, protocol, for_update=True)
        core = core.for_case(case)  # the case's city: header, law, depot
        state, d, now = issued_for(core, case, recorded)
        facts = case_facts(case)
        require_state(case, ("appeal_window",), "A intimação", state)
        if not facts.get("absence_reason") or not facts.get("intimacao_date") or not d:
            raise InvalidInput("A intimação só é emitida para auto lavrado sem a presença do "
                               "infrator, depois de registrada a data da intimação "
                               "(Art. 2º, §3º).")
        appeal = deadline_text(d)
        auto = await _auto_data(core, s, case, by, appeal, now, recorded)
        served = date.fromisoformat(str(facts["intimacao_date"])[:10])
        addressee = auto.offender or D.Person(D.NOT_IDENTIFIED)
        data = D.IntimacaoData(auto, f"I-{auto.number}", addressee, fmt_date(served), appeal,
                               now)
        return await keep(core, s, case, by, "intimacao", f"intimacao-{case.protocol}.pdf",
                          pdfs.intimacao_pdf(data), "Art. 2º, §3º",
                          basis=recorded_basis(state, d, now, recorded))


async def issue_low_value_note(core: Core, protocol: str, by: ActorRef, *,
                               session: AsyncSession | None = None,
                               recorded: Recorded | None = None) -> Issued:
    """Nota de apreensão (Dracena Art. 4º, §1º: "uma nota contendo a relação das mercadorias
    apreendidas e mencionando a multa imposta e a lei transgredida, dispensada a lavratura do
    respectivo auto"), with the 48 hours to appeal (Art. 4º, §2º)."""
    async with core.transaction(session) as s:
        case = await load_case(s, protocol, for_update=True)
        core = core.for_case(case)  # the case's city: header, law, depot
        state, d, now = issued_for(core, case, recorded)
        facts = case_facts(case)
        require_state(case, ("apprehended",), "A nota de apreensão", state)
        if not facts.get("goods_list") or not d:
            raise InvalidInput("A nota só é emitida depois de registrada a apreensão com nota "
                               "simplificada (Art. 4º, §1º).")
        when = local_moment(facts.get("apprehended_at"), now)
        data = D.LowValueNoteData(
            header(core), str(facts.get("depot_register_entry") or case.protocol),
            str(facts.get("vendor_name") or D.NOT_IDENTIFIED), seized_items(facts["goods_list"]),
            fine_of(facts), str(facts.get("provision_violated") or ""),
            case.address or str(facts.get("place") or f"{case.lat:.5f}, {case.lon:.5f}"),
            fmt_date(when), fmt_time(when), await signer(core, s, case, by, recorded),
            deadline_text(d), depot(core), now)
        return await keep(core, s, case, by, "nota_apreensao",
                          f"nota-de-apreensao-{case.protocol}.pdf",
                          pdfs.low_value_note_pdf(data), "Art. 4º, §1º",
                          basis=recorded_basis(state, d, now, recorded))


async def issue_apprehension(core: Core, protocol: str, by: ActorRef, *,
                             session: AsyncSession | None = None,
                             recorded: Recorded | None = None) -> Issued:
    """Auto de infração e apreensão with the depot register entry (Dracena Art. 4º: the formalities are
    waived "com exceção das que dizem respeito à entrada de depósito e venda"; Art. 6º: "O
    objeto da apreensão será encaminhado ao depósito municipal, registrado em livro próprio,
    com as especificações do artigo 2º"), with the 48 hours to appeal (Art. 4º, §2º) and the
    back of the form (Art. 5º)."""
    async with core.transaction(session) as s:
        case = await load_case(s, protocol, for_update=True)
        core = core.for_case(case)  # the case's city: header, law, depot
        state, d, now = issued_for(core, case, recorded)
        facts = case_facts(case)
        require_state(case, ("apprehended",), "O registro de apreensão", state)
        if not facts.get("goods_description") or not d:
            raise InvalidInput("O registro só é emitido depois de registrada a apreensão "
                               "(Art. 4º; Art. 6º).")
        entry = str(facts.get("depot_register_entry") or case.protocol)
        # Art. 6º, §2º: gêneros and semoventes go to auction within three days — the date
        # the owner's view and the case page state too (core.services.cases.depot_dates).
        dates = await depot_dates(core, case.category, facts, core.law.collected_at(facts))
        data = await _auto_data(
            core, s, case, by, deadline_text(d), now, recorded, number=entry,
            fact=f"Apreensão (Art. 4º) — registro no livro do depósito nº {entry} (Art. 6º).",
            seized=seized_items(facts["goods_description"]),
            dates=tuple(dt.paper for dt in dates if dt.due))
        return await keep(core, s, case, by, "registro_apreensao",
                          f"auto-de-infracao-e-apreensao-{case.protocol}.pdf",
                          pdfs.auto_infracao_pdf(data), "Art. 4º; Art. 6º",
                          basis=recorded_basis(state, d, now, recorded))

