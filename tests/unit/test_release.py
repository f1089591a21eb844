"""Release checklists: Dores do Indaiá Art. 3º §3º; Dracena Art. 7º and the Art. 5º text on
the back of the auto. Cases in each law's folder (core/laws/<law>/cases/release.yaml)."""
import pytest

from core.laws.base import Category, ReleaseSituation
from core.laws.dores_do_indaia.release import release_conditions
from core.laws.dracena.release import APPEAL_RULES, retrieval_conditions
from tests.support.law_cases import law_case

DORES = law_case("dores-do-indaia", "release.yaml")
DRACENA = law_case("dracena", "release.yaml")
CATEGORIES = {k: Category(**v) for k, v in DORES["categories"].items()}
DRACENA_CATEGORIES = {k: Category(**v) for k, v in DRACENA["categories"].items()}


def _check(conditions, case):
    by_code = {c.code: c for c in conditions}
    assert [c.code for c in conditions] == case["codes"]
    for code, wanted in case.get("documents", {}).items():
        docs = " | ".join(by_code[code].documents)
        for text in wanted:
            assert text in docs, f"{code}: {text!r} not in {docs!r}"
    for code, text in case.get("labels", {}).items():
        assert text in by_code[code].label
    for code in case.get("absent", []):
        assert code not in by_code
    for c in conditions:
        assert c.label and c.article.startswith("Art. ")


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"]) for c in DORES["release"]])
def test_dores_release_conditions(case):
    conditions = release_conditions(CATEGORIES[case["category"]],
                                    ReleaseSituation(**case["situation"]))
    _check(conditions, case)
    # Every condition cites Art. 3º, §3º (the item it implements), except furniture's
    # deadline: the 60 days are the vehicles' (Art. 5º, III; setting
    # furniture_release_until_disposal).
    for c in conditions:
        furniture_deadline = c.code == "within_deadline" and case["category"] == "fridge"
        assert c.article.startswith("Art. 5º, III" if furniture_deadline else "Art. 3º, §3º, ")
        assert ("60 dias" in c.label) is (c.code == "within_deadline" and not furniture_deadline)


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"]) for c in DRACENA["release"]])
def test_dracena_retrieval_conditions(case):
    conditions = retrieval_conditions()
    _check(conditions, case)
    assert retrieval_conditions(DRACENA_CATEGORIES["car"], ReleaseSituation(by_attorney=True)) == conditions


def test_dracena_auto_back_text_cites_appeal_and_destiny_articles_art_5():
    """Art. 5º: the back of the auto carries the appeal rules, how to get things back and
    their fate when unclaimed."""
    for ref in ("Art. 3º", "Art. 4º, § 2º", "Art. 6º", "Art. 7º"):
        assert ref in APPEAL_RULES
    for fact in ("5 (cinco) dias", "48 (quarenta e oito) horas", "3 (três) dias", "leilão",
                 "mediante recibo", "multa"):
        assert fact in APPEAL_RULES
    assert "Cr$" not in APPEAL_RULES  # the 1951 values are history, not what is charged
