"""Dores do Indaiá (Lei 3.043/2022): is the object abandoned in the sense of the law?

Criteria: Art. 1º I–V (vehicle conditions) and Art. 3º §4º I a–i ("Entende-se por abandono o
objeto que estiver nas seguintes condições"), plus the requirement of Art. 1º caput: "em
condições de visível estado de abandono, por mais de 30 (trinta) dias no local".

Qualifying rule (settings `require_minimum_days`, `minimum_days_in_place`):
  qualifies = (more than 30 days in place, i.e. `days_in_place` or §4º I i met)
              AND at least one sign applicable to the category.
Applicable signs per category:
  - vehicles, chassis, carriages, trailers: all of Art. 1º I–IV and Art. 3º §4º I a–i;
  - human/animal-propelled (Art. 1º V: "em qualquer uma das condições do inciso IV"):
    Art. 1º IV and Art. 3º §4º I c, h, i (setting `human_animal_vehicle_signs`);
  - large furniture and machinery (Art. 1º VI; Art. 5º § único refers to "inciso I do §4º do
    Art. 3º"): Art. 1º IV and Art. 3º §4º I a–i. The registry conditions (Art. 1º I–III)
    concern vehicles only.
Criteria ticked that do not apply to the category are ignored and named in the explanation.
"""
from __future__ import annotations

from datetime import date
from typing import Iterable

from core.laws.base import Assessment, Criterion
from core.laws.dores_do_indaia.categories import CATEGORIES, TRACK_FURNITURE
from core.laws.dores_do_indaia.settings import SETTINGS

DAYS = "days_in_place"
NEIGHBOURS = "neighbours_unaware"

CRITERIA: tuple[Criterion, ...] = (
    Criterion(DAYS, "Está no mesmo local há mais de 30 dias", "Art. 1º, caput",
              button="Há mais de 30 dias"),
    Criterion("no_identification", "Sem sinais de identificação (sem placa)", "Art. 1º, I",
              button="Sem placa"),
    Criterion("no_chassis_engine_number", "Sem número de chassi ou de motor identificável",
              "Art. 1º, II",
              button="Sem nº chassi/motor"),
    Criterion("sale_communicated", "Com comunicação de venda registrada (Detran/BIN)",
              "Art. 1º, II",
              button="Venda comunicada"),
    Criterion("tax_debts", "Com débitos (impostos, multas, taxas) no Detran/BIN", "Art. 1º, III",
              button="Débitos no Detran/BIN"),
    Criterion("visible_bad_conservation", "Mau estado de conservação visível a olho nu",
              "Art. 1º, IV",
              button="Mau estado a olho nu"),
    Criterion("missing_doors", "Faltando portas, tampa do porta-malas ou capô",
              "Art. 3º, §4º, I, a",
              button="Faltam portas ou capô"),
    Criterion("no_bumpers", "Sem para-choques", "Art. 3º, §4º, I, b",
              button="Sem para-choques"),
    Criterion("missing_tyres", "Faltando um ou mais pneus", "Art. 3º, §4º, I, c",
              button="Faltam pneus"),
    Criterion("missing_broken_glass", "Faltando vidros ou com vidros quebrados",
              "Art. 3º, §4º, I, d",
              button="Sem vidros/quebrados"),
    Criterion("dented_rusted", "Lataria amassada em mais de 50% ou tomada por ferrugem",
              "Art. 3º, §4º, I, e",
              button="Amassado/enferrujado"),
    Criterion("no_engine", "Sem motor", "Art. 3º, §4º, I, f",
              button="Sem motor"),
    Criterion("no_seats", "Sem bancos", "Art. 3º, §4º, I, g",
              button="Sem bancos"),
    Criterion("poor_conservation", "Em mau estado de conservação", "Art. 3º, §4º, I, h",
              button="Mau estado geral"),
    Criterion(NEIGHBOURS, "Há mais de 30 dias no local e os vizinhos não sabem a origem",
              "Art. 3º, §4º, I, i",
              button="Vizinhos não sabem"),
)
BY_CODE: dict[str, Criterion] = {c.code: c for c in CRITERIA}

_SECTION_4 = tuple(c.code for c in CRITERIA if c.article.startswith("Art. 3º"))
_ART_1 = ("no_identification", "no_chassis_engine_number", "sale_communicated", "tax_debts",
          "visible_bad_conservation")


def applicable(category_code: str) -> tuple[str, ...]:
    """Codes of the signs (excluding the days requirement) that apply to the category."""
    category = CATEGORIES[category_code]
    if category_code == "human_animal_vehicle":
        # Art. 1º, V: "encontrados em qualquer uma das condições do inciso IV"
        return tuple(SETTINGS["human_animal_vehicle_signs"].value)
    if category.track == TRACK_FURNITURE:
        # Art. 1º, VI with Art. 5º, § único ("situação prevista no inciso I do §4º do Art. 3º")
        return ("visible_bad_conservation", *_SECTION_4)
    return (*_ART_1, *_SECTION_4)


def citizen_signs(category_code: str) -> tuple[str, ...]:
    """Signs a citizen can see in the street and tick when reporting: the Art. 3º, §4º, I
    signs that apply to the category. The registry conditions of Art. 1º, I–III (Detran/BIN)
    are the inspector's to check. For furniture and machinery only the signs that make sense
    for them are asked (§4º, I, h and i); the inspector's checklist keeps them all."""
    if CATEGORIES[category_code].track == TRACK_FURNITURE:
        return ("poor_conservation", NEIGHBOURS)
    return tuple(c for c in applicable(category_code) if c in _SECTION_4)


#: What an inspector can see on large furniture and on machinery among the signs that apply to
#: them (Art. 1º, VI with Art. 5º, § único: Art. 1º, IV and Art. 3º, §4º, I): no doors, boot
#: lid or hood (a), bumpers (b), glass (d) or seats (g) on a sofa, no Detran/BIN record
#: (Art. 1º, I–III concern vehicles only). A machine may lack its tyres (c) or its engine (f).
_FURNITURE_CHECKLIST = ("visible_bad_conservation", "dented_rusted", "poor_conservation",
                        NEIGHBOURS)
_MACHINERY_CHECKLIST = ("visible_bad_conservation", "missing_tyres", "dented_rusted",
                        "no_engine", "poor_conservation", NEIGHBOURS)


def inspector_signs(category_code: str) -> tuple[str, ...]:
    """The inspector's checklist for a category: the days in place (Art. 1º, caput) and the
    signs that apply to it (applicable()), without those that make no sense for the object."""
    signs = applicable(category_code)
    if category_code == "machinery":
        signs = tuple(c for c in signs if c in _MACHINERY_CHECKLIST)
    elif CATEGORIES[category_code].track == TRACK_FURNITURE:
        signs = tuple(c for c in signs if c in _FURNITURE_CHECKLIST)
    return (DAYS, *signs)


def over_minimum_days(first_seen: date, on: date) -> bool:
    """Art. 1º, caput: "por mais de 30 (trinta) dias no local" — strictly more than."""
    return (on - first_seen).days > SETTINGS["minimum_days_in_place"].value


def assess(category_code: str, met_codes: Iterable[str]) -> Assessment:
    """Judge abandonment from the signs ticked by an inspector (or a citizen's report).

    Raises KeyError for an unknown category and ValueError for an unknown criterion code.
    """
    codes = list(dict.fromkeys(met_codes))
    unknown = [c for c in codes if c not in BY_CODE]
    if unknown:
        raise ValueError(f"unknown abandonment criteria: {', '.join(unknown)}")
    category = CATEGORIES[category_code]
    signs_allowed = applicable(category_code)
    considered = [c for c in codes if c in signs_allowed or c == DAYS]
    ignored = [c for c in codes if c not in considered]
    met = tuple(BY_CODE[c] for c in considered)
    signs = [c for c in considered if c != DAYS]
    days = DAYS in considered or NEIGHBOURS in considered
    days_needed = SETTINGS["require_minimum_days"].value
    minimum = SETTINGS["minimum_days_in_place"].value

    qualifies = bool(signs) and (days or not days_needed)
    articles = tuple(dict.fromkeys(c.article for c in met))
    parts: list[str] = []
    if qualifies:
        parts.append(f"{category.label}: caracterizado o abandono "
                     f"({'; '.join(articles)}).")
    else:
        parts.append(f"{category.label}: abandono não caracterizado.")
        if not signs:
            parts.append("Nenhum sinal de abandono aplicável foi constatado "
                         "(Art. 3º, §4º, I; Art. 1º).")
        if days_needed and not days:
            parts.append(f"É preciso que o objeto esteja no local há mais de {minimum} dias "
                         "(Art. 1º, caput).")
    if ignored:
        labels = ", ".join(BY_CODE[c].label.lower() for c in ignored)
        parts.append(f"Não se aplicam a esta categoria: {labels}.")
    return Assessment(qualifies=qualifies, met=met, articles=articles,
                      explanation=" ".join(parts))
