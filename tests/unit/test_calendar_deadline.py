"""What the calendar tells people: reasons a day has no office hours, the deadline's
explanation (Lei 9.784/1999 art. 66), and when it lapses."""
from __future__ import annotations

from datetime import date, datetime, time, timezone

import pytest

from core.formatting import TZ
from core.laws.base import MunicipalHoliday
from core.legal_calendar import Closure, LegalCalendar

DORES = (MunicipalHoliday(9, 15, "Nossa Senhora das Dores", date(2000, 1, 1), "lei municipal"),)


@pytest.fixture(scope="module")
def mg() -> LegalCalendar:
    return LegalCalendar("MG", DORES)


def test_reasons_in_portuguese(mg):
    assert mg.non_business_reason(date(2026, 12, 12)) == "sábado"
    assert mg.non_business_reason(date(2026, 12, 13)) == "domingo"
    assert mg.non_business_reason(date(2026, 12, 25)) == "feriado nacional: Natal"
    assert mg.non_business_reason(date(2026, 9, 15)) == "feriado municipal: Nossa Senhora das Dores"
    assert mg.non_business_reason(date(2026, 12, 11)) is None
    sp = LegalCalendar("sp")
    assert sp.non_business_reason(date(2026, 7, 9)) == "feriado estadual: Revolução Constitucionalista"


def test_decreed_closure_reason_and_next_business_day():
    cal = LegalCalendar("MG", closures=[Closure(date(2026, 12, 24), "Véspera de Natal", "decreed_closure")])
    assert cal.non_business_reason(date(2026, 12, 24)) == "ponto facultativo decretado: Véspera de Natal"
    # "primeiro dia útil seguinte": strictly after, past the closure, Natal and the weekend.
    assert cal.next_business_day(date(2026, 12, 23)) == date(2026, 12, 28)
    assert cal.next_business_day(date(2026, 12, 28)) == date(2026, 12, 29)


def test_carnival_is_ponto_facultativo_not_a_holiday(mg):
    """Carnaval is a ponto facultativo: a business day unless the city decrees a closure."""
    assert mg.is_business_day(date(2026, 2, 16))
    suggested = {c.day: c for c in mg.suggested_closures(2026)}
    assert suggested[date(2026, 2, 16)].name == "Carnaval"
    assert suggested[date(2026, 2, 16)].kind == "decreed_closure"
    assert date(2026, 12, 25) not in suggested  # already a holiday


def test_art66_explain_days_with_extension(mg):
    deadline = mg.count_days(date(2026, 12, 2), 10, article="Art. 4º, I", event="notificação do proprietário")
    assert deadline.explain() == (
        "Prazo de 10 dias (Art. 4º, I), contado de 02/12/2026 (notificação do proprietário), "
        "excluído o dia do início e incluído o do vencimento (Lei 9.784/1999, art. 66): "
        "vence em segunda-feira, 14/12/2026, até as 23:59. A contagem terminaria em 12/12/2026, "
        "mas o prazo foi prorrogado até o primeiro dia útil seguinte (Lei 9.784/1999, art. 66, "
        "§ 1º) porque 12/12/2026 é sábado e 13/12/2026 é domingo."
    )


def test_art66_explain_names_each_holiday(mg):
    deadline = mg.count_days(date(2026, 12, 15), 10, article="Art. 4º, II, a", event="afixação do aviso")
    assert "porque 25/12/2026 é feriado nacional (Natal); 26/12/2026 é sábado e 27/12/2026 é domingo." in deadline.explain()


def test_art66_explain_without_extension_says_nothing_about_it(mg):
    text = mg.count_days(date(2026, 12, 1), 1, article="Art. 6º", event="recolhimento").explain()
    assert text.startswith("Prazo de 1 dia (Art. 6º), contado de 01/12/2026 (recolhimento)")
    assert "vence em quarta-feira, 02/12/2026, até as 23:59." in text
    assert "prorrogado" not in text


def test_art66_explain_early_closing_day():
    cal = LegalCalendar("SP", closures=[
        Closure(date(2026, 12, 31), "Véspera de Ano-Novo", "decreed_closure", closes_at=time(12, 0))])
    text = cal.count_days(date(2026, 12, 26), 5, article="Art. 3º", event="auto de infração").explain()
    assert "31/12/2026 tem expediente encerrado às 12:00, antes do horário normal (Véspera de Ano-Novo)" in text


def test_cc132_explain_hours_same_clock_and_end_of_day():
    start = datetime(2026, 12, 11, 13, 0, tzinfo=timezone.utc)  # 10:00 in São Paulo
    same = LegalCalendar("SP").count_hours(start, 48, article="Art. 4º, § 2º", event="apreensão dos bens")
    assert same.explain() == (
        "Prazo de 48 horas (Art. 4º, § 2º), contado minuto a minuto (Código Civil, art. 132, § 4º) "
        "a partir de 11/12/2026 às 10:00 (apreensão dos bens): vence em segunda-feira, 14/12/2026, "
        "às 10:00. As 48 horas terminariam em 13/12/2026 às 10:00, mas o prazo foi prorrogado até "
        "o primeiro dia útil seguinte, no mesmo horário (Lei 9.784/1999, art. 66, § 1º) porque "
        "13/12/2026 é domingo."
    )
    eod = LegalCalendar("SP", hours_end_of_day=True).count_hours(
        start, 48, article="Art. 4º, § 2º", event="apreensão dos bens")
    assert "vence em segunda-feira, 14/12/2026, até as 23:59." in eod.explain()
    assert "prorrogado até o fim do primeiro dia útil seguinte" in eod.explain()


def test_art66_lapse_and_days_left(mg):
    deadline = mg.count_days(date(2026, 12, 2), 10, article="Art. 4º, I", event="notificação")
    assert deadline.days_left(date(2026, 12, 10)) == 4
    assert deadline.days_left(date(2026, 12, 15)) == -1
    assert not deadline.is_lapsed(datetime(2026, 12, 14, 23, 59, 59, tzinfo=TZ))
    assert deadline.is_lapsed(datetime(2026, 12, 15, 0, 0, tzinfo=TZ))
    # 00:30 UTC on 15/12 is still 14/12 in São Paulo: not lapsed.
    assert not deadline.is_lapsed(datetime(2026, 12, 15, 0, 30, tzinfo=timezone.utc))


def test_municipal_holiday_on_29_february_only_in_leap_years():
    cal = LegalCalendar("MG", (MunicipalHoliday(2, 29, "Feriado bissexto", date(2000, 1, 1), ""),))
    assert cal.non_business_reason(date(2028, 2, 29)) == "feriado municipal: Feriado bissexto"
    assert cal.is_business_day(date(2027, 3, 1))


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError):
        LegalCalendar("XX")
    with pytest.raises(ValueError):
        Closure(date(2026, 1, 2), "x", "holiday")
    cal = LegalCalendar("MG")
    with pytest.raises(ValueError):
        cal.count_days(datetime(2026, 12, 1, 10, 0), 10, article="Art. 4º, I", event="notificação")
    with pytest.raises(ValueError):
        cal.count_days(date(2026, 12, 1), 0, article="Art. 4º, I", event="notificação")
    with pytest.raises(TypeError):
        cal.count_hours(date(2026, 12, 1), 48, article="Art. 4º, § 2º", event="apreensão")


def test_calendar_for_law_uses_its_state_and_recurring_holidays():
    from core.laws.base import Law

    law = Law(slug="teste", title="Lei de teste", short="Lei 1/2026", city="Dores do Indaiá",
              uf="MG", centre=(-19.46, -45.6), radius_m=5000, agencies={}, categories={},
              tracks={}, municipal_holidays=DORES)
    cal = LegalCalendar.for_law(law, closures=[Closure(date(2026, 8, 17), "Aniversário", "municipal_holiday")])
    assert cal.non_business_reason(date(2026, 9, 15)) == "feriado municipal: Nossa Senhora das Dores"
    assert cal.non_business_reason(date(2026, 8, 17)) == "feriado municipal: Aniversário"
    assert cal.is_business_day(date(2026, 7, 9))  # SP's state holiday is not Minas Gerais'
