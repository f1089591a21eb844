"""The server files in deploy/ checked by the real tools: the systemd units by
`systemd-analyze verify` (every directive known, every command present) and
`systemd-analyze security` (exposure low), the nginx site by `nginx -t` inside a wrapping
config with a self-signed certificate made here by openssl; and what they promise read from
them: a user of its own, a read-only system with DATA_DIR the only writable place, the
panel's upload limit, both webhook paths, no public /metrics.

The tools are Debian packages (.ci/run installs nginx and openssl; systemd is Debian's init)."""
from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from admin.app import MAX_BODY_MB

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNITS = ["vialivre-bot.service", "vialivre-admin.service", "vialivre-backup.service",
         "vialivre-backup.timer"]
SERVICES = [u for u in UNITS if u.endswith(".service")]
INSTALL = "/opt/vialivre"
DATA_DIR = "/var/lib/vialivre"

SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
OPENSSL = shutil.which("openssl")
needs_systemd = pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason=(
    "systemd-analyze not installed (package systemd): the units cannot be verified here"))
needs_nginx = pytest.mark.skipif(NGINX is None or OPENSSL is None, reason=(
    "nginx or openssl not installed (Debian packages nginx, openssl; .ci/run installs them)"))


def _unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None,
                                       empty_lines_in_values=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((DEPLOY / name).read_text(encoding="utf-8"))
    return parser


def _staged(tmp_path: Path) -> list[Path]:
    """The units with the install folder moved under tmp_path, where .venv/bin/python is this
    interpreter: systemd-analyze checks that each ExecStart's program exists."""
    root = tmp_path / "opt" / "vialivre"
    (root / ".venv" / "bin").mkdir(parents=True)
    (root / ".venv" / "bin" / "python").symlink_to(sys.executable)
    staged = []
    for name in UNITS:
        target = tmp_path / name
        target.write_text((DEPLOY / name).read_text(encoding="utf-8").replace(INSTALL, str(root)),
                          encoding="utf-8")
        staged.append(target)
    return staged


@needs_systemd
def test_systemd_analyze_verifies_every_unit_without_a_word(tmp_path):
    done = subprocess.run([SYSTEMD_ANALYZE, "verify", *map(str, _staged(tmp_path))],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (done.stdout + done.stderr).strip() == ""  # an unknown key is only a warning


@needs_systemd
@pytest.mark.parametrize("name", SERVICES)
def test_each_service_is_exposed_little(tmp_path, name):
    unit = next(p for p in _staged(tmp_path) if p.name == name)
    done = subprocess.run([SYSTEMD_ANALYZE, "security", "--offline=yes", "--threshold=20",
                           str(unit)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr


@pytest.mark.parametrize("name", SERVICES)
def test_services_run_as_their_own_user_on_a_read_only_system(name):
    service = _unit(name)["Service"]
    assert service["User"] == service["Group"] == "vialivre"
    assert service["ProtectSystem"] == "strict"
    writable = service["ReadWritePaths"].split()
    assert writable[0] == DATA_DIR
    assert writable[1:] == ([] if "backup" not in name else ["/var/backups/vialivre"])
    for key in ("NoNewPrivileges", "PrivateTmp", "ProtectHome", "PrivateDevices",
                "ProtectKernelTunables", "ProtectKernelModules", "ProtectControlGroups",
                "RestrictSUIDSGID", "RestrictNamespaces"):
        assert service[key] == "yes", key
    assert service["EnvironmentFile"] == "/etc/vialivre/vialivre.env"


def test_bot_and_panel_restart_on_failure_and_start_at_boot():
    for name, module in (("vialivre-bot.service", "bot"), ("vialivre-admin.service", "admin")):
        unit = _unit(name)
        assert unit["Service"]["ExecStart"] == f"{INSTALL}/.venv/bin/python -m {module}"
        assert unit["Service"]["Restart"] == "on-failure"
        assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_the_backup_goes_to_a_dated_folder_and_is_verified_there():
    command = _unit("vialivre-backup.service")["Service"]["ExecStart"]
    # systemd turns %% into % and $$ into $: the shell sees $(date +%F) and "$dest".
    assert "dest=/var/backups/vialivre/$$(date +%%F)" in command
    backup = command.index('-m admin backup "$$dest"')
    assert command.index('-m admin verify "$$dest"', backup) > backup
    assert " && " in command[backup:]  # no verify of a backup that failed
    timer = _unit("vialivre-backup.timer")
    assert timer["Timer"]["OnCalendar"] and timer["Timer"]["Persistent"] == "true"
    assert timer["Install"]["WantedBy"] == "timers.target"


def _site() -> str:
    return (DEPLOY / "nginx-vialivre.conf").read_text(encoding="utf-8")


def test_the_site_proxies_the_panel_and_both_webhooks_and_hides_metrics():
    site = _site()
    locations = dict(re.findall(r"location ([^{]+?) \{\s*(.*?)\s*\}", site, re.S))
    assert locations["= /telegram"] == "proxy_pass http://vialivre_telegram;"
    assert locations["= /whatsapp/webhook"] == "proxy_pass http://vialivre_whatsapp;"
    assert locations["/"] == "proxy_pass http://vialivre_admin;"
    assert locations["= /metrics"] == "return 404;"
    ports = dict(re.findall(r"upstream (\w+) \{\s*server 127\.0\.0\.1:(\d+);", site))
    assert ports == {"vialivre_admin": "8081", "vialivre_telegram": "8443",
                     "vialivre_whatsapp": "8444"}  # .env.example's defaults


def test_the_site_takes_the_panels_biggest_upload():
    [size] = re.findall(r"client_max_body_size (\d+)m;", _site())
    assert int(size) > MAX_BODY_MB  # nginx must not cut what the panel accepts


@needs_nginx
def test_nginx_accepts_the_site_with_a_certificate(tmp_path):
    cert, key = tmp_path / "fullchain.pem", tmp_path / "privkey.pem"
    subprocess.run([OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=vialivre.example.gov.br", "-keyout", str(key),
                    "-out", str(cert)], check=True, capture_output=True, timeout=60)
    site = tmp_path / "vialivre.conf"
    site.write_text(_site().replace("/etc/ssl/vialivre/fullchain.pem", str(cert))
                    .replace("/etc/ssl/vialivre/privkey.pem", str(key)), encoding="utf-8")
    temp = "\n".join(f"    {kind}_temp_path {tmp_path / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    wrapper = tmp_path / "nginx.conf"
    wrapper.write_text(f"""
pid {tmp_path / "nginx.pid"};
error_log {tmp_path / "error.log"};
events {{}}
http {{
    access_log off;
{temp}
    include {site};
}}
""", encoding="utf-8")
    done = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"),
                           "-c", str(wrapper)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "test is successful" in done.stderr
    # nginx 1.25+ prefers "http2 on;" (unknown to Debian 12's 1.22): that warning alone is fine
    warnings = [line for line in done.stderr.splitlines()
                if "[warn]" in line and '"listen ... http2" directive is deprecated' not in line]
    assert warnings == [] and "[emerg]" not in done.stderr
