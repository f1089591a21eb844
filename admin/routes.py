"""URL map of the panel (Portuguese paths; the Open311 API keeps its standard paths)."""
from __future__ import annotations

from aiohttp import web

from admin import views_release
from admin import views_health, views_municipalities
from admin import views_admin as a, views_auth as auth, views_cases as c, \
    views_delivery as d, views_export as x, views_intake, views_open311 as o, \
    views_email, views_indicators as ind, views_lgpd, views_public, \
    views_publish as p, views_report, views_route


def setup(app: web.Application) -> None:
    r = app.router
    views_health.setup(app)  # /healthz, /readyz (and /metrics): no login, no personal data
    r.add_get("/login", auth.login_page)
    r.add_post("/login", auth.login)
    r.add_post("/logout", auth.logout)
    r.add_get("/senha", auth.password_page)
    r.add_post("/senha", auth.password_change)
    r.add_post("/municipio", auth.switch_city)  # the city an installation admin acts as
    r.add_get("/", c.dashboard)
    r.add_get("/fila", c.queue_page)
    r.add_get("/casos", c.case_list)
    r.add_get("/casos/{protocol}", c.case_page)
    r.add_post("/casos/{protocol}/acao/{code}", c.case_action)
    r.add_post("/casos/{protocol}/atribuir", c.assign)
    r.add_post("/casos/{protocol}/pagamento", c.record_payment)
    r.add_post("/casos/{protocol}/liberar", views_release.release)
    r.add_post("/casos/{protocol}/documentos/{kind:[a-z_]{1,40}}", c.reissue_document)
    r.add_get("/evidencias/{sha:[0-9a-f]{64}}", c.evidence_file)
    r.add_get("/fiscais", a.inspectors_page)
    r.add_post("/fiscais/convidar", a.invite)
    r.add_post("/fiscais/{id:\\d+}/desativar", a.deactivate)
    r.add_post("/fiscais/{id:\\d+}/matricula", a.registration)
    r.add_post("/fiscais/{id:\\d+}/notificacoes-do-dia", a.day_notices)
    views_route.setup(app)  # /fiscais/{id}/rota and /fiscais/atribuir-area
    r.add_get("/tarifas", a.tariffs_page)
    r.add_post("/tarifas", a.tariff_add)
    r.add_post("/feriados", a.closure_add)
    r.add_post("/feriados/{id:\\d+}/remover", a.closure_remove)
    r.add_post("/feriados/{id:\\d+}/corrigir", a.closure_correct)
    r.add_get("/usuarios", a.users_page)
    r.add_post("/usuarios", a.user_add)
    r.add_post("/usuarios/{id:\\d+}/ativo", a.user_active)
    r.add_get("/diario-oficial", p.editais_page)
    r.add_get("/diario-oficial/{kind}.{ext:pdf|txt}", p.edital_file)
    r.add_post("/diario-oficial/{kind}/publicar", p.edital_publish)
    r.add_get("/patio", p.depot_page)
    views_intake.setup(app)  # /balcao: counter and phone intake
    r.add_get("/entregas", d.dead_letters_page)
    r.add_post("/entregas/{id:[0-9]{1,9}}/reenviar", d.resend)
    r.add_post("/entregas/email/{id:[0-9]{1,9}}/reenviar", d.resend_email)
    views_lgpd.setup(app)  # /fotos (review before public) and /lgpd/pedidos
    r.add_get("/exportar/casos.csv", x.cases_csv)
    r.add_get("/indicadores", ind.indicators_page)  # the city's numbers (staff)
    r.add_get("/indicadores.csv", ind.indicators_csv)
    fmt = "{fmt:xml|json}"  # Open311 GeoReport v2: both formats, XML the spec's default
    r.add_get(f"/open311/discovery.{fmt}", o.discovery)
    r.add_get(f"/open311/v2/discovery.{fmt}", o.discovery)
    r.add_get(f"/open311/v2/services.{fmt}", o.services)
    r.add_get(f"/open311/v2/services/{{code}}.{fmt}", o.service_definition)
    r.add_get(f"/open311/v2/requests.{fmt}", o.requests_list)
    r.add_post(f"/open311/v2/requests.{fmt}", o.post_request)
    r.add_get(f"/open311/v2/requests/{{id}}.{fmt}", o.request_one)
    r.add_get("/open311/v2/media/{protocol}/{sha:[0-9a-f]{64}}.{ext:jpg|png|webp}", o.media_file)
    views_report.setup(app)  # the web report (/publico/denunciar): before /publico/{city}
    views_public.setup(app)  # the public face, without login (/publico)
    views_email.setup(app)  # the owner's e-mail, the e-mails' stop page, the sender's loop

    # the installation administrator's cities (/municipios)
    views_municipalities.setup(app)
