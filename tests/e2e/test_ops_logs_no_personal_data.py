"""No personal data in any log line, at any level: the real `python -m bot` and `python -m
admin` run at DEBUG, in text and in JSON, while a report full of markers goes through the
bot (name, plate, description with a phone, an e-mail and a CPF) and an Open311 client posts
one with the reporter's contact (name, phone, e-mail) to the panel; none of the markers, nor
the bot's token, is in what the two processes wrote. The JSON lines parse, and the panel's
carry the X-Request-Id the proxy sent. The owner's proofs and the counter's contacts:
test_ops_logs_owner_and_counter.py."""
from __future__ import annotations

import json

import aiohttp
import pytest

from sandbox.standin.botapi import User
from tests.support.bot_chat import CENTRE, press, said, send_photos, start_report
from tests.support.bot_process import BotProcess
from tests.support.panel_process import start_panel, until_up
from tests.support.smtp import free_port

REPORTER = User(2077, "Zeferinomarca")
PLATE = "QZX9M47"
MARKERS = ("Zeferinomarca", PLATE, "98765-4321", "zeferino.marcador@", "529.982.247-25",
           "DESCRICAOMARCADA", "Teodoricomarca", "Marcadorson", "91234-5678",
           "open311.marcador@", "RuaMarcadora", "consultamarcada")


async def _bot_report(bot: BotProcess) -> None:
    h = bot  # said/press read `.api`
    await start_report(h, REPORTER)
    await send_photos(h, REPORTER, 1)
    await press(h, REPORTER, "Pronto", expect="Onde fica")
    await bot.api.send_location(REPORTER, *CENTRE)
    await said(h, REPORTER, "Qual é a placa")
    await bot.api.send_text(REPORTER, PLATE)
    await said(h, REPORTER, "Qual é a cor")
    for _ in range(8):  # every question up to the free description: "Não sei" / "Pular"
        labels = [b.text for b in bot.api.last_message(REPORTER).flat_buttons()]
        if not any(b in labels for b in ("Não sei", "Pular", "Continuar ➡️")):
            break
        choice = next(b for b in ("Não sei", "Continuar ➡️", "Pular") if b in labels)
        await press(h, REPORTER, choice, expect="")
    await bot.api.send_text(REPORTER, "DESCRICAOMARCADA ligue (37) 98765-4321, "
                            "zeferino.marcador@exemplo.org, CPF 529.982.247-25")
    await said(h, REPORTER)


@pytest.mark.parametrize("fmt", ["text", "json"])
async def test_no_marker_reaches_the_logs_of_the_real_processes(tmp_path, fmt):
    bot_log, panel_log = tmp_path / "bot.log", tmp_path / "panel.log"
    env = {"LOG_LEVEL": "DEBUG", "LOG_FORMAT": fmt}
    async with BotProcess.around(tmp_path / "data", log_file=bot_log, **env) as bot:
        (tmp_path / "data").mkdir(exist_ok=True)
        await bot.start()
        await _bot_report(bot)
        port = free_port()
        panel_env = {**bot.env, "ADMIN_PORT": str(port), "ADMIN_HOST": "127.0.0.1",
                     "OPEN311_API_KEY": "chave-marcada"}
        panel = await start_panel(panel_env, panel_log)
        base = f"http://127.0.0.1:{port}"
        try:
            async with aiohttp.ClientSession() as session:
                await until_up(session, f"{base}/healthz")
                async with session.post(f"{base}/open311/v2/requests.json", data={
                        "api_key": "chave-marcada", "service_code": "motor_vehicle",
                        "lat": str(CENTRE[0]), "long": str(CENTRE[1]),
                        "address_string": "RuaMarcadora 77",
                        "email": "open311.marcador@exemplo.org", "first_name": "Teodoricomarca",
                        "last_name": "Marcadorson", "phone": "(37) 91234-5678",
                        "description": f"DESCRICAOMARCADA placa {PLATE}",
                        "media_url": "http://fotos.example/obj.jpg"},
                        headers={"X-Request-Id": "proxy-req-77"}) as resp:
                    assert resp.status == 201, await resp.text()
                    assert resp.headers["X-Request-Id"] == "proxy-req-77"
                async with session.get(f"{base}/publico/protocolo/consultamarcada",
                                       params={"email": "zeferino.marcador@exemplo.org"}):
                    pass
        finally:
            panel.terminate()
            await panel.wait()
        token = bot.api.token
    logs = bot_log.read_text(encoding="utf-8") + panel_log.read_text(encoding="utf-8")
    assert "update handled" in logs and "POST /open311/v2/requests" in logs  # it did log
    lowered = logs.lower()
    for marker in (*MARKERS, token):
        assert marker.lower() not in lowered, f"{marker} in the logs"
    if fmt == "json":
        lines = [json.loads(line) for line in logs.splitlines() if line.strip()]
        assert all("request_id" in line and "message" in line for line in lines)
        assert any(line["request_id"] == "proxy-req-77" for line in lines)
        assert any(line["request_id"].startswith("tg-") for line in lines)
