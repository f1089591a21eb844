"""Counter and phone intake over HTTP (/balcao): a typed address geocoded by the bot's
geocoder (the local Nominatim stand-in) and confirmed, photos through the one upload check,
the same protocol and duplicate check as the bot's (Dores Art. 4º), the contact listed for
staff only, and every bad input a 400 with the form kept."""
from __future__ import annotations

import pytest
from aiohttp import FormData

from sandbox.standin.nominatim import NominatimStandIn
from tests.support.core_fixtures import jpeg
from tests.support.panel import PASSWORD, Panel, csrf_of, new_case
from core.services.staff.accounts import create_user

ADDRESS = "Rua Getúlio Vargas, 100"


@pytest.fixture
async def osm():
    async with NominatimStandIn() as server:
        yield server


@pytest.fixture
async def core(make_core, osm):
    return await make_core(nominatim_url=osm.base_url)


@pytest.fixture
async def panel(core):
    await create_user(core, "bruno", PASSWORD, "staff")
    return Panel(core)


def _form(token: str, photo_bytes: bytes | None = None, **fields) -> FormData:
    data = FormData()
    data.add_field("csrf", token)
    values = {"channel": "balcao", "category": "motor_vehicle", "address": ADDRESS,
              **fields}
    for key, value in values.items():
        for v in (value if isinstance(value, list) else [value]):
            data.add_field(key, v)
    if photo_bytes is not None:
        data.add_field("photos", photo_bytes, filename="foto.jpg", content_type="image/jpeg")
    return data


async def _token(client) -> str:
    page = await client.get("/balcao")
    assert page.status == 200
    return csrf_of(await page.text())


async def test_typed_address_is_geocoded_confirmed_and_the_case_opened(panel):
    async with panel.client("bruno") as client:
        token = await _token(client)
        found = await client.post("/balcao", data=_form(token, jpeg(), action="geocode"))
        html = await found.text()
        assert found.status == 200, html
        assert "Endereço encontrado: Rua Getúlio Vargas, 100 — Centro" in html
        assert 'value="-19.462120"' in html and "1 foto recebida" in html
        sha = html.split('name="photo" value="')[1][:64]
        done = await client.post("/balcao", data=_form(
            token, None, action="submit", lat="-19.462120", lon="-45.600980", photo=sha,
            address="Rua Getúlio Vargas, 100 — Centro", colour="prata",
            contact_name="Maria", contact_phone="37 99999-1234"), allow_redirects=False)
        assert done.status == 302, await done.text()
        protocol = done.headers["Location"].rsplit("/", 1)[1]
        case_page = await client.get(done.headers["Location"])
        assert f"Caso registrado: protocolo {protocol}" in await case_page.text()
        listed = await (await client.get("/casos")).text()
        assert protocol in listed
        balcao = await (await client.get("/balcao")).text()
        assert protocol in balcao and "(37) 99999-1234" in balcao  # to tell, staff only
        public = await client.get(f"/open311/v2/requests/{protocol}.json")
        assert "99999" not in await public.text()


async def test_nearby_open_case_is_offered_before_a_new_one(panel, photo):
    existing = await new_case(panel.core, photo, 0)  # at the city centre (CENTRE)
    async with panel.client("bruno") as client:
        token = await _token(client)
        point = dict(action="submit", lat="-19.4606", lon="-45.6003")
        first = await client.post("/balcao", data=_form(token, jpeg(), **point))
        html = await first.text()
        assert first.status == 200 and existing.protocol in html
        assert "Casos abertos perto deste ponto" in html
        sha = html.split('name="photo" value="')[1][:64]
        key = f"motor_vehicle:{-19.4606:.5f}:{-45.6003:.5f}"
        again = await client.post("/balcao", data=_form(
            token, None, photo=sha, dup_key=key, confirm_new="1", **point),
            allow_redirects=False)
        assert again.status == 302
        assert again.headers["Location"] != f"/casos/{existing.protocol}"


@pytest.mark.parametrize("fields,photo_bytes,message", [
    ({"action": "geocode", "address": "Avenida Afonso Pena, 1212"}, None,
     "Não encontramos"),  # another city (Belo Horizonte)
    ({"action": "submit", "lat": "-19.4606", "lon": "-45.6003"}, None,
     "Envie de 1 a 10 fotos"),
    ({"action": "submit", "lat": "", "lon": ""}, b"ok", "Marque o local"),
    ({"action": "submit", "lat": "-23.55", "lon": "-46.63"}, b"ok", "fora da área"),
    ({"action": "submit", "lat": "nan", "lon": "-45.6003"}, b"ok", "Marque o local"),
    ({"action": "submit", "lat": "-19.4606", "lon": "inf"}, b"ok", "Marque o local"),
    ({"action": "submit", "lat": "-1e400", "lon": "NaN"}, b"ok", "Marque o local"),
    ({"action": "submit", "lat": "91", "lon": "-45.6003"}, b"ok", "Marque o local"),
    ({"action": "submit", "lat": "-19.4606", "lon": "-45.6003"}, b"<html>x</html>",
     "Arquivo recusado"),
    ({"action": "submit", "lat": "-19.4606", "lon": "-45.6003", "contact_phone": "1234"},
     b"ok", "Telefone inválido"),
    ({"action": "submit", "lat": "-19.4606", "lon": "-45.6003", "category": "x"}, b"ok",
     "Escolha a categoria"),
    ({"action": "submit", "lat": "-19.4606", "lon": "-45.6003", "plate": "12"}, b"ok",
     "laca"),
])
async def test_bad_input_is_a_400_with_the_form_kept(panel, fields, photo_bytes, message):
    body = jpeg() if photo_bytes == b"ok" else photo_bytes
    async with panel.client("bruno") as client:
        token = await _token(client)
        resp = await client.post("/balcao", data=_form(
            token, body, contact_email="maria@exemplo.com.br", **fields))
        html = await resp.text()
        assert resp.status == 400, html
        assert message in html
        assert 'value="maria@exemplo.com.br"' in html  # the form is kept


async def test_anonymous_is_sent_to_login(panel):
    async with panel.client() as client:
        resp = await client.get("/balcao", allow_redirects=False)
        assert resp.status == 302 and resp.headers["Location"].startswith("/login")


async def test_answers_the_category_does_not_ask_are_dropped(panel):
    """A sofa has no plate (the questions follow the category, core.laws): a plate left
    typed in the hidden field is not recorded."""
    from sqlalchemy import select

    from core.storage.models import Case
    async with panel.client("bruno") as client:
        token = await _token(client)
        done = await client.post("/balcao", data=_form(
            token, jpeg(), action="submit", category="large_furniture", lat="-19.4606",
            lon="-45.6003", plate="ABC1D23", colour="azul"), allow_redirects=False)
        assert done.status == 302, await done.text()
    async with panel.core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
    assert (case.category, case.plate, case.details["report"]["colour"]) == (
        "large_furniture", None, None)
