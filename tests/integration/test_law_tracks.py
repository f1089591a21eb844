"""Structure of every procedure track: each final state can be reached from the complaint by
transitions the law allows (walked with the engine), every state is reachable, every open state
has a way out, and every deadline the laws set starts where the law says and lapses into a
system transition."""
from __future__ import annotations

from collections import deque
import pytest
from core.laws import get_law, registry
from core.laws.common import REOPEN
from core.lifecycle import Actor
from tests.support.law_cases import law_files, read

CASES = {}
for _, _p in law_files("lifecycle_*.yaml"):
    _doc = read(_p)
    CASES[_doc["track"]] = _doc

TRACKS = [(slug, t) for slug in registry() for t in get_law(slug).tracks]


def _lc(slug, track):
    return get_law(slug).tracks[track]


def _paths(lc):
    """Shortest sequence of transition codes from the initial state to every state."""
    paths = {lc.initial: []}
    queue = deque([lc.initial])
    while queue:
        state = queue.popleft()
        for t in lc.available(state):
            if t.target not in paths:
                paths[t.target] = paths[state] + [t.code]
                queue.append(t.target)
    return paths


@pytest.mark.parametrize("slug,track", TRACKS)
def test_every_state_is_reachable(slug, track):
    lc = _lc(slug, track)
    assert set(lc.states) - set(_paths(lc)) == set()


@pytest.mark.parametrize("slug,track", TRACKS)
def test_open_states_have_a_way_out_and_final_states_none(slug, track):
    """A final state's only way out is the reopening when the reporter says the object is
    still there (the duty to go to the place of the complaint): back to the diligence."""
    lc = _lc(slug, track)
    for code, state in lc.states.items():
        exits = [t for t in lc.available(code) if t.target != code]
        if state.final:
            assert [(t.code, t.target) for t in exits] in ([], [(REOPEN, "diligence")]), code
        else:
            assert exits, code


@pytest.mark.parametrize("slug,track", TRACKS)
def test_walk_from_complaint_to_each_final_state(slug, track):
    """Walk with the engine, using for each action the actor, agency and facts of its first
    allowed case in the case file."""
    lc = _lc(slug, track)
    first = {}
    for case in CASES[track]["allowed"]:
        first.setdefault(case["code"], case)
    finals = [c for c, s in lc.states.items() if s.final]
    assert finals
    for final in finals:
        state = lc.initial
        for code in _paths(lc)[final]:
            case = first[code]
            t = lc.check(state, code, Actor(case["actor"]), case.get("facts") or {},
                         agency=case.get("agency"))
            state = t.target
        assert state == final and lc.states[state].final


@pytest.mark.parametrize("slug,track", TRACKS)
def test_every_transition_cites_an_article_and_quotes_the_law(slug, track):
    lc = _lc(slug, track)
    for t in lc.transitions.values():
        assert t.article.startswith("Art. ") and t.text and t.label, t.code
        for fact in t.requires:
            assert lc.label_fact(fact) != fact, f"{t.code}: {fact} has no Portuguese label"


@pytest.mark.parametrize("slug,track", TRACKS)
def test_deadlines_lapse_into_system_transitions_from_the_right_state(slug, track):
    lc = _lc(slug, track)
    for t in lc.transitions.values():
        if t.deadline and t.deadline.on_lapse:
            lapse = lc.transitions[t.deadline.on_lapse]
            assert Actor.SYSTEM in lapse.actors
            assert t.target in lapse.sources, t.code
    # The sweep is the only actor of pure lapse transitions, and each one has a deadline.
    starters = {t.deadline.on_lapse for t in lc.transitions.values()
                if t.deadline and t.deadline.on_lapse}
    system_only = {t.code for t in lc.transitions.values() if t.actors == {Actor.SYSTEM}}
    assert system_only <= starters


@pytest.mark.parametrize("slug,track,code,amount,unit,starts_from,on_lapse,article", [
    ("dores-do-indaia", "dores_vehicle", "notify_owner", 10, "days", "event", "lapse_deadline",
     "Art. 4º, I"),
    ("dores-do-indaia", "dores_vehicle", "record_publication", 10, "days", "publication_date",
     "lapse_deadline", "Art. 4º, II, b"),
    ("dores-do-indaia", "dores_vehicle", "affix_notice", 10, "days", "event", None,
     "Art. 4º, II, a"),
    ("dores-do-indaia", "dores_vehicle", "depot_entry", 60, "days", "collected_at", "auction_deadline",
     "Art. 3º, caput"),
    ("dores-do-indaia", "dores_vehicle", "owner_commits", 0, "days", "agreed_removal_by",
     "owner_failed", "Art. 6º, §3º"),
    ("dores-do-indaia", "dores_furniture", "notify_owner", 10, "days", "event", "lapse_deadline",
     "Art. 5º, I"),
    ("dores-do-indaia", "dores_furniture", "record_publication", 10, "days", "publication_date",
     "retrieval_lapse", "Art. 5º, III"),
    ("dracena", "dracena_infraction", "issue_auto", 5, "days", "event", "confirm_fine",
     "Art. 3º"),
    ("dracena", "dracena_infraction", "serve_intimacao", 5, "days", "intimacao_date",
     "confirm_fine", "Art. 3º"),
    ("dracena", "dracena_apprehension", "apprehend", 48, "hours", "apprehended_at",
     "appeal_lapse", "Art. 4º, §2º"),
    ("dracena", "dracena_apprehension", "low_value_note", 48, "hours", "apprehended_at",
     "appeal_lapse", "Art. 4º, §2º"),
    ("dracena", "dracena_apprehension", "file_appeal", 48, "hours", "event", None,
     "Art. 4º, §2º"),
])
def test_deadlines_the_laws_set(slug, track, code, amount, unit, starts_from, on_lapse,
                                article):
    d = _lc(slug, track).transitions[code].deadline
    assert (d.amount, d.unit, d.starts_from, d.on_lapse, d.article) == \
        (amount, unit, starts_from, on_lapse, article)


def test_no_dracena_infraction_deadline_for_issue_auto_absent_art_2_par_3():
    """The 5 days run from the intimação, not from an auto drawn in the offender's absence."""
    assert get_law("dracena").tracks["dracena_infraction"].transitions[
        "issue_auto_absent"].deadline is None


@pytest.mark.parametrize("slug,track,in_depot,in_public", [
    ("dores-do-indaia", "dores_vehicle", {"in_depot", "auction_eligible"},
     {"reported", "diligence", "police_referral", "owner_notified", "notice_affixed",
      "published", "removal_due", "owner_removing"}),
    ("dores-do-indaia", "dores_furniture", {"in_depot", "published", "disposal_due"},
     {"reported", "diligence", "police_referral", "owner_notified", "removal_due",
      "owner_removing"}),
    ("dracena", "dracena_apprehension", {"apprehended", "appeal_pending", "auction_eligible"},
     {"reported", "diligence"}),
])
def test_depot_and_street_flags(slug, track, in_depot, in_public):
    """Storage fees run only in the depot (Dores Art. 3º §3º II; Dracena Art. 7º)."""
    lc = _lc(slug, track)
    assert {c for c, s in lc.states.items() if s.in_depot} == in_depot
    assert {c for c, s in lc.states.items() if s.in_public_space} == in_public


def test_dores_vehicle_state_codes_relied_on_by_services():
    lc = get_law("dores-do-indaia").tracks["dores_vehicle"]
    expected = {"reported", "diligence", "police_referral", "owner_notified", "notice_affixed",
                "published", "removal_due", "owner_removing", "removal_started", "in_depot",
                "auction_eligible", "released", "auctioned", "closed_not_abandoned",
                "closed_unfounded", "closed_duplicate", "closed_not_competent",
                "closed_removed_by_owner", "closed_police"}
    assert set(lc.states) == expected
    assert {c for c, s in lc.states.items() if s.final} == {
        "released", "auctioned", *(c for c in expected if c.startswith("closed_"))}
