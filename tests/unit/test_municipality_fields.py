"""What the installation administrator types for a city is checked before it is written: a
boundary file read strictly (hostile files refused with the reason), the state, the IBGE code
of that state with its check digit, the PIX key of a kind the Banco Central defines."""
from __future__ import annotations

import json

import pytest
from shapely.geometry import Point
from hypothesis import given, strategies as st

from core.area import MAX_BOUNDARY_BYTES, BoundaryError, boundary_text, read_boundary
from core.services.errors import InvalidInput
from core.services.installation.checks import (UF_CODES, check_ibge, check_pix_key,
                                               check_record, check_uf, clean_fields,
                                               ibge_check_digit)
from core.settings import Settings

SQUARE = [[-51.6, -21.6], [-51.4, -21.6], [-51.4, -21.4], [-51.6, -21.4], [-51.6, -21.6]]
HOLE = [[-51.55, -21.55], [-51.45, -21.55], [-51.45, -21.45], [-51.55, -21.45],
        [-51.55, -21.55]]
ISLAND = [[-51.3, -21.6], [-51.2, -21.6], [-51.2, -21.5], [-51.3, -21.5], [-51.3, -21.6]]


def _ibge_like(geometry: dict) -> str:
    """A file as IBGE's malhas territoriais give one municipality (properties included)."""
    return json.dumps({"type": "FeatureCollection", "features": [{
        "type": "Feature", "properties": {"CD_MUN": "3514403", "NM_MUN": "Dracena",
                                          "SIGLA_UF": "SP", "AREA_KM2": 488.0},
        "geometry": geometry}]})


def test_a_multipolygon_with_a_hole_is_read_with_its_hole_and_every_part():
    shape = read_boundary(_ibge_like({"type": "MultiPolygon",
                                      "coordinates": [[SQUARE, HOLE], [ISLAND]]}))
    assert not shape.covers(Point(-51.5, -21.5))  # in the hole
    assert shape.covers(Point(-51.58, -21.58)) and shape.covers(Point(-51.25, -21.55))
    kept = json.loads(boundary_text(shape))
    assert kept["type"] == "MultiPolygon" and "properties" not in kept  # the geometry alone


@pytest.mark.parametrize("data, reason", [
    (b"x" * (MAX_BOUNDARY_BYTES + 1), "grande demais"),
    ("isto não é json", "não é um GeoJSON válido"),
    (b"\xff\xfe\x00\x01", "não é um texto GeoJSON"),
    ("[" * 100_000, "não é um GeoJSON válido"),
    (json.dumps({"type": "Point", "coordinates": [-51.5, -21.5]}), "nenhum polígono"),
    (json.dumps({"type": "FeatureCollection", "features": []}), "nenhum polígono"),
    ('{"type": "Polygon", "coordinates": [[[NaN, -21.6], [-51.4, -21.6], [-51.4, -21.4], '
     '[NaN, -21.6]]]}', "não é um GeoJSON válido"),
    (json.dumps({"type": "Polygon", "coordinates": [[[-51.6, -21.6], [-51.4, -21.4],
                                                     [-51.4, -21.6], [-51.6, -21.4],
                                                     [-51.6, -21.6]]]}), "cruza a si mesmo"),
    (json.dumps({"type": "Polygon", "coordinates": [[[-51.6, 91], [-51.4, -21.6],
                                                     [-51.4, -21.4], [-51.6, 91]]]}),
     "não é um ponto da Terra"),
    (json.dumps({"type": "Polygon", "coordinates": [[[421000, 7620000], [431000, 7620000],
                                                     [431000, 7630000], [421000, 7620000]]]}),
     "não é um ponto da Terra"),
    (json.dumps({"type": "Polygon", "coordinates": [[[-21.6, -51.6], [-21.4, -51.6],
                                                     [-21.4, -51.4], [-21.6, -51.6]]]}),
     "fora do Brasil"),
    (json.dumps({"type": "Polygon", "coordinates": [SQUARE[:-1]]}), "não fecha"),
    (json.dumps({"type": "Polygon", "coordinates": [[["a", "b"]] * 4]}), "não é um par"),
    (json.dumps({"type": "Polygon", "coordinates": "nada"}), "coordenadas válidas"),
    (json.dumps({"type": "Polygon", "coordinates": [[[-60, -30], [-40, -30], [-40, -10],
                                                     [-60, -30]]]}), "grande demais"),
])
def test_a_hostile_boundary_file_is_refused_saying_why(data, reason):
    with pytest.raises(BoundaryError) as refused:
        read_boundary(data)
    assert reason in str(refused.value)


def test_a_boundary_with_too_many_vertices_is_refused():
    import math
    n = 210_000  # within the file size, over the vertex count
    ring = [[round(-51.5 + 0.1 * math.cos(2 * math.pi * i / n), 6),
             round(-21.5 + 0.1 * math.sin(2 * math.pi * i / n), 6)] for i in range(n)]
    ring.append(ring[0])
    text = json.dumps({"type": "Polygon", "coordinates": [ring]}, separators=(",", ":"))
    with pytest.raises(BoundaryError, match="pontos demais"):
        read_boundary(text)


def test_the_state_is_one_of_the_27():
    assert check_uf(" sp ") == "SP" and len(UF_CODES) == 27
    for bad in ("", "XX", "São Paulo"):
        with pytest.raises(InvalidInput, match="UF inválida"):
            check_uf(bad)


def test_the_ibge_code_has_7_digits_its_state_prefix_and_check_digit():
    assert check_ibge("3514403", "SP") == "3514403"  # Dracena
    assert check_ibge("3123304", "MG") == "3123304"  # Dores do Indaiá
    assert check_ibge("2201919", "PI") == "2201919"  # IBGE's own exception to the digit
    with pytest.raises(InvalidInput, match="7 dígitos"):
        check_ibge("351440", "SP")
    with pytest.raises(InvalidInput, match="não é de um município de MG"):
        check_ibge("3514403", "MG")
    with pytest.raises(InvalidInput, match="dígito verificador"):
        check_ibge("3514404", "SP")


@given(st.sampled_from(sorted(UF_CODES)), st.integers(0, 9999))
def test_any_code_made_with_the_check_digit_is_taken(uf, n):
    six = UF_CODES[uf] + f"{n:04d}"
    assert check_ibge(six + str(ibge_check_digit(six)), uf)


@pytest.mark.parametrize("key, kept", [
    ("pix@dracena.sp.gov.br", "pix@dracena.sp.gov.br"),
    ("+5518999998888", "+5518999998888"),
    ("11.222.333/0001-81", "11222333000181"),
    ("123E4567-E89B-12D3-A456-426614174000", "123e4567-e89b-12d3-a456-426614174000"),
    ("", ""),
])
def test_a_pix_key_of_each_kind_is_taken(key, kept):
    assert check_pix_key(key) == kept


@pytest.mark.parametrize("key", ["123", "11.222.333/0001-82", "18999998888", "pix@", "x" * 80])
def test_a_pix_key_of_no_kind_is_refused(key):
    with pytest.raises(InvalidInput, match="Chave PIX inválida"):
        check_pix_key(key)


def test_a_pix_key_needs_its_name_and_city_and_makes_a_br_code():
    settings = Settings(_env_file=None)
    base = {"uf": "SP", "ibge_code": "3514403"}
    with pytest.raises(InvalidInput, match="os três, ou nenhum"):
        check_record({**base, "pix_key": "pix@dracena.sp.gov.br"}, settings)
    check_record({**base, "pix_key": "pix@dracena.sp.gov.br",
                  "pix_merchant_name": "Prefeitura de Dracena",
                  "pix_merchant_city": "Dracena"}, settings)


def test_field_lengths_the_table_holds_are_checked_before_writing():
    with pytest.raises(InvalidInput, match="Nome do recebedor PIX"):
        clean_fields({"pix_merchant_name": "P" * 26})
    with pytest.raises(InvalidInput, match="Endereço do pátio"):
        clean_fields({"depot_address": "R" * 301})
    assert clean_fields({"depot_address": "  Rua 1,\x00 centro "}) == \
        {"depot_address": "Rua 1, centro"}
    with pytest.raises(InvalidInput, match="Ponto do setor"):
        clean_fields({"office_lat": "-21,48"})
