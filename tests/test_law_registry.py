"""The law registry: a city's law is one module, found by its slug."""
from __future__ import annotations

import textwrap

import pytest

import core.laws as laws
from core.laws import get_law, registry


def test_both_laws_registered_by_slug():
    assert set(registry()) >= {"dores-do-indaia", "dracena"}
    assert get_law("dracena").short == "Lei 56/1951"


def test_unknown_municipality_names_the_known_ones():
    with pytest.raises(KeyError) as err:
        get_law("atlantis")
    assert "dores-do-indaia" in str(err.value)


@pytest.mark.parametrize("slug", ["dores-do-indaia", "dracena"])
def test_every_track_tells_the_citizen_what_happens_next(slug):
    law = get_law(slug)
    for track in law.tracks:
        assert law.next_steps.get(track), f"{slug}/{track} has no next steps"


def test_a_third_law_is_one_new_module(tmp_path, monkeypatch):
    (tmp_path / "testopolis.py").write_text(textwrap.dedent('''
        from core.laws.base import Category, Law
        from core.lifecycle import Lifecycle, State
        TRACK = Lifecycle.build("t", "reported", [State("reported", "Recebida")], [])
        LAW = Law(slug="testopolis", title="Lei 1/2030", short="Lei 1/2030", city="Testópolis",
                  uf="SP", centre=(-22.0, -47.0), radius_m=1000, agencies={},
                  categories={"thing": Category("thing", "Coisa", "Art. 1º", "t")},
                  tracks={"t": TRACK})
    '''), encoding="utf-8")
    monkeypatch.setattr(laws, "__path__", [*laws.__path__, str(tmp_path)])
    registry.cache_clear()
    try:
        assert get_law("testopolis").city == "Testópolis"
    finally:
        registry.cache_clear()


def test_citizen_signs_fit_the_category_art_3_par_4():
    """Art. 3º, §4º, I: a citizen reporting a fridge is not asked whether it has an engine."""
    from core.services.guidance import citizen_signs
    law = get_law("dores-do-indaia")
    car = {c.code for c in citizen_signs(law, "motor_vehicle")}
    fridge = {c.code for c in citizen_signs(law, "large_furniture")}
    assert {"no_engine", "missing_tyres"} <= car
    assert "no_engine" not in fridge and "poor_conservation" in fridge
    assert citizen_signs(get_law("dracena"), "livestock") == ()
