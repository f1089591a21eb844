"""Logs (core.logs): one line per event in text or JSON, each carrying its request id; the
panel takes a sane X-Request-Id from the proxy (or makes one) and echoes it; what looks like
personal data or a token is masked even if some code logged it."""
from __future__ import annotations

import io
import json
import logging

import pytest
from aiohttp.test_utils import TestClient, TestServer

from admin.app import create_app
from core import logs
from core.settings import Settings
from tests.support.panel import csrf_of


@pytest.fixture(autouse=True)
def _root_restored():
    """core.logs.setup replaces the root logger's handlers: put pytest's back after."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    quiet = {name: logging.getLogger(name).level for name in (*logs.QUIET, *logs.OURS)}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, old in quiet.items():
        logging.getLogger(name).setLevel(old)


def _setup(fmt: str) -> io.StringIO:
    stream = io.StringIO()
    logs.setup(Settings(_env_file=None, log_format=fmt, log_level="DEBUG"), stream)
    return stream


def test_json_lines_parse_and_carry_the_request_id():
    stream = _setup("json")
    token = logs.request_id.set("tg-4242")
    try:
        logging.getLogger("vialivre.test").info("outbox %s sent", 17)
    finally:
        logs.request_id.reset(token)
    line = json.loads(stream.getvalue().strip())
    assert line["request_id"] == "tg-4242" and line["message"] == "outbox 17 sent"
    assert line["level"] == "INFO"


def test_text_lines_mask_what_looks_personal_or_secret():
    stream = _setup("text")
    logging.getLogger("vialivre.test").warning(
        "fulana@example.org (37) 99999-1234 123.456.789-09 ABC1D23 5537999990000 "
        "bot123456:AAE-secret-token-0123456789abcdef update 123456789 "
        "<beltrano&cia{1}@example.org>")  # & { } are letters of an address (parse_email)
    out = stream.getvalue()
    for leak in ("fulana@", "99999-1234", "456.789", "ABC1D23", "5537999990000",
                 "secret-token", "beltrano", "cia{1}"):
        assert leak not in out
    assert "update 123456789" in out  # ids stay readable


def test_the_libraries_that_log_urls_are_capped_even_at_debug():
    stream = _setup("text")
    logging.getLogger("httpx").info("HTTP Request: POST https://api.telegram.org/bot1:x/getMe")
    logging.getLogger("aiohttp.access").info('GET /publico?email=a@b.c 200')
    logging.getLogger("geopy").info("Received an HTTP error (502): <p>/search?q=Rua+X</p>")
    logging.getLogger("geopy").debug("Nominatim.geocode: http://osm/search?q=Rua+X")
    assert stream.getvalue() == ""


async def test_the_panel_echoes_a_sane_request_id_and_replaces_a_wild_one(core):
    async with TestClient(TestServer(create_app(core))) as client:
        resp = await client.get("/healthz", headers={"X-Request-Id": "nginx-abc.123"})
        assert resp.headers["X-Request-Id"] == "nginx-abc.123"
        resp = await client.get("/healthz", headers={"X-Request-Id": "x\" onerror=1 " * 9})
        made = resp.headers["X-Request-Id"]
        assert made and "onerror" not in made
        resp = await client.get("/nao-existe")
        assert resp.status == 404 and resp.headers["X-Request-Id"]


async def test_a_panel_bug_is_logged_with_the_route_not_the_path_typed(core):
    from aiohttp import web

    async def bug(request: web.Request) -> web.Response:
        raise RuntimeError("a bug")

    app = create_app(core)
    app.router.add_get("/publico/teste/{typed}", bug)
    stream = _setup("text")
    async with TestClient(TestServer(app)) as client:
        resp = await client.get("/publico/teste/Zeferinomarca")
        assert resp.status == 500 and "Erro interno" in await resp.text()
    out = stream.getvalue()
    assert "unexpected error on GET /publico/teste/{typed}" in out and "RuntimeError" in out
    assert "Zeferinomarca" not in out


async def test_a_page_that_fails_again_after_a_refused_form_is_logged_by_its_route(core):
    """A refused form brings its page back (admin.kept_form); the page failing then is logged
    by its route's pattern, not the Referer's path and query (a search typed)."""
    from aiohttp import web

    from core.services.errors import InvalidInput
    from core.services.staff.accounts import create_user
    from tests.support.panel import PASSWORD, login

    async def page(request: web.Request) -> web.Response:
        raise RuntimeError("a bug")

    async def action(request: web.Request) -> web.Response:
        raise InvalidInput("Recusado.")

    app = create_app(core)
    app.router.add_get("/teste/{lista}", page)
    app.router.add_post("/teste/{lista}/acao", action)
    await create_user(core, "ana", PASSWORD, "staff")
    async with TestClient(TestServer(app)) as client:
        await login(client, "ana")
        token = csrf_of(await (await client.get("/")).text())
        stream = _setup("text")
        back = str(client.make_url("/teste/casos?busca=Zeferinomarca"))
        await client.post("/teste/casos/acao", data={"csrf": token}, headers={"Referer": back},
                          allow_redirects=False)
    out = stream.getvalue()
    assert "could not render /teste/{lista} again" in out
    assert "Zeferinomarca" not in out


async def test_a_redelivered_update_names_the_refusal_by_its_type(caplog):
    """The resume hook's refusal is Portuguese for the person, quoting what they typed."""
    from types import SimpleNamespace

    from bot.redelivery import redelivered
    from core.services.errors import InvalidInput

    async def resume(_turn):
        raise InvalidInput("Não encontramos “Rua Zeferinomarca” em Dores do Indaiá.")

    turn = SimpleNamespace(update_id=7, query=None, message=object(),
                           conv=SimpleNamespace(state="report:where"),
                           router=SimpleNamespace(resume_handler=lambda _state: resume))
    with caplog.at_level(logging.INFO, logger="bot.redelivery"):
        await redelivered(turn)
    assert "redelivered update 7: nothing to ask again (InvalidInput)" in caplog.text
    assert "Zeferinomarca" not in caplog.text


def test_a_whatsapp_message_id_is_named_without_the_number_it_holds():
    import base64
    wamid = "wamid." + base64.b64encode(b"5537999990000-ABCDEF").decode()
    assert logs.opaque(wamid) == logs.opaque(wamid)  # one message, one id on all its lines
    assert "NTUzNz" not in logs.opaque(wamid) and len(logs.opaque(wamid)) == 12


async def test_a_failed_statement_keeps_what_was_typed_out_of_its_error_text(tmp_path):
    """A statement that fails (here a constraint; "database is locked" alike) names itself in
    the error's text, logged with its trace, never the values it carried."""
    from sqlalchemy import text
    from sqlalchemy.exc import IntegrityError

    from core.storage.db import create_engine

    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
    insert, row = text("INSERT INTO people VALUES (:name)"), {"name": "Zeferinomarca da Silva"}
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE people (name TEXT UNIQUE)"))
            await conn.execute(insert, row)
        with pytest.raises(IntegrityError) as failed:
            async with engine.begin() as conn:
                await conn.execute(insert, row)  # (the trace shows this line)
    finally:
        await engine.dispose()
    stream = _setup("text")
    logging.getLogger("core.test").error("unexpected error", exc_info=failed.value)
    assert "INSERT INTO people" in stream.getvalue()
    assert "Zeferinomarca" not in stream.getvalue()
