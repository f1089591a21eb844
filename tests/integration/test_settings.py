"""Settings: every variable is documented in .env.example with a comment, and read from the
environment."""
from __future__ import annotations

from pathlib import Path

from core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def _documented() -> dict[str, str]:
    """VARIABLE → the comment lines just above it in .env.example."""
    out, comment = {}, []
    for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            comment.append(line.lstrip("# "))
        elif "=" in line:
            out[line.split("=", 1)[0]] = " ".join(comment)
            comment = []
        else:
            comment = []
    return out


def test_every_setting_is_in_env_example_with_a_comment():
    documented = _documented()
    for name in Settings.model_fields:
        assert name.upper() in documented, f"{name.upper()} missing from .env.example"
    # variables sharing one comment block: the block's first variable carries the comment
    assert all(documented[k] or k in {"CITY_CENTER_LON", "CITY_RADIUS_M", "CITY_BOUNDARY_FILE",
                                      "WEBHOOK_PORT", "DEPOT_HOURS", "ADMIN_PORT",
                                      "ADMIN_SECRET_KEY", "OPEN311_API_KEY"}
               for k in documented)


def test_defaults_are_dores_on_sqlite_in_data_dir(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    s = Settings(_env_file=None)
    assert s.municipality == "dores-do-indaia"
    assert s.resolved_database_url().startswith("sqlite+aiosqlite:///")
    assert s.resolved_database_url().endswith("data/vialivre.sqlite3")


def test_environment_selects_dracena_and_postgresql(monkeypatch):
    monkeypatch.setenv("MUNICIPALITY", "dracena")
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://u@h/db")
    s = Settings(_env_file=None)
    assert s.municipality == "dracena"
    assert s.resolved_database_url() == "postgresql+asyncpg://u@h/db"
