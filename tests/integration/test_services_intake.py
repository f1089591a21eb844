"""Counter and phone intake (core.services.staff.counter_intake): the bot's service, protocol sequence and
area check; the citizen's contact kept apart, for staff only, and erased with the case's data
(LGPD, Lei 13.709/2018 art. 7º, III)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from core.services.citizens.conversation import words
from core.services.staff import counter_intake as intake
from core.services.errors import InvalidInput
from core.services.citizens.reports import ReportIn, submit_report
from core.services.cases.retention import purge_expired_evidence, set_retention
from core.services.staff.accounts import create_user
from core.storage.models import Event, ReporterContact, Subscription

CENTRE = (-19.4606, -45.6003)  # Dores do Indaiá


async def _staff(core):
    return await create_user(core, "clara", "senha-muito-secreta", "staff")


def _report(photo, **kw):
    return ReportIn(category=kw.pop("category", "motor_vehicle"), lat=kw.pop("lat", CENTRE[0]),
                    lon=kw.pop("lon", CENTRE[1]), photos=[photo(1)], address="Rua Goiás, 120",
                    **kw)


async def test_counter_case_shares_the_protocol_sequence_and_keeps_the_contact(core, photo):
    staff = await _staff(core)
    first = await submit_report(core, 42, _report(photo))  # a Telegram citizen
    contact = intake.read_contact("Maria", "(37) 99999-1234", "")
    done = await intake.submit_counter_report(core, _report(photo, colour="branco"),
                                              channel="telefone", contact=contact, staff=staff)
    year, n = first.protocol.split("-")
    assert done.protocol == f"{year}-{int(n) + 1:06d}"  # the same sequence, no gap (Art. 4º)
    async with core.db.read() as s:
        row = (await s.execute(select(ReporterContact))).scalar_one()
        events = (await s.execute(select(Event).where(Event.case_id == done.case_id)
                                  .order_by(Event.seq))).scalars().all()
        subs = (await s.execute(select(Subscription).where(
            Subscription.case_id == done.case_id))).scalars().all()
    assert (row.name, row.phone, row.email, row.taken_by) == ("Maria", "(37) 99999-1234",
                                                              None, "clara")
    assert subs == []  # a reporter without Telegram follows nothing by chat
    intake_event = events[-1]
    assert intake_event.action == "counter_intake" and not intake_event.public
    assert "99999" not in str(intake_event.data)  # the timeline never holds the contact
    todo = await intake.contacts_to_tell(core)
    assert [t.protocol for t in todo] == [done.protocol] and todo[0].told_label is None
    await intake.mark_told(core, done.protocol, staff)
    assert await intake.contacts_to_tell(core) == []


async def test_a_phoned_report_needs_no_photo_and_its_reporter_has_no_chat(core, photo):
    """The caller has no photo to give: the inspector takes them on site. At the counter
    the citizen still shows one, as in the bot."""
    from core.storage.models import Case, Person
    staff = await _staff(core)
    report = ReportIn(category="motor_vehicle", lat=CENTRE[0], lon=CENTRE[1], photos=[],
                      address="Rua Goiás, 120")
    with pytest.raises(InvalidInput, match="Envie de 1 a 10 fotos"):
        await intake.submit_counter_report(core, report, channel="balcao", contact=None,
                                           staff=staff)
    done = await intake.submit_counter_report(
        core, report, channel="telefone", staff=staff,
        contact=intake.read_contact("", "", "maria@example.com"))
    again = await intake.submit_counter_report(core, _report(photo, lat=CENTRE[0] + 0.01),
                                               channel="balcao", contact=None, staff=staff)
    async with core.db.read() as s:
        people = (await s.execute(select(Person).join(Case, Case.reporter_id == Person.id)
                                  .order_by(Case.id))).scalars().all()
    assert [p.telegram_id for p in people] == [None, None]  # no chat at all, none made up
    assert people[0].id != people[1].id  # each report its own reporter
    assert [t.protocol for t in await intake.contacts_to_tell(core)] == [done.protocol]
    assert again.protocol != done.protocol


async def test_outside_the_city_is_refused_and_nothing_is_written(core, photo):
    staff = await _staff(core)
    with pytest.raises(InvalidInput, match="fora da área"):
        await intake.submit_counter_report(core, _report(photo, lat=-23.55, lon=-46.63),
                                           channel="balcao", contact=None, staff=staff)
    async with core.db.read() as s:
        assert (await s.execute(select(ReporterContact))).first() is None


@pytest.mark.parametrize("name,phone,email,message", [
    ("Maria", "", "", "telefone ou um e-mail"),
    ("", "1234", "", "Telefone inválido"),
    ("", "", "maria@", "E-mail inválido"),
])
def test_a_bad_contact_is_explained(name, phone, email, message):
    with pytest.raises(InvalidInput, match=message):
        intake.read_contact(name, phone, email)


def test_no_contact_is_fine():
    assert intake.read_contact(" ", "", "") is None


async def test_the_contact_is_erased_with_the_reporters_data(core, photo, clock):
    staff = await _staff(core)
    done = await intake.submit_counter_report(
        core, _report(photo), channel="balcao",
        contact=intake.read_contact("", "", "maria@exemplo.com.br"), staff=staff)
    async with core.db.unit_of_work() as s:
        await set_retention(core, s, done.case_id, clock.now)
    await purge_expired_evidence(core, clock.now + timedelta(days=1))
    async with core.db.read() as s:
        assert (await s.execute(select(ReporterContact))).first() is not None
    days = core.settings.evidence_retention_days
    await purge_expired_evidence(core, clock.now + timedelta(days=days + 1))
    async with core.db.read() as s:
        assert (await s.execute(select(ReporterContact))).first() is None


@pytest.mark.parametrize("slug", ["dores-do-indaia", "dracena"])
def test_the_panel_asks_the_bots_questions_for_every_category(slug):
    """One list of questions for both channels: the bot's conversation table and the panel's
    form ask the same ones, in the same order, with the same words."""
    from core.services.citizens.conversation import states
    from core.laws import get_law
    from core.services.citizens import questions as rq
    law = get_law(slug)
    for code in law.categories:
        panel = [q.field for q in rq.questions_for(law, code)]
        bot = [s.split(":", 1)[1] for s in states.questions(law, code)
               if s != states.SUMMARY]
        assert panel == bot, code
    assert rq.COLOUR.prompt == words.ASK_COLOUR
    assert rq.TIME_THERE.prompt == words.ASK_TIME_THERE


async def test_dracena_cases_open_at_the_counter_too(make_core, photo):
    """Dracena's categories (Art. 1º) go through the same service, with no city branch."""
    core = await make_core("dracena")
    staff = await create_user(core, "clara", "senha-muito-secreta", "staff")
    code = next(c.code for c in core.law.categories.values() if not c.has_plate)
    centre = core.area.centre
    report = ReportIn(category=code, lat=centre[0], lon=centre[1], photos=[photo(2)])
    done = await intake.submit_counter_report(core, report, channel="balcao", contact=None,
                                              staff=staff)
    assert done.protocol
