"""No legal deadline starts without its document: a lifecycle step whose
document cannot be produced is refused as a whole, in the bot's form and on the panel; the
owner link's bot username is the one the bot learnt from getMe and recorded in the database,
read by the panel (a separate process)."""
from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from core.identifiers import format_case_code
from core.laws import get_law
from core.lifecycle import BUTTON_MAX
from core.services.papers.kinds import document_kinds
from core.services.messaging.bot_identity import bot_username, record_bot_username
from core.services.cases.transitions import apply_transition
from core.storage.models import Case, Event, Evidence
from core.storage.timeline import ActorRef
from tests.support.panel import new_case, post_form

INSPECTOR = ActorRef("inspector", 1, "Fiscal")
DEPOT = {"termo_number": "T-7", "item_description": "sofá de 3 lugares",
         "depot": "Pátio Municipal, Av. Brasil, 900"}


def pdf_text(blob: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(blob)).pages).split())


async def removed_furniture(core, photo) -> str:
    """A large piece of furniture removed at once (Dores Art. 5º, II): its depot entry (with
    the termo de recolhimento, Art. 6º, I, b) is the next step, which staff may take."""
    s = await new_case(core, photo, 4, category="large_furniture", address="Rua Bahia, 300")
    await apply_transition(core, s.protocol, "open_diligence", ActorRef("staff", 0, "seed"))
    await apply_transition(core, s.protocol, "remove_immediately", INSPECTOR,
                           {"abandonment_criteria": ["days_in_place", "neighbours_unaware"],
                            "removal_reason": "proprietário não identificado",
                            "removal_photos": ["sha"],
                            "removal_started_at": "2026-11-20T09:30:00-03:00"},
                           agency="saude")
    return s.protocol


async def case_and_documents(core, protocol):
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
        docs = (await s.execute(select(Evidence).where(
            Evidence.case_id == case.id, Evidence.kind == "document"))).scalars().all()
        events = (await s.execute(select(Event.action).where(Event.case_id == case.id))
                  ).scalars().all()
    return case, docs, events


async def test_username_learnt_by_the_bot_is_what_documents_use_unless_overridden(make_core):
    core = await make_core()
    assert await bot_username(core) == ""
    await record_bot_username(core, "@ViaLivreDoresBot")
    await record_bot_username(core, "ViaLivreDoresBot")  # every start-up: idempotent
    assert await bot_username(core) == "ViaLivreDoresBot"
    other = await make_core(telegram_bot_username="@OutroNomeBot")  # the .env override
    assert await bot_username(other) == "OutroNomeBot"


async def test_panel_depot_entry_without_a_known_username_changes_nothing_art_6_I_b(
        panel, photo):
    """Neither TELEGRAM_BOT_USERNAME nor a username learnt by the bot: the termo (Art. 6º,
    I, b) cannot carry the owner's link, so the depot entry is refused and no deadline runs."""
    core = panel.core
    protocol = await removed_furniture(core, photo)
    before, _, _ = await case_and_documents(core, protocol)
    url = f"/casos/{protocol}"
    async with panel.client("bruno") as c:
        r = await post_form(c, url, f"{url}/acao/depot_entry", DEPOT)
        page = await (await c.get(r.headers["Location"])).text() if r.status == 302 \
            else await r.text()
    assert "nome do bot no Telegram ainda não é conhecido" in page
    assert "TELEGRAM_BOT_USERNAME" in page
    case, docs, events = await case_and_documents(core, protocol)
    assert "depot_entry" not in events and docs == []
    assert (case.state, case.deadline_json) == (before.state, before.deadline_json)


async def test_panel_depot_entry_issues_the_termo_with_the_username_the_bot_learnt(
        panel, photo):
    core = panel.core
    protocol = await removed_furniture(core, photo)
    await record_bot_username(core, "ViaLivreDoresBot")  # as the bot does at start-up
    url = f"/casos/{protocol}"
    async with panel.client("bruno") as c:
        r = await post_form(c, url, f"{url}/acao/depot_entry", DEPOT)
        assert r.status == 302
        page = await (await c.get(r.headers["Location"])).text()
        assert "Documento emitido: termo-de-recolhimento-" in page
        case, docs, events = await case_and_documents(core, protocol)
        assert "depot_entry" in events and len(docs) == 1
        assert f"/evidencias/{docs[0].sha256}" in page  # listed under Documentos
        pdf = await (await c.get(f"/evidencias/{docs[0].sha256}")).read()
    text = pdf_text(pdf)
    assert f"t.me/ViaLivreDoresBot?start={format_case_code(case.case_code)}" in text
    assert "Art. 6º" in text


async def test_staff_serving_the_intimacao_issues_it_with_the_step_dracena_art_2_par_3(
        make_core, photo):
    """Dracena Art. 2º, §3º: staff record the intimação of an absent offender (a step staff
    may take on the panel); its document comes out in the same transaction, and the 5 days
    to appeal (Art. 3º) run from it."""
    from core.services.cases.steps import take_step
    from tests.support.paper_cases import AUTO, FISCAL
    from tests.support.paper_cases import new_case as reported

    dracena = await make_core("dracena")
    await record_bot_username(dracena, "ViaLivreDracenaBot")
    case = await reported(dracena, photo, category="infraction")
    await apply_transition(dracena, case.protocol, "issue_auto_absent", FISCAL,
                           {**AUTO, "absence_reason": "Infrator não encontrado no local"},
                           agency="fiscalizacao")
    taken = await take_step(dracena, case.protocol, "serve_intimacao",
                            ActorRef("staff", "u1", "bruno"),
                            {"intimacao_date": "2026-12-01"})
    [(sha, name, blob)] = taken.documents
    text = pdf_text(blob)
    assert name == f"intimacao-{case.protocol}.pdf" and "INTIMAÇÃO" in text
    assert "Art. 3º" in text and f"t.me/ViaLivreDracenaBot?start={format_case_code(case.case_code)}" in text
    assert taken.result.deadline["article"].startswith("Art. 3º")


@pytest.mark.parametrize("slug, steps", [
    ("dores-do-indaia", {"notify_owner", "affix_notice", "depot_entry"}),
    ("dracena", {"issue_auto", "issue_auto_absent", "serve_intimacao", "apprehend",
                 "low_value_note"})])
def test_every_step_that_declares_a_paper_has_its_issuer_name_and_button(slug, steps):
    """Each step declares its own paper (Transition.document): the kind is one the registry
    knows (core.services.papers.kinds), with an issuer, a Portuguese name and a button short
    enough for a phone; the steps that start a notice's days issue one (Dores Art. 4º, I and
    II, a; Art. 6º, I, b; Dracena Art. 2º, §3º; Art. 4º, §1º)."""
    law = get_law(slug)
    kinds = document_kinds(law)
    declared = {t.code: t.document for lc in law.tracks.values()
                for t in lc.transitions.values() if t.document}
    for code, kind in declared.items():
        assert kind in kinds, (code, kind)
        assert callable(kinds[kind].issue) and kinds[kind].label
        assert 0 < len(kinds[kind].button) <= BUTTON_MAX
    assert set(declared) == steps
