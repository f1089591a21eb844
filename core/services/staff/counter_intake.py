"""Counter and phone intake: staff open a case for a citizen who came to the counter or phoned.

The report goes through the bot's own service (core.services.citizens.reports.submit_report): the same
checks (category, city area, photos), the same protocol sequence and the same first event. A
report by phone needs no photo: the caller has none to give, the inspector takes them on site.
The citizen has no Telegram account, so the reporter is a person of this report only with no
chat at all (never a made-up chat id): nothing is queued to Telegram for them; the staff
member who took the report is recorded in the timeline.

Contact for updates (LGPD, Lei 13.709/2018 art. 7º, III and art. 23): a phone or e-mail the
citizen chose to give, kept apart from the case in `reporter_contacts`, used only to tell them
how this case goes, shown only to staff (never on public pages, documents, Open311 or the
timeline, which records only that a contact was given), and erased with the reporter's data
(retention setting after the case closes; core.services.cases.retention). How the citizen is told
is decided in one place (core.services.messaging.contact_updates): an e-mail goes by e-mail
when e-mail is enabled (the first one at once, with the protocol); otherwise the panel lists
the citizens whose case moved since they were last told ("Cidadãos a avisar"), for staff to
call or write, and staff mark each one as told."""
from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import select

from core.parsing import ParseError, parse_email, parse_phone, parse_text
from core.services.staff.scope import load_here
from core.services.context import Core
from core.services.errors import InvalidInput
from core.services.citizens.reports import ReportIn, Submitted, submit_report
from core.services.messaging.contact_updates import tell_contact
from core.services.staff.accounts import StaffUserInfo
from core.storage.models import Case, ReporterContact
from core.storage.timeline import append_event

PHONE = "telefone"
CHANNELS = {"balcao": "Atendimento no balcão", "telefone": "Ligação telefônica"}
#: A contact a web reporter gave and confirmed (core.services.messaging.email_confirm).
WEB_LABEL = "Denúncia pelo site"
CONTACT_PURPOSE = ("Usado apenas para avisar o cidadão sobre o andamento deste caso; visível "
                   "somente para servidores; apagado junto com os dados da denúncia.")


@dataclass(frozen=True)
class ContactIn:
    name: str | None
    phone: str | None
    email: str | None


def read_contact(name: str, phone: str, email: str) -> ContactIn | None:
    """The optional contact as typed (None when nothing was given). A name alone is no way to
    reach anyone: it is refused, so nobody believes the citizen will be told."""
    name, phone, email = ((v or "").strip() for v in (name, phone, email))
    read = {}
    for key, value, parse in (("contact_name", name, lambda v: parse_text(v, 200)),
                              ("contact_phone", phone, parse_phone),
                              ("contact_email", email, parse_email)):
        try:
            read[key] = parse(value) if value else None
        except ParseError as exc:
            raise InvalidInput(exc.message, key) from None
    contact = ContactIn(read["contact_name"], read["contact_phone"], read["contact_email"])
    if contact.phone is None and contact.email is None:
        if contact.name:
            raise InvalidInput("Para avisar o cidadão, informe um telefone ou um e-mail "
                               "(ou deixe o nome em branco).", "contact_phone")
        return None
    return contact


async def submit_counter_report(core: Core, report: ReportIn, *, channel: str,
                                contact: ContactIn | None, staff: StaffUserInfo) -> Submitted:
    """Open the case (Dores Art. 4º caput / Dracena Art. 1º, as submit_report) for a citizen
    served at the counter or by phone, with their optional contact, in one transaction."""
    if channel not in CHANNELS:
        raise InvalidInput("Escolha como o cidadão fez a denúncia: balcão ou telefone.")

    async def record(s, case: Case) -> None:
        if contact is not None:
            s.add(ReporterContact(case_id=case.id, name=contact.name, phone=contact.phone,
                                  email=contact.email, channel=channel,
                                  taken_by=staff.username, created_at=core.now()))
            await s.flush()
            state = core.law.tracks[case.track].state(case.state).label
            await tell_contact(s, case, f"Sua denúncia foi registrada com o protocolo "
                               f"{case.protocol} ({state}). Você receberá por e-mail cada "
                               "mudança de situação do caso.", 0, core.settings)
        await append_event(s, case, staff.actor(), "counter_intake", None,
                           {"channel": channel, "contact_given": contact is not None},
                           public=False, at=core.now())

    if channel == PHONE:
        report = replace(report, photos_required=False)
    return await submit_report(core, None, report, display_name=CHANNELS[channel],
                               with_case=record)


@dataclass(frozen=True)
class ToTell:
    protocol: str
    state_label: str
    told_label: str | None  # what they were last told (None: nothing yet)
    name: str | None
    phone: str | None
    email: str | None
    channel: str


async def contacts_to_tell(core: Core, limit: int = 200) -> list[ToTell]:
    """Citizens with a contact whose case is in another state than the one they were last
    told (a new case counts: they are told its protocol), oldest first. Staff only."""
    law = core.law
    async with core.db.read() as s:
        rows = (await s.execute(
            select(ReporterContact, Case).join(Case, Case.id == ReporterContact.case_id)
            .where(Case.municipality == core.municipality,
                   (ReporterContact.told_state.is_(None))
                   | (ReporterContact.told_state != Case.state))
            .order_by(Case.updated_at, Case.id).limit(limit))).all()
    out = []
    for contact, case in rows:
        lc = law.tracks[case.track]
        told = lc.state(contact.told_state).label if contact.told_state in lc.states else None
        out.append(ToTell(case.protocol, lc.state(case.state).label, told, contact.name,
                          contact.phone, contact.email,
                          CHANNELS.get(contact.channel, WEB_LABEL)))
    return out


async def mark_told(core: Core, protocol: str, staff: StaffUserInfo) -> str:
    """Staff told the citizen the case's current state (recorded in the timeline, without the
    contact itself). Returns that state's label."""
    async with core.db.unit_of_work() as s:
        case = await load_here(s, core, protocol, for_update=True)
        contact = (await s.execute(select(ReporterContact).where(
            ReporterContact.case_id == case.id))).scalar_one_or_none()
        if contact is None:
            raise InvalidInput(f"O caso {case.protocol} não tem contato para avisos.")
        contact.told_state = case.state
        await append_event(s, case, staff.actor(), "reporter_told", None,
                           {"state": case.state}, public=False, at=core.now())
        return core.law.tracks[case.track].state(case.state).label

