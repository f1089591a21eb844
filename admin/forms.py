"""Form fields for lifecycle steps: which input each fact needs and how its text becomes the
fact's value (core.parsing.read_fact, the same reading as the bot's step forms: dates typed
dd/mm/aaaa, money as 1.234,56). Presentation only: what a step requires and whether it is
allowed is the lifecycle's (core.lifecycle.Lifecycle.check)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import tzinfo
from typing import Any, Mapping
from zoneinfo import ZoneInfo

from core import facts
from core.parsing import ParseError, read_fact
from core.services.errors import InvalidInput

#: The panel's input for each kind of fact (core.facts): lists are one item per line.
WIDGETS = {facts.CRITERIA: "criteria", facts.BOOL: "bool", facts.MONEY: "money",
           facts.DATE: "date", facts.DATETIME: "datetime", facts.LONG: "long",
           facts.PARTS: "long", facts.NAMES: "list", facts.GOODS: "list", facts.PHOTOS: "list",
           facts.CPF: "cpf", facts.PLATE: "plate", facts.COUNT: "count", facts.WEIGHT: "weight"}
#: The kind of fact (core.facts) each input is read as (core.parsing.read_fact).
READ_AS = {"date": facts.DATE, "datetime": facts.DATETIME, "money": facts.MONEY,
           "long": facts.LONG, "cpf": facts.CPF, "plate": facts.PLATE, "count": facts.COUNT,
           "weight": facts.WEIGHT}


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    kind: str  # text / long / date / datetime / money / cpf / plate / count / weight / bool /
    # list / criteria
    hint: str = ""


def kind_of(name: str) -> str:
    return WIDGETS.get(facts.fact_kind(name), "text")


HINTS = {"date": "dd/mm/aaaa", "datetime": "dd/mm/aaaa hh:mm", "money": "R$ 1.234,56",
         "list": "um item por linha", "cpf": "123.456.789-09 ou 11.222.333/0001-81",
         "plate": "ABC-1234 ou ABC1D23", "count": "número inteiro", "weight": "12,5 kg"}


def fields_for(lifecycle, requires: tuple[str, ...]) -> list[Field]:
    out = []
    for name in requires:
        kind = kind_of(name)
        label = lifecycle.label_fact(name)
        if name == "reason":
            label = "Motivo (enviado ao cidadão)"
        out.append(Field(name, label, kind, HINTS.get(kind, "")))
    return out


def parse_fact(field: Field, form: Mapping[str, Any], tz: str | tzinfo) -> Any:
    if field.kind == "criteria":
        return list(form.getall(field.name, [])) if hasattr(form, "getall") else []
    raw = str(form.get(field.name, "") or "").strip()
    if field.kind == "bool":
        return True if raw in ("true", "on", "1") else None
    if not raw:
        return None
    if field.kind in READ_AS or field.kind == "text":
        try:
            return read_fact(READ_AS.get(field.kind, facts.TEXT), raw,
                             tz if isinstance(tz, tzinfo) else ZoneInfo(tz))
        except ParseError as exc:
            raise InvalidInput(f"{field.label}: {exc.message}", field.name) from None
    if field.kind == "list":
        return [line.strip() for line in raw.splitlines() if line.strip()]
    return raw
