"""Reading /metrics in the tests: the token the tests set, and the Prometheus text read back
with prometheus-client's own parser into {(sample name, sorted labels): value}."""
from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

TOKEN = "token-de-metricas-123"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def samples(text: str) -> dict[tuple[str, tuple], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}
