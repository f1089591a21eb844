"""`python -m admin municipality …`: the cities the installation serves, from the command line.

    python -m admin municipality add dracena --boundary dracena.geojson [--law SLUG] [--name …]
    python -m admin municipality set dracena --depot-address "…" [--boundary FILE] …
    python -m admin municipality list
    python -m admin municipality deactivate dracena   (activate: serve it again)

A refusal is one Portuguese line on standard error and exit code 2 (as argparse's own)."""
from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from pathlib import Path

from core.area import MAX_BOUNDARY_BYTES
from core.services.errors import USER_ERRORS

#: option → record field (the options' values are text; the service checks them)
FIELDS = {"name": "name", "uf": "uf", "ibge": "ibge_code", "office_address": "office_address",
          "office_phone": "office_phone", "office_hours": "office_hours",
          "office_lat": "office_lat", "office_lon": "office_lon",
          "depot_address": "depot_address", "depot_hours": "depot_hours",
          "dpo": "dpo_contact", "pix_key": "pix_key", "pix_name": "pix_merchant_name",
          "pix_city": "pix_merchant_city", "guia": "payment_guia_instructions",
          "jurisdiction": "open311_jurisdiction_id"}
HELP = {"name": "nome do município (padrão: o da lei)", "uf": "sigla do estado (ex.: SP)",
        "ibge": "código IBGE do município, 7 dígitos", "office_address": "endereço do setor",
        "office_phone": "telefone do setor", "office_hours": "horário de atendimento do setor",
        "office_lat": "latitude do setor (início da rota dos fiscais)",
        "office_lon": "longitude do setor", "depot_address": "endereço do pátio",
        "depot_hours": "horário do pátio", "dpo": "encarregado de dados (LGPD)",
        "pix_key": "chave PIX da prefeitura", "pix_name": "nome do recebedor PIX (até 25)",
        "pix_city": "cidade do recebedor PIX (até 15)",
        "guia": "instruções de pagamento por guia (DAM)",
        "jurisdiction": "jurisdiction_id do Open311 (padrão: o identificador)"}


class CliError(Exception):
    """A refusal of the command line itself (a file that cannot be read)."""


def add_parser(sub) -> None:
    """`municipality` and its commands, under the main parser's subparsers."""
    mun = sub.add_parser("municipality", help="municípios atendidos (administrador da "
                         "instalação)", description="Os municípios que esta instalação "
                         "atende: cadastrar, alterar, listar, desativar.")
    cmds = mun.add_subparsers(dest="mcmd", title="comandos", metavar="COMANDO", required=True)
    add = cmds.add_parser("add", help="cadastrar um município",
                          description="Cadastra um município, com o contorno (GeoJSON da "
                                      "malha municipal do IBGE) e os campos que diferem da "
                                      "configuração (.env).")
    add.add_argument("slug", metavar="IDENTIFICADOR", help="ex.: dracena")
    add.add_argument("--law", metavar="LEI", help="a lei do município (padrão: o identificador)")
    ch = cmds.add_parser("set", help="alterar campos de um município",
                         description="Altera campos de um município; um valor vazio (\"\") "
                                     "volta à configuração da instalação.")
    ch.add_argument("slug", metavar="IDENTIFICADOR")
    ch.add_argument("--no-boundary", action="store_true",
                    help="apagar o contorno (volta ao círculo padrão da lei)")
    for p in (add, ch):
        p.add_argument("--boundary", metavar="ARQUIVO", type=Path,
                       help="contorno do município em GeoJSON (longitude, latitude)")
        for opt, text in HELP.items():
            p.add_argument("--" + opt.replace("_", "-"), dest=opt, metavar="VALOR", help=text)
        p.add_argument("--open311-key-stdin", action="store_true",
                       help="ler da entrada padrão a chave Open311 própria do município")
    cmds.add_parser("list", help="listar os municípios", description="Lista os municípios.")
    for name, text in (("deactivate", "desativar um município (novos pedidos não vão mais "
                                      "para ele)"),
                       ("activate", "voltar a atender um município desativado")):
        p = cmds.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        p.add_argument("slug", metavar="IDENTIFICADOR")


def run(args: argparse.Namespace, with_core) -> int:
    """Run a `municipality` command with `with_core` (admin.__main__'s); 0, or 2 refused."""
    try:
        if args.mcmd == "list":
            from core.services.installation.municipalities import list_municipalities
            print(table(asyncio.run(with_core(list_municipalities))))
            return 0
        if args.mcmd in ("deactivate", "activate"):
            from core.services.installation import municipalities as m
            fn = m.deactivate_municipality if args.mcmd == "deactivate" else \
                m.activate_municipality
            city = asyncio.run(with_core(lambda core: fn(core, args.slug)))
            print(f"{city.label}: " + ("desativado; novos pedidos não vão mais para ele (os "
                                       "casos abertos continuam)." if args.mcmd == "deactivate"
                                       else "atendido de novo."))
            return 0
        return _add_or_set(args, with_core)
    except CliError as exc:
        print(str(exc), file=sys.stderr)
    except USER_ERRORS as exc:
        print(exc.message, file=sys.stderr)
    return 2


def _add_or_set(args: argparse.Namespace, with_core) -> int:
    from core.services.installation import municipalities as m
    fields = {field: getattr(args, opt) for opt, field in FIELDS.items()
              if getattr(args, opt) is not None}
    if args.boundary is not None:
        fields["boundary"] = read_file(args.boundary)
    elif getattr(args, "no_boundary", False):
        fields["boundary"] = ""
    key = None
    if args.open311_key_stdin:
        key = (getpass.getpass("Chave Open311: ") if sys.stdin.isatty()
               else sys.stdin.readline()).strip()
    if args.mcmd == "add":
        city = asyncio.run(with_core(lambda core: m.add_municipality(
            core, args.slug, law=args.law, open311_key=key, **fields)))
        print(f"Município cadastrado: {city.label}, {describe(city)}.")
    else:
        if not fields and key is None:
            raise CliError("Nada a alterar: informe pelo menos um campo (veja "
                           "municipality set -h).")
        city = asyncio.run(with_core(lambda core: m.set_municipality(
            core, args.slug, open311_key=key, **fields)))
        print(f"Município alterado: {city.label}, {describe(city)}.")
    return 0


def read_file(path: Path) -> bytes:
    """A boundary file's bytes; a file too big is refused before it is read."""
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise CliError(f"{path}: não é um arquivo.")
        if size > MAX_BOUNDARY_BYTES:
            mb = f"{size / 1024 ** 2:.1f}".replace(".", ",")
            raise CliError(f"Arquivo de contorno grande demais ({mb} MB; o máximo é "
                           f"{MAX_BOUNDARY_BYTES // 1024 ** 2} MB). Baixe a malha de um só "
                           "município, ou simplifique-a (mapshaper, QGIS).")
        return path.read_bytes()
    except FileNotFoundError:
        raise CliError(f"Arquivo não encontrado: {path}") from None
    except OSError as exc:
        raise CliError(f"Não foi possível ler {path}: {exc.strerror or 'erro de leitura'}."
                       ) from None


def describe(city) -> str:
    """"lei dracena, IBGE 3514403, contorno desenhado"."""
    return (f"lei {city.law.slug} ({city.law.short}), IBGE {city.ibge_code}, "
            f"{area_text(city)}")


def area_text(city) -> str:
    if city.area.shape is not None:
        return "contorno desenhado"
    return f"círculo de {(city.area.radius_m or 0) / 1000:.1f} km".replace(".", ",")


def table(rows) -> str:
    """The cities as a table in plain text, one line each."""
    if not rows:
        return "Nenhum município cadastrado."
    head = ("Município", "Identificador", "Lei", "IBGE", "Área", "Casos", "Servidores",
            "Fiscais", "Situação")
    lines = [(r.city.label, r.city.slug, r.law, r.city.ibge_code,
              "contorno" if r.drawn else area_text(r.city), str(r.cases), str(r.staff),
              str(r.inspectors), "ativo" if r.city.active else "desativado") for r in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *lines)]
    out = ["  ".join(str(v).ljust(w) for v, w in zip(line, widths)).rstrip()
           for line in (head, tuple("-" * w for w in widths), *lines)]
    return "\n".join(out)
