"""The two laws as registered: categories → tracks, agencies and who may act, settings for every
gap (docs/law/README.md "Gaps"), municipal holidays and city defaults."""
from __future__ import annotations

from datetime import date

import pytest

from core.laws import get_law, registry
from core.lifecycle import Actor

DORES, DRACENA = get_law("dores-do-indaia"), get_law("dracena")


def test_registry_finds_both_laws_by_slug():
    assert {"dores-do-indaia", "dracena"} <= set(registry())
    assert (DORES.uf, DRACENA.uf) == ("MG", "SP")


@pytest.mark.parametrize("law,code,track,article", [
    (DORES, "motor_vehicle", "dores_vehicle", "Art. 1º, I a IV"),
    (DORES, "chassis_body", "dores_vehicle", "Art. 1º, caput; Art. 4º, caput"),
    (DORES, "trailer", "dores_vehicle", "Art. 1º, caput"),
    (DORES, "human_animal_vehicle", "dores_vehicle", "Art. 1º, V"),
    (DORES, "large_furniture", "dores_furniture", "Art. 1º, VI"),
    (DORES, "machinery", "dores_furniture", "Art. 1º, VI"),
    (DRACENA, "infraction", "dracena_infraction", "Art. 1º"),
    (DRACENA, "street_vendor_goods", "dracena_apprehension", "Art. 4º; Art. 4º, §1º"),
    (DRACENA, "livestock", "dracena_apprehension", "Art. 4º; Art. 6º, §2º"),
    (DRACENA, "clandestine_ad", "dracena_apprehension", "Art. 4º"),
    (DRACENA, "abandoned_thing", "dracena_apprehension", "Art. 4º"),
])
def test_category_tracks(law, code, track, article):
    cat = law.categories[code]
    assert (cat.track, cat.article) == (track, article)
    assert law.lifecycle(code).track == track


def test_only_motor_vehicles_pay_fines_and_insurance_art_3_par_3_III():
    assert [c for c, cat in DORES.categories.items() if cat.motor_vehicle] == ["motor_vehicle"]


def test_vacant_lots_and_abandoned_buildings_are_covered_art_7():
    assert {(loc.code, loc.article) for loc in DORES.locations} == {
        ("public_space", "Art. 2º"), ("vacant_lot", "Art. 7º"),
        ("abandoned_building", "Art. 7º")}


@pytest.mark.parametrize("law,code,article", [
    (DORES, "posturas", "Art. 10"),
    (DORES, "vigilancia_sanitaria", "Art. 3º, §2º"),
    (DORES, "transito", "Art. 3º, §2º"),
    (DORES, "saude", "Art. 5º, caput"),
    (DRACENA, "fiscalizacao", "Art. 1º"),
])
def test_agencies(law, code, article):
    assert law.agencies[code].article == article and law.agencies[code].name


@pytest.mark.parametrize("track,code,allowed,refused", [
    ("dores_furniture", "notify_owner", {"saude", "posturas", "conveniado"},
     {"transito", "vigilancia_sanitaria"}),  # Art. 5º caput; Art. 10
    ("dores_furniture", "remove_immediately", {"saude", "vigilancia_sanitaria", "transito",
                                               "conveniado", "posturas"}, set()),
    ("dores_vehicle", "start_removal", {"vigilancia_sanitaria", "transito", "conveniado",
                                        "posturas"}, {"saude"}),  # Art. 3º §2º; Art. 10
])
def test_inspector_agencies(track, code, allowed, refused):
    t = DORES.tracks[track].transitions[code]
    assert allowed <= t.agencies and not (refused & t.agencies)


def test_posturas_may_take_every_inspector_step_art_10():
    for lc in DORES.tracks.values():
        for t in lc.transitions.values():
            if Actor.INSPECTOR in t.actors:
                assert not t.agencies or "posturas" in t.agencies, t.code


@pytest.mark.parametrize("code,value", [
    ("retrieval_notice_days", 10), ("auction_after_days", 60),
    ("affixed_notice_annex", "Anexo I (modelo de notificação), adaptado"),
    ("storage_day_counting", "started_day"), ("storage_cap_days", 180),
    ("hours_deadline_end_of_day", False), ("minimum_days_in_place", 30),
])
def test_dores_gaps_are_settings(code, value):
    s = DORES.settings[code]
    assert s.value == value and s.description and s.source


@pytest.mark.parametrize("code,value", [
    ("perishables_auction_days", 3), ("apprehension_appeal_hours", 48),
    ("appeal_decision_hours", 48), ("appeal_days", 5), ("hours_deadline_end_of_day", False),
    ("witnesses_always_required", True),
])
def test_dracena_gaps_are_settings(code, value):
    s = DRACENA.settings[code]
    assert s.value == value and s.description and s.source


def test_dores_municipal_holidays_are_dated_seed_data():
    days = {(h.day, h.month) for h in DORES.municipal_holidays}
    assert days == {(17, 8), (15, 9), (8, 10)}
    for h in DORES.municipal_holidays:
        assert "confirmar" in h.source and h.valid_from <= date(2023, 1, 1)


@pytest.mark.parametrize("law,lat,lon,radius", [
    (DORES, -19.4628, -45.6003, 6000), (DRACENA, -21.4843, -51.5353, 7000)])
def test_city_defaults(law, lat, lon, radius):
    assert law.centre == pytest.approx((lat, lon), abs=0.01) and law.radius_m == radius


def test_release_rules_and_tariffs_are_wired():
    assert DORES.release_conditions is not None and DRACENA.release_conditions is not None
    assert DORES.tariffs and DRACENA.tariffs
