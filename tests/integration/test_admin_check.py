"""`python -m admin check`: each thing that blocks going live is one Portuguese line (ERRO),
each worth a look an AVISO, and the exit status is 1 while an ERRO remains; the SMTP server
is really tried (a real one started here, and a port nobody listens on)."""
from __future__ import annotations

import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

from admin.cli_check import check
from core.services.papers.placeholders import TZ
from core.services.staff.calendar import add_tariff
from core.services.staff.accounts import StaffUserInfo
from core.settings import Settings
from tests.support.smtp import SmtpServer, free_port

ROOT = Path(__file__).resolve().parents[2]

READY = dict(telegram_bot_token="123:abc", public_url="https://vialivre.prefeitura.example",
             admin_cookie_secure=True, metrics_token="m" * 32,
             depot_address="Rua do Pátio, 10 — Centro", office_address="Rua X, 100 — Centro",
             office_phone="(37) 3551-0000", dpo_contact="dpo@dores.mg.gov.br",
             smtp_from="Prefeitura <avisos@dores.mg.gov.br>")


async def _official_tariffs(core) -> None:
    today = core.now().astimezone(TZ).date()
    for code in ("towing", "daily_storage"):
        await add_tariff(core, code, Decimal("300.00"), today, "Art. 9º, II",
                         "Decreto 10/2026", StaffUserInfo(1, "maria", "admin", True))


async def test_a_fresh_installation_is_told_everything_that_blocks_going_live(core):
    found = await check(Settings(_env_file=None), core)
    text = "\n".join(found.errors)
    for what in ("TELEGRAM_BOT_TOKEN", "PUBLIC_URL", "DEPOT_ADDRESS", "OFFICE_ADDRESS",
                 "OFFICE_PHONE", "DPO_CONTACT", "Reboque até o pátio", "Diária de pátio"):
        assert what in text, what
    assert any("METRICS_TOKEN" in w for w in found.warnings)
    assert not any("METRICS_TOKEN" in e for e in found.errors)  # a warning, not a blocker


async def test_a_webhook_without_a_secret_and_plain_http_block(core):
    found = await check(Settings(_env_file=None, **{
        **READY, "webhook_url": "http://bot.example/tg", "public_url": "http://x.example"}),
        core)
    text = "\n".join(found.errors)
    assert "WEBHOOK_SECRET" in text and "WEBHOOK_URL não começa com https://" in text
    assert "PUBLIC_URL (http://x.example) não é um endereço https://" in text


async def test_ready_settings_and_a_reachable_smtp_pass(make_core):
    with SmtpServer() as smtp:
        settings = dict(READY, smtp_url=smtp.url)
        core = await make_core(**settings)
        await _official_tariffs(core)
        found = await check(Settings(_env_file=None, **settings), core)
    assert found.errors == [] and found.warnings == []


async def test_an_smtp_server_that_does_not_answer_blocks(make_core):
    settings = dict(READY, smtp_url=f"smtp://127.0.0.1:{free_port()}")
    core = await make_core(**settings)
    await _official_tariffs(core)
    found = await check(Settings(_env_file=None, **settings), core)
    assert len(found.errors) == 1
    assert found.errors[0].startswith("O servidor SMTP (127.0.0.1:") \
        and "não respondeu" in found.errors[0]


def test_the_command_prints_one_portuguese_line_each_and_exits_1(tmp_path):
    env = {**os.environ, "DATA_DIR": str(tmp_path), "DATABASE_URL": "",
           "MUNICIPALITY": "dores-do-indaia", "TELEGRAM_BOT_TOKEN": "", "PUBLIC_URL": "",
           "SMTP_URL": "", "METRICS_TOKEN": ""}
    r = subprocess.run([sys.executable, "-m", "admin", "check"], capture_output=True,
                       text=True, cwd=ROOT, env=env, timeout=60)
    assert r.returncode == 1, r.stderr
    lines = r.stdout.strip().splitlines()
    assert all(line.startswith(("ERRO: ", "AVISO: ")) for line in lines[:-1])
    assert "impedem a entrada em produção" in lines[-1]
    assert any("TELEGRAM_BOT_TOKEN" in line for line in lines)
