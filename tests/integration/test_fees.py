"""Generic fee engine (core/fees.py): dated tariffs, storage days; each law's auction split
(core/laws/<slug>/fees.py).
Cases in tests/cases/fees.yaml (the generic engine) and in each law's folder
(core/laws/<law>/cases/fees.yaml, `split`), each named by the article it implements."""
from datetime import date
from decimal import Decimal

import pytest

from core.fees import (DEFAULT_STORAGE_CAP_DAYS, Statement, TariffBook, TariffNotFound,
                       fixed_line, storage_days)
from core.laws.dores_do_indaia.fees import split_proceeds as split_proceeds_dores
from core.laws.dracena.fees import split_proceeds as split_proceeds_dracena
from core.laws.base import TariffSeed
from tests.support.law_cases import generic_case, law_case

CASES = {**generic_case("fees.yaml"),
         "split_dores": law_case("dores-do-indaia", "fees.yaml")["split"],
         "split_dracena": law_case("dracena", "fees.yaml")["split"]}


def _params(section):
    return [pytest.param(c, id=c["id"]) for c in CASES[section]]


def seed(code, amount, valid_from, currency="BRL"):
    return TariffSeed(code=code, label=f"Tarifa {code}", amount=Decimal(amount), currency=currency,
                      valid_from=valid_from, unit="day", article="Art. 9º, II", source="teste")


BOOK = TariffBook([
    seed("daily_storage", "20.00", date(2022, 9, 23)),
    seed("daily_storage", "25.00", date(2024, 3, 1)),
    seed("animal_day", "20.00", date(1951, 10, 9), currency="CRZ"),
    seed("animal_day", "40.00", date(2025, 1, 1)),
])


@pytest.mark.parametrize("day, amount", [
    (date(2022, 9, 23), "20.00"), (date(2024, 2, 29), "20.00"),
    (date(2024, 3, 1), "25.00"), (date(2030, 1, 1), "25.00"),
])
def test_value_at_takes_the_latest_value_in_force_art_9_II(day, amount):
    assert BOOK.value_at("daily_storage", day).amount == Decimal(amount)


def test_no_value_in_force_is_a_clear_error():
    with pytest.raises(TariffNotFound, match=r"Tarifa daily_storage.*22/09/2022"):
        BOOK.value_at("daily_storage", date(2022, 9, 22))


def test_cruzeiro_values_are_history_never_charged_dracena_art_7():
    with pytest.raises(TariffNotFound):
        BOOK.value_at("animal_day", date(2000, 1, 1))
    assert BOOK.value_at("animal_day", date(2025, 1, 1)).currency == "BRL"
    assert [(t.currency, t.amount) for t in BOOK.history("animal_day")] == [
        ("CRZ", Decimal("20.00")), ("BRL", Decimal("40.00"))]


def test_two_values_for_the_same_day_are_refused():
    with pytest.raises(ValueError):
        TariffBook([seed("towing", "1", date(2024, 1, 1)), seed("towing", "2", date(2024, 1, 1))])


def test_default_cap_is_six_months_ctb_art_328_par_5():
    assert DEFAULT_STORAGE_CAP_DAYS == 180


@pytest.mark.parametrize("case", _params("storage_days"))
def test_storage_days(case):
    kwargs = {"counting": case["counting"]}
    if "cap_days" in case:
        kwargs["cap_days"] = case["cap_days"]
    days = storage_days(case["entered"], case["as_of"], **kwargs)
    assert len(days) == case["days"]
    assert len(set(days)) == len(days)
    if "first" in case:
        assert days[0] == case["first"]
    if "last" in case:
        assert days[-1] == case["last"]


def test_storage_days_refuses_release_before_entry():
    from datetime import datetime
    with pytest.raises(ValueError):
        storage_days(datetime(2024, 1, 2), datetime(2024, 1, 1))


def test_statement_total_is_the_sum_of_cent_rounded_lines():
    lines = [fixed_line("Multa", "Art. 7º", Decimal("10.005")), fixed_line("Impostos", "Art. 7º", Decimal("0.125"))]
    st = Statement.of(lines, None)
    assert [l.amount for l in st.lines] == [Decimal("10.01"), Decimal("0.13")]
    assert st.total == Decimal("10.14")


def _shares(case):
    return [(r, Decimal(a)) for r, a in case["shares"]]


@pytest.mark.parametrize("case", _params("split_dores"))
def test_split_proceeds_dores_art_8_paragrafo_unico(case):
    shares = split_proceeds_dores(Decimal(case["gross"]), Decimal(case["taxes"]),
                                  Decimal(case["removal"]), Decimal(case["storage"]))
    assert [tuple(s) for s in shares] == _shares(case)
    assert sum(s.amount for s in shares) == Decimal(case["gross"])
    assert all(s.amount >= 0 for s in shares)


@pytest.mark.parametrize("case", _params("split_dracena"))
def test_split_proceeds_dracena_art_6_par_3(case):
    shares = split_proceeds_dracena(Decimal(case["gross"]), Decimal(case["fine"]),
                                    Decimal(case["taxes"]), Decimal(case["keeping_costs"]))
    assert [tuple(s) for s in shares] == _shares(case)
    assert sum(s.amount for s in shares) == Decimal(case["gross"])
