"""One public projection (core.services.public.case.public_view): a case opened at the counter
(the real intake service) with everything personal a citizen and an inspector can put in it —
the address typed with a neighbour's name and CPF, the citizen's own words, their name, phone
and e-mail, the plate, the owner's CPF — and referred to the police (Dores Art. 4º, III). The
test walks every route that needs no login (the map, its JSON, the open data, the status page
and its photo, the owner's page before the proof, Open311 GET in JSON and XML, list and
single) with many query strings, and the bot's /status text, and finds none of it: only the
neighbourhood, the point to the block, and the state as the public sees it ("Em análise", as
any case being looked into), never a suspicion of theft on an identifiable vehicle."""
from __future__ import annotations

import json

from sqlalchemy import select

from core.services.citizens.conversation.tracking import case_text as render_case
from core.services.staff import counter_intake as intake
from core.services.public import access as public_access
from core.services.public import map as pub
from core.services.cases.transitions import apply_transition
from core.services.public.case import coarse
from core.services.citizens.reports import ReportIn
from core.services.staff.accounts import get_user
from core.services.citizens.case_status import status_view
from core.storage.models import Case, CaseOwner
from core.storage.timeline import ActorRef
from tests.support.panel import CENTRE, csrf_of
from tests.support.public_pages import QUERIES, public_routes, route_paths

LAT, LON = CENTRE[0] + 0.000437, CENTRE[1] - 0.000291  # the house, not the block
ADDRESS = ("Rua Particular 77, em frente à casa de Gervásio Quintela, CPF 390.533.447-05")
DESCRIPTION = "eu, Maria da casa 81, vejo o dono largar o carro aqui"
CONTACT = ("Eulália Trindade Mourão", "(37) 98765-1234", "eulalia.mourao@example.org")
PLATE = "RST2B34"
OWNER_CPF = "11144477735"
SUSPICION = "chassi raspado; parece o carro furtado do Gervásio"

MARKERS = [
    # the address as typed
    "Particular 77", "Gervásio", "Gervasio", "Quintela", "390.533.447-05", "39053344705",
    # the citizen's own words and contact
    "casa 81", "vejo o dono", "largar o carro", "Eulália", "Eulalia", "Trindade", "Mourão",
    "98765-1234", "987651234", "eulalia.mourao",
    # the plate and the owner's document
    PLATE, "RST-2B34", "RST 2B34", OWNER_CPF, "111.444.777-35",
    # the police referral (Art. 4º, III): never on an identifiable vehicle
    "polícia", "policia", "roubo", "furto", "suspeita", "chassi raspado",
    # the point finer than the block
    f"{LAT:.4f}", f"{LON:.4f}", f"{LAT:.5f}", f"{LON:.5f}",
]


def _leaks(text: str) -> list[str]:
    low = text.lower()
    return [m for m in MARKERS if m.lower() in low]


async def seed_referred_case(core, photo) -> tuple[str, str]:
    """A counter report full of personal markers, the owner's CPF recorded, referred to the
    police: (protocol, case code)."""
    from core.services.staff.accounts import create_user
    staff = await create_user(core, "clara", "senha-muito-secreta", "staff")
    report = ReportIn(category="motor_vehicle", lat=LAT, lon=LON, photos=[photo(3)],
                      address=ADDRESS, neighbourhood="Centro", plate=PLATE,
                      description=DESCRIPTION, make_model="Gol", colour="prata")
    done = await intake.submit_counter_report(
        core, report, channel="telefone", contact=intake.read_contact(*CONTACT),
        staff=await get_user(core, staff.id))
    seed = ActorRef("staff", 0, "seed")
    await apply_transition(core, done.protocol, "open_diligence", seed)
    await apply_transition(core, done.protocol, "refer_to_police",
                           ActorRef("inspector", 1, "Fiscal"),
                           {"theft_suspicion_reason": SUSPICION}, agency="transito")
    async with core.db.unit_of_work() as s:
        case = (await s.execute(select(Case).where(Case.protocol == done.protocol))
                ).scalar_one()
        assert case.state == "police_referral"
        s.add(CaseOwner(case_id=case.id, owner_cpf=OWNER_CPF))
    return done.protocol, done.case_code


async def test_every_public_output_is_the_projection_and_leaks_nothing(panel, photo,
                                                                       monkeypatch):
    monkeypatch.setattr(public_access, "RATE_LIMIT", 100_000)
    core = panel.core
    protocol, code = await seed_referred_case(core, photo)
    values = {"protocol": [protocol], "id": [protocol], "service_request_id": [protocol],
              "code": [code, code.lower(), f"{code[:4]}-{code[4:]}"], "ext": ["jpg"],
              "service_code": ["motor_vehicle"], "format": ["json", "xml"],
              "kind": ["leilao"], "jurisdiction_id": ["dores"],
              "sha": [core.evidence.public_copy(photo(3).sha256).sha256]}
    extra = [f"/open311/v2/requests.{f}" for f in ("json", "xml")] + \
        [f"/open311/v2/requests/{protocol}.{f}" for f in ("json", "xml")] + \
        ["/publico/mapa.json?bbox=-19.47,-45.61,-19.45,-45.59",
         "/publico/mapa.json?situacao=diligence", f"/publico/proprietario/{code}"]
    seen: dict[str, str] = {}
    async with panel.client() as client:
        paths = [p for method, f in public_routes(panel.app) if method == "GET"
                 for p in route_paths(f, values)]
        for path in paths:
            for query in QUERIES:
                resp = await client.get(path + query)
                body = (await resp.read()).decode("utf-8", "replace")
                # /readyz: 503 is its answer while the periodic job has not run yet
                assert resp.status < 500 or (path == "/readyz" and resp.status == 503), \
                    (path + query, body[:300])
                leaks = _leaks(body) + _leaks(str(dict(resp.headers)))
                assert not leaks, (path + query, leaks)
                seen[path + query] = body
        for path in extra:
            resp = await client.get(path)
            body = await resp.text()
            assert resp.status == 200, (path, body[:300])
            assert not _leaks(body), (path, _leaks(body))
            seen[path] = body
    # the walk did reach the case where it is public, as its projection
    lat, lon = coarse(LAT, LON)
    status = seen[f"/publico/protocolo/{protocol}"]
    assert "Em análise" in status and "Centro" in status and f"{lat:.3f}" in status
    assert protocol in seen["/publico"] and protocol in seen["/publico/casos.geojson"]
    assert protocol in seen["/publico/mapa.json?situacao=diligence"]  # filed with the others
    listed = json.loads(seen["/open311/v2/requests.json"])
    assert [(r["lat"], r["long"], r["address"]) for r in listed] == [(lat, lon, "Centro")]
    assert "<status_notes>Em análise</status_notes>" in seen[f"/open311/v2/requests/{protocol}.xml"]
    assert "<address>Centro</address>" in seen[f"/open311/v2/requests/{protocol}.xml"]
    owner = seen[f"/publico/proprietario/{code}"]
    assert protocol in owner and "Em análise" in owner and "CPF/CNPJ" in owner
    # the bot's /status of any protocol is the same projection
    text = render_case(await status_view(core, protocol))
    assert "Um fiscal vai ao local" in text and "Centro" in text  # the diligence's words
    assert not _leaks(text), _leaks(text)
    # the police referral is not a filter the public can choose
    assert "police_referral" not in dict(pub.filter_options(core)["states"])
    # staff still see everything (the markers are really in the case)
    async with panel.client("ana") as staff:
        page = await (await staff.get(f"/casos/{protocol}")).text()
        assert "Gervásio" in page and PLATE in page.replace("-", "")


async def test_the_owner_page_with_the_proof_shows_neither_the_citizens_words_nor_the_address(
        panel, photo):
    """After the proof (the owner's CPF here), the owner sees their case — and still not the
    citizen's words nor the address they typed (Lei 13.460/2017, art. 10, §7º)."""
    core = panel.core
    protocol, code = await seed_referred_case(core, photo)
    async with core.db.unit_of_work() as s:  # an object without plate: the words would show
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
        case.plate, case.details = None, {**(case.details or {}), "report": {}}
    async with panel.client() as client:
        form = await client.get(f"/publico/proprietario/{code}")
        resp = await client.post("/publico/proprietario", data={
            "csrf": csrf_of(await form.text()), "codigo": code, "placa": "111.444.777-35"})
        body = await resp.text()
    assert resp.status == 200 and "Seu caso" in body and "Centro" in body
    for marker in ("casa 81", "vejo o dono", "Gervásio", "Particular 77"):
        assert marker not in body, marker
