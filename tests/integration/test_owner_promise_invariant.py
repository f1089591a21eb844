"""The owner's promise never shortens the law's deadline (Dores Art. 6º, caput: removal only on
"o não cumprimento dos prazos dispostos no Art. 4º"; Art. 6º, §3º; setting
owner_promise_during_notice).

Invariant of the lifecycle: no removal step becomes possible before the legal deadline that the
owner was given, whatever the owner declares ("Vou retirar", "Já retirei") or withdraws, and
however the clock moves and the sweep runs. Checked by one example from the field (notified
01/12, "Vou retirar" by 05/12) and as a property over sequences of statements, withdrawals
and clock moves, on every engine, through the real services."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from core.formatting import TZ
from core.lifecycle import TransitionRefused
from core.services.cases.transitions import OUTDATED, PRIOR_DEADLINE, apply_transition, load_case
from core.services.context import Core
from core.services.errors import InvalidInput
from core.services.cases.evidence import EvidenceIn
from core.services.owners.proof import prove_owner
from core.services.owners import (link_by_code, owner_statement, owner_view,
                                  withdraw_owner_statement)
from core.services.citizens.reports import ReportIn, submit_report
from core.services.cases.sweep import sweep_deadlines
from core.storage.models import Case, Event, OutboxMessage
from core.storage.timeline import ActorRef, append_event
from tests.conftest import ENGINES
from tests.support.core_fixtures import Clock, jpeg
from tests.support.engine_world import EngineWorld
from tests.support.owner_cases import ABANDONED, DORES, FISCAL, OWNER, REPORTER, STAFF, notified

REMOVAL_FACTS = {"removal_photos": ["sha-removal"], "removal_started_at": "2026-12-01T10:00"}


def removal_steps(lifecycle) -> set[str]:
    """The steps that take the object off the street (the city removes it)."""
    return {t.code for t in lifecycle.transitions.values()
            if not lifecycle.states[t.target].in_public_space
            and not lifecycle.states[t.target].final}


async def _case(core, case_id) -> Case:
    async with core.db.read() as s:
        return await s.get(Case, case_id)


async def _events(core, case_id) -> list[Event]:
    async with core.db.read() as s:
        return list((await s.execute(select(Event).where(Event.case_id == case_id)
                                     .order_by(Event.seq))).scalars())


async def _told(core, chat_id) -> list[str]:
    async with core.db.read() as s:
        return [m.payload.get("text", "") for m in (await s.execute(
            select(OutboxMessage).where(OutboxMessage.chat_id == chat_id)
            .order_by(OutboxMessage.id))).scalars()]


async def test_vou_retirar_by_05_12_leaves_the_notice_until_11_12_art_6_caput(
        core, photo, clock):
    """The field report: notified on 01/12 (10 days, Art. 4º, I, due 11/12), "Vou retirar" by
    05/12; on 06/12 removal must not be authorised, nor the owner told it is."""
    sub = await notified(core, photo)
    await link_by_code(core, OWNER, sub.case_code)
    await prove_owner(core, OWNER, sub.case_code, "ABC1D23")
    res = await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 5))
    assert "O prazo legal continua valendo: retirar o veículo do espaço público até " \
        "11/12/2026 (Art. 4º, I)." in res.message
    case = await _case(core, sub.case_id)
    assert case.deadline_json["due"] == "2026-12-11"
    assert case.deadline_json["transition"] == "notify_owner"
    clock.advance(days=5)  # 06/12/2026
    report = await sweep_deadlines(core)
    assert report.moved == []
    case = await _case(core, sub.case_id)
    assert case.state == "owner_notified"
    with pytest.raises(TransitionRefused):
        await apply_transition(core, sub.protocol, "start_removal", FISCAL, REMOVAL_FACTS,
                               agency="posturas")
    told = "\n".join(await _told(core, OWNER) + await _told(core, REPORTER))
    assert "Prazo vencido" not in told and "até a data combinada" not in told
    view = await owner_view(core, OWNER, sub.case_code)
    assert view.deadline.due == date(2026, 12, 11) and view.remove_by == "Retire até 11/12/2026"
    clock.advance(days=6)  # 12/12/2026: the notice's 10 days are over
    report = await sweep_deadlines(core)
    assert report.moved == [(sub.protocol, "lapse_deadline")]
    assert (await _case(core, sub.case_id)).state == "removal_due"


async def test_a_promise_the_previous_version_made_a_deadline_is_undone_when_it_lapses(
        core, photo, clock):
    """A case left by the previous version in "Proprietário se comprometeu a retirar" with the
    owner's 05/12 as its deadline, though the notice ran until 11/12: on 06/12 the sweep takes
    that step back (it is no longer taken during the notice) instead of authorising removal;
    the notice's deadline runs again, as counted (Art. 6º, caput)."""
    sub = await notified(core, photo)
    async with core.db.unit_of_work() as s:  # as the previous version recorded it
        case = await load_case(s, sub.case_id, for_update=True)
        legal = dict(case.deadline_json)
        agreed = {**legal, "transition": "owner_commits", "amount": 0, "due": "2026-12-05",
                  "due_at": "2026-12-05T23:59:59-03:00", "on_lapse": "owner_failed",
                  "article": "Art. 6º, §3º",
                  "description": "retirada pelo proprietário até a data combinada com o fiscal"}
        case.state, case.deadline_json = "owner_removing", agreed
        case.next_deadline_at = datetime.fromisoformat(agreed["due_at"]).astimezone(timezone.utc)
        case.next_deadline_kind = "owner_failed"
        await append_event(s, case, ActorRef("owner", 1, None), "owner_commits", "Art. 6º, §3º",
                           {"owner_statement": "Vou retirar até 05/12/2026.",
                            "agreed_removal_by": "2026-12-05", "owner_statement_kind":
                            "will_remove", "from": "owner_notified", "to": "owner_removing",
                            PRIOR_DEADLINE: legal}, public=True, at=clock.now)
    clock.advance(days=5)  # 06/12/2026
    report = await sweep_deadlines(core)
    assert report.undone == [sub.protocol] and report.moved == []
    case = await _case(core, sub.case_id)
    assert case.state == "owner_notified" and case.deadline_json == legal
    assert case.next_deadline_at == datetime.fromisoformat(legal["due_at"])
    ev = (await _events(core, sub.case_id))[-1]
    assert ev.action == "owner_withdraws" and ev.actor_kind == "system"
    assert ev.data["reason"] == OUTDATED
    assert "Prazo vencido" not in "\n".join(await _told(core, REPORTER))
    clock.advance(days=6)  # 12/12/2026
    assert (await sweep_deadlines(core)).moved == [(sub.protocol, "lapse_deadline")]


# -- the property -------------------------------------------------------------------------------

#: How the notice reached the owner: (category, path) — Art. 4º, I (notified in person),
#: Art. 4º, II, a–b (affixed, then published in the Diário Oficial), Art. 5º, I (furniture).
PATHS = [("motor_vehicle", "notified"), ("motor_vehicle", "published"),
         ("large_furniture", "notified")]

owner_moves = st.one_of(
    st.tuples(st.just("will_remove"), st.integers(0, 14)),  # days from today
    st.tuples(st.just("removed"), st.just(0)),
    st.tuples(st.just("withdraw"), st.just(0)),
    st.tuples(st.just("clock"), st.integers(1, 96)),  # hours, then the sweep runs
)


class World(EngineWorld):
    """A Core on its own event loop (hypothesis drives a plain function), on one engine."""

    def __init__(self, engine: str, tmp_path):
        super().__init__(engine, tmp_path, datetime(2026, 12, 1, 16, 0, tzinfo=timezone.utc))


async def _noticed(core: Core, clock: Clock, category: str, path: str, n: int):
    """A case whose owner was given the law's deadline; returns (submitted, legal due_at)."""
    sha, _ = core.evidence.put_image(jpeg((n % 256, 40, 40)))
    fields = {"plate": f"ABC{n % 10}D{n % 100:02d}"} if category == "motor_vehicle" else {}
    sub = await submit_report(core, REPORTER, ReportIn(
        category=category, lat=DORES[0], lon=DORES[1], address="Rua das Flores, 10",
        photos=[EvidenceIn(sha, "image/jpeg", "photo", f"f{n}", f"u{n}")], **fields),
        display_name="Maria Denunciante")
    await apply_transition(core, sub.protocol, "open_diligence", STAFF)
    owner = {"owner_name": "José da Silva", "owner_document": "529.982.247-25"}
    if path == "notified":
        await apply_transition(core, sub.protocol, "notify_owner", FISCAL,
                               {**ABANDONED, **owner, "notification_number": f"{n}/2026"},
                               agency="posturas")
    else:  # Art. 4º, II: affixed, then published the next day; the 10 days count from it
        await apply_transition(core, sub.protocol, "affix_notice", FISCAL,
                               {**ABANDONED, "notification_number": f"{n}/2026"},
                               agency="posturas")
        clock.advance(days=1)
        today = clock.now.astimezone(TZ).date()
        await apply_transition(core, sub.protocol, "record_publication", STAFF,
                               {"publication_date": today.isoformat(),
                                "publication_reference": f"DOM nº {n}"})
    case = await _case(core, sub.case_id)
    await link_by_code(core, OWNER, sub.case_code)
    answer = fields.get("plate") or "52998224725"
    await prove_owner(core, OWNER, sub.case_code, answer)
    return sub, datetime.fromisoformat(case.deadline_json["due_at"])


async def _check(core: Core, clock: Clock, sub, legal_due_at: datetime, removal: set[str]):
    case = await _case(core, sub.case_id)
    lifecycle = core.law.tracks[case.track]
    possible = {t.code for t in lifecycle.available(case.state)} & removal
    if clock.now <= legal_due_at:
        # the law's deadline still runs, as counted, and nothing can remove the object
        assert not possible, (case.state, possible)
        assert case.next_deadline_at == legal_due_at, case.deadline_json
        view = await owner_view(core, OWNER, sub.case_code)
        assert view.deadline is not None and view.deadline.due_at == legal_due_at
    for ev in await _events(core, sub.case_id):
        t = lifecycle.transitions.get(ev.action)
        if t is not None and (t.code in removal or t.target == "removal_due"):
            assert ev.at > legal_due_at, (ev.action, ev.at, legal_due_at)


async def _play(world: World, path: tuple[str, str], moves) -> None:
    core, clock = world.core, world.clock
    world.n += 1
    clock.now = datetime(2026, 12, 1, 16, 0, tzinfo=timezone.utc)
    sub, legal_due_at = await _noticed(core, clock, *path, world.n)
    removal = removal_steps(core.law.tracks[(await _case(core, sub.case_id)).track])
    await _check(core, clock, sub, legal_due_at, removal)
    for kind, amount in moves:
        today = clock.now.astimezone(TZ).date()
        try:
            if kind == "will_remove":
                await owner_statement(core, OWNER, sub.case_code, kind,
                                      today + timedelta(days=amount))
            elif kind == "removed":
                await owner_statement(core, OWNER, sub.case_code, kind)
            elif kind == "withdraw":
                await withdraw_owner_statement(core, OWNER, sub.case_code)
            else:
                clock.advance(hours=amount)
                await sweep_deadlines(core)
        except InvalidInput:
            pass  # refused with a Portuguese answer: nothing changed
        await _check(core, clock, sub, legal_due_at, removal)
    # once the law's deadline has passed, the removal is due (Art. 6º, caput)
    clock.now = max(clock.now, legal_due_at) + timedelta(minutes=1)
    await sweep_deadlines(core)
    case = await _case(core, sub.case_id)
    lifecycle = core.law.tracks[case.track]
    assert {t.code for t in lifecycle.available(case.state)} & removal, case.state
    await _check(core, clock, sub, legal_due_at, removal)


@pytest.mark.parametrize("engine", ENGINES)
def test_no_removal_before_the_legal_deadline_whatever_the_owner_says_art_6_caput(
        engine, tmp_path):
    world = World(engine, tmp_path)
    try:
        @settings(max_examples=25, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(path=st.sampled_from(PATHS), moves=st.lists(owner_moves, max_size=8))
        def prop(path, moves):
            world.run(_play(world, path, moves))

        prop()
    finally:
        world.close()
