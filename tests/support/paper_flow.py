"""Every paper of both laws, produced by real cases (no tests here): a citizen's report
(core.services.citizens.reports), the inspector's step forms taken as the bot takes them
(core.services.inspectors.step_forms: the questions asked, the suggestions the inspector accepts with
"Usar", the answers typed), the staff's steps and editais (the panel's services), the
deadlines lapsing by the sweep, and the owner's summary from the owner's link.

    papers = await dores_papers(core, photo, clock)     # {"notificacao": b"%PDF…", …}

The citizen describes the car as "Fiat Uno Mille", "branco" and adds a free description
(CITIZEN_NOTE) that no legal paper may print."""
from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import update

from core.laws.base import ReleaseSituation
from core.services.cases.transitions import apply_transition
from core.services.papers.documents import issue_notification
from core.services.inspectors.accounts import bind_inspector, invite_inspector
from core.services.owners.summary import owner_summary_pdf
from core.services.owners.linking import link_by_code
from core.services.staff.editais import edital_documents
from core.services.citizens.reports import ReportIn, submit_report
from core.services.inspectors.step_forms import parse_answer, perform_step, step_form
from core.services.cases.sweep import sweep_deadlines
from core.services.staff.payment_records import record_payment
from core.services.staff.release import ReleaseIn, release, release_form
from core.storage.models import Tariff
from core.storage.timeline import ActorRef

STAFF = ActorRef("staff", "u1", "Maria (Secretaria)")
CITIZEN = 555
OWNER = 777
CITIZEN_NOTE = "junta mosquito da dengue"
#: Typed by the inspector at the inspection (the boxes only he can fill).
PAPERS_OF_THE_CAR = {"vehicle_chassis": "9BD15822AB4012345", "vehicle_renavam": "00123456789",
                     "plate_municipality": "Dores do Indaiá", "plate_uf": "mg"}
ABANDONED = {"abandonment_criteria": ["days_in_place", "missing_tyres", "no_bumpers"]}
#: Telegram ids of the inspectors, by agency.
INSPECTORS = {"posturas": 901, "saude": 903, "fiscalizacao": 911}


async def inspector(core, agency: str, name: str, registration: str) -> int:
    tg = INSPECTORS[agency]
    code = await invite_inspector(core, name, agency, "staff", registration=registration)
    await bind_inspector(core, tg, code)
    return tg


async def report(core, photo, category: str, i: int = 1, **kw: Any) -> str:
    lat, lon = core.law.centre
    r = ReportIn(category, lat, lon, [photo(i)], address="Rua Tiradentes, 120, Centro", **kw)
    return (await submit_report(core, CITIZEN, r, display_name="Maria")).protocol


async def step(core, tg: int, protocol: str, code: str, typed: dict[str, Any] | None = None,
               more: bool = False) -> bytes | None:
    """The inspector's form for step `code`, answered as in the chat: a typed answer read as
    the bot reads it, else the suggestion offered ("Usar: …"); the facts asked on request
    only when `more` ("➕ Mais dados"). The step's document, if it has one."""
    typed = typed or {}
    form = await step_form(core, tg, protocol, code)
    answers: dict[str, Any] = {}
    for f in form.fields:
        if f.on_request and not more:
            continue
        if f.fact in typed:
            value = typed[f.fact]
            answers[f.fact] = parse_answer(core, f, value) if isinstance(value, str) \
                and f.kind in ("text", "date", "datetime", "money", "cpf", "odometer",
                               "goods", "plate") else value
        elif f.suggestion:
            answers[f.fact] = f.suggestion
    done = await perform_step(core, tg, protocol, code, answers)
    return done.documents[0][2] if done.documents else None


async def staff(core, protocol: str, code: str, facts: dict[str, Any]) -> None:
    await apply_transition(core, protocol, code, STAFF, facts)


async def edital(core, kind: str, protocols: list[str]) -> bytes:
    _, pdf = await edital_documents(core, kind, protocols, "15/2026", "Carlos Souza",
                                    "Secretário Municipal de Administração")
    return pdf


async def summary(core, protocol_code: str, bot: str) -> bytes:
    await link_by_code(core, OWNER, protocol_code)
    return await owner_summary_pdf(core, OWNER, protocol_code, bot_username=bot)


async def released(core, protocol: str, **who: Any) -> bytes:
    """The Termo de liberação (Dores Art. 3º, §3º; Dracena Art. 7º): the city confirmed its
    tariffs, the owner paid the total by PIX, the clerk ticked every condition."""
    async with core.db.unit_of_work() as s:
        await s.execute(update(Tariff).values(created_by="admin"))
    core.invalidate()
    form = await release_form(core, protocol,
                              ReleaseSituation(by_attorney=bool(who.get("by_attorney"))))
    today = core.now().astimezone(ZoneInfo("America/Sao_Paulo")).strftime("%d/%m/%Y")
    await record_payment(core, protocol, f"{form.statement.total:.2f}".replace(".", ","), today,
                         "E00038166202612011200abcDEF12345", STAFF)
    done = await release(core, protocol, ReleaseIn(
        ticked=frozenset(c.code for c in form.conditions), **{
            "name": "José da Silva", "document": "529.982.247-25", "id_kind": "CNH",
            "id_number": "01234567890", **who}), STAFF)
    return done.document[2]


async def _case_code(core, protocol: str) -> str:
    from core.services.cases.transitions import load_case
    async with core.db.read() as s:
        return (await load_case(s, protocol)).case_code


async def dores_papers(core, photo, clock) -> dict[str, bytes]:
    """Dores do Indaiá (Lei 3.043/2022): the notificação (Art. 4º, I), the affixed notice
    (Art. 4º, II, a), the notificação after the Diário Oficial (Art. 4º, II, b), the furniture
    notificação (Art. 5º, I), the termo de recolhimento (Art. 6º, I, b), the four editais
    (Art. 4º, II, b; Art. 5º, III; Art. 6º, §1º; Art. 3º and 8º) and the owner's summary."""
    ana = await inspector(core, "posturas", "Ana Fiscal", "12.345")
    saude = await inspector(core, "saude", "Rui Agente", "7.001")
    out: dict[str, bytes] = {}
    car = dict(make_model="Fiat Uno Mille", colour="branco", description=CITIZEN_NOTE)
    # owner identified: notificação, removal, termo, owner's summary
    known = await report(core, photo, "motor_vehicle", 1, plate="abc1d23", **car)
    out["notificacao"] = await step(core, ana, known, "notify_owner", {
        **ABANDONED, **PAPERS_OF_THE_CAR, "owner_name": "José da Silva",
        "owner_document": "529.982.247-25", "notification_number": "7/2026"}, more=True)
    # owner unknown: affixed notice, edital, published notificação
    unknown = await report(core, photo, "motor_vehicle", 2, plate="QWE1234", **car)
    out["notificacao_afixada"] = await step(core, ana, unknown, "affix_notice", {
        **ABANDONED, "notification_number": "8/2026"})
    out["edital_notificacao"] = await edital(core, "notificacao", [unknown])
    await staff(core, unknown, "record_publication", {"publication_date": "2026-12-02",
                                                      "publication_reference": "Ed. 100, p. 3"})
    out["notificacao_publicada"] = (await issue_notification(core, unknown, STAFF))[2]
    # furniture: notificação (Art. 5º, I); another removed at once (Art. 5º, II)
    sofa = await report(core, photo, "large_furniture", 3, description=CITIZEN_NOTE)
    out["notificacao_bens"] = await step(core, saude, sofa, "notify_owner", {
        **ABANDONED, "owner_name": "Joana Prado", "owner_document": "52998224725",
        "notification_number": "9/2026"})
    machine = await report(core, photo, "machinery", 4, description=CITIZEN_NOTE)
    clock.advance(days=14)  # Tuesday 15/12, 13:00: every notificação's 10 days lapsed
    await sweep_deadlines(core)
    await step(core, ana, known, "start_removal", {"removal_photos": [photo(5).sha256],
                                                   "removal_started_at": "15/12/2026 09:15"})
    await step(core, ana, unknown, "start_removal", {"removal_photos": [photo(6).sha256],
                                                     "removal_started_at": "15/12/2026 10:00"})
    await step(core, saude, machine, "remove_immediately", {
        **ABANDONED, "removal_reason": "Obstrui a calçada", "removal_photos": [photo(7).sha256],
        "removal_started_at": "15/12/2026 11:00"})
    clock.advance(days=2)  # the entries are registered on Thursday 17/12
    depot = {"termo_number": "T-3/2026", "missing_parts": ["tyres", "retrovisores"],
             "odometer": "123.456 km", "depot": "Pátio Central"}
    out["termo"] = await step(core, ana, known, "depot_entry", depot)
    await step(core, ana, unknown, "depot_entry", {**depot, "termo_number": "T-4/2026"})
    out["termo_bens"] = await step(core, saude, machine, "depot_entry", {
        "termo_number": "T-5/2026", "item_description": "Betoneira laranja, 400 litros",
        "depot": "Pátio Central"})
    out["edital_remocao"] = await edital(core, "remocao", [unknown])
    out["edital_notificacao_bens"] = await edital(core, "notificacao_bens", [machine])
    out["resumo"] = await summary(core, await _case_code(core, known), "ViaLivreDoresBot")
    clock.advance(days=3)  # Sunday 20/12: the owner pays and an attorney collects the car
    out["termo_liberacao"] = await released(
        core, known, by_attorney=True, name="Ana Procuradora de Oliveira Santos",
        attorney_ref="Cartório do 1º Ofício de Dores do Indaiá, livro 12, folha 34")
    clock.advance(days=67)  # Art. 3º: 60 days unclaimed
    await sweep_deadlines(core)
    out["edital_leilao"] = await edital(core, "leilao", [unknown])
    return out


async def dracena_papers(core, photo, clock) -> dict[str, bytes]:
    """Dracena (Lei 56/1951): the auto de infração (Art. 2º, with its verso, Art. 5º), the
    intimação (Art. 2º, §3º), the nota de apreensão (Art. 4º, §1º), the auto de apreensão
    with the depot register entry (Art. 4º; Art. 6º), the auction edital (Art. 6º, §1º) and
    the owner's summary."""
    agent = await inspector(core, "fiscalizacao", "Paulo Agente", "3.210")
    out: dict[str, bytes] = {}
    auto = {"offender_name": "José Ambulante", "infraction_fact": "Calçada obstruída por entulho",
            "place": "Rua São Paulo, 10", "occurred_at": "01/12/2026 10:20",
            "provision_violated": "Código de Posturas, art. 80", "fine_amount": "250,00",
            "agent_signature": True}
    present = await report(core, photo, "infraction", 1, description=CITIZEN_NOTE)
    out["auto_infracao"] = await step(core, agent, present, "issue_auto", {
        **auto, "copy_delivered": True, "offender_signature": False,
        "refusal_declaration": True, "witnesses": ["Pedro Lima", "Rita Alves"]})
    absent = await report(core, photo, "infraction", 2, description=CITIZEN_NOTE)
    await step(core, agent, absent, "issue_auto_absent", {
        **auto, "absence_reason": "Infrator não encontrado no local",
        "witnesses": ["Pedro Lima", "Rita Alves"]})
    out["intimacao"] = await step(core, agent, absent, "serve_intimacao", {
        "intimacao_date": "01/12/2026", "offender_address": "Rua Bahia, 10"})
    vendor = await report(core, photo, "street_vendor_goods", 3, description=CITIZEN_NOTE)
    out["nota_apreensao"] = await step(core, agent, vendor, "low_value_note", {
        "goods_list": "12 óculos de sol; 30 capinhas de celular", "fine_amount": "80,00",
        "provision_violated": "Código de Posturas, art. 80", "note_signed": True,
        "apprehended_at": "01/12/2026 12:30", "depot_register_entry": "L1-044",
        "vendor_name": "Vendedor X"})
    out["termo_liberacao"] = await released(core, vendor, name="Vendedor X da Silva")
    car = await report(core, photo, "abandoned_vehicle", 4, plate="abc1234",
                       make_model="VW Gol", colour="prata", description=CITIZEN_NOTE)
    out["auto_apreensao"] = await step(core, agent, car, "apprehend", {
        "goods_description": "Automóvel VW Gol prata, placa ABC-1234", "place": "Rua Bahia, 5",
        "apprehended_at": "01/12/2026 11:00", "provision_violated": "Lei 56/1951, Art. 1º",
        "fine_amount": "100,00", "depot_register_entry": "L1-045"})
    out["resumo"] = await summary(core, await _case_code(core, car), "ViaLivreDracenaBot")
    clock.advance(days=10)
    await sweep_deadlines(core)
    out["edital_leilao"] = await edital(core, "leilao", [car])
    return out
