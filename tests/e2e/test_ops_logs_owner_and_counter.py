"""No personal data in any log line, at any level, for the owner and the counter: the real
`python -m bot` and `python -m admin` run at DEBUG, in text and in JSON (on SQLite, and on
PostgreSQL when TEST_DATABASE_URL is set), while
- the owner of a notified vehicle proves it in the bot with the CPF the inspector recorded
  (after a wrong guess), and on the public owner page; the inspector is told who declared
  (the owner's Telegram name and @username);
- the owner writes the case code on WhatsApp (their number and profile name are the
  platform's) and proves it with the CPF;
- the owner of a vehicle in the depot proves it on the public owner page with the plate and
  leaves an e-mail; the clerk releases it in the panel with who collects (name, CPF, the
  document shown; once refused for a CPF with wrong digits);
- a clerk registers a report at the counter with the citizen's contact (name, phone, e-mail;
  once refused for a phone with too few digits), after "Buscar endereço" met a proxy's error
  page quoting the address typed (the geocoder's failure carries it in its text);
- the SMTP server refuses the owner's and the citizen's e-mails, its answer quoting an address
  (the e-mails' dead letters carry it in their text).
None of the markers is in what the two processes wrote."""
from __future__ import annotations

import asyncio
import contextlib
import io
import json
import uuid
from datetime import datetime, timezone

import aiohttp
import pytest

from core.formatting import fmt_date
from core.identifiers import format_case_code
from core.laws import get_law
from core.services.cases.transitions import apply_transition
from core.services.context import Core
from core.services.inspectors.accounts import bind_inspector, invite_inspector
from core.services.inspectors.tasks import assign_case
from core.services.staff.accounts import create_user
from core.services.staff.payment_records import record_payment
from core.services.staff.release import release_form
from core.settings import Settings
from core.storage.db import Database, create_engine
from core.storage.evidence import EvidenceStore
from sandbox.standin.botapi import User
from sandbox.standin.nominatim import NominatimStandIn
from sandbox.standin.whatsapp.server import WhatsAppStandIn
from tests.support.db_templates import pg_admin
from tests.conftest import PG_SKIP, PG_URL
from tests.support.bot_chat import jpeg, press, said
from tests.support.bot_process import BotProcess
from tests.support.core_fixtures import EvidenceIn
from tests.support.owner_cases import ABANDONED, FISCAL, STAFF, report
from tests.support.owner_chat import open_by_qr
from tests.support.panel import PASSWORD, csrf_of
from tests.support.payments import official_tariffs
from tests.support.smtp import SmtpServer, free_port
from tests.support.panel_process import start_panel, until_up

OWNER = User(7301, "Gumercindomarca", username="gumercindo_marca", last_name="Sobrenomarca")
INSPECTOR = User(7302, "Fiscalmarca")
WA_OWNER, WA_NAME = "5537981110099", "Zapmarca Donason"  # the owner on WhatsApp
OWNER_NAME, OWNER_CPF = "Gumercindomarca Proprietarson", "613.820.457-35"
STREET_PLATE, DEPOT_PLATE = "RKM5T31", "PWX7J84"
COLLECTOR, COLLECTOR_CPF, COLLECTOR_ID = "Hermenegildomarca Retirason", "284.915.736-82", \
    "MRC778899"
OWNER_EMAIL = "gumercindo&dono.marca@exemplo.org"  # valid (RFC 5322's atext has &)
CONTACT = ("Filisbertomarca Balconson", "(37) 98123-4455",
           "filisberto&balcao.marca@exemplo.org")
COUNTER_PLATE = "QTB2H56"
#: a Postfix answer quoting the refused recipient (the server puts the address it got)
REFUSAL = "550 5.1.1 <{}>: Recipient address rejected: User unknown"
E2E = "E00038166202612071200abcDEF12345"
MARKERS = ("Gumercindomarca", "Proprietarson", "gumercindo_marca", "Sobrenomarca",
           OWNER_CPF, "61382045735", STREET_PLATE, DEPOT_PLATE, "Hermenegildomarca",
           "Retirason", COLLECTOR_CPF, "28491573682", "284.915.736-83", COLLECTOR_ID,
           "gumercindo&", "dono.marca@", "Filisbertomarca", "Balconson", "98123-4455",
           "3798123", "filisberto&", "balcao.marca@", COUNTER_PLATE, "DESCRICAOBALCAO",
           "RuaBalcaomarca", "RuaProxymarca", "RuaGatewaymarca", "Palpitemarca",
           "98765-000", WA_OWNER, "98111-0099", "981110099", "Zapmarca", "Donason")
WHERE = (-19.4700, -45.6050)  # the counter's report: away from the seeded cases
RUNS = [pytest.param("sqlite", "text", id="sqlite-text"),
        pytest.param("sqlite", "json", id="sqlite-json"),
        pytest.param("postgresql", "json", id="postgresql-json",
                     marks=pytest.mark.skipif(not PG_URL, reason=PG_SKIP))]


@contextlib.asynccontextmanager
async def _database(engine: str):
    """DATABASE_URL for the processes: "" (SQLite in DATA_DIR) or a PostgreSQL database of
    their own, dropped after."""
    if engine == "sqlite":
        yield ""
        return
    name = f"vl_logs_{uuid.uuid4().hex[:12]}"
    await pg_admin(PG_URL, f'CREATE DATABASE "{name}"')
    try:
        yield PG_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        await pg_admin(PG_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _core(bot: BotProcess, database_url: str) -> Core:
    """A Core on the processes' own database and evidence (real clock), to seed the cases."""
    settings = Settings(_env_file=None, data_dir=bot.data_dir)
    db = Database(create_engine(database_url or f"sqlite+aiosqlite:///{bot.database}"))
    return Core(db, get_law("dores-do-indaia"), settings, EvidenceStore(bot.data_dir),
                lambda: datetime.now(timezone.utc))


async def _seed(core: Core) -> tuple:
    """A vehicle in the depot with the city's tariffs and its fees paid; a vehicle whose owner
    was notified (the inspector recorded the owner's name and CPF), assigned to an inspector
    (bound last: with an inspector on duty a report opens its diligence on its own); a
    clerk's account."""
    await core.seed_tariffs()

    def photo(i: int = 0) -> EvidenceIn:
        sha, _ = core.evidence.put_image(jpeg(i))
        return EvidenceIn(sha, "image/jpeg", "photo", f"file-{i}", f"uniq-{i}")

    depot = await report(core, photo, plate=DEPOT_PLATE, where=(-19.4650, -45.6003))
    await apply_transition(core, depot.protocol, "open_diligence", STAFF)
    await apply_transition(core, depot.protocol, "recidivism_removal", FISCAL, {
        **ABANDONED, "previous_case": "2025-000009", "removal_photos": ["sha1"],
        "removal_started_at": core.now().isoformat(timespec="minutes")}, agency="posturas")
    await apply_transition(core, depot.protocol, "depot_entry", FISCAL, {
        "termo_number": "T-7", "missing_parts": ["pneus"], "odometer": "1234",
        "depot": "Pátio central"}, agency="posturas")
    await official_tariffs(core)
    form = await release_form(core, depot.protocol)
    total = f"{form.statement.total:.2f}".replace(".", ",")
    await record_payment(core, depot.protocol, total, fmt_date(core.now()), E2E, STAFF)
    street = await report(core, photo, plate=STREET_PLATE)
    await apply_transition(core, street.protocol, "open_diligence", STAFF)
    await apply_transition(core, street.protocol, "notify_owner", FISCAL, {
        **ABANDONED, "owner_name": OWNER_NAME, "owner_document": OWNER_CPF,
        "notification_number": "7/2026"}, agency="posturas")
    code = await invite_inspector(core, "Ana Fiscal", "posturas", "staff")
    ana = await bind_inspector(core, INSPECTOR.id, code, "Ana")
    await assign_case(core, street.protocol, ana.inspector_id, STAFF)

    await create_user(core, "balconista", PASSWORD, "staff")
    return street, depot


async def _owner_in_the_bot(bot: BotProcess, street) -> None:
    bot.api.add_user(INSPECTOR)
    await open_by_qr(bot, OWNER, street.case_code)
    await press(bot, OWNER, "Já retirei", expect="confirme que o objeto é seu")
    await bot.api.send_text(OWNER, "Palpitemarca 98765-0001")
    await said(bot, OWNER, "não conferem")
    await bot.api.send_text(OWNER, OWNER_CPF)
    await said(bot, OWNER, "Registramos sua declaração")
    told = await bot.api.wait_for(method="sendMessage", chat_id=INSPECTOR,
                                  text="o proprietário declarou", timeout=20)
    assert "Gumercindomarca Sobrenomarca (Telegram @gumercindo_marca" in told.text


async def _owner_on_whatsapp(wa: WhatsAppStandIn, url: str, street) -> None:
    for _ in range(300):  # the face listens beside Telegram (≤ 30 s)
        try:
            if (await wa.verify(url, "verifica"))["status"] == 200:
                break
        except OSError:
            pass
        await asyncio.sleep(0.1)
    # as the notice's wa.me link writes it (an undashed code of letters only, 1 in 20 codes,
    # is read as a word: whatsapp.owner.code_typed)
    code = format_case_code(street.case_code)
    for text_sent, expect in ((code, "confirme que o objeto é seu"),
                              (OWNER_CPF, "Seu caso")):
        before = len(wa.sent_to(WA_OWNER))
        assert (await wa.user_text(WA_OWNER, text_sent, name=WA_NAME)).statuses == [200]
        for _ in range(200):
            if any(expect in (m.text or "") for m in wa.sent_to(WA_OWNER)[before:]):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"no {expect!r} on WhatsApp: {wa.sent_to(WA_OWNER)}")


async def _form(session: aiohttp.ClientSession, url: str) -> str:
    async with session.get(url) as page:
        assert page.status == 200, await page.text()
        return csrf_of(await page.text())


async def _post(session: aiohttp.ClientSession, page: str, action: str,
                data: dict | aiohttp.FormData, status: int) -> str:
    """Open `page`, take its CSRF token, POST `data` to `action`; the answer's text."""
    token = await _form(session, page)
    if isinstance(data, aiohttp.FormData):
        data.add_field("csrf", token)
    else:
        data = {**data, "csrf": token}
    async with session.post(action, data=data, allow_redirects=False) as resp:
        text = await resp.text()
        assert resp.status == status, text
        return text


def _intake(**fields: str) -> aiohttp.FormData:
    form = aiohttp.FormData()
    for key, value in fields.items():
        form.add_field(key, value)
    form.add_field("photos", io.BytesIO(jpeg(5)), filename="foto.jpg", content_type="image/jpeg")
    return form


async def _panel_steps(session: aiohttp.ClientSession, base: str, osm: NominatimStandIn,
                       street, depot) -> None:
    # the owners on the public page: the CPF for the street case, the plate and an e-mail
    # for the one in the depot
    await _post(session, f"{base}/publico/proprietario", f"{base}/publico/proprietario",
                {"codigo": street.case_code, "placa": OWNER_CPF}, 200)
    left = await _post(session, f"{base}/publico/proprietario",
                       f"{base}/publico/proprietario/email",
                       {"codigo": depot.case_code, "placa": DEPOT_PLATE, "email": OWNER_EMAIL,
                        "consentimento": "sim"}, 200)
    assert "Pronto: os avisos deste caso serão enviados" in left
    await _post(session, f"{base}/login", f"{base}/login",
                {"username": "balconista", "password": PASSWORD, "next": "/"}, 302)
    # the release: once refused (the CPF's digits), then done
    case_page = f"{base}/casos/{depot.protocol}"
    release = {"cond_within_deadline": "1", "cond_owner_identified": "1",
               "cond_towing_and_storage_paid": "1", "cond_fines_insurance_fees_paid": "1",
               "name": COLLECTOR, "document": "284.915.736-83", "id_kind": "CNH",
               "id_number": COLLECTOR_ID}
    refused = await _post(session, case_page, f"{case_page}/liberar", release, 400)
    assert "CPF inválido" in refused
    await _post(session, case_page, f"{case_page}/liberar",
                {**release, "document": COLLECTOR_CPF}, 302)
    # the counter: "Buscar endereço" behind a proxy that cannot reach the geocoder (its
    # page quotes the address), then a refused contact, then the report
    counter = f"{base}/balcao"
    for status, street_name in ((200, "RuaProxymarca"), (502, "RuaGatewaymarca")):
        osm.proxy_page = status
        page = await _post(session, counter, counter, _intake(
            action="geocode", address=f"{street_name} 12", category="motor_vehicle",
            channel="balcao", contact_name=CONTACT[0]), 400)
        assert "não respondeu" in page
    osm.proxy_page = None
    lat, lon = (f"{v:.6f}" for v in WHERE)
    fields = {"category": "motor_vehicle", "channel": "balcao", "lat": lat, "lon": lon,
              "address": "RuaBalcaomarca 40", "neighbourhood": "Centro",
              "plate": COUNTER_PLATE, "description": "DESCRICAOBALCAO ao lado do bar",
              "contact_name": CONTACT[0], "contact_phone": "98765-000",
              "contact_email": CONTACT[2], "confirm_new": "1",
              "dup_key": f"motor_vehicle:{WHERE[0]:.5f}:{WHERE[1]:.5f}"}
    page = await _post(session, counter, counter, _intake(**fields), 400)
    assert "Telefone inválido" in page
    await _post(session, counter, counter, _intake(**{**fields, "contact_phone": CONTACT[1]}),
                302)


async def _until_logged(log_file, text: str, count: int, timeout_s: float = 30) -> None:
    for _ in range(int(timeout_s * 10)):
        if log_file.read_text(encoding="utf-8").count(text) >= count:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{text!r} not logged {count} times")


@pytest.mark.parametrize(("engine", "fmt"), RUNS)
async def test_owner_proofs_and_counter_contacts_stay_out_of_the_logs(tmp_path, engine, fmt):
    bot_log, panel_log = tmp_path / "bot.log", tmp_path / "panel.log"
    refusal = REFUSAL.format(OWNER_EMAIL)
    wa_port = free_port()
    wa_url = f"http://127.0.0.1:{wa_port}/whatsapp/webhook"
    async with _database(engine) as url, NominatimStandIn() as osm, \
            WhatsAppStandIn(webhook_url=wa_url) as wa, \
            BotProcess.around(tmp_path / "data", log_file=bot_log, LOG_LEVEL="DEBUG",
                              LOG_FORMAT=fmt, DATABASE_URL=url,
                              WHATSAPP_PHONE_NUMBER_ID=wa.phone_number_id,
                              WHATSAPP_ACCESS_TOKEN=wa.token,
                              WHATSAPP_APP_SECRET=wa.app_secret,
                              WHATSAPP_VERIFY_TOKEN="verifica",
                              WHATSAPP_GRAPH_URL=wa.graph_url,
                              WHATSAPP_WEBHOOK_PORT=str(wa_port)) as bot:
        (tmp_path / "data").mkdir(exist_ok=True)
        await bot.start()
        assert bot.database.exists() == (not url)  # the engine asked for
        core = _core(bot, url)
        try:
            street, depot = await _seed(core)
        finally:
            await core.db.dispose()
        await _owner_in_the_bot(bot, street)
        await _owner_on_whatsapp(wa, wa_url, street)
        with SmtpServer(refuse=refusal) as smtp:
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            panel = await start_panel({
                **bot.env, "ADMIN_PORT": str(port), "ADMIN_HOST": "127.0.0.1",
                "NOMINATIM_URL": osm.base_url, "SMTP_URL": smtp.url,
                "SMTP_FROM": "Prefeitura <naoresponda@prefeitura.example>",
                "PUBLIC_URL": base}, panel_log)
            try:
                jar = aiohttp.CookieJar(unsafe=True)  # cookies of 127.0.0.1
                async with aiohttp.ClientSession(cookie_jar=jar) as session:
                    await until_up(session, f"{base}/healthz")
                    await _panel_steps(session, base, osm, street, depot)
                # the owner's e-mail (the release) and the citizen's (the counter's receipt)
                await _until_logged(panel_log, "dead letter", 2)
            finally:
                panel.terminate()
                await panel.wait()
        assert smtp.refused >= 2
    logs = bot_log.read_text(encoding="utf-8") + panel_log.read_text(encoding="utf-8")
    for route in ("POST /casos/{protocol}/liberar", "POST /balcao",
                  "POST /publico/proprietario/email", "update handled", "geocoder unavailable",
                  "WhatsApp webhook listening", "whatsapp message handled in"):
        assert route in logs, route  # it did log (a line for each WhatsApp message too)
    leaked = [line for line in logs.splitlines()
              if any(marker.lower() in line.lower() for marker in MARKERS)]
    assert not leaked, "personal data in the logs:\n" + "\n".join(leaked)
    if fmt == "json":
        lines = [json.loads(line) for line in logs.splitlines() if line.strip()]
        assert all("request_id" in line and "message" in line for line in lines)
        assert any(line["request_id"].startswith("wa-") for line in lines
                   if "whatsapp message handled" in line["message"])
