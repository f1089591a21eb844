"""Identifiers a citizen or inspector types: plates, RENAVAM, CPF, chassis (docs/law/README.md)."""
import pytest

from core.identifiers import (InvalidIdentifier, format_plate, mask_cpf, normalize_plate,
                              validate_chassis, validate_renavam)
from core.parsing import ParseError, parse_cpf_cnpj


@pytest.mark.parametrize("typed, value, kind, shown", [
    ("ABC1234", "ABC1234", "antiga", "ABC-1234"),
    ("abc-1234", "ABC1234", "antiga", "ABC-1234"),
    (" abc 1234 ", "ABC1234", "antiga", "ABC-1234"),
    ("ABC1D23", "ABC1D23", "mercosul", "ABC1D23"),
    ("bra-2e19", "BRA2E19", "mercosul", "BRA2E19"),
])
def test_valid_plates_are_normalised_and_formatted(typed, value, kind, shown):
    plate = normalize_plate(typed)
    assert (plate.value, plate.kind) == (value, kind)
    assert format_plate(plate) == shown
    assert format_plate(typed) == shown


@pytest.mark.parametrize("typed", ["", "AB1234", "ABCD123", "ABC12345", "1BC1234", "ABC1DD3",
                                   "ABÇ1234", "ABC-12-34X"])
def test_invalid_plates_are_refused_with_a_portuguese_message(typed):
    with pytest.raises(InvalidIdentifier) as err:
        normalize_plate(typed)
    assert str(err.value) == "Placa inválida: use o formato ABC1234 ou ABC1D23."
    assert isinstance(err.value, ParseError) and err.value.message == str(err.value)


@pytest.mark.parametrize("typed, digits", [
    ("12345678900", "12345678900"),
    ("1234567890-0", "12345678900"),
    ("98765432103", "98765432103"),
    ("639884962", "00639884962"),  # old 9-digit RENAVAM, padded with zeros
])
def test_valid_renavam_returns_11_digits(typed, digits):
    assert validate_renavam(typed) == digits


@pytest.mark.parametrize("typed, hint", [
    ("12345678901", "dígito verificador"),  # wrong check digit
    ("639884963", "dígito verificador"),  # old number, wrong check digit
    ("1234567", "11 números"),  # too short
    ("123456789012", "11 números"),  # too long
    ("1234567890A", "11 números"),
])
def test_invalid_renavam_is_refused(typed, hint):
    with pytest.raises(InvalidIdentifier, match="RENAVAM inválido") as err:
        validate_renavam(typed)
    assert hint in str(err.value)


@pytest.mark.parametrize("typed", ["529.982.247-25", "52998224725", " 529 982 247 25 "])
def test_valid_cpf_returns_digits(typed):
    assert parse_cpf_cnpj(typed) == "52998224725"


@pytest.mark.parametrize("typed", ["529.982.247-26", "111.111.111-11", "5299822472", "abc"])
def test_invalid_cpf_is_refused(typed):
    with pytest.raises(ParseError, match="CPF(/CNPJ)? inválido"):
        parse_cpf_cnpj(typed)


def test_cpf_is_masked_for_display_lgpd():
    """LGPD: a CPF shown on screen or paper hides its first three and last two digits."""
    assert mask_cpf("529.982.247-25") == "***.982.247-**"


def test_modern_vin_has_no_warning():
    chassis = validate_chassis("9bw zzz377vt004251")
    assert chassis.value == "9BWZZZ377VT004251"
    assert chassis.warnings == ()


def test_old_short_chassis_is_accepted_with_a_warning():
    chassis = validate_chassis("BH-123456")
    assert chassis.value == "BH123456"
    assert len(chassis.warnings) == 1
    assert "numeração antiga" in chassis.warnings[0]


@pytest.mark.parametrize("letter", ["I", "O", "Q"])
def test_17_char_vin_with_i_o_q_is_rejected(letter):
    with pytest.raises(InvalidIdentifier, match=f"não usa as letras I, O e Q .*{letter}"):
        validate_chassis("9BWZZZ377VT00425" + letter)


@pytest.mark.parametrize("typed", ["9BWZZZ377VT0042511", "AB12", "9BW*ZZ377VT00425", ""])
def test_malformed_chassis_is_rejected(typed):
    with pytest.raises(InvalidIdentifier, match="Chassi inválido"):
        validate_chassis(typed)
