"""`python -m admin backup|restore|verify`: the installation's backups, from the command line
(core.services.installation.backup, restore, verify).

    python -m admin backup DEST       # a consistent snapshot while the bot and the panel run;
                                      # DEST empty or an earlier backup (files copied anew only)
    python -m admin restore SRC       # into the empty DATA_DIR / database of the settings
    python -m admin verify [SRC]      # every evidence file and timeline chain: the live
                                      # installation, or the backup in SRC

A refusal is one Portuguese line on standard error and exit code 2 (as argparse's own); verify
and restore exit with 1 when they find a problem, each named by its case."""
from __future__ import annotations

from core.formatting import plural

import argparse
import asyncio
import sys
from pathlib import Path

from core.services.errors import USER_ERRORS
from core.settings import get_settings

COMMANDS = ("backup", "restore", "verify")


def add_parser(sub) -> None:
    b = sub.add_parser("backup", help="fazer backup (banco, evidências, manifesto)",
                       description="Faz um backup consistente com o bot e o painel no ar: o "
                                   "banco de dados (SQLite pela API de backup, PostgreSQL pelo "
                                   "pg_dump), os arquivos de evidência (só os novos são "
                                   "copiados) e um manifesto com o SHA-256 de cada arquivo e o "
                                   "último hash da linha do tempo de cada caso.")
    b.add_argument("dest", metavar="DESTINO", type=Path,
                   help="pasta do backup: vazia, nova ou um backup anterior")
    r = sub.add_parser("restore", help="restaurar um backup numa instalação vazia",
                       description="Restaura o backup em ORIGEM no DATA_DIR e no banco de "
                                   "dados das configurações, que precisam estar vazios, e "
                                   "confere o resultado.")
    r.add_argument("src", metavar="ORIGEM", type=Path, help="pasta do backup")
    v = sub.add_parser("verify", help="conferir evidências e linhas do tempo",
                       description="Confere cada arquivo de evidência com o seu hash e a "
                                   "cadeia de hashes da linha do tempo de cada caso, na "
                                   "instalação ou num backup; nomeia cada caso com problema.")
    v.add_argument("src", metavar="ORIGEM", type=Path, nargs="?",
                   help="pasta de um backup (sem ela: a instalação configurada)")


def _print_report(report) -> int:
    for note in report.notes:
        print(note)
    if report.ok:
        print(f"Tudo confere: {plural(report.cases, 'caso', 'casos')}, "
              f"{plural(report.files, 'arquivo', 'arquivos')} de evidência.")
        return 0
    for p in report.problems:
        print(f"Caso {p.protocol}: {p.what}" if p.protocol else p.what, file=sys.stderr)
    named = report.cases_named
    print(f"Problemas: {len(report.problems)} em {plural(len(named), 'caso', 'casos')}"
          + (f" ({', '.join(named)})" if named else "") + f", de {report.cases}.",
          file=sys.stderr)
    return 1


def run(args: argparse.Namespace) -> int:
    settings = get_settings()
    try:
        if args.cmd == "backup":
            from core.services.installation.backup import take_backup
            made = asyncio.run(take_backup(settings, args.dest))
            for warning in made.warnings:
                print(f"Aviso: {warning}", file=sys.stderr)
            print(f"Backup feito em {made.dest} ({made.engine}, migração {made.revision}): "
                  f"{plural(made.cases, 'caso', 'casos')}; "
                  f"{plural(made.copied, 'arquivo copiado', 'arquivos copiados')}, {made.kept} já "
                  f"{'estava' if made.kept == 1 else 'estavam'} no backup.")
            return 0
        if args.cmd == "restore":
            from core.services.installation.restore import restore
            report = asyncio.run(restore(settings, args.src))
            print(f"Backup restaurado em {Path(settings.data_dir).resolve()}.")
            return _print_report(report)
        from core.services.installation import verify
        report = asyncio.run(verify.verify_backup(args.src) if args.src is not None
                             else verify.verify_live(settings))
        return _print_report(report)
    except USER_ERRORS as exc:
        print(exc.message, file=sys.stderr)
        return 2
