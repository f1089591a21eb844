"""Properties of the indicators' arithmetic (core.services.staff.indicators): a percentile is one
of the values, never below the median for a higher rank; the months of a period cover it."""
from __future__ import annotations

from datetime import date, timedelta

from hypothesis import HealthCheck, given, settings, strategies as st

from core.services.staff.indicators import Period, percentile


@settings(suppress_health_check=[HealthCheck.too_slow])  # a shared, loaded machine
@given(st.lists(st.integers(min_value=0, max_value=3650), min_size=1, max_size=60))
def test_percentiles_are_values_and_ordered(values):
    p50, p90 = percentile(values, 50), percentile(values, 90)
    assert p50 in values and p90 in values
    assert min(values) <= p50 <= p90 <= max(values)
    assert percentile(values, 100) == max(values)


@given(st.dates(min_value=date(2020, 1, 1), max_value=date(2030, 12, 31)),
       st.integers(min_value=0, max_value=1000))
def test_the_months_of_a_period_cover_it_once(start, days):
    months = Period(start, start + timedelta(days=days)).months()
    assert months[0] == start.replace(day=1)
    assert months[-1] == (start + timedelta(days=days)).replace(day=1)
    assert all(m.day == 1 for m in months) and months == sorted(set(months))
