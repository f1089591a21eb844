"""Dores do Indaiá abandonment assessment: Art. 1º (caput "por mais de 30 dias", I–VI) and
Art. 3º §4º I a–i."""
from __future__ import annotations

from datetime import date

import pytest

from core.laws import get_law
from core.laws.dores_do_indaia.assessment import assess, over_minimum_days


@pytest.mark.parametrize("category,met,qualifies,articles", [
    pytest.param("motor_vehicle", ["days_in_place", "missing_tyres"], True,
                 ("Art. 1º, caput", "Art. 3º, §4º, I, c"), id="art-3-par-4-I-c-with-30-days"),
    pytest.param("motor_vehicle", ["neighbours_unaware"], True, ("Art. 3º, §4º, I, i",),
                 id="art-3-par-4-I-i-includes-30-days"),
    pytest.param("motor_vehicle", ["days_in_place", "tax_debts"], True,
                 ("Art. 1º, caput", "Art. 1º, III"), id="art-1-III-tax-debts"),
    pytest.param("chassis_body", ["days_in_place", "no_chassis_engine_number"], True,
                 ("Art. 1º, caput", "Art. 1º, II"), id="art-1-II-chassis"),
    pytest.param("motor_vehicle", ["no_engine", "no_seats", "no_bumpers"], False,
                 ("Art. 3º, §4º, I, f", "Art. 3º, §4º, I, g", "Art. 3º, §4º, I, b"),
                 id="art-1-caput-needs-more-than-30-days"),
    pytest.param("motor_vehicle", ["days_in_place"], False, ("Art. 1º, caput",),
                 id="art-1-caput-days-alone-is-no-sign"),
    pytest.param("human_animal_vehicle", ["days_in_place", "visible_bad_conservation"], True,
                 ("Art. 1º, caput", "Art. 1º, IV"), id="art-1-V-in-condition-of-IV"),
    pytest.param("human_animal_vehicle", ["days_in_place", "no_identification"], False,
                 ("Art. 1º, caput",), id="art-1-V-plate-sign-does-not-apply"),
    pytest.param("large_furniture", ["days_in_place", "missing_doors"], True,
                 ("Art. 1º, caput", "Art. 3º, §4º, I, a"), id="art-5-par-unico-furniture"),
    pytest.param("machinery", ["days_in_place", "tax_debts", "sale_communicated"], False,
                 ("Art. 1º, caput",), id="art-1-VI-registry-signs-are-for-vehicles"),
])
def test_assessment(category, met, qualifies, articles):
    result = assess(category, met)
    assert result.qualifies is qualifies
    assert result.articles == articles
    for article in articles:
        assert article in result.explanation or not qualifies


def test_refusal_explains_the_30_days_in_portuguese_art_1_caput():
    result = assess("motor_vehicle", ["no_engine"])
    assert "mais de 30 dias" in result.explanation and "Art. 1º, caput" in result.explanation


def test_refusal_names_the_signs_that_do_not_apply_art_1_V():
    result = assess("human_animal_vehicle", ["days_in_place", "no_engine"])
    assert not result.qualifies
    assert "Não se aplicam a esta categoria: sem motor" in result.explanation


def test_unknown_criterion_is_an_error():
    with pytest.raises(ValueError):
        assess("motor_vehicle", ["days_in_place", "muito_sujo"])


def test_criteria_are_the_law_and_listed_in_LAW():
    law = get_law("dores-do-indaia")
    arts = {c.article for c in law.criteria}
    assert {f"Art. 3º, §4º, I, {x}" for x in "abcdefghi"} <= arts
    assert {"Art. 1º, caput", "Art. 1º, I", "Art. 1º, II", "Art. 1º, III", "Art. 1º, IV"} <= arts


@pytest.mark.parametrize("first_seen,on,over", [
    (date(2025, 1, 1), date(2025, 1, 31), False),  # exactly 30 days: not "mais de 30"
    (date(2025, 1, 1), date(2025, 2, 1), True),
])
def test_over_minimum_days_art_1_caput(first_seen, on, over):
    assert over_minimum_days(first_seen, on) is over
