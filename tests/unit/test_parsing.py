"""What a person types, read once (core.parsing): money as a Brazilian writes it, dates
dd/mm/aaaa, times, CPF/CNPJ, plates, quantities and free text. For every kind, what
core.formatting writes reads back as the same value (hypothesis)."""
from __future__ import annotations

from datetime import date, datetime, time
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import facts
from core.formatting import (TZ, fmt_cpf_cnpj, fmt_date, fmt_datetime, fmt_kilograms,
                             fmt_money, fmt_time)
from core.identifiers import Plate, format_plate
from core.parsing import (MAX_MONEY, YEARS, ParseError, parse_count, parse_cpf_cnpj, parse_date,
                          parse_datetime, parse_kilograms, parse_money, parse_plate,
                          parse_text, parse_time, read_fact)

settings.register_profile("parsing", max_examples=200, deadline=None)
settings.load_profile("parsing")


# -- money ------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, value", [
    ("1.500,00", "1500.00"), ("1500,00", "1500.00"), ("1500", "1500.00"),
    ("R$ 1.500", "1500.00"), ("R$ 1.500,5", "1500.50"), ("R$\xa01.234,56", "1234.56"),
    ("r$10", "10.00"), ("150,5", "150.50"), ("0,99", "0.99"), (",5", "0.50"),
    ("12.345.678,90", "12345678.90"), ("  250 ", "250.00"), ("0", "0.00"),
])
def test_money_reads_what_a_brazilian_types(typed, value):
    assert parse_money(typed) == Decimal(value)


@pytest.mark.parametrize("typed", [
    "1500.00",  # the case: once R$ 150.000,00 in the bot and R$ 1.500,00 in the panel
    "150.5",  # once R$ 1.505,00 in the bot and R$ 150,50 in the panel
    "1.500.00", "1,500.00", "1.50", "1 500,00", "15.00",
])
def test_ambiguous_money_is_refused_with_a_brazilian_example_never_guessed(typed):
    with pytest.raises(ParseError) as err:
        parse_money(typed)
    assert "1.500,00" in err.value.message and "vírgula" in err.value.message


def test_a_dot_before_the_centavos_gets_the_comma_suggested():
    with pytest.raises(ParseError, match="use vírgula: 1500,00"):
        parse_money("1500.00")


@pytest.mark.parametrize("typed, says", [
    ("", "Informe o valor"), ("-10", "negativo"), ("R$ -10,00", "negativo"),
    ("1,555", "dois dígitos de centavos"), ("1e5", "só o número"), ("NaN", "só o número"),
    ("Infinity", "só o número"), ("١٥٠٠", "só o número"), ("cem reais", "só o número"),
    ("99.999.999.999,99", "alto demais"),
])
def test_money_that_is_not_an_amount_is_refused_in_portuguese(typed, says):
    with pytest.raises(ParseError, match=says):
        parse_money(typed)


@given(st.decimals(min_value=0, max_value=MAX_MONEY, places=2, allow_nan=False,
                   allow_infinity=False))
def test_money_formatted_then_parsed_is_the_same_amount(value):
    assert parse_money(fmt_money(value)) == value
    assert parse_money(fmt_money(value).replace("R$\xa0", "")) == value


@given(st.integers(min_value=0, max_value=10**9))
def test_money_is_never_multiplied_by_100(reais):
    assert parse_money(str(reais)) == reais


# -- dates and times ------------------------------------------------------------------

@pytest.mark.parametrize("typed", ["10/12/2026", " 10/12/2026 ", "10-12-2026", "10.12.2026",
                                   "10 / 12 / 2026"])
def test_date_is_day_month_year(typed):
    assert parse_date(typed) == date(2026, 12, 10)


def test_date_day_and_month_may_have_one_digit():
    assert parse_date("1/2/2026") == date(2026, 2, 1)


@pytest.mark.parametrize("typed", ["2026-12-10", "10/12/26", "01/12", "amanhã", "",
                                   "10/12/02026"])
def test_date_without_a_four_digit_year_or_in_another_order_is_refused(typed):
    with pytest.raises(ParseError, match="Use o formato dd/mm/aaaa"):
        parse_date(typed)


def test_impossible_date_is_refused_in_portuguese():
    with pytest.raises(ParseError, match="A data 31/02/2026 não existe"):
        parse_date("31/02/2026")


@pytest.mark.parametrize("typed, value", [("14:30", time(14, 30)), ("9:05", time(9, 5)),
                                          ("14h30", time(14, 30)), ("14h", time(14)),
                                          ("00:00", time(0))])
def test_time_is_hours_and_minutes(typed, value):
    assert parse_time(typed) == value


@pytest.mark.parametrize("typed", ["24:00", "12:60", "1430", "meio-dia", "", "14:3"])
def test_impossible_time_is_refused(typed):
    with pytest.raises(ParseError, match="hh:mm"):
        parse_time(typed)


def test_date_and_time_need_the_hour():
    assert parse_datetime("10/12/2026 14:30", TZ) == datetime(2026, 12, 10, 14, 30, tzinfo=TZ)
    with pytest.raises(ParseError, match="Informe também a hora"):
        parse_datetime("10/12/2026", TZ)


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(YEARS[1], 12, 31)))
def test_date_formatted_then_parsed_is_the_same_day(day):
    assert parse_date(fmt_date(day)) == day


@given(st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(2100, 1, 1),
                    timezones=st.just(TZ)))
def test_time_and_moment_formatted_then_parsed_are_the_same_minute(moment):
    minute = moment.replace(second=0, microsecond=0)
    assert parse_time(fmt_time(moment)) == minute.time()
    assert parse_datetime(fmt_datetime(moment), TZ) == minute


# -- CPF / CNPJ and plates ---------------------------------------------------------------

def _check_digit(digits: str, weights: list[int]) -> str:
    rest = sum(int(d) * w for d, w in zip(digits, weights)) % 11
    return "0" if rest < 2 else str(11 - rest)


def _cpf(base: str) -> str:
    first = _check_digit(base, list(range(10, 1, -1)))
    return base + first + _check_digit(base + first, list(range(11, 1, -1)))


def _cnpj(base: str) -> str:
    first = _check_digit(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    return base + first + _check_digit(base + first, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])


@pytest.mark.parametrize("typed, value", [
    ("529.982.247-25", "52998224725"), (" 529 982 247 25 ", "52998224725"),
    ("11.222.333/0001-81", "11222333000181"), ("11222333000181", "11222333000181"),
])
def test_cpf_and_cnpj_are_read_with_or_without_the_mask(typed, value):
    assert parse_cpf_cnpj(typed) == value


@pytest.mark.parametrize("typed, says", [
    ("529.982.247-26", "CPF inválido: os dígitos"), ("11.222.333/0001-82", "CNPJ inválido"),
    ("111.111.111-11", "CPF inválido"), ("1234567", "CPF/CNPJ inválido"), ("", "CPF/CNPJ"),
    ("529.982.247-2X", "CPF/CNPJ inválido"),
])
def test_wrong_cpf_or_cnpj_is_refused_with_an_example(typed, says):
    with pytest.raises(ParseError, match=says) as err:
        parse_cpf_cnpj(typed)
    assert "por exemplo" in err.value.message or "Confira" in err.value.message


@given(st.text("0123456789", min_size=9, max_size=9).filter(lambda s: len(set(s)) > 1))
def test_cpf_formatted_then_parsed_is_the_same_number(base):
    cpf = _cpf(base)
    assert parse_cpf_cnpj(fmt_cpf_cnpj(cpf)) == cpf


@given(st.text("0123456789", min_size=12, max_size=12).filter(lambda s: len(set(s)) > 1))
def test_cnpj_formatted_then_parsed_is_the_same_number(base):
    cnpj = _cnpj(base)
    assert parse_cpf_cnpj(fmt_cpf_cnpj(cnpj)) == cnpj


def test_alphanumeric_cnpj_of_2026_is_read():
    """Since July 2026 new CNPJs may carry letters in their first 12 characters."""
    from validate_docbr import CNPJ
    cnpj = CNPJ().generate(digits_only=False)
    assert parse_cpf_cnpj(CNPJ().mask(cnpj).lower()) == cnpj


letters = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=1)
digits = st.text("0123456789", min_size=1, max_size=1)
old_plates = st.builds(lambda a, n: Plate(a + n, "antiga"),
                       st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=3, max_size=3),
                       st.text("0123456789", min_size=4, max_size=4))
mercosul_plates = st.builds(lambda a, d1, l, d2: Plate(a + d1 + l + d2, "mercosul"),
                            st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=3, max_size=3),
                            digits, letters, st.text("0123456789", min_size=2, max_size=2))


@given(st.one_of(old_plates, mercosul_plates))
def test_plate_formatted_then_parsed_is_the_same_plate(plate):
    assert parse_plate(format_plate(plate)) == plate
    assert parse_plate(format_plate(plate).lower()) == plate


@pytest.mark.parametrize("typed, shown", [("abc-1234", "ABC-1234"), ("abc 1234", "ABC-1234"),
                                          ("bra2e19", "BRA2E19")])
def test_plates_are_normalised_old_with_a_dash_mercosul_without(typed, shown):
    assert format_plate(parse_plate(typed)) == shown


def test_a_wrong_plate_is_a_parse_error_with_the_formats():
    with pytest.raises(ParseError, match="ABC1234 ou ABC1D23"):
        parse_plate("AB-12345")


# -- quantities ---------------------------------------------------------------------------

@pytest.mark.parametrize("typed, value", [("3", 3), ("1.200", 1200), (" 12 ", 12)])
def test_counts_are_whole_numbers(typed, value):
    assert parse_count(typed) == value


@pytest.mark.parametrize("typed", ["2,5", "-1", "três", ""])
def test_counts_refuse_fractions_negatives_and_words(typed):
    with pytest.raises(ParseError):
        parse_count(typed)


@pytest.mark.parametrize("typed, value", [("12,5", "12.5"), ("12,5 kg", "12.5"),
                                          ("1.200 kg", "1200"), ("0,250kg", "0.25"),
                                          ("3 quilos", "3")])
def test_weights_are_kilograms_read_the_brazilian_way(typed, value):
    assert parse_kilograms(typed) == Decimal(value)


@pytest.mark.parametrize("typed", ["12.5", "-3 kg", "1,2345 kg", "muito"])
def test_weights_refuse_what_is_not_a_brazilian_weight(typed):
    with pytest.raises(ParseError):
        parse_kilograms(typed)


@given(st.integers(min_value=0, max_value=100_000))
def test_count_written_then_parsed_is_the_same(n):
    assert parse_count(str(n)) == n
    assert parse_count(f"{n:,}".replace(",", ".")) == n  # 1.200 written with its dot


@given(st.decimals(min_value=0, max_value=1_000_000, places=3, allow_nan=False,
                   allow_infinity=False))
def test_weight_formatted_then_parsed_is_the_same(kg):
    assert parse_kilograms(fmt_kilograms(kg)) == kg


# -- free text ----------------------------------------------------------------------------

def test_free_text_is_trimmed_without_nul_or_control_characters():
    assert parse_text("  Fusca\x00 azul \x07 ") == "Fusca azul"
    assert parse_text(" a \n b ") == "a b"
    assert parse_text(" a \r\n\n\n\n b ", lines=True) == "a\n\nb"


def test_free_text_is_length_limited_and_not_empty():
    with pytest.raises(ParseError, match="máximo de 10"):
        parse_text("x" * 11, 10)
    with pytest.raises(ParseError):
        parse_text(" \x00 \n ")


@given(st.text(max_size=300))
def test_free_text_read_twice_is_read_once(text):
    try:
        once = parse_text(text)
    except ParseError:
        return
    assert parse_text(once) == once and "\x00" not in once and once == once.strip()


# -- a fact, by its kind: the same reading for the bot and the panel ----------------------

@pytest.mark.parametrize("kind, typed, stored", [
    (facts.MONEY, "1.500,00", "1500.00"), (facts.DATE, "01/12/2026", "2026-12-01"),
    (facts.DATETIME, "01/12/2026 09:15", "2026-12-01T09:15:00-03:00"),
    (facts.CPF, "529.982.247-25", "52998224725"), (facts.PLATE, "abc-1234", "ABC1234"),
    (facts.COUNT, "3", 3), (facts.WEIGHT, "12,5 kg", "12.5"), (facts.TEXT, " Pátio ", "Pátio"),
    (facts.LONG, "linha 1\nlinha 2", "linha 1\nlinha 2"),
])
def test_a_fact_is_stored_the_same_way_whoever_typed_it(kind, typed, stored):
    assert read_fact(kind, typed, TZ) == stored


def test_every_kind_of_fact_is_asked_with_a_hint_by_the_bot_and_read_by_the_panel():
    from admin.forms import READ_AS, WIDGETS
    from bot.inspector.texts import HINT
    from bot.inspector.form import TYPED

    kinds = set(facts.KINDS.values()) | {facts.DATE, facts.DATETIME, facts.TEXT}
    assert kinds - {facts.LONG} <= set(HINT)  # the chat asks long texts like short ones
    typed = {facts.DATE, facts.DATETIME, facts.MONEY, facts.CPF, facts.PLATE, facts.COUNT,
             facts.WEIGHT}
    assert typed <= TYPED
    assert {READ_AS[WIDGETS[k]] for k in typed} == typed  # the panel reads them as the bot does


PARSERS = [parse_money, parse_date, parse_time, lambda t: parse_datetime(t, TZ),
           parse_cpf_cnpj, parse_plate, parse_count, parse_kilograms, parse_text]


@given(st.sampled_from(PARSERS),
       st.text(alphabet=st.sampled_from("0123456789.,/:-hR$ kgABC\x00\n\xa0é٣"), max_size=25)
       | st.text(max_size=25))
def test_any_typed_text_is_a_value_or_a_portuguese_refusal_never_a_crash(parser, text):
    """Bad input always gets a clear Portuguese answer, never a stack trace."""
    try:
        parser(text)
    except ParseError as exc:
        assert exc.message and exc.message[0].isupper()
