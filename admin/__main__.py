"""`python -m admin` serves the panel; `create-user` and `invite-inspector` are the CLI.

    python -m admin                                   # ADMIN_HOST:ADMIN_PORT (127.0.0.1:8081)
    python -m admin create-user USERNAME --role admin|staff [--municipality SLUG]
                                  # password from standard input; an admin without a
                                  # municipality administers the whole installation
    python -m admin invite-inspector --name NAME --agency AGENCY --matricula M
                                  [--municipality SLUG]   # code on the last line
    python -m admin deactivate-inspector ID          # tasks reassigned, /tarefas menu removed
    python -m admin municipality add|set|list|deactivate …   # the cities served (cli_municipality)
    python -m admin public-copies      # EXIF-free copies of photos stored before they were
                                       # made at upload (once, after upgrading)
    python -m admin backup DEST | restore SRC | verify [SRC]   # backups (cli_backup)
    python -m admin check              # what still blocks going live (cli_check)
"""
from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import sys
from contextlib import contextmanager

from admin import cli_backup, cli_check, cli_municipality
from core.services.errors import USER_ERRORS
from core.settings import get_settings


def _password() -> str:
    if sys.stdin.isatty():
        first = getpass.getpass("Senha: ")
        if getpass.getpass("Repita a senha: ") != first:
            raise SystemExit("As senhas não conferem.")
        return first
    return sys.stdin.readline().rstrip("\n")


async def _with_core(fn, city: str | None = None, *, city_required: str = ""):
    """Run `fn` with the installation's Core, bound to `city` when given (an unknown one is
    refused). `city_required`: the refusal when none is given and several cities are served."""
    from core.services.context import Core
    from core.services.errors import InvalidInput
    core = await Core.open(get_settings())
    try:
        if city:
            if core.city_named(city) is None:
                served = ", ".join(c.slug for c in core.cities)
                raise InvalidInput(f"Município desconhecido: “{city}”. Municípios atendidos: "
                                   f"{served}.")
            core = core.for_city(city)
        elif city_required and core.many_cities:
            served = ", ".join(c.slug for c in core.cities)
            raise InvalidInput(f"{city_required} Municípios atendidos: {served}.")
        return await fn(core)
    finally:
        await core.close()


#: argparse's own words (usage, section titles, errors) in Portuguese: argparse looks them up
#: through its module-level gettext functions, swapped only while our parser is built and
#: parses (_portuguese).
_PT = {
    "usage: ": "uso: ",
    "positional arguments": "argumentos",
    "options": "opções",
    "show this help message and exit": "mostra esta ajuda e sai",
    "%(prog)s: error: %(message)s\n": "%(prog)s: erro: %(message)s\n",
    "argument %(argument_name)s: %(message)s": "argumento %(argument_name)s: %(message)s",
    "the following arguments are required: %s": "faltam argumentos obrigatórios: %s",
    "unrecognized arguments: %s": "argumentos não reconhecidos: %s",
    "invalid choice: %(value)r (choose from %(choices)s)":
        "opção inválida: %(value)r (escolha entre %(choices)s)",
    "invalid %(type)s value: %(value)r": "valor inválido: %(value)r",
    "expected one argument": "falta o valor",
    "expected at most one argument": "aceita no máximo um valor",
    "expected at least one argument": "precisa de pelo menos um valor",
    "ambiguous option: %(option)s could match %(matches)s":
        "opção ambígua: %(option)s pode ser %(matches)s",
    "unknown parser %(parser_name)r (choices: %(choices)s)":
        "comando desconhecido %(parser_name)r (comandos: %(choices)s)",
    "one of the arguments %s is required": "um dos argumentos %s é obrigatório",
    "not allowed with argument %s": "não pode ser usado com o argumento %s",
    "expected %s argument": "esperava %s valor",
    "expected %s arguments": "esperava %s valores",
}


@contextmanager
def _portuguese():
    saved = argparse._, argparse.ngettext
    argparse._ = lambda msg: _PT.get(msg, msg)
    argparse.ngettext = lambda one, many, n: _PT.get(one if n == 1 else many,
                                                     one if n == 1 else many)
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved


def _agencies() -> str:
    """The agencies an inspector may belong to, from the configured law (code: name)."""
    from core.laws import get_law
    try:
        law = get_law(get_settings().municipality)
    except Exception:  # an unknown MUNICIPALITY is reported when the core opens
        return ""
    names = "; ".join(f"{code} ({a.name})" for code, a in law.agencies.items())
    return f"Órgãos válidos ({law.short}, {law.city}): {names}."


def _parser() -> argparse.ArgumentParser:
    agencies = _agencies()
    parser = argparse.ArgumentParser(
        prog="python -m admin",
        description="Via Livre: sem comando, serve o painel da prefeitura "
                    "(ADMIN_HOST:ADMIN_PORT); com um comando, faz uma tarefa de administração.",
        epilog=agencies)
    sub = parser.add_subparsers(dest="cmd", title="comandos", metavar="COMANDO")
    cu = sub.add_parser("create-user", help="criar usuário do painel (senha pela entrada padrão)",
                        description="Cria um usuário do painel; a senha é lida da entrada "
                                    "padrão (pelo menos 10 caracteres).")
    cu.add_argument("username", metavar="USUÁRIO", help="nome de usuário para entrar no painel")
    cu.add_argument("--role", choices=("admin", "staff"), required=True, metavar="PAPEL",
                    help="admin (administra o painel) ou staff (servidor)")
    cu.add_argument("--municipality", metavar="MUNICÍPIO",
                    help="identificador do município da conta (ex.: dracena); sem ele, um "
                         "admin administra toda a instalação; um servidor sempre tem município")
    inv = sub.add_parser("invite-inspector", help="gerar código de convite de fiscal",
                         description="Gera um código de convite de uso único (válido por 7 "
                                     "dias) que o fiscal envia ao bot.")
    inv.add_argument("--name", required=True, metavar="NOME", help="nome completo do fiscal")
    inv.add_argument("--agency", required=True, metavar="ÓRGÃO",
                     help="órgão do fiscal, pelo código ou pelo nome. " + agencies)
    inv.add_argument("--matricula", required=True, metavar="MATRÍCULA",
                     help="matrícula do fiscal, impressa nos documentos que ele assina")
    inv.add_argument("--municipality", metavar="MUNICÍPIO",
                     help="identificador do município do fiscal (ex.: dracena); obrigatório "
                          "quando a instalação atende mais de um município")
    dea = sub.add_parser("deactivate-inspector",
                         help="desativar um fiscal (tarefas redistribuídas, menu removido)",
                         description="Desativa um fiscal: as tarefas abertas são "
                                     "redistribuídas e o menu de fiscal sai do Telegram dele.")
    dea.add_argument("inspector_id", type=int, metavar="ID", help="número do fiscal no painel")
    sub.add_parser("public-copies", help="fazer as cópias públicas (sem EXIF) que faltam",
                   description="Faz as cópias sem EXIF das fotos guardadas antes de as cópias "
                               "serem feitas no envio (uma vez, depois de atualizar).")
    cli_municipality.add_parser(sub)
    cli_backup.add_parser(sub)
    cli_check.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    with _portuguese():
        args = _parser().parse_args(argv)

    if args.cmd == "municipality":
        return cli_municipality.run(args, _with_core)
    if args.cmd in cli_backup.COMMANDS:
        return cli_backup.run(args)
    if args.cmd == "check":
        return cli_check.run()
    try:
        if args.cmd == "create-user":
            from core.services.staff.accounts import create_user
            password = _password()
            staff = args.role == "staff"
            user = asyncio.run(_with_core(
                lambda core: create_user(core, args.username, password, args.role,
                                         core.municipality if args.municipality else None),
                args.municipality, city_required="Uma conta de servidor(a) precisa de um "
                "município: use --municipality." if staff else ""))
            where = f"município {user.municipality}" if user.municipality else \
                "toda a instalação"
            print(f"Usuário {user.username} criado ({user.role}, {where}).")
            return 0
        if args.cmd == "invite-inspector":
            from core.services.inspectors.accounts import invite_inspector
            code = asyncio.run(_with_core(lambda core: invite_inspector(
                core, args.name, args.agency, "cli", registration=args.matricula),
                args.municipality, city_required="Informe o município do fiscal: use "
                "--municipality."))
            print(f"Código de convite para {args.name} (uso único; o fiscal envia ao bot):")
            print(code)
            return 0
        if args.cmd == "deactivate-inspector":
            from core.services.inspectors.tasks import deactivate_inspector
            from core.services.staff.accounts import CLI_ACTOR
            asyncio.run(_with_core(lambda core: deactivate_inspector(
                core, args.inspector_id, CLI_ACTOR)))
            print(f"Fiscal {args.inspector_id} desativado: as tarefas abertas foram "
                  "redistribuídas e o menu de fiscal será removido do Telegram dele.")
            return 0
        if args.cmd == "public-copies":
            from core.services.cases.evidence import make_missing_public_copies
            made, refused = asyncio.run(_with_core(make_missing_public_copies))
            print(f"Cópias públicas feitas: {made}; fotos recusadas (não decodificáveis ou "
                  f"grandes demais): {refused}.")
            return 0
    except USER_ERRORS as exc:
        print(exc.message, file=sys.stderr)
        return 1

    from aiohttp import web

    from admin.app import create_app
    from core import logs
    settings = get_settings()
    logs.setup(settings)
    logging.getLogger("admin").info("panel listening on %s:%s", settings.admin_host,
                                    settings.admin_port)
    web.run_app(create_app(settings=settings), host=settings.admin_host, port=settings.admin_port,
                print=None)  # its banner is not a log line (LOG_FORMAT=json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
