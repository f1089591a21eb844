"""`python -m admin create-user` (password from stdin) and `invite-inspector` (code on the
last line), against a fresh DATA_DIR."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(args, data_dir, stdin=""):
    env = {**os.environ, "DATA_DIR": str(data_dir), "DATABASE_URL": "",
           "MUNICIPALITY": "dores-do-indaia"}
    return subprocess.run([sys.executable, "-m", "admin", *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, env=env, timeout=60)


def test_create_user_and_invite_inspector_from_the_command_line(tmp_path):
    r = _run(["create-user", "maria", "--role", "admin"], tmp_path, "senha-forte-123\n")
    assert r.returncode == 0, r.stderr
    assert "maria" in r.stdout
    short = _run(["create-user", "joao", "--role", "staff"], tmp_path, "curta\n")
    assert short.returncode == 1 and "pelo menos 10 caracteres" in short.stderr
    inv = _run(["invite-inspector", "--name", "Joana Silva", "--agency", "posturas",
                "--matricula", "12.345-6"], tmp_path)
    assert inv.returncode == 0, inv.stderr
    code = inv.stdout.strip().splitlines()[-1]
    assert len(code.replace("-", "")) >= 8


async def test_deactivate_inspector_from_the_command_line_withdraws_the_menu(tmp_path):
    """The deactivation (core.services.inspectors.accounts) queues the deletion of the inspector's
    chat-scoped menu (/tarefas) in the outbox, which the bot sends as deleteMyCommands."""
    from sqlalchemy import select

    from core.services.context import Core
    from core.services.inspectors.accounts import MENU_WITHDRAWN, bind_inspector
    from core.settings import Settings
    from core.storage.models import Inspector, OutboxMessage

    inv = _run(["invite-inspector", "--name", "Joana Silva", "--agency", "posturas",
                "--matricula", "12.345-6"], tmp_path)
    assert inv.returncode == 0, inv.stderr
    core = await Core.open(Settings(_env_file=None, data_dir=tmp_path, database_url=""))
    try:
        bound = await bind_inspector(core, 4242, inv.stdout.strip().splitlines()[-1], "Joana")
    finally:
        await core.close()
    missing = _run(["deactivate-inspector", "999"], tmp_path)
    assert missing.returncode == 1 and "Fiscal não encontrado" in missing.stderr
    done = _run(["deactivate-inspector", str(bound.inspector_id)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "desativado" in done.stdout
    core = await Core.open(Settings(_env_file=None, data_dir=tmp_path, database_url=""))
    try:
        async with core.db.read() as s:
            active = (await s.execute(select(Inspector.active))).scalar_one()
            queued = (await s.execute(select(OutboxMessage.chat_id).where(
                OutboxMessage.kind == MENU_WITHDRAWN))).scalars().all()
    finally:
        await core.close()
    assert active is False and queued == [4242]


def _run_in(municipality, args, data_dir):
    env = {**os.environ, "DATA_DIR": str(data_dir), "DATABASE_URL": "",
           "MUNICIPALITY": municipality}
    return subprocess.run([sys.executable, "-m", "admin", *args], text=True,
                          capture_output=True, cwd=ROOT, env=env, timeout=60)


def test_the_cli_help_is_in_portuguese_and_lists_the_law_s_agencies(tmp_path):
    """The help names the agencies an inspector may belong to, from the configured law
    (Dracena Art. 1º "funcionário competente": fiscalização; Dores: its own agencies)."""
    from core.laws import get_law
    for slug in ("dracena", "dores-do-indaia"):
        out = _run_in(slug, ["invite-inspector", "-h"], tmp_path)
        assert out.returncode == 0, out.stderr
        assert "uso: python -m admin invite-inspector" in out.stdout
        assert "mostra esta ajuda e sai" in out.stdout and "show this help" not in out.stdout
        flat = " ".join(out.stdout.split())
        for code, agency in get_law(slug).agencies.items():
            assert code in flat and " ".join(agency.name.split()) in flat
    top = _run_in("dracena", ["-h"], tmp_path)
    assert "opções:" in top.stdout and "comandos:" in top.stdout
    assert "fiscalizacao" in top.stdout and "posturas" not in top.stdout


def test_the_cli_s_errors_are_in_portuguese(tmp_path):
    missing = _run_in("dracena", ["invite-inspector", "--name", "Ana"], tmp_path)
    assert missing.returncode == 2
    assert "erro: faltam argumentos obrigatórios: --agency, --matricula" in missing.stderr
    wrong = _run_in("dracena", ["create-user", "ana", "--role", "chefe"], tmp_path)
    assert "opção inválida: 'chefe' (escolha entre 'admin', 'staff')" in wrong.stderr
    unknown = _run_in("dracena", ["apagar-tudo"], tmp_path)
    assert "opção inválida: 'apagar-tudo'" in unknown.stderr
    number = _run_in("dracena", ["deactivate-inspector", "abc"], tmp_path)
    assert "argumento ID: valor inválido: 'abc'" in number.stderr
    for r in (missing, wrong, unknown, number):
        assert "error" not in r.stderr and "usage" not in r.stderr
    agency = _run_in("dracena", ["invite-inspector", "--name", "Ana", "--agency", "posturas",
                                 "--matricula", "123"],
                     tmp_path)
    assert agency.returncode == 1 and "Órgão desconhecido" in agency.stderr
    assert "fiscalizacao" in agency.stderr


def test_create_user_names_the_account_s_municipality(tmp_path):
    """A servant belongs to a city; an administrator without --municipality administers the
    whole installation; a city the installation does not serve is refused in Portuguese."""
    admin = _run(["create-user", "maria", "--role", "admin"], tmp_path, "senha-forte-123\n")
    assert admin.returncode == 0 and "toda a instalação" in admin.stdout
    staff = _run(["create-user", "joao", "--role", "staff", "--municipality",
                  "dores-do-indaia"], tmp_path, "senha-forte-123\n")
    assert staff.returncode == 0 and "município dores-do-indaia" in staff.stdout
    unknown = _run(["create-user", "rui", "--role", "staff", "--municipality", "atlantida"],
                   tmp_path, "senha-forte-123\n")
    assert unknown.returncode == 1 and "Município desconhecido: “atlantida”" in unknown.stderr
    assert "dores-do-indaia" in unknown.stderr  # the cities it may use
