"""`python -m admin municipality add|set|list|deactivate`, the real process against a fresh
DATA_DIR: a city added from IBGE's GeoJSON routes its pins; a refusal is one Portuguese line
and exit code 2, never a trace."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EAST = {"type": "FeatureCollection", "features": [{
    "type": "Feature", "properties": {"CD_MUN": "3555000", "NM_MUN": "Leste", "SIGLA_UF": "SP"},
    "geometry": {"type": "MultiPolygon", "coordinates": [[[
        [-51.40, -21.45], [-51.30, -21.45], [-51.30, -21.35], [-51.40, -21.35],
        [-51.40, -21.45]]]]}}]}


def _run(args, data_dir, stdin=""):
    env = {**os.environ, "DATA_DIR": str(data_dir), "DATABASE_URL": "",
           "MUNICIPALITY": "dracena"}
    return subprocess.run([sys.executable, "-m", "admin", "municipality", *args], input=stdin,
                          text=True, capture_output=True, cwd=ROOT, env=env, timeout=120)


def _refused(result, reason: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert reason in result.stderr and "Traceback" not in result.stderr


async def test_a_city_is_added_changed_listed_and_deactivated_from_the_command_line(tmp_path):
    boundary = tmp_path / "leste.geojson"
    boundary.write_text(json.dumps(EAST), encoding="utf-8")
    added = _run(["add", "leste", "--law", "dracena", "--name", "Leste", "--uf", "SP",
                  "--ibge", "3555000", "--boundary", str(boundary),
                  "--depot-address", "Pátio de Leste, Rua 3", "--pix-key",
                  "pix@leste.sp.gov.br", "--pix-name", "Prefeitura de Leste",
                  "--pix-city", "Leste", "--open311-key-stdin"], tmp_path,
                 "chave-open311-de-leste-123\n")
    assert added.returncode == 0, added.stderr
    assert "Leste (SP)" in added.stdout and "contorno desenhado" in added.stdout
    changed = _run(["set", "leste", "--office-phone", "(18) 3821-0000"], tmp_path)
    assert changed.returncode == 0, changed.stderr
    off = _run(["deactivate", "leste"], tmp_path)
    assert off.returncode == 0 and "desativado" in off.stdout
    listed = _run(["list"], tmp_path)
    assert listed.returncode == 0, listed.stderr
    head, _, *rows = listed.stdout.splitlines()
    assert head.split()[:3] == ["Município", "Identificador", "Lei"]
    assert rows[0].startswith("Dracena (SP)") and rows[0].rstrip().endswith("ativo")
    assert rows[1].startswith("Leste (SP)") and rows[1].rstrip().endswith("desativado")

    from core.services.context import Core
    from core.settings import Settings
    core = await Core.open(Settings(_env_file=None, data_dir=tmp_path, database_url="",
                                    municipality="dracena"))
    try:
        leste = core.city_named("leste")
        assert leste.office_phone == "(18) 3821-0000" and leste.pix_key == "pix@leste.sp.gov.br"
        assert len(leste.open311_key_sha256) == 64 and not leste.active
        assert core.city_at(-21.40, -51.35) is None  # deactivated: no new pin
    finally:
        await core.close()


def test_refusals_are_one_portuguese_line_and_exit_code_2(tmp_path):
    bow_tie = tmp_path / "laco.geojson"
    bow_tie.write_text(json.dumps({"type": "Polygon", "coordinates": [[
        [-51.6, -21.6], [-51.4, -21.4], [-51.4, -21.6], [-51.6, -21.4], [-51.6, -21.6]]]}))
    binary = tmp_path / "foto.geojson"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    _refused(_run(["add", "leste", "--law", "dracena", "--ibge", "3555000", "--boundary",
                   str(bow_tie)], tmp_path), "cruza a si mesmo")
    _refused(_run(["add", "leste", "--law", "dracena", "--ibge", "3555000", "--boundary",
                   str(binary)], tmp_path), "não é um texto GeoJSON")
    _refused(_run(["add", "leste", "--law", "dracena", "--boundary",
                   str(tmp_path / "nada.geojson")], tmp_path), "Arquivo não encontrado")
    _refused(_run(["add", "leste", "--law", "dracena", "--uf", "XX"], tmp_path),
             "UF inválida")
    _refused(_run(["add", "leste", "--law", "dracena", "--ibge", "3514404"], tmp_path),
             "dígito verificador")
    _refused(_run(["deactivate", "dracena"], tmp_path), "único município ativo")
    _refused(_run(["set", "atlantida", "--name", "Atlântida"], tmp_path),
             "Município não cadastrado")
    _refused(_run(["remove", "dracena"], tmp_path), "opção inválida")
