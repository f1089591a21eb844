"""Form fields for lifecycle steps: which input each fact needs and how its text becomes the
fact's value (dates typed dd/mm/aaaa, money as 1.234,56). Presentation only: what a step
requires and whether it is allowed is the lifecycle's (core.lifecycle.Lifecycle.check)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping
from zoneinfo import ZoneInfo

from core import facts
from core.formatting import parse_date_br
from core.services.errors import InvalidInput
from core.services.staff import parse_money
from core.services.step_forms import parse_quantity

#: The panel's input for each kind of fact (core.facts): lists are one item per line.
WIDGETS = {facts.CRITERIA: "criteria", facts.BOOL: "bool", facts.MONEY: "money",
           facts.DATE: "date", facts.DATETIME: "datetime", facts.LONG: "long",
           facts.PARTS: "long", facts.NAMES: "list", facts.GOODS: "list", facts.PHOTOS: "list",
           facts.COUNT: facts.COUNT, facts.WEIGHT: facts.WEIGHT}


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    kind: str  # text / long / date / datetime / money / bool / list / criteria
    hint: str = ""


def kind_of(name: str) -> str:
    return WIDGETS.get(facts.fact_kind(name), "text")


HINTS = {"date": "dd/mm/aaaa", "datetime": "dd/mm/aaaa hh:mm", "money": "R$ 1.234,56",
         "list": "um item por linha", facts.COUNT: "por exemplo 3",
         facts.WEIGHT: "kg, por exemplo 12,5"}


def fields_for(lifecycle, requires: tuple[str, ...]) -> list[Field]:
    out = []
    for name in requires:
        kind = kind_of(name)
        label = lifecycle.label_fact(name)
        if name == "reason":
            label = "Motivo (enviado ao cidadão)"
        out.append(Field(name, label, kind, HINTS.get(kind, "")))
    return out


def parse_fact(field: Field, form: Mapping[str, Any], tz: str) -> Any:
    if field.kind == "criteria":
        return list(form.getall(field.name, [])) if hasattr(form, "getall") else []
    raw = str(form.get(field.name, "") or "").strip()
    if field.kind == "bool":
        return True if raw in ("true", "on", "1") else None
    if not raw:
        return None
    if field.kind == "date":
        try:
            return parse_date_br(raw).isoformat()
        except ValueError as exc:
            raise InvalidInput(f"{field.label}: {exc}") from None
    if field.kind == "datetime":
        try:
            day, _, hm = raw.partition(" ")
            d = parse_date_br(day)
            hh, mm = (int(x) for x in (hm or "00:00").split(":"))
            return datetime(d.year, d.month, d.day, hh, mm, tzinfo=ZoneInfo(tz)).isoformat()
        except ValueError as exc:
            raise InvalidInput(f"{field.label}: use dd/mm/aaaa hh:mm ({exc}).") from None
    if field.kind == "money":
        return str(parse_money(raw))
    if field.kind in (facts.COUNT, facts.WEIGHT):
        return parse_quantity(field.kind, raw)
    if field.kind == "list":
        return [line.strip() for line in raw.splitlines() if line.strip()]
    return raw
