"""Staff actions through the panel: each goes through the core's services, is allowed only
when the lifecycle allows it for staff, and is recorded in the case's timeline with the staff
member's name."""
from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select, update

from core.identifiers import format_case_code
from core.services import staff as pq
from core.services.cases.transitions import apply_transition
from core.services.inspectors.accounts import bind_inspector, invite_inspector
from core.storage.models import Case, Closure, Event, OutboxMessage, Subscription, Tariff
from core.storage.timeline import ActorRef
from tests.support.panel import new_case, post_form, to_depot_furniture, to_notice_affixed


async def _events(core, protocol):
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
        evs = (await s.execute(select(Event).where(Event.case_id == case.id)
                               .order_by(Event.seq))).scalars().all()
        return case, evs


async def test_close_as_unfounded_records_staff_name_and_tells_the_citizen(panel, photo):
    core = panel.core
    s = await new_case(core, photo)
    url = f"/casos/{s.protocol}"
    async with panel.client("bruno") as c:
        r = await post_form(c, url, f"{url}/acao/close_unfounded",
                            {"reason": "No local há apenas um carro estacionado regularmente."})
        assert r.status == 302
        page = await (await c.get(url)).text()
        assert "Encerrado: denúncia improcedente" in page
    case, evs = await _events(core, s.protocol)
    assert case.state == "closed_unfounded" and not case.is_open
    assert (evs[-1].actor_kind, evs[-1].actor_name) == ("staff", "bruno")
    async with core.db.read() as ses:
        texts = [m.payload["text"] for m in (await ses.execute(select(OutboxMessage))).scalars()]
    assert any("estacionado regularmente" in t for t in texts)


async def test_only_lifecycle_actions_for_staff_are_offered_and_accepted(panel, photo):
    """A new report: staff may open the diligence or close it; the Diário Oficial
    publication (Art. 4º, II, b) is not available yet, and a forged POST is refused."""
    core = panel.core
    s = await new_case(core, photo)
    url = f"/casos/{s.protocol}"
    async with panel.client("bruno") as c:
        page = await (await c.get(url)).text()
        assert "/acao/close_unfounded" in page and "/acao/record_publication" not in page
        assert "/acao/notify_owner" not in page  # an inspector's step
        r = await post_form(c, url, f"{url}/acao/record_publication",
                            {"publication_date": "01/12/2026", "publication_reference": "DOM 1"},
                            headers={"Referer": f"http://{c.host}:{c.port}{url}"})
        assert r.status == 400  # the case page again, saying why
        msg = await r.text()
        assert "não está disponível" in msg and f"Caso {s.protocol}" in msg
    case, _ = await _events(core, s.protocol)
    assert case.state == "reported"


async def test_publication_date_via_diario_oficial_starts_ten_days_art_4_II_b(panel, photo):
    core = panel.core
    s = await new_case(core, photo)
    await to_notice_affixed(core, s.protocol)
    async with panel.client("bruno") as c:
        page = await (await c.get("/diario-oficial")).text()
        assert s.protocol in page
        text = await (await c.get("/diario-oficial/notificacao.txt")).text()
        assert "EDITAL DE NOTIFICAÇÃO" in text and "Cidadão" not in text
        r = await post_form(c, "/diario-oficial", "/diario-oficial/notificacao/publicar",
                            {"p": s.protocol, "date": "27/11/2026", "reference": "DOM nº 77"})
        assert r.status == 302
    case, evs = await _events(core, s.protocol)
    assert case.state == "published"
    assert case.deadline_json["article"] == "Art. 4º, II, b"
    assert case.deadline_json["due"] == "2026-12-07"  # 10 days from Friday 27/11/2026
    assert evs[-1].actor_name == "bruno" and evs[-1].data["publication_reference"] == "DOM nº 77"


async def test_furniture_removed_at_once_is_published_in_diario_oficial_art_5_III(panel, photo):
    """Dores Art. 5º, III: a large piece of furniture removed at once (owner not identified,
    Art. 5º, II) is published in the Diário Oficial with its characteristics and the address
    where it was abandoned; the 10 days to take it back run from the publication date."""
    core = panel.core
    s = await new_case(core, photo, 4, category="large_furniture", address="Rua Bahia, 300",
                       description="Sofá marrom; dono Sr. Fulano, CPF 529.982.247-25")
    vehicle = await new_case(core, photo, 5)
    await to_notice_affixed(core, vehicle.protocol)
    await to_depot_furniture(core, s.protocol)
    async with panel.client("bruno") as c:
        page = await (await c.get("/diario-oficial")).text()
        assert "Art. 5º, III" in page and s.protocol in page
        assert "/diario-oficial/notificacao_bens/publicar" in page
        assert 'action="/diario-oficial/notificacao_bens.pdf"' in page
        text = await (await c.get("/diario-oficial/notificacao_bens.txt", params={
            "number": "016/2026", "signer": "Carlos Souza", "role": "Secretário"})).text()
        pdf = await c.get("/diario-oficial/notificacao_bens.pdf")
        assert pdf.status == 200 and (await pdf.read()).startswith(b"%PDF")
        vehicles = await (await c.get("/diario-oficial/notificacao.txt")).text()
        r = await post_form(c, "/diario-oficial", "/diario-oficial/notificacao_bens/publicar",
                            {"p": s.protocol, "date": "27/11/2026", "reference": "DOM nº 78"})
        assert r.status == 302
        after = await (await c.get("/diario-oficial")).text()
    assert "Art. 5º, III" in text and "10 (dez) dias, contados da data desta publicação" in text
    assert "Nº 016/2026" in text and "Carlos Souza\nSecretário" in text
    assert "Móvel de grande porte — características: sofá de 3 lugares" in text
    assert "Fulano" not in text  # the citizen's free text stays out
    assert "Endereço em que se encontrava abandonado: Rua Bahia, 300." in text
    assert "Endereço do depósito: Pátio Municipal, Av. Brasil, 900." in text
    assert "529.982.247-25" not in text and "Cidadão" not in text  # no CPF, no reporter
    shown = format_case_code(s.case_code)
    assert shown in text and shown not in vehicles  # the lists do not mix
    case, evs = await _events(core, s.protocol)
    assert case.state == "published"
    assert case.deadline_json["article"] == "Art. 5º, III"
    assert case.deadline_json["due"] == "2026-12-07"  # 10 days from Friday 27/11/2026
    assert evs[-1].actor_name == "bruno" and evs[-1].data["publication_reference"] == "DOM nº 78"
    assert f'value="{s.protocol}"' not in after  # published once


async def test_close_duplicate_merges_followers_into_the_original(panel, photo):
    core = panel.core
    original = await new_case(core, photo, 1)
    dup = await new_case(core, photo, 2)
    url = f"/casos/{dup.protocol}"
    async with panel.client("bruno") as c:
        r = await post_form(c, url, f"{url}/acao/close_duplicate",
                            {"duplicate_of": original.protocol, "reason": ""})
        assert r.status == 302
    case, evs = await _events(core, dup.protocol)
    assert case.state == "closed_duplicate"
    assert evs[-1].data["duplicate_of"] == original.protocol
    orig, oevs = await _events(core, original.protocol)
    assert oevs[-1].action == "merge_duplicate" and oevs[-1].actor_name == "bruno"
    async with core.db.read() as ses:
        followers = (await ses.execute(select(Subscription.person_id).where(
            Subscription.case_id == orig.id))).scalars().all()
    assert case.reporter_id in followers


async def test_reassign_to_another_inspector_shows_in_list_and_csv(panel, photo):
    core = panel.core
    ids = {}
    for tid, name in ((555, "Joana Fiscal"), (556, "Pedro Fiscal")):
        code = await invite_inspector(core, name, "posturas", "ana")
        ids[name] = (await bind_inspector(core, tid, code, name)).inspector_id
    s = await new_case(core, photo, 3, plate="ABC1D23")
    before = (await pq.list_cases(core, pq.CaseFilter(q="ABC1D23"))).rows[0].assignee or ""
    target = "Pedro Fiscal" if before.startswith("Joana") else "Joana Fiscal"
    url = f"/casos/{s.protocol}"
    async with panel.client("bruno") as c:
        page = await (await c.get(url)).text()
        assert "atribuir" in page
        r = await post_form(c, url, f"{url}/atribuir", {"inspector_id": str(ids[target])})
        assert r.status == 302
        listing = await (await c.get(f"/casos?inspector={ids[target]}")).text()
        assert s.protocol in listing and target in listing
        csv = await (await c.get("/exportar/casos.csv?q=ABC1D23")).text()
        assert s.protocol in csv and target in csv
    _, evs = await _events(core, s.protocol)
    assert any(e.actor_name == "bruno" and e.actor_kind == "staff" for e in evs)


async def test_keyset_pages_are_disjoint_ordered_and_complete(panel, photo, clock):
    core = panel.core
    made = []
    for i in range(7):
        made.append((await new_case(core, photo, i)).protocol)
        clock.advance(minutes=1)
    seen, cursor = [], None
    while True:
        page = await pq.list_cases(core, pq.CaseFilter(), cursor, limit=3)
        seen += [r.protocol for r in page.rows]
        if not page.next_cursor:
            break
        cursor = page.next_cursor
    assert seen == list(reversed(made))
    async with panel.client("bruno") as c:
        first = await (await c.get("/casos?state=reported")).text()
        assert made[-1] in first
        bad = await c.get("/casos?after=@@@")
        assert bad.status == 400 and "Página inválida" in await bad.text()


async def test_new_tariff_is_a_dated_row_and_past_dates_are_refused_art_9_II(panel, clock):
    core = panel.core
    async with panel.client("ana") as c:
        r = await post_form(c, "/tarifas", "/tarifas",
                            {"code": "daily_storage", "amount": "45,50", "valid_from": "01/01/2027",
                             "article": "Art. 9º, II", "source": "Decreto nº 10/2026"})
        assert r.status == 302
        r = await post_form(c, "/tarifas", "/tarifas",
                            {"code": "daily_storage", "amount": "10,00", "valid_from": "01/01/2020",
                             "article": "Art. 9º, II", "source": "Decreto nº 11/2026"},
                            headers={"Referer": f"http://{c.host}:{c.port}/tarifas"})
        page = await r.text()  # the page again, the form as typed, the error beside the date
        assert r.status == 400
        assert ('<span class="field-error" role="alert" data-field="valid_from">Um novo valor '
                'não pode valer para datas passadas') in page
        assert 'value="01/01/2020"' in page and 'value="Decreto nº 11/2026"' in page
        assert "R$\xa045,50" in page
    book = await core.tariff_book()
    from datetime import date
    assert book.value_at("daily_storage", date(2026, 12, 31)).amount == Decimal("30.00")
    assert book.value_at("daily_storage", date(2027, 1, 1)).amount == Decimal("45.50")
    async with core.db.read() as s:
        rows = (await s.execute(select(Tariff).where(Tariff.code == "daily_storage"))).scalars().all()
    assert len(rows) == 2 and {r.created_by for r in rows} == {"seed", "ana"}


async def test_a_tariff_typed_with_a_dot_for_centavos_is_refused_not_misread_art_9_II(panel):
    """Art. 9º, II: the Secretaria sets the fees. "45.50" is refused with a Brazilian example
    (the bot once read such text as R$ 4.550,00); the panel answers 400, never 500."""
    async with panel.client("ana") as c:
        r = await post_form(c, "/tarifas", "/tarifas",
                            {"code": "daily_storage", "amount": "45.50", "valid_from": "01/01/2027",
                             "article": "Art. 9º, II", "source": "Decreto nº 12/2026"})
        page = await r.text()
        assert r.status == 400 and "use vírgula: 45,50" in page and "1.500,00" in page
    book = await panel.core.tariff_book()
    from datetime import date
    assert book.value_at("daily_storage", date(2027, 1, 1)).amount == Decimal("30.00")


async def test_decreed_closure_moves_the_next_deadline(panel):
    core = panel.core
    from datetime import date
    async with panel.client("ana") as c:
        r = await post_form(c, "/tarifas", "/feriados",
                            {"date": "07/12/2026", "name": "Ponto facultativo", "kind": "decree",
                             "source": "Decreto nº 99/2026"})
        assert r.status == 302
    async with core.db.read() as s:
        assert (await s.execute(select(Closure))).scalar_one().date == date(2026, 12, 7)
    cal = await core.calendar()  # the cache was invalidated
    assert not cal.is_business_day(date(2026, 12, 7))


async def test_broken_hash_chain_is_shown_loudly(panel, photo):
    core = panel.core
    s = await new_case(core, photo)
    async with core.db.unit_of_work() as ses:
        await ses.execute(update(Event).values(article="Art. 99"))
    async with panel.client("bruno") as c:
        page = await (await c.get(f"/casos/{s.protocol}")).text()
    assert "cadeia de integridade do histórico está quebrada" in page


async def test_depot_shows_days_fees_and_auction_split_art_8(panel, photo, clock):
    core = panel.core
    s = await new_case(core, photo)
    staff, fiscal = ActorRef("staff", 0, "x"), ActorRef("inspector", 1, "F")
    p = s.protocol
    await apply_transition(core, p, "open_diligence", staff)
    await apply_transition(core, p, "notify_owner", fiscal, {
        "abandonment_criteria": ["days_in_place", "missing_tyres", "no_bumpers"],
        "owner_name": "Fulano", "owner_document": "52998224725", "notification_number": "1"},
        agency="transito")
    await apply_transition(core, p, "lapse_deadline", ActorRef("system"))
    await apply_transition(core, p, "start_removal", fiscal, {
        "removal_photos": ["a"], "removal_started_at": clock.now.isoformat()}, agency="transito")
    await apply_transition(core, p, "depot_entry", fiscal, {
        "termo_number": "T1", "missing_parts": "nenhum", "odometer": "1000", "depot": "Pátio"},
        agency="transito")
    clock.advance(days=3)
    async with panel.client("bruno") as c:
        page = await (await c.get("/patio")).text()
        assert p in page
        # towing 250 + 3 days × 30 = 340
        assert "R$\xa0340,00" in page
    split = await pq.auction_split(core, p, Decimal("1000"), Decimal("60"))
    by = {sh.recipient: sh.amount for sh in split}
    assert by["Despesas de remoção (reboque)"] == Decimal("250.00")
    assert by["Diárias do pátio"] == Decimal("90.00")
    assert by["Vigilância sanitária"] + by["Setor de trânsito e transporte municipal"] == \
        Decimal("600.00")


async def test_case_page_shows_portuguese_labels_not_codes(panel, photo):
    """The clerk reads the abandonment signs (Art. 3º, §4º, I), the category (Art. 1º) and the
    missing parts of the termo de recolhimento (Art. 6º, I, b) in Portuguese, dates as
    dd/mm/aaaa, never the internal codes."""
    core = panel.core
    s = await new_case(core, photo)
    p = s.protocol
    staff, fiscal = ActorRef("staff", 0, "x"), ActorRef("inspector", 1, "F")
    await to_notice_affixed(core, p)
    await apply_transition(core, p, "record_publication", staff,
                           {"publication_date": "2026-11-20", "publication_reference": "DOM 1"})
    await apply_transition(core, p, "lapse_deadline", ActorRef("system"))
    await apply_transition(core, p, "start_removal", fiscal, {
        "removal_photos": ["a"], "removal_started_at": "2026-12-01T09:30:00-03:00"},
        agency="transito")
    await apply_transition(core, p, "depot_entry", fiscal, {
        "termo_number": "T1", "missing_parts": ["doors", "tyres"], "odometer": "1000",
        "depot": "Pátio"}, agency="transito")
    async with panel.client("bruno") as c:
        page = await (await c.get(f"/casos/{p}")).text()
    for code in ("days_in_place", "missing_tyres", "no_bumpers", "motor_vehicle", "doors",
                 "tyres", "2026-12-01T", "2026-11-20", "description:", "transito"):
        assert code not in page, code
    assert "Faltando um ou mais pneus" in page and "Sem para-choques" in page
    assert "Categoria: Veículo motorizado (carro, moto, caminhão)" in page
    assert "Portas, Pneus/rodas" in page
    assert "01/12/2026 às 09:30" in page and "20/11/2026" in page


async def test_vehicle_published_on_the_street_is_not_in_the_depot(panel, photo):
    """"published" is the street for a vehicle (Art. 4º, II, b) but the depot for furniture
    (Art. 5º, III): the depot inventory goes by track and state."""
    core = panel.core
    street = await new_case(core, photo, 1)
    await to_notice_affixed(core, street.protocol)
    await apply_transition(core, street.protocol, "record_publication", ActorRef("staff", 0, "x"),
                           {"publication_date": "2026-11-30", "publication_reference": "DOM 2"})
    sofa = await new_case(core, photo, 2, category="large_furniture")
    await to_depot_furniture(core, sofa.protocol)
    items = {i.protocol for i in await pq.depot_inventory(core)}
    assert items == {sofa.protocol}
    assert (await pq.dashboard(core)).depot_count == 1
