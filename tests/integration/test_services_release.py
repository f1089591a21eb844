"""The release at the depot through the core services (Dores Art. 3º, §3º, I–III, a staff step:
Art. 9º, I gives the Secretaria "gerenciar a liberação"; Dracena Art. 7º), on every engine: the checklist walked condition by condition, who collected
and with which document, the statement frozen with the payments, the case's final state, the
Termo de liberação kept as evidence, the owner and the reporter told — and each refusal the
law or the form makes, with nothing recorded."""
from __future__ import annotations

import io
from decimal import Decimal

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from core.services.cases.transitions import load_case
from core.services.errors import InvalidInput
from core.services.owners import link_by_code, set_owner_situation
from core.services.staff.payment_records import record_payment
from core.services.staff.release import ReleaseIn, release, release_form
from core.storage.models import Event, Evidence
from core.storage.timeline import ActorRef
from tests.support.owner_chat import depot_case
from tests.support.payments import official_tariffs
from tests.support.owner_cases import OWNER, REPORTER, STAFF, dracena_apprehension, outbox_for

CLERK = ActorRef("staff", "u9", "Bruno (pátio)")
E2E = "E00038166202612281200abcDEF12345"
CPF = "529.982.247-25"
DORES_CAR = frozenset({"within_deadline", "owner_identified", "towing_and_storage_paid",
                       "fines_insurance_fees_paid"})


def form(ticked=DORES_CAR, **kw) -> ReleaseIn:
    base = dict(ticked=frozenset(ticked), name="José da Silva", document=CPF, id_kind="CNH",
                id_number="01234567890")
    return ReleaseIn(**{**base, **kw})


async def paid_depot_case(core, photo, clock, amount="440,00"):
    sub, _ = await depot_case(core, photo, clock)
    await official_tariffs(core)
    await link_by_code(core, OWNER, sub.case_code)
    await record_payment(core, sub.protocol, amount, "28/12/2026", E2E, CLERK)
    return sub


async def events(core, action):
    async with core.db.read() as s:
        return (await s.execute(select(Event).where(Event.action == action)
                                .order_by(Event.seq))).scalars().all()


def pdf_text(blob: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(blob)).pages)
                    .split())


async def test_release_closes_the_case_issues_the_termo_and_tells_owner_and_reporter(
        core, photo, clock):
    sub = await paid_depot_case(core, photo, clock)
    shown = await release_form(core, sub.protocol)
    # Art. 3º, §3º: the checklist with its articles, the statement and the payment beside it
    assert [(c.code, c.article) for c in shown.conditions] == [
        ("within_deadline", "Art. 3º, §3º, I"), ("owner_identified", "Art. 3º, §3º, I"),
        ("towing_and_storage_paid", "Art. 3º, §3º, II"),
        ("fines_insurance_fees_paid", "Art. 3º, §3º, III")]
    assert shown.statement.total == Decimal("440.00") and shown.missing == 0
    done = await release(core, sub.protocol, form(), CLERK)
    assert done.result.state == "released"
    async with core.db.read() as s:
        case = await load_case(s, sub.protocol)
        kept = (await s.execute(select(Evidence).where(Evidence.case_id == case.id,
                                                       Evidence.kind == "document"))
                ).scalars().all()
    assert not case.is_open and case.state == "released"
    assert done.document[0] in {e.sha256 for e in kept}
    [record] = await events(core, "release_recorded")
    assert record.public is False and record.actor_name == "Bruno (pátio)"
    r = record.data
    assert r["collector"] == {"name": "José da Silva", "document": "52998224725",
                              "id_kind": "CNH", "id_number": "01234567890",
                              "capacity": "owner", "power_of_attorney": ""}
    assert r["statement"]["total"] == "440.00" and len(r["statement"]["lines"]) == 3
    assert r["payments"] == [{"method": "PIX", "reference": E2E, "paid_on": "2026-12-28",
                              "amount": "440.00"}]
    text = pdf_text(done.document[2])
    for words in ("TERMO DE LIBERAÇÃO", "1ª VIA: PÁTIO", "2ª VIA: QUEM RETIROU",
                  "José da Silva", "529.982.247-25", "CNH nº 01234567890",
                  "Art. 3º, §3º, II", f"PIX {E2E}", "R$ 440,00", "SERVIDOR RESPONSÁVEL",
                  "Bruno (pátio)"):
        assert words in text.replace("\xa0", " "), words
    # the release step is public: the reporter and the linked owner are told
    [to_reporter] = [m for m in await outbox_for(core, REPORTER)
                     if "Devolvido ao proprietário" in m.payload["text"]]
    assert "José" not in to_reporter.payload["text"]
    assert any("Devolvido ao proprietário" in m.payload["text"]
               for m in await outbox_for(core, OWNER))


async def test_sale_communicated_and_not_transferred_is_refused_art_3_par_3_III_a(
        core, photo, clock):
    sub = await paid_depot_case(core, photo, clock)
    with pytest.raises(InvalidInput) as refused:
        await release(core, sub.protocol,
                      form(DORES_CAR | {"ownership_transferred"}, sale_communicated=True),
                      CLERK)
    assert "Art. 3º, §3º, III, a" in refused.value.message
    assert "transferência" in refused.value.message
    # what the owner said in the bot starts the form: the clerk sees the transfer condition
    await set_owner_situation(core, OWNER, sub.case_code, sale_communicated=True)
    shown = await release_form(core, sub.protocol)
    assert shown.situation.sale_communicated and not shown.situation.transferred
    assert "ownership_transferred" in {c.code for c in shown.conditions}
    # transferred: the condition joins the checklist and must be ticked too
    with pytest.raises(InvalidInput) as unticked:
        await release(core, sub.protocol, form(sale_communicated=True, transferred=True), CLERK)
    assert unticked.value.field == "cond_ownership_transferred"
    assert await events(core, "release_recorded") == []
    done = await release(core, sub.protocol, form(DORES_CAR | {"ownership_transferred"},
                                                  sale_communicated=True, transferred=True),
                         CLERK)
    assert done.result.state == "released"


async def test_unrecoverable_and_not_deregistered_is_refused_art_3_par_3_III_b(
        core, photo, clock):
    sub = await paid_depot_case(core, photo, clock)
    with pytest.raises(InvalidInput) as refused:
        await release(core, sub.protocol, form(DORES_CAR | {"deregistered"}, unrecoverable=True),
                      CLERK)
    assert "Art. 3º, §3º, III, b" in refused.value.message and "baixa" in refused.value.message
    done = await release(core, sub.protocol, form(DORES_CAR | {"deregistered"},
                                                  unrecoverable=True, deregistered=True), CLERK)
    assert done.result.state == "released"
    [record] = await events(core, "release_recorded")
    assert record.data["situation"]["deregistered"] is True


async def test_fees_not_fully_paid_are_refused_with_what_is_missing_art_3_par_3_II(
        core, photo, clock):
    sub = await paid_depot_case(core, photo, clock, amount="400,00")
    with pytest.raises(InvalidInput) as refused:
        await release(core, sub.protocol, form(), CLERK)
    assert "falta pagar R$\xa040,00" in refused.value.message
    # a day later the storage grew: what was paid for yesterday no longer covers it
    await record_payment(core, sub.protocol, "40,00", "28/12/2026", "E" + E2E[1:-1] + "X",
                         CLERK)
    clock.advance(days=1)
    with pytest.raises(InvalidInput) as later:
        await release(core, sub.protocol, form(), CLERK)
    assert "falta pagar R$\xa035,00" in later.value.message
    async with core.db.read() as s:
        assert (await load_case(s, sub.protocol)).state == "in_depot"


async def test_reference_tariffs_refuse_the_release_until_the_city_sets_them_art_9_II(
        core, photo, clock):
    sub, _ = await depot_case(core, photo, clock)  # the towing value is still a reference
    await record_payment(core, sub.protocol, "440,00", "28/12/2026", E2E, CLERK)
    with pytest.raises(InvalidInput) as refused:
        await release(core, sub.protocol, form(), CLERK)
    assert "valor de referência" in refused.value.message
    assert "Cadastre o valor oficial em Tarifas" in refused.value.message


@pytest.mark.parametrize("change, field, words", [
    ({"ticked": DORES_CAR - {"fines_insurance_fees_paid"}}, "cond_fines_insurance_fees_paid",
     "Art. 3º, §3º, III"),
    ({"document": "529.982.247-24"}, "document", "CPF inválido"),
    ({"document": "12"}, "document", "CPF/CNPJ inválido"),
    ({"name": "  "}, "name", "Nome de quem retira"),
    ({"id_kind": "Crachá"}, "id_kind", "Documento apresentado"),
    ({"id_number": ""}, "id_number", "Número do documento"),
    ({"by_attorney": True, "attorney_ref": "",
      "ticked": DORES_CAR - {"owner_identified"} | {"attorney_identified"}},
     "attorney_ref", "procuração pública"),
])
async def test_each_refusal_names_its_field_and_records_nothing(core, photo, clock, change,
                                                                field, words):
    sub = await paid_depot_case(core, photo, clock)
    with pytest.raises(InvalidInput) as refused:
        await release(core, sub.protocol, form(**change), CLERK)
    assert refused.value.field == field and words in refused.value.message
    assert await events(core, "release_recorded") == []


async def test_an_attorney_with_the_procuracao_collects_art_3_par_3_I(core, photo, clock):
    sub = await paid_depot_case(core, photo, clock)
    ticked = DORES_CAR - {"owner_identified"} | {"attorney_identified"}
    done = await release(core, sub.protocol, form(
        ticked, by_attorney=True, name="Ana Procuradora", document="11.222.333/0001-81",
        attorney_ref="Cartório do 1º Ofício, livro 12, fl. 34"), CLERK)
    text = pdf_text(done.document[2])
    assert "11.222.333/0001-81" in text and "Procurador(a)" in text
    assert "Cartório do 1º Ofício, livro 12, fl. 34" in text


async def test_dracena_retrieval_by_the_offender_art_7(make_core, photo, clock):
    from core.storage.models import Tariff
    from sqlalchemy import update
    core = await make_core("dracena")
    sub = await dracena_apprehension(core, photo, clock)
    async with core.db.unit_of_work() as s:
        await s.execute(update(Tariff).values(created_by="admin"))
    core.invalidate()
    shown = await release_form(core, sub.protocol)
    assert [c.article for c in shown.conditions] == ["Art. 7º"] * 4 + ["Art. 7º, a e b"]
    assert shown.by_attorney_allowed is False
    total = shown.statement.total
    ticked = frozenset(c.code for c in shown.conditions)
    with pytest.raises(InvalidInput) as attorney:
        await release(core, sub.protocol, form(ticked, by_attorney=True, attorney_ref="x y z"),
                      STAFF)
    assert "Art. 7º" in attorney.value.message
    await record_payment(core, sub.protocol, f"{total:.2f}".replace(".", ","), "01/12/2026",
                         E2E, STAFF)
    done = await release(core, sub.protocol, form(ticked), STAFF)
    assert done.result.state == "retrieved"
    text = pdf_text(done.document[2])
    assert "Multa" in text and "Lei nº 56, de 09/10/1951" in text


async def test_furniture_is_released_without_the_vehicle_conditions_art_3_par_3(
        core, photo, clock):
    """A sofa in the depot: Art. 3º, §3º, I and II (III only for motor vehicles); no
    registration ticks asked; released while its Diário Oficial term runs (Art. 5º, III)."""
    from tests.support.panel import new_case, to_depot_furniture
    sub = await new_case(core, photo, 1, category="large_furniture")
    await to_depot_furniture(core, sub.protocol)
    await official_tariffs(core)
    shown = await release_form(core, sub.protocol)
    assert shown.asks == frozenset()
    assert [c.article for c in shown.conditions] == [
        "Art. 5º, III; Art. 3º, §1º", "Art. 3º, §3º, I", "Art. 3º, §3º, II"]
    if shown.statement.total:
        await record_payment(core, sub.protocol,
                             f"{shown.statement.total:.2f}".replace(".", ","), "01/12/2026",
                             E2E, CLERK)
    done = await release(core, sub.protocol,
                         form({c.code for c in shown.conditions}), CLERK)
    assert done.result.state == "released"
    assert "sofá de 3 lugares" in pdf_text(done.document[2])
