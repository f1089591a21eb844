"""`python -m admin create-user` (password from stdin) and `invite-inspector` (code on the
last line), against a fresh DATA_DIR."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
    inv = _run(["invite-inspector", "--name", "Joana Silva", "--agency", "posturas"], tmp_path)
    assert inv.returncode == 0, inv.stderr
    code = inv.stdout.strip().splitlines()[-1]
    assert len(code.replace("-", "")) >= 8
