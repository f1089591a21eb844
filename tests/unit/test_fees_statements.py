"""Law-specific fee statements and tariff seeds: Dores do Indaiá Art. 3º §3º II/III and
Art. 9º II; Dracena Art. 7º. Cases in each law's folder (core/laws/<law>/cases/fees.yaml,
`statements`)."""
from datetime import date
from decimal import Decimal

import pytest

from core.fees import TariffBook, TariffNotFound
from core.laws.base import TariffSeed
from core.laws.dores_do_indaia import fees as dores
from core.laws.dracena import fees as dracena
from tests.support.law_cases import law_case

CASES = {"dores": law_case("dores-do-indaia", "fees.yaml")["statements"],
         "dracena": law_case("dracena", "fees.yaml")["statements"]}


def _book(section):
    return TariffBook(
        TariffSeed(code=t["code"], label=t["code"], amount=Decimal(t["amount"]),
                   currency=t.get("currency", "BRL"), valid_from=t["valid_from"], unit="day",
                   article="Art.", source="teste")
        for t in CASES[section]["tariffs"])


def _params(section):
    return [pytest.param(c, id=c["id"]) for c in CASES[section]["cases"]]


def _check(make, case):
    if "error" in case:
        with pytest.raises(TariffNotFound, match=case["error"]):
            make()
        return
    st = make()
    got = [(l.quantity, l.unit_value, l.tariff_valid_from, l.amount) for l in st.lines]
    want = [(Decimal(q), Decimal(u), d, Decimal(a)) for q, u, d, a in case["lines"]]
    assert got == want
    assert st.total == Decimal(case["total"])
    assert st.as_of == case["as_of"]


@pytest.mark.parametrize("case", _params("dores"))
def test_dores_statement(case):
    book = _book("dores")
    _check(lambda: dores.statement(
        book, removed_at=case["removed_at"], as_of=case["as_of"], towed=case["towed"],
        counting=case["counting"], fines=Decimal(case.get("fines", "0")),
        other=[(label, Decimal(v)) for label, v in case.get("other", [])]), case)


@pytest.mark.parametrize("case", _params("dracena"))
def test_dracena_statement(case):
    book = _book("dracena")
    _check(lambda: dracena.statement(
        book, entered_at=case["entered_at"], as_of=case["as_of"], fine=Decimal(case["fine"]),
        taxes=Decimal(case.get("taxes", "0")), animals=case.get("animals", 0),
        kilograms=Decimal(case.get("kilograms", "0")), counting=case["counting"]), case)


def test_dores_statement_lines_cite_art_3_par_3():
    from datetime import datetime
    st = dores.statement(TariffBook(dores.TARIFFS), removed_at=datetime(2024, 1, 1, 8),
                         as_of=datetime(2024, 1, 3, 8), towed=True, fines=Decimal("10"))
    assert [l.article.split(";")[0] for l in st.lines] == [
        "Art. 3º, §3º, II", "Art. 3º, §3º, II", "Art. 3º, §3º, III"]
    assert st.lines[1].label == "Diária de pátio — 2 dias (01/01/2024 a 02/01/2024)"


def test_dores_seed_values_in_force_15_days_after_publication_art_13_and_set_by_art_9_II():
    book = TariffBook(dores.TARIFFS)
    for code in ("towing", "daily_storage"):
        t = book.value_at(code, date(2022, 9, 23))
        assert t.currency == "BRL" and t.amount > 0
        assert "Valor de referência" in t.source and "deve confirmar" in t.source
        with pytest.raises(TariffNotFound):
            book.value_at(code, date(2022, 9, 22))


def test_dracena_seed_keeps_1951_cruzeiros_as_history_art_7():
    book = TariffBook(dracena.TARIFFS)
    assert [(t.currency, t.amount, t.valid_from) for t in book.history("animal_day")][0] == (
        "CRZ", Decimal("20.00"), date(1951, 10, 9))
    assert [(t.currency, t.amount) for t in book.history("goods_kg_day")][0] == ("CRZ", Decimal("1.00"))
    for code in ("animal_day", "goods_kg_day"):
        current = book.value_at(code, date.today())
        assert current.currency == "BRL" and "Prefeitura" in current.source
