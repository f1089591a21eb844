"""The web report (/publico/denunciar) over real HTTP, as a phone without JavaScript uses it:
the bots' questions one a page, a receipt with the protocol (Dores Art. 4º caput: the report
opens the case), an answer stored only for the question it answers, refusals in Portuguese
that lose nothing already given, uploads checked before anything is stored, and the guards
(a hidden field, the minimum fill time, the limits per person)."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from core.services.citizens import web_drafts
from core.storage.models import Case, Evidence, Person, PublicGuard
from core.storage.models_web import WebDraft
from sandbox.standin.nominatim import NominatimStandIn
from tests.support.core_fixtures import jpeg
from tests.support.panel import Panel, new_case
from tests.support.web_report import WebReporter

CAR = "cat:motor_vehicle"


@pytest.fixture
async def osm():
    async with NominatimStandIn() as server:
        yield server


async def _to_plate(w: WebReporter, core, photo: bytes | None = None) -> None:
    await w.choose(CAR)
    await w.send(files=[("carro.jpg", photo or jpeg())], choice="done")
    lat, lon = core.area.centre
    await w.send({"lat": lat, "lon": lon})
    assert "Qual é a placa?" in w.text, w.text


async def _files(core) -> set[str]:
    return {p.name for p in core.evidence.root.rglob("*") if p.is_file()}


async def test_a_citizen_reports_on_the_web_and_gets_a_protocol(make_core, clock, osm):
    core = await make_core(nominatim_url=osm.base_url)
    async with Panel(core).client() as client:
        w = await WebReporter(client).open()
        assert w.status == 200 and "O que você quer denunciar?" in w.text
        await _to_plate(w, core)
        assert "Local registrado" in w.text  # the pin's street, looked up as a courtesy
        await w.type("abc1d23")
        assert "Qual é a cor?" in w.text
        await w.type("prata")
        await w.type("Fiat Uno")
        await w.choose("time:2")
        signs = re.findall(r'name="sign" value="([^"]+)"', w.html)
        await w.send({"sign": signs[:2]}, choice="signs:done")
        await w.type("Em frente à padaria")
        assert "Confira sua denúncia" in w.text and "Placa ABC1D23" in w.text
        assert "A denúncia é anônima" in w.text  # the LGPD notice before sending
        clock.advance(seconds=30)
        await w.choose("ok")
        assert w.status == 200 and "Denúncia registrada" in w.text, w.text
        protocol = re.search(r"Protocolo (\d{4}-\d{6})", w.text).group(1)
        assert f'href="/publico/protocolo/{protocol}"' in w.html
        assert "Um fiscal vai até o local" in w.text  # the law's next steps
        assert "aviso a cada etapa" not in w.text  # no chat to be told in
        again = await WebReporter(client).open()  # a reload: the same receipt, not a new case
        assert f"Protocolo {protocol}" in again.text
        await again.choose("new")
        assert "O que você quer denunciar?" in again.text
    async with core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
        person = await s.get(Person, case.reporter_id)
        evidence = (await s.execute(select(Evidence).where(Evidence.case_id == case.id))
                    ).scalars().all()
    assert case.protocol == protocol and case.category == "motor_vehicle"
    assert case.plate == "ABC1D23" and case.details["report"]["colour"] == "prata"
    assert case.details["report"]["make_model"] == "Fiat Uno"
    assert case.details["report"]["signs"] == sorted(signs[:2])
    assert case.description == "Em frente à padaria"
    assert person.telegram_id is None and person.whatsapp_id is None  # anonymous
    assert len(evidence) == 1 and evidence[0].mime == "image/jpeg"


async def test_a_form_sent_again_answers_nothing_twice(make_core, clock):
    """The plate's form sent again once the colour is asked (a double tap, an old tab) is
    not taken as the colour: an answer is stored only for the question it answers."""
    core = await make_core(nominatim_url="http://127.0.0.1:9")
    async with Panel(core).client() as client:
        w = await WebReporter(client).open()
        await _to_plate(w, core)
        plate_key = w.key
        await w.type("ABC1D23")
        colour_key = w.key
        assert colour_key != plate_key
        await w.send({"text": "XYZ9Z99"}, key=plate_key)
        assert w.status == 409 and "etapa anterior" in w.text
        assert "Qual é a cor?" in w.text and w.key == colour_key
        await w.type("azul")
        await w.choose("skip")
        await w.choose("time:0")
        await w.send({}, choice="signs:done")
        await w.choose("skip")
        assert "Placa ABC1D23" in w.text and "Cor azul" in w.text
        summary_key = w.key
        clock.advance(seconds=30)
        await w.choose("ok")
        await w.send({}, key=summary_key, choice="ok")  # "Confirmar" twice: one case
        assert "Denúncia registrada" in w.text
    async with core.db.read() as s:
        assert (await s.execute(select(func.count()).select_from(Case))).scalar() == 1


async def test_a_point_outside_the_city_is_refused_keeping_what_was_given(make_core):
    core = await make_core(nominatim_url="http://127.0.0.1:9")
    async with Panel(core).client() as client:
        w = await WebReporter(client).open()
        await w.choose(CAR)
        await w.send(files=[("a.jpg", jpeg((1, 2, 3))), ("b.jpg", jpeg((4, 5, 6)))],
                     choice="done")
        await w.send({"lat": "-23.55", "lon": "-46.63"})  # São Paulo
        assert w.status == 400 and "fora da área de Dores do Indaiá" in w.text
        assert "Onde fica?" in w.text  # asked again
        await w.send({"lat": "nan", "lon": "1e999"})
        assert w.status == 400 and "não é válida" in w.text
        lat, lon = core.area.centre
        await w.send({"lat": lat, "lon": lon})
        await w.choose("skip")
        await w.choose("skip")
        await w.choose("skip")
        await w.choose("time:3")
        await w.send({}, choice="signs:done")
        await w.choose("skip")
        assert "Fotos 2" in w.text  # the photos given before the refusal are still there


async def test_uploads_are_checked_before_anything_is_stored(make_core):
    core = await make_core()
    async with Panel(core).client() as client:
        w = await WebReporter(client).open()
        await w.choose(CAR)
        before = await _files(core)
        await w.send(files=[("virus.jpg", b"MZ\x90\x00 not an image at all")], choice="done")
        assert w.status == 400 and "Arquivo recusado: aceitamos apenas" in w.text, w.text
        assert "pelo menos uma foto antes de tocar em “Continuar”" in w.text
        assert "Nenhuma foto ainda" in w.text and await _files(core) == before
        await w.send(choice="done")  # "Continuar" with no photo
        assert w.status == 400 and "pelo menos uma foto" in w.text
        photo = jpeg((9, 9, 9))
        await w.send(files=[("a.jpg", photo)])
        await w.send(files=[("a.jpg", photo)])  # the same photo again
        assert "já estava na denúncia" in w.text and "1 foto guardada" in w.text


async def test_a_program_filling_the_hidden_field_leaves_no_file(make_core):
    core = await make_core()
    async with Panel(core).client() as client:
        w = await WebReporter(client).open()
        await w.choose(CAR)
        before = await _files(core)
        await w.send(files=[("a.jpg", jpeg((7, 7, 7)))])
        assert await _files(core) != before  # stored while the report is in progress
        await w.send({"site": "http://spam.example"})
        assert w.status == 400 and "Não foi possível aceitar este envio" in w.text
        assert await _files(core) == before  # its photo removed
        assert "O que você quer denunciar?" in w.text  # the page begins again


async def test_a_report_confirmed_too_fast_is_asked_again(make_core, clock):
    core = await make_core(nominatim_url="http://127.0.0.1:9")
    async with Panel(core).client() as client:
        w = await WebReporter(client).open()
        await _to_plate(w, core)
        for answer in ("skip", "skip", "skip", "time:0", "signs:done", "skip"):
            await w.choose(answer)
        await w.choose("ok")
        assert w.status == 400 and "rápido demais" in w.text
        assert "Confira sua denúncia" in w.text  # nothing lost: confirm again
        clock.advance(seconds=core.settings.web_report_min_seconds)
        await w.choose("ok")
        assert "Denúncia registrada" in w.text


async def test_the_limits_count_people_with_a_429_in_portuguese(make_core, monkeypatch):
    core = await make_core()
    monkeypatch.setattr(web_drafts, "STEP_LIMIT", 3)
    async with Panel(core).client() as client:
        w = await WebReporter(client).open()
        for _ in range(3):
            await w.send(choice="cat:nenhuma")
            assert w.status != 429
        await w.choose(CAR)
        assert w.status == 429 and "Muitos envios a partir desta conexão" in w.text
        assert "fica guardado" in w.text
    async with core.db.read() as s:
        keys = (await s.execute(select(PublicGuard.key))).scalars().all()
    assert "webstep:127.0.0.1" in keys


async def _to_summary(w: WebReporter, photo: bytes, at: tuple[float, float]) -> None:
    await w.choose(CAR)
    await w.send(files=[("carro.jpg", photo)], choice="done")
    await w.send({"lat": at[0], "lon": at[1]})
    for _ in range(3):  # plate, colour, make and model: skipped
        await w.choose("skip")
    await w.choose("time:2")
    await w.choose("signs:done")
    await w.type("Na esquina")
    assert "Confira sua denúncia" in w.text, w.text


async def test_the_reports_a_person_confirms_are_counted_with_the_report(make_core, clock,
                                                                        monkeypatch):
    """"Fazer outra denúncia" starts a report the next answers go to (it was shown but not
    stored: the next answer met the old receipt). Past REPORT_LIMIT its confirmation gets a
    429 in Portuguese, counted in the submission's own transaction: no second case, the
    report waits and is confirmed an hour later."""
    core = await make_core(nominatim_url="http://127.0.0.1:9")
    monkeypatch.setattr(web_drafts, "REPORT_LIMIT", 1)
    lat, lon = core.area.centre
    async with Panel(core).client() as client:
        w = await WebReporter(client).open()
        await _to_summary(w, jpeg((1, 1, 1)), (lat, lon))
        clock.advance(seconds=30)
        await w.choose("ok")
        assert "Denúncia registrada" in w.text
        await w.choose("new")
        await _to_summary(w, jpeg((2, 2, 2)), (lat + 0.003, lon))  # away from the first
        clock.advance(seconds=30)
        await w.choose("ok")
        assert w.status == 429 and "Muitas denúncias enviadas" in w.text, w.text
        assert "Confira sua denúncia" in w.text  # nothing lost
        async with core.db.read() as s:
            assert (await s.execute(select(func.count()).select_from(Case))).scalar() == 1
            steps = await s.get(PublicGuard, "webstep:127.0.0.1")
        # every answer sent counted once, in its own write or alone: 2 × 9 to the summary,
        # "Confirmar" twice (the second refused) and "Fazer outra denúncia"
        assert steps is not None and steps.hits == 21
        clock.advance(hours=1)
        await w.choose("ok")
        assert w.status == 200 and "Denúncia registrada" in w.text
    async with core.db.read() as s:
        assert (await s.execute(select(func.count()).select_from(Case))).scalar() == 2
        guard = await s.get(PublicGuard, "webreport:127.0.0.1")
        assert guard is not None and guard.hits == 1  # the refused one left no count


async def test_an_open_case_nearby_is_offered_and_supported(make_core, photo, clock):
    core = await make_core(nominatim_url="http://127.0.0.1:9")
    open_case = await new_case(core, photo, 0)
    async with Panel(core).client() as client:
        w = await WebReporter(client).open()
        await w.choose(CAR)
        await w.send(files=[("a.jpg", jpeg((3, 3, 3)))], choice="done")
        await w.send({"lat": -19.4606, "lon": -45.6003})
        assert "Já existe denúncia aberta do mesmo tipo" in w.text
        assert f"É este: {open_case.protocol}" in w.text
        await w.choose(f"dup:{open_case.protocol}")
        assert f"juntadas ao caso {open_case.protocol}" in w.text
    async with core.db.read() as s:
        assert (await s.execute(select(func.count()).select_from(Case))).scalar() == 1


async def test_hostile_forms_get_a_4xx_never_a_500(make_core):
    core = await make_core(nominatim_url="http://127.0.0.1:9")
    async with Panel(core).client() as client:
        w = await WebReporter(client).open()
        for fields, choice in (({"text": "x" * 5000}, None), ({}, "cat:" + "é" * 500),
                               ({}, "fix:../../etc"), ({"lat": "1e309", "lon": "0"}, None),
                               ({"sign": ["a" * 300] * 50}, "signs:done"), ({}, "\x00")):
            await w.send(fields, choice=choice)
            assert w.status < 500, (fields, choice, w.text)
        bare = await client.post("/publico/denunciar", data={"choice": "ok"})
        assert bare.status == 403  # no CSRF token
        client.session.cookie_jar.clear()
        fresh = await WebReporter(client).open()
        client.session.cookie_jar.clear_domain("127.0.0.1")
        await fresh.send(choice=CAR)
        assert fresh.status in (400, 403)
    async with core.db.read() as s:
        assert (await s.execute(select(func.count()).select_from(WebDraft))).scalar() <= 1


async def test_the_email_given_gets_updates_only_once_confirmed(make_core, clock):
    """Anonymous by default; an e-mail given gets one message with a link, and the case's
    updates only after that link is opened, each with the one-click stop (LGPD art. 8º)."""
    from core.services.cases.transitions import apply_transition
    from core.storage.timeline import ActorRef
    from tests.support.smtp import SmtpServer, bodies
    address = "maria@example.com"
    with SmtpServer() as smtp:
        core = await make_core(nominatim_url="http://127.0.0.1:9", smtp_url=smtp.url,
                               public_url="https://vialivre.dores.example")
        async with Panel(core).client() as client:
            w = await WebReporter(client).open()
            await _to_plate(w, core)
            for answer in ("skip", "skip", "skip", "time:0", "signs:done", "skip"):
                await w.choose(answer)
            assert "E-mail para receber os avisos (opcional)" in w.text
            clock.advance(seconds=30)
            await w.send({"email": "maria@"}, choice="ok")
            assert w.status == 400 and "E-mail inválido" in w.text
            assert 'value="maria@"' in w.html  # what was typed is kept
            await w.send({"email": address}, choice="ok")
            assert "Enviamos um link para m***@example.com" in w.text
            protocol = re.search(r"Protocolo (\d{4}-\d{6})", w.text).group(1)
            ask = (await smtp.wait_for(1))[0]
            assert ask["To"] == address and "confirme seu e-mail" in ask["Subject"]
            text, _ = bodies(ask)
            link = re.search(r"https://vialivre\.dores\.example(/publico/email/confirmar/\S+)",
                             text).group(1)
            staff = ActorRef("staff", 0, "Clara")
            await apply_transition(core, protocol, "open_diligence", staff)
            assert len(smtp.received) == 1  # not confirmed: nothing more
            wrong = await client.get(link[:-3] + "xyz")
            assert wrong.status == 404 and "não é válido" in await wrong.text()
            done = await client.get(link)
            assert done.status == 200 and f"avisos do caso {protocol}" in await done.text()
            again = await client.get(link)
            assert again.status == 404  # used once
            await apply_transition(core, protocol, "affix_notice",
                                   ActorRef("inspector", 1, "Fiscal"), {
                                       "abandonment_criteria": ["days_in_place",
                                                                "missing_tyres", "no_bumpers"],
                                       "notice_photo": "sha", "notification_number": "N-1"},
                                   agency="transito")
            update = (await smtp.wait_for(2))[1]
        assert update["To"] == address
        text, _ = bodies(update)
        assert f"https://vialivre.dores.example/publico/protocolo/{protocol}" in text
        assert update["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


async def test_with_two_cities_the_pin_decides_the_city_and_its_law(make_two_cities, clock):
    """Serving Dores do Indaiá and Dracena, the page asks for the place first (it decides the
    prefeitura and the law, as in the bots); a point in neither is refused naming both."""
    core = await make_two_cities(nominatim_url="http://127.0.0.1:9")
    async with Panel(core).client() as client:
        w = await WebReporter(client, "/publico/dracena/denunciar").open()
        assert w.status == 200 and "Onde fica?" in w.text and "Atendemos" in w.text
        await w.send({"lat": "-23.55", "lon": "-46.63"})
        assert w.status == 400 and "Dores do Indaiá" in w.text and "Dracena" in w.text
        await w.send({"lat": -21.4843, "lon": -51.5353})  # Dracena (SP)
        labels = re.findall(r'name="choice" value="cat:([^"]+)"', w.html)
        dracena = core.for_city("dracena").law.categories
        assert labels and set(labels) <= set(dracena)
        await w.choose(f"cat:{labels[0]}")
        await w.send(files=[("a.jpg", jpeg((5, 1, 1)))], choice="done")
        for _ in range(8):
            if "Confira sua denúncia" in w.text:
                break
            choice = re.search(r'name="choice" value="((?:skip|time|signs)[^"]*)"', w.html)
            await w.choose(choice.group(1))
        assert "Município Dracena (SP)" in w.text
        clock.advance(seconds=30)
        await w.choose("ok")
        assert "Enviada à Prefeitura de Dracena (SP)" in w.text
    async with core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
    assert case.municipality == "dracena"
    missing = await client_get(core, "/publico/atlantida/denunciar")
    assert missing == 404


async def client_get(core, path: str) -> int:
    async with Panel(core).client() as client:
        return (await client.get(path)).status
