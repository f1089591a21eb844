"""Every transition of every track, as data (core/laws/<law>/cases/lifecycle_*.yaml, found for
every registered law by tests.support.law_cases): what the law allows
(state, action, actor, agency, facts → target state, article) and a sample of what it refuses
(wrong state, actor or agency; missing facts named by their Portuguese label; guards that
carry a rule of the law). Case ids name the article."""
from __future__ import annotations

import pytest
from core.laws import get_law, registry
from core.lifecycle import Actor, TransitionRefused
from tests.support.law_cases import law_files, read

DOCS = [(p.stem, read(p)) for _, p in law_files("lifecycle_*.yaml")]


def _lifecycle(doc):
    return get_law(doc["slug"]).tracks[doc["track"]]


def _params(kind):
    out = []
    for stem, doc in DOCS:
        for i, case in enumerate(doc.get(kind, [])):
            cid = case.get("id") or f"{case['state']}-{case['code']}-{case['actor']}-{i}"
            out.append(pytest.param(doc, case, id=f"{stem}:{cid}"))
    return out


def test_there_is_one_case_file_per_track():
    tracks = {(d["slug"], d["track"]) for _, d in DOCS}
    expected = {(slug, t) for slug in registry() for t in get_law(slug).tracks}
    assert tracks == expected


@pytest.mark.parametrize("doc,case", _params("allowed"))
def test_allowed(doc, case):
    lc = _lifecycle(doc)
    t = lc.check(case["state"], case["code"], Actor(case["actor"]), case.get("facts") or {},
                 agency=case.get("agency"))
    assert t.target == case["target"]
    if "article" in case:
        assert t.article == case["article"]


@pytest.mark.parametrize("doc,case", _params("refused"))
def test_refused(doc, case):
    lc = _lifecycle(doc)
    with pytest.raises(TransitionRefused) as err:
        lc.check(case["state"], case["code"], Actor(case["actor"]), case.get("facts") or {},
                 agency=case.get("agency"))
    assert case["error"] in err.value.message
    if "missing" in case:
        assert list(err.value.missing) == case["missing"]


@pytest.mark.parametrize("stem,doc", DOCS, ids=[s for s, _ in DOCS])
def test_every_transition_has_an_allowed_case(stem, doc):
    lc = _lifecycle(doc)
    covered = {c["code"] for c in doc["allowed"]}
    assert set(lc.transitions) - covered == set()
    assert covered - set(lc.transitions) == set()


@pytest.mark.parametrize("stem,doc", DOCS, ids=[s for s, _ in DOCS])
def test_every_actor_is_exercised(stem, doc):
    """Each actor a transition allows appears in some allowed case, so widening or narrowing
    who may act shows up as a failing case file."""
    lc = _lifecycle(doc)
    seen_actor = {(c["code"], c["actor"]) for c in doc["allowed"]}
    need_actor = {(t.code, a.value) for t in lc.transitions.values() for a in t.actors}
    assert need_actor - seen_actor == set()
