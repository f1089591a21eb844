"""`python -m admin` serves the panel; `create-user` and `invite-inspector` are the CLI.

    python -m admin                                   # ADMIN_HOST:ADMIN_PORT (127.0.0.1:8081)
    python -m admin create-user USERNAME --role admin|staff   # password from standard input
    python -m admin invite-inspector --name NAME --agency AGENCY --matricula M # code on the last line
    python -m admin deactivate-inspector ID          # tasks reassigned, /tarefas menu removed
    python -m admin public-copies      # EXIF-free copies of photos stored before they were
                                       # made at upload (once, after upgrading)
"""
from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import sys

from core.services.errors import USER_ERRORS
from core.settings import get_settings


def _password() -> str:
    if sys.stdin.isatty():
        first = getpass.getpass("Senha: ")
        if getpass.getpass("Repita a senha: ") != first:
            raise SystemExit("As senhas não conferem.")
        return first
    return sys.stdin.readline().rstrip("\n")


async def _with_core(fn):
    from core.services.context import Core
    core = await Core.open(get_settings())
    try:
        return await fn(core)
    finally:
        await core.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m admin", description="Painel Via Livre")
    sub = parser.add_subparsers(dest="cmd")
    cu = sub.add_parser("create-user", help="criar usuário do painel (senha pela entrada padrão)")
    cu.add_argument("username")
    cu.add_argument("--role", choices=("admin", "staff"), required=True)
    inv = sub.add_parser("invite-inspector", help="gerar código de convite de fiscal")
    inv.add_argument("--name", required=True)
    inv.add_argument("--agency", required=True)
    inv.add_argument("--matricula", required=True,
                     help="matrícula do fiscal, impressa nos documentos que ele assina")
    dea = sub.add_parser("deactivate-inspector",
                         help="desativar um fiscal (tarefas redistribuídas, menu removido)")
    dea.add_argument("inspector_id", type=int, metavar="ID", help="número do fiscal no painel")
    sub.add_parser("public-copies", help="fazer as cópias públicas (sem EXIF) que faltam")
    args = parser.parse_args(argv)

    try:
        if args.cmd == "create-user":
            from core.services.staff import create_user
            password = _password()
            user = asyncio.run(_with_core(lambda core: create_user(core, args.username,
                                                                   password, args.role)))
            print(f"Usuário {user.username} criado ({user.role}).")
            return 0
        if args.cmd == "invite-inspector":
            from core.services.inspectors import invite_inspector
            code = asyncio.run(_with_core(lambda core: invite_inspector(
                core, args.name, args.agency, "cli", registration=args.matricula)))
            print(f"Código de convite para {args.name} (uso único; o fiscal envia ao bot):")
            print(code)
            return 0
        if args.cmd == "deactivate-inspector":
            from core.services.tasks import deactivate_inspector
            from core.services.staff import CLI_ACTOR
            asyncio.run(_with_core(lambda core: deactivate_inspector(
                core, args.inspector_id, CLI_ACTOR)))
            print(f"Fiscal {args.inspector_id} desativado: as tarefas abertas foram "
                  "redistribuídas e o menu de fiscal será removido do Telegram dele.")
            return 0
        if args.cmd == "public-copies":
            from core.services.evidence import make_missing_public_copies
            made, refused = asyncio.run(_with_core(make_missing_public_copies))
            print(f"Cópias públicas feitas: {made}; fotos recusadas (não decodificáveis ou "
                  f"grandes demais): {refused}.")
            return 0
    except USER_ERRORS as exc:
        print(exc.message, file=sys.stderr)
        return 1

    from aiohttp import web

    from admin.app import create_app
    logging.basicConfig(level=logging.INFO)
    settings = get_settings()
    web.run_app(create_app(settings=settings), host=settings.admin_host, port=settings.admin_port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
