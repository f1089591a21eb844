"""The owner takes back "Vou retirar" / "Já retirei" (Dores Art. 6º, §3º) while the inspector
has not acted on it: the case returns to the state and the legal deadline it had before
(never extended), the inspector is told the verification is no longer needed, and the view
shows the law's deadline again — on every engine, reached through the real steps."""
from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from core.laws.common import tr
from core.lifecycle import Actor, Lifecycle, State, TransitionRefused, Undo
from core.services.cases.transitions import PRIOR_DEADLINE, apply_transition
from core.services.errors import Forbidden, InvalidInput
from core.services.owners.text import view_text
from core.services.owners.proof import NEEDS_PROOF, prove_owner
from core.services.owners.view import STATEMENT_NOTED
from core.services.owners import (link_by_code, link_by_code_and_plate, owner_statement,
                                  owner_view, withdraw_owner_statement, withdrawable)
from core.services.cases.sweep import sweep_deadlines
from core.storage.models import Case, Event
from core.services.staff.accounts import create_user
from tests.support.public_pages import owner_post
from tests.support.panel import PASSWORD, Panel, login
from tests.support.owner_cases import (ABANDONED, DRACENA, FISCAL, INSPECTOR_CHAT, OWNER, REPORTER,
                                       STAFF, add_inspector, notified, outbox_for, report)


async def _case(core, case_id) -> Case:
    async with core.db.read() as s:
        return await s.get(Case, case_id)


async def _events(core, case_id) -> list[Event]:
    async with core.db.read() as s:
        return list((await s.execute(select(Event).where(Event.case_id == case_id)
                                     .order_by(Event.seq))).scalars())


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _intents(view) -> list[str]:
    return [a.intent for row in view.actions for a in row]


async def test_withdrawing_vou_retirar_during_the_notice_leaves_the_legal_deadline_art_6_par_3(
        core, photo, clock):
    sub = await notified(core, photo)  # Art. 4º, I: 10 days, until 11/12/2026
    await add_inspector(core, sub.case_id)
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    before = await _case(core, sub.case_id)
    assert "owner.withdraw" not in _intents(await owner_view(core, OWNER, sub.case_code))
    await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 5))
    promised = await owner_view(core, OWNER, sub.case_code)
    # information beside the notice (Art. 6º, caput): neither the state nor the deadline moves
    assert promised.state == "owner_notified" and promised.promise == date(2026, 12, 5)
    assert promised.deadline.due == date(2026, 12, 11)
    during = await _case(core, sub.case_id)
    assert during.deadline_json == before.deadline_json
    assert during.next_deadline_at == before.next_deadline_at
    assert "owner.withdraw" in _intents(promised)
    clock.advance(days=2)
    res = await withdraw_owner_statement(core, OWNER, sub.case_code)
    assert "Art. 6º, §3º" in res.message and "11/12/2026" in res.message
    assert "O prazo legal continua valendo" in res.message and res.inspector_told
    after = await _case(core, sub.case_id)
    assert after.state == before.state == "owner_notified"
    assert after.deadline_json == before.deadline_json
    assert after.next_deadline_at == before.next_deadline_at
    assert after.next_deadline_kind == before.next_deadline_kind == "lapse_deadline"
    view = await owner_view(core, OWNER, sub.case_code)
    assert view.promise is None and view.deadline.due == date(2026, 12, 11)
    assert view.remove_by == "Retire até 11/12/2026"
    assert "owner.withdraw" not in _intents(view) and "owner.will_remove" in _intents(view)
    # the timeline: who withdrew, under which article
    ev = (await _events(core, sub.case_id))[-1]
    assert ev.action == "owner_statement_withdrawn" and ev.article == "Art. 6º, §3º"
    assert ev.actor_kind == "owner" and "comprovou com: placa" in ev.data["withdrawn_by"]
    # the inspector asked to verify is told the request no longer stands
    verify, withdrawn = await outbox_for(core, INSPECTOR_CHAT)
    assert "Confira no local" in verify.payload["text"]
    assert "desfez a declaração" in withdrawn.payload["text"]
    assert "Não é mais preciso conferir" in withdrawn.payload["text"]
    assert "11/12/2026" in withdrawn.payload["text"]
    # the owner may declare again, within the same legal deadline
    await owner_statement(core, OWNER, sub.case_code, "removed")
    again = await owner_view(core, OWNER, sub.case_code)
    assert again.state == "owner_notified" and STATEMENT_NOTED in again.next_step


async def test_withdrawing_vou_retirar_once_removal_is_due_restores_it_art_6_par_3(
        core, photo, clock):
    sub = await notified(core, photo)
    clock.advance(days=11)
    await sweep_deadlines(core)  # Art. 6º, caput: removal due, no deadline runs
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    before = await _case(core, sub.case_id)
    assert before.state == "removal_due" and before.deadline_json is None
    await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 15))
    committed = await _case(core, sub.case_id)  # the fiscal's "prazo estipulado" (§3º)
    assert committed.state == "owner_removing"
    assert committed.deadline_json["due"] == "2026-12-15"
    assert committed.deadline_json["description"] == "retirada do objeto pelo próprio proprietário"
    *_, update = await outbox_for(core, REPORTER)
    assert "Próximo prazo: retirada do objeto pelo próprio proprietário até 15/12/2026 " \
        "(Art. 6º, §3º)." in update.payload["text"]
    view = await owner_view(core, OWNER, sub.case_code)
    assert view.deadline is None and view.promise == date(2026, 12, 15)
    assert "Sua data: você disse que vai retirar até 15/12/2026 (Art. 6º, §3º)." in \
        view_text(view)
    res = await withdraw_owner_statement(core, OWNER, sub.case_code)
    assert "Nenhum prazo legal está correndo agora." in res.message
    after = await _case(core, sub.case_id)
    assert after.state == "removal_due" and after.deadline_json is None
    assert (await _events(core, sub.case_id))[-1].action == "owner_withdraws"


async def test_withdrawing_ja_retirei_on_the_furniture_track_after_the_lapse_art_6_par_3(
        core, photo, clock):
    sub = await report(core, photo, category="large_furniture")
    await apply_transition(core, sub.protocol, "open_diligence", STAFF)
    await apply_transition(core, sub.protocol, "notify_owner", FISCAL,
                           {**ABANDONED, "owner_name": "José da Silva",
                            "owner_document": "529.982.247-25", "notification_number": "2/2026"},
                           agency="posturas")
    clock.advance(days=11)
    await sweep_deadlines(core)  # Art. 6º, caput: removal due, no deadline runs
    await link_by_code(core, OWNER, sub.case_code)
    with pytest.raises(Forbidden) as needs:  # the same proof as the statement
        await owner_statement(core, OWNER, sub.case_code, "removed")
    assert needs.value.message == NEEDS_PROOF
    await prove_owner(core, OWNER, sub.case_code, "52998224725")
    await owner_statement(core, OWNER, sub.case_code, "removed")
    assert (await _case(core, sub.case_id)).state == "owner_removing"
    res = await withdraw_owner_statement(core, OWNER, sub.case_code)
    assert "Nenhum prazo legal está correndo agora." in res.message
    after = await _case(core, sub.case_id)
    assert after.state == "removal_due" and after.deadline_json is None
    assert after.next_deadline_at is None
    view = await owner_view(core, OWNER, sub.case_code)
    assert view.remove_by == "Retire o quanto antes: a remoção já pode acontecer"


async def test_passed_deadline_is_said_plainly_and_the_case_is_due_art_6_par_3(
        core, photo, clock):
    sub = await notified(core, photo)
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 11))
    clock.advance(days=10, hours=12)  # 12/12/2026, 01:00 in São Paulo, before the sweep ran
    res = await withdraw_owner_statement(core, OWNER, sub.case_code)
    assert "já terminou em 11/12/2026 (Art. 4º, I)" in res.message
    assert "não o prorrogou" in res.message
    await sweep_deadlines(core)
    assert (await _case(core, sub.case_id)).state == "removal_due"  # Art. 6º, caput


async def test_refused_once_the_inspector_confirmed_art_6_par_3(core, photo):
    sub = await notified(core, photo)
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    await owner_statement(core, OWNER, sub.case_code, "removed")
    await apply_transition(core, sub.protocol, "confirm_owner_removed", FISCAL,
                           {"verification_notes": "Retirado, conferido no local."},
                           agency="posturas")
    with pytest.raises(InvalidInput) as err:
        await withdraw_owner_statement(core, OWNER, sub.case_code)
    assert err.value.message == "Este caso já foi encerrado."
    assert (await _case(core, sub.case_id)).state == "closed_removed_by_owner"


async def test_refused_after_a_later_inspector_step_naming_it(core, photo):
    sub = await report(core, photo, plate="ABC1D23")
    await apply_transition(core, sub.protocol, "open_diligence", STAFF)
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    await owner_statement(core, OWNER, sub.case_code, "removed")  # a note: in diligence
    seq, said = await withdrawable(core, OWNER, sub.case_code)
    assert said == "Já retirei o objeto do espaço público."
    await apply_transition(core, sub.protocol, "notify_owner", FISCAL,
                           {**ABANDONED, "owner_name": "José da Silva",
                            "owner_document": "529.982.247-25", "notification_number": "1/2026"},
                           agency="posturas")
    with pytest.raises(InvalidInput) as err:
        await withdraw_owner_statement(core, OWNER, sub.case_code, statement_seq=seq)
    assert "A fiscalização já agiu" in err.value.message
    assert "Notificar o proprietário (Anexo I)" in err.value.message
    assert "owner.withdraw" not in _intents(await owner_view(core, OWNER, sub.case_code))


async def test_stale_confirmation_changes_nothing(core, photo):
    sub = await notified(core, photo)
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 4))
    seq, _ = await withdrawable(core, OWNER, sub.case_code)
    await withdraw_owner_statement(core, OWNER, sub.case_code, statement_seq=seq)
    await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 9))
    with pytest.raises(InvalidInput) as err:  # the first "Sim" pressed again
        await withdraw_owner_statement(core, OWNER, sub.case_code, statement_seq=seq)
    assert "já mudou" in err.value.message
    assert (await owner_view(core, OWNER, sub.case_code)).promise == date(2026, 12, 9)


async def test_dracena_statement_note_withdrawn(make_core, photo):
    core = await make_core("dracena")
    sub = await report(core, photo, category="livestock", where=DRACENA)
    await apply_transition(core, sub.protocol, "open_diligence", STAFF)
    await link_by_code(core, OWNER, sub.case_code)
    await owner_statement(core, OWNER, sub.case_code, "will_remove",
                          date(2026, 12, 1) + timedelta(days=3))
    res = await withdraw_owner_statement(core, OWNER, sub.case_code)
    assert "foi desfeita" in res.message and not res.inspector_told
    ev = (await _events(core, sub.case_id))[-1]
    assert ev.action == "owner_statement_withdrawn" and not ev.public
    with pytest.raises(InvalidInput) as again:
        await withdraw_owner_statement(core, OWNER, sub.case_code)
    assert again.value.message == "Não há declaração sua para desfazer neste caso."


def test_a_law_gets_the_undo_by_declaring_it():
    states = [State("a", "A"), State("b", "B")]
    step = tr("commit", ("a",), "b", (Actor.OWNER,), "Art. 1º", "texto", "Comprometer-se",
              undo=Undo("take_back", frozenset({Actor.OWNER}), "Art. 1º", "Desfeito"))
    lc = Lifecycle.build("t", "a", states, [step])
    assert lc.undoing("take_back") is lc.transitions["commit"]
    assert lc.step_label("take_back") == "Desfeito" and lc.is_step("take_back")
    assert lc.check_undo("b", "take_back", Actor.OWNER) is step
    with pytest.raises(TransitionRefused):
        lc.check_undo("a", "take_back", Actor.OWNER)
    with pytest.raises(TransitionRefused):
        lc.check_undo("b", "take_back", Actor.INSPECTOR)
    clash = tr("other", ("b",), "a", (Actor.OWNER,), "Art. 2º", "texto", "Outro",
               undo=Undo("take_back", frozenset({Actor.OWNER}), "Art. 2º", "Desfeito"))
    with pytest.raises(ValueError):
        Lifecycle.build("t", "a", states, [step, clash])


async def test_public_owner_page_and_panel_timeline_show_the_withdrawal(core, photo):
    sub = await notified(core, photo)
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 5))
    await create_user(core, "ana", PASSWORD, "admin")
    panel = Panel(core)
    async with panel.client() as client:
        page = await (await owner_post(client, sub.case_code, "ABC1D23")).text()
        assert "Sua data: você disse que vai retirar até 05/12/2026" in page
        await withdraw_owner_statement(core, OWNER, sub.case_code)
        page = await (await owner_post(client, sub.case_code, "ABC-1D23")).text()
        assert "Sua data" not in page and "Retire até 11/12/2026" in page
        await login(client, "ana")
        case_page = await (await client.get(f"/casos/{sub.protocol}")).text()
        assert "Proprietário desfez a declaração (não é mais preciso verificar)" in case_page
        assert "Tipo de declaração: declaração desfeita" in _text(case_page)
        assert "Desfaz o registro nº: 4" in _text(case_page)
        assert "comprovou com: placa" in case_page


async def test_a_commitment_recorded_before_prior_deadline_was_kept_is_restored_too(
        core, photo, clock):
    """Steps recorded by the previous version lack PRIOR_DEADLINE: the deadline the step
    before them started is restored from its event (none after the lapse, Art. 6º, caput)."""
    sub = await notified(core, photo)
    clock.advance(days=11)
    await sweep_deadlines(core)
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 15))
    async with core.db.unit_of_work() as s:  # as the previous version wrote it
        ev = (await s.execute(select(Event).where(Event.case_id == sub.case_id,
                                                  Event.action == "owner_commits"))).scalar_one()
        ev.data = {k: v for k, v in ev.data.items() if k != PRIOR_DEADLINE}
    await withdraw_owner_statement(core, OWNER, sub.case_code)
    after = await _case(core, sub.case_id)
    assert after.state == "removal_due"
    assert after.deadline_json is None and after.next_deadline_at is None
