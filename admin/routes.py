"""URL map of the panel (Portuguese paths; the Open311 API keeps its standard paths)."""
from __future__ import annotations

from aiohttp import web

from admin import views_admin as a, views_auth as auth, views_cases as c, \
    views_delivery as d, views_export as x, views_publish as p


def setup(app: web.Application) -> None:
    r = app.router
    r.add_get("/login", auth.login_page)
    r.add_post("/login", auth.login)
    r.add_post("/logout", auth.logout)
    r.add_get("/senha", auth.password_page)
    r.add_post("/senha", auth.password_change)
    r.add_get("/", c.dashboard)
    r.add_get("/casos", c.case_list)
    r.add_get("/casos/{protocol}", c.case_page)
    r.add_post("/casos/{protocol}/acao/{code}", c.case_action)
    r.add_post("/casos/{protocol}/atribuir", c.assign)
    r.add_post("/casos/{protocol}/documentos/{kind:[a-z_]{1,40}}", c.reissue_document)
    r.add_get("/evidencias/{sha:[0-9a-f]{64}}", c.evidence_file)
    r.add_get("/fiscais", a.inspectors_page)
    r.add_post("/fiscais/convidar", a.invite)
    r.add_post("/fiscais/{id:\\d+}/desativar", a.deactivate)
    r.add_get("/tarifas", a.tariffs_page)
    r.add_post("/tarifas", a.tariff_add)
    r.add_post("/feriados", a.closure_add)
    r.add_post("/feriados/{id:\\d+}/remover", a.closure_remove)
    r.add_get("/usuarios", a.users_page)
    r.add_post("/usuarios", a.user_add)
    r.add_post("/usuarios/{id:\\d+}/ativo", a.user_active)
    r.add_get("/diario-oficial", p.editais_page)
    r.add_get("/diario-oficial/{kind}.{ext:pdf|txt}", p.edital_file)
    r.add_post("/diario-oficial/{kind}/publicar", p.edital_publish)
    r.add_get("/patio", p.depot_page)
    r.add_get("/entregas", d.dead_letters_page)
    r.add_post("/entregas/{id:[0-9]{1,9}}/reenviar", d.resend)
    r.add_get("/exportar/casos.csv", x.cases_csv)
    r.add_get("/open311/v2/services.json", x.services_json)
    r.add_get("/open311/v2/requests.json", x.requests_json)
    r.add_post("/open311/v2/requests.json", x.post_request)
    r.add_get("/open311/v2/requests/{id}.json", x.request_json)
    r.add_get("/open311/v2/media/{protocol}/{sha:[0-9a-f]{64}}.{ext:jpg|png|webp}", x.media_file)
