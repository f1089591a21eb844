"""The law's dates for an object in the depot (Law.depot_terms), as properties over any
collection moment: Dores Art. 6º, caput (10 days to retrieve) ends before Art. 3º, caput (60
days before auction) and both fall on business days (Lei 9.784/1999, art. 66, §1º); the 60
days are the vehicles' only (setting furniture_release_until_disposal); Dracena Art. 6º, §2º
("dentro de três dias") applies to semoventes and to gêneros only."""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings, strategies as st

from core.laws import get_law
from core.legal_calendar import LegalCalendar
from core.services.cases.depot_dates import stated

SP = ZoneInfo("America/Sao_Paulo")
DORES, DRACENA = get_law("dores-do-indaia"), get_law("dracena")
CAL = {law.slug: LegalCalendar.for_law(law, tz="America/Sao_Paulo") for law in (DORES, DRACENA)}
moments = st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2030, 12, 31)
                       ).map(lambda d: d.replace(tzinfo=SP))


@settings(max_examples=150, deadline=None)
@given(moments, st.sampled_from(["motor_vehicle", "chassis_body", "trailer",
                                 "human_animal_vehicle"]))
def test_dores_vehicle_retrieval_ends_before_the_auction_date_art_6_and_art_3(start, category):
    cal = CAL[DORES.slug]
    retrieval, release = (stated(cal, t, start) for t in DORES.terms_in_depot(category, {}))
    assert (retrieval.article, release.article) == ("Art. 6º, caput",
                                                   "Art. 3º, caput; CTB art. 328")
    assert start.date() + timedelta(days=10) <= retrieval.due < release.due
    assert release.due >= start.date() + timedelta(days=60)
    assert cal.is_business_day(retrieval.due) and cal.is_business_day(release.due)
    # each sentence states its own date once, with its article
    assert retrieval.owner.count("/") == 2 and "(Art. 6º, caput)" in retrieval.owner
    assert "(Art. 3º, caput; CTB art. 328)" in release.owner


@given(st.sampled_from(["large_furniture", "machinery"]))
def test_furniture_gets_no_vehicles_60_days_art_5_iii(category):
    terms = DORES.terms_in_depot(category, {})
    assert DORES.setting("furniture_release_until_disposal") is True
    assert all(t.days is None and "60" not in t.owner for t in terms)
    assert [t.article for t in terms] == ["Art. 5º, III"]


@settings(max_examples=150, deadline=None)
@given(moments, st.sampled_from(sorted(DRACENA.categories)), st.booleans())
def test_dracena_three_days_only_for_semoventes_and_generos_art_6_par_2(start, category,
                                                                      perishable):
    terms = DRACENA.terms_in_depot(category, {"perishable": perishable})
    # semoventes always; gêneros when the inspector says so (asked for goods only)
    applies = category == "livestock" or perishable
    assert bool(terms) is applies
    for t in terms:
        d = stated(CAL[DRACENA.slug], t, start)
        assert t.article == "Art. 6º, §2º" and t.staff_due
        assert start.date() + timedelta(days=3) <= d.due <= start.date() + timedelta(days=10)
        assert CAL[DRACENA.slug].is_business_day(d.due)
