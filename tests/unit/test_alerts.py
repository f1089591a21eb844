"""docs/alerts.yml, the sample alert rules: valid YAML naming the alerts an operator needs (bot
not taking updates, outbox stuck, sweep late, dead letters rising), each on metrics the product
exports; and, where Debian's promtool is installed (package prometheus, .ci/run), checked by
it and unit-tested with series that must fire (and must not)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from core.services.installation import metrics

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "alerts.yml"
NEEDED = {"ViaLivreBotNotTakingUpdates", "ViaLivreOutboxStuck", "ViaLivreSweepLate",
          "ViaLivreDeadLettersRising"}
#: what /metrics exports (core.services.installation.metrics), with the samples' suffixes
EXPORTED = {"vialivre_updates_handled_seconds_count", "vialivre_updates_handled_seconds_sum",
            "vialivre_panel_logins_refused_total", "vialivre_sweep_duration_seconds",
            "vialivre_outbox_depth", "vialivre_outbox_oldest_age_seconds",
            "vialivre_dead_letters", "vialivre_cases", "vialivre_deadlines_lapsed",
            "vialivre_sweep_last_run_timestamp_seconds"}


def _rules() -> dict[str, dict]:
    doc = yaml.safe_load(RULES.read_text("utf-8"))
    return {r["alert"]: r for g in doc["groups"] for r in g["rules"]}


def test_the_rules_name_the_alerts_an_operator_needs():
    assert set(_rules()) >= NEEDED


def test_every_rule_reads_metrics_the_product_exports():
    own = {s.name for m in metrics.REGISTRY.collect() for s in m.samples}
    assert {"vialivre_panel_logins_refused_total",
            "vialivre_sweep_duration_seconds"} <= own & EXPORTED  # the others once observed
    for name, rule in _rules().items():
        used = set(re.findall(r"\bvialivre_[a-z_]+", rule["expr"]))
        assert used <= EXPORTED, (name, used - EXPORTED)


PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="promtool not installed "
                                    "(Debian package prometheus; .ci/run installs it)")


@needs_promtool
def test_promtool_accepts_the_rules():
    out = subprocess.run([PROMTOOL, "check", "rules", str(RULES)], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


@needs_promtool
def test_the_rules_fire_on_a_stuck_outbox_a_late_sweep_and_new_dead_letters(tmp_path):
    tests = {
        "rule_files": [str(RULES)],
        "evaluation_interval": "1m",
        "tests": [{
            "interval": "1m",
            "input_series": [
                # the Telegram outbox's oldest message ages a minute a minute; e-mail is empty
                {"series": 'vialivre_outbox_oldest_age_seconds{channel="telegram"}',
                 "values": "0+60x30"},
                {"series": 'vialivre_outbox_oldest_age_seconds{channel="email"}',
                 "values": "0x30"},
                # the sweep ran at 0 and never again
                {"series": "vialivre_sweep_last_run_timestamp_seconds", "values": "0x30"},
                {"series": 'vialivre_dead_letters{channel="telegram"}', "values": "0x5 3x25"},
            ],
            "alert_rule_test": [
                {"eval_time": "10m", "alertname": "ViaLivreOutboxStuck", "exp_alerts": []},
                {"eval_time": "25m", "alertname": "ViaLivreOutboxStuck",
                 "exp_alerts": [{"exp_labels": {"severity": "critical", "channel": "telegram"},
                                 "exp_annotations": _annotations("ViaLivreOutboxStuck",
                                                                 "telegram", "25m 0s")}]},
                {"eval_time": "10m", "alertname": "ViaLivreSweepLate", "exp_alerts": []},
                {"eval_time": "25m", "alertname": "ViaLivreSweepLate",
                 "exp_alerts": [{"exp_labels": {"severity": "critical"},
                                 "exp_annotations": _annotations("ViaLivreSweepLate")}]},
                {"eval_time": "4m", "alertname": "ViaLivreDeadLettersRising", "exp_alerts": []},
                {"eval_time": "20m", "alertname": "ViaLivreDeadLettersRising",
                 "exp_alerts": [{"exp_labels": {"severity": "warning", "channel": "telegram"},
                                 "exp_annotations": _annotations("ViaLivreDeadLettersRising",
                                                                 "telegram")}]},
            ],
        }],
    }
    path = tmp_path / "alerts_test.yml"
    path.write_text(yaml.safe_dump(tests), "utf-8")
    out = subprocess.run([PROMTOOL, "test", "rules", str(path)], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


def _annotations(alert: str, channel: str = "", waited: str = "") -> dict[str, str]:
    """The rule's annotations as promtool renders them for one series."""
    out = {}
    for key, value in _rules()[alert].get("annotations", {}).items():
        value = value.replace("{{ $labels.channel }}", channel)
        value = re.sub(r"\{\{ \$value \| humanizeDuration \}\}", waited, value)
        out[key] = value
    return out
