"""The public face without login (/publico): the map's visible-area query (open and recently
closed cases, filters, clusters), the status page, the owner's page with the bot's cool-down
(core.services.owners.access) persisted per IP, the rate limit, CSRF, and the GeoJSON open
data."""
from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import delete, select, update

from core.services.public import map as pub
from core.services.owners import access as owner_access
from core.services.public import access as public_access
from core.storage.geo import GRID_COLS, MAX_LEVEL, cell_of, level_cell
from core.storage.models import Case, MapCell
from tests.support.lgpd_fixtures import approve_photos
from tests.support.panel import CENTRE, Panel, csrf_of, new_case, to_notice_affixed

BOX = pub.Bbox(CENTRE[0] - 0.01, CENTRE[1] - 0.01, CENTRE[0] + 0.01, CENTRE[1] + 0.01)


async def _close(core, protocol: str, days_ago: int) -> None:
    async with core.db.unit_of_work() as s:
        await s.execute(update(Case).where(Case.protocol == protocol).values(
            is_open=False, state="closed_unfounded",
            closed_at=core.now() - timedelta(days=days_ago)))


async def test_map_shows_open_and_recently_closed_cases_only(core, photo):
    open_ = await new_case(core, photo, 0)
    recent = await new_case(core, photo, 1, category="large_furniture")
    old = await new_case(core, photo, 2)
    await _close(core, recent.protocol, 3)
    await _close(core, old.protocol, pub.RECENT_DAYS + 1)
    result = await pub.map_cases(core, BOX)
    # no photo before staff reviewed it (LGPD, art. 6º, III: faces and plates)
    assert not [c for c in result.cases if c.properties()["foto"]]
    await approve_photos(core)
    result = await pub.map_cases(core, BOX)
    shown = {c.protocol: c for c in result.cases}
    assert set(shown) == {open_.protocol, recent.protocol}
    assert shown[recent.protocol].closed is not None and not shown[recent.protocol].is_open
    # the place is approximate: three decimals (≈ 110 m)
    assert shown[open_.protocol].lat == round(CENTRE[0], 3)
    # the photo as the status page's link to its EXIF-free copy
    assert shown[open_.protocol].properties()["foto"] == f"/publico/protocolo/{open_.protocol}/foto"
    # filters: category, open only, closed only, one state
    assert [c.protocol for c in (await pub.map_cases(core, BOX, "large_furniture")).cases] \
        == [recent.protocol]
    assert [c.protocol for c in (await pub.map_cases(core, BOX, "", pub.OPEN)).cases] \
        == [open_.protocol]
    assert [c.protocol for c in (await pub.map_cases(core, BOX, "", pub.CLOSED)).cases] \
        == [recent.protocol]
    assert [c.protocol for c in (await pub.map_cases(core, BOX, "", "closed_unfounded")).cases
            ] == [recent.protocol]
    # outside the visible area: nothing
    away = pub.Bbox(CENTRE[0] + 0.5, CENTRE[1], CENTRE[0] + 0.6, CENTRE[1] + 0.1)
    assert (await pub.map_cases(core, away)).total == 0


async def test_map_answers_clusters_past_the_cap(core, photo):
    for i in range(6):
        await new_case(core, photo, i)
    result = await pub.map_cases(core, BOX, cap=3)
    assert result.total == 6 and not result.cases
    assert sum(k.count for k in result.clusters) == 6
    geo = result.geojson()
    assert geo["type"] == "FeatureCollection"
    assert all(set(f["properties"]) == {"agrupados"} for f in geo["features"])


async def test_bad_map_parameters_are_a_400(panel):
    async with panel.client() as client:
        for query in ("bbox=1,2,3", "bbox=a,b,c,d", "bbox=-20,-46,-10,-40",
                      "bbox=10,0,5,1", "categoria=tanque", "situacao=inventada",
                      "bbox=nan,nan,nan,nan"):
            resp = await client.get(f"/publico/mapa.json?{query}")
            assert resp.status == 400, query
            resp = await client.get(f"/publico?{query}")
            assert resp.status == 400, query
            assert "inválid" in await resp.text() or "desconhecid" in await resp.text() \
                or "grande demais" in await resp.text()


async def test_status_page_in_plain_words(panel, photo):
    core = panel.core
    case = await new_case(core, photo, 0, plate="ABC1D23")
    await to_notice_affixed(core, case.protocol)
    await approve_photos(core)
    async with panel.client() as client:
        page = await client.get(f"/publico/protocolo/{case.protocol}")
        html = await page.text()
        assert page.status == 200
        view = await pub.status(core, case.protocol)
        assert view.state_label in html
        # what happens next, from the law's state texts and the deadline (Art. 6º notice)
        assert "Prazo:" in view.next_step_text() and view.deadline.article in html
        assert "ABC1D23" not in html and "ABC-1D23" not in html
        photo_resp = await client.get(f"/publico/protocolo/{case.protocol}/foto")
        assert photo_resp.status == 200 and photo_resp.content_type == "image/jpeg"
        assert b"Exif" not in await photo_resp.read()
        missing = await client.get("/publico/protocolo/2026-999999")
        assert missing.status == 404 and "não encontrado" in await missing.text()
        by_code = await client.get(f"/publico/protocolo/{case.case_code}")
        assert by_code.status == 404  # the case code is the owner's, not a public key
        found = await client.get(f"/publico/protocolo?protocolo={case.protocol.lower()}",
                                 allow_redirects=False)
        assert found.headers["Location"] == f"/publico/protocolo/{case.protocol}"
        empty = await client.get("/publico/protocolo?protocolo=", allow_redirects=False)
        assert empty.headers["Location"] == "/publico"


async def _owner_post(client, code: str, plate: str):
    form = await client.get("/publico/proprietario")
    return await client.post("/publico/proprietario", data={
        "codigo": code, "placa": plate, "csrf": csrf_of(await form.text())})


async def test_owner_page_by_code_and_plate_with_the_bots_cool_down(panel, photo, clock):
    core = panel.core
    case = await new_case(core, photo, 0, plate="ABC1D23")
    await to_notice_affixed(core, case.protocol)
    async with panel.client() as client:
        ok = await _owner_post(client, case.case_code, "abc-1d23")
        html = await ok.text()
        assert ok.status == 200, html
        assert "Prazo:" in html and case.protocol in html
        # Owner access: wrong answers never say whether the case exists; the fifth locks
        for _ in range(owner_access.MAX_FAILURES - 1):
            wrong = await _owner_post(client, case.case_code, "XYZ9A87")
            assert wrong.status == 404 and "Não conseguimos abrir" in await wrong.text()
        locked = await _owner_post(client, "ZZZZ-ZZZZ", "XYZ9A87")
        assert locked.status == 403 and "Muitas tentativas" in await locked.text()
        # the right answer is refused too while cooling down (persisted in public_guards)
        again = await _owner_post(client, case.case_code, "ABC1D23")
        assert again.status == 403
        clock.advance(hours=1, minutes=1)
        after = await _owner_post(client, case.case_code, "ABC1D23")
        assert after.status == 200
        # the QR code's link: the code alone shows the public page and asks for the proof
        qr = await client.get(f"/publico/proprietario/{case.case_code}")
        html = await qr.text()
        assert qr.status == 200 and case.protocol in html and "Prazo:" in html
        assert "Placa, final do chassi ou CPF/CNPJ" in html and "ABC1D23" not in html


async def test_owner_form_needs_csrf(panel, photo):
    case = await new_case(panel.core, photo, 0, plate="ABC1D23")
    async with panel.client() as client:
        resp = await client.post("/publico/proprietario",
                                 data={"codigo": case.case_code, "placa": "ABC1D23"})
        assert resp.status == 403 and "CSRF" in await resp.text()


async def test_lookups_are_rate_limited_per_ip(panel, photo, monkeypatch):
    case = await new_case(panel.core, photo, 0)
    monkeypatch.setattr(public_access, "RATE_LIMIT", 3)
    async with panel.client() as client:
        for _ in range(3):
            assert (await client.get(f"/publico/protocolo/{case.protocol}")).status == 200
        resp = await client.get(f"/publico/protocolo/{case.protocol}")
        assert resp.status == 429 and "Muitas consultas" in await resp.text()


async def test_open_data_geojson_has_public_fields_only(panel, photo):
    core = panel.core
    a = await new_case(core, photo, 0, plate="ABC1D23", description="carro do vizinho")
    b = await new_case(core, photo, 1)
    await _close(core, b.protocol, pub.RECENT_DAYS + 5)
    async with panel.client() as client:
        resp = await client.get("/publico/casos.geojson")
        assert resp.status == 200
        data = json.loads(await resp.text())
    assert data["type"] == "FeatureCollection"
    assert [f["properties"]["protocolo"] for f in data["features"]] == [a.protocol]
    f = data["features"][0]
    assert f["geometry"] == {"type": "Point",
                             "coordinates": [round(CENTRE[1], 3), round(CENTRE[0], 3)]}
    assert set(f["properties"]) == {"foto", "protocolo", "categoria", "codigo_categoria", "situacao",
                                    "aberto", "criado_em", "atualizado_em", "encerrado_em",
                                    "bairro"}


async def test_public_map_page_lists_cases_without_login(panel, photo):
    case = await new_case(panel.core, photo, 0, neighbourhood="Vila Nova")
    async with panel.client() as client:
        resp = await client.get("/publico")
        html = await resp.text()
        assert resp.status == 200
        assert case.protocol in html and "Vila Nova" in html


async def test_the_visitor_key_believes_x_forwarded_for_only_from_a_trusted_proxy(
        make_core, photo, monkeypatch):
    """The rate limit counts per visitor (admin.visitor): a spoofed X-Forwarded-For from an
    untrusted peer changes nothing; from a TRUSTED_PROXIES peer its right-most address that
    is not a trusted proxy is the visitor."""
    monkeypatch.setattr(public_access, "RATE_LIMIT", 2)
    direct = Panel(await make_core())
    case = await new_case(direct.core, photo, 0)
    url = f"/publico/protocolo/{case.protocol}"

    async def get(client, forwarded: str | None) -> int:
        headers = {"X-Forwarded-For": forwarded} if forwarded else {}
        return (await client.get(url, headers=headers)).status

    async with direct.client() as client:  # the test client's peer is 127.0.0.1, not trusted
        assert [await get(client, f"203.0.113.{i}") for i in range(3)] == [200, 200, 429]
    proxied = Panel(await make_core(trusted_proxies="10.9.9.9, 127.0.0.0/8"))
    async with proxied.client() as client:
        # the client wrote 198.51.100.1; the proxy appended the real peer 203.0.113.50
        assert [await get(client, "198.51.100.1, 203.0.113.50") for _ in range(3)] \
            == [200, 200, 429]
        assert await get(client, "203.0.113.50, 203.0.113.51") == 200  # another visitor
        # two trusted proxies in a row: the first untrusted address from the right
        assert await get(client, "203.0.113.52, 10.9.9.9") == 200
        assert await get(client, "203.0.113.52, 10.9.9.9") == 200
        assert await get(client, "198.51.100.7, 203.0.113.52, 10.9.9.9") == 429
        # no header: the proxy itself, already limited by the first part
        assert await get(client, None) == 429


async def _counters(core) -> dict:
    async with core.db.read() as s:
        return {(r.level, r.cell, r.category, r.state): (r.n, r.row_sum, r.col_sum)
                for r in (await s.execute(select(MapCell))).scalars()}


async def _expected_counters(core) -> dict:
    out: dict = {}
    async with core.db.read() as s:
        rows = (await s.execute(select(Case.cell, Case.category, Case.state)
                                .where(Case.is_open.is_(True)))).all()
    for cell, category, state in rows:
        for level in range(MAX_LEVEL + 1):
            n, r, c = out.get((level, level_cell(cell, level), category, state), (0, 0, 0))
            out[(level, level_cell(cell, level), category, state)] = (
                n + 1, r + cell // GRID_COLS, c + cell % GRID_COLS)
    return out


async def test_the_maps_cell_counters_follow_every_write(core, photo, add_case):
    """map_cells (the city-wide view's counts) is kept by the database: reports, a
    transition, a plain UPDATE and a DELETE all show in it, level by level."""
    cases = [await new_case(core, photo, i) for i in range(4)]
    far = await new_case(core, photo, 0, category="large_furniture")
    async with core.db.unit_of_work() as s:  # moved 2 km north: another cell at every level
        await s.execute(update(Case).where(Case.protocol == far.protocol).values(
            lat=CENTRE[0] + 0.02, cell=cell_of(CENTRE[0] + 0.02, CENTRE[1])))
    await to_notice_affixed(core, cases[0].protocol)
    await _close(core, cases[1].protocol, 1)
    assert await _counters(core) == await _expected_counters(core)
    assert sum(n for (level, *_), (n, _, _) in (await _counters(core)).items() if level == 0) == 4
    async with core.db.unit_of_work() as s:  # a bare case (no events): inserted, then deleted
        bare = (await add_case(s, lat=CENTRE[0], lon=CENTRE[1])).id
    assert sum(n for (level, *_), (n, _, _) in (await _counters(core)).items() if level == 0) == 5
    async with core.db.unit_of_work() as s:
        await s.execute(delete(Case).where(Case.id == bare))
    assert await _counters(core) == await _expected_counters(core)
    # the city-wide view: clusters from the counters, the closed case from its index
    city = pub.Bbox(CENTRE[0] - 0.06, CENTRE[1] - 0.06, CENTRE[0] + 0.06, CENTRE[1] + 0.06)
    result = await pub.map_cases(core, city, cap=2)
    assert result.total == 5 and not result.cases and len(result.clusters) == 2  # 4 open + 1
    assert all(k.lat == round(k.lat, 3) for k in result.clusters)  # never finer than public
