"""Brazilian formats people read: dd/mm/aaaa, São Paulo time, dates in full, reais."""
from __future__ import annotations

from datetime import date, datetime, timezone
from decimal import Decimal

import pytest

from core.formatting import (
    TZ, date_in_full, fmt_date, fmt_datetime, fmt_money, now, weekday_name,
)


def test_date_is_day_month_year():
    assert fmt_date(date(2026, 1, 5)) == "05/01/2026"


def test_datetime_is_shown_in_sao_paulo_time():
    # 02:30 UTC on 11/12 is still the evening of 10/12 in São Paulo (UTC-3).
    assert fmt_datetime(datetime(2026, 12, 11, 2, 30, tzinfo=timezone.utc)) == "10/12/2026 às 23:30"
    assert fmt_date(datetime(2026, 12, 11, 2, 30, tzinfo=timezone.utc)) == "10/12/2026"


def test_naive_datetime_is_refused_rather_than_guessed():
    with pytest.raises(ValueError):
        fmt_datetime(datetime(2026, 12, 10, 14, 0))


def test_date_in_full_in_portuguese():
    assert date_in_full(date(2026, 12, 10)) == "quinta-feira, 10 de dezembro de 2026"
    assert weekday_name(date(2026, 12, 12)) == "sábado"


def test_money_in_reais_as_babel_writes_it():
    assert fmt_money(Decimal("1234.56")) == "R$\xa01.234,56"
    assert fmt_money(Decimal("0.5")) == "R$\xa00,50"
    assert fmt_money(Decimal("1000000")) == "R$\xa01.000.000,00"


def test_money_refuses_float():
    with pytest.raises(TypeError):
        fmt_money(12.3)


def test_now_is_aware_sao_paulo_time():
    current = now()
    assert current.tzinfo == TZ
    assert current.utcoffset() is not None
