"""Jinja filters: Brazilian dates, money and labels for the panel's templates."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from core.formatting import fmt_date, fmt_datetime, fmt_money, plural
from core.identifiers import format_case_code
from core.lifecycle import ACTOR_LABELS, Actor
from core.services.papers.facts import plate_text


def _date(value: Any) -> str:
    if value in (None, ""):
        return "—"
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)
        except ValueError:
            return value
    return fmt_date(value)


def _datetime(value: datetime | None) -> str:
    return fmt_datetime(value) if value else "—"


def _money(value: Any) -> str:
    if value in (None, ""):
        return "—"
    return fmt_money(Decimal(str(value)))


def _actor(kind: str) -> str:
    if kind == Actor.SYSTEM.value:  # its name says why (prazo vencido, atribuição automática)
        return "sistema"
    try:
        return ACTOR_LABELS[Actor(kind)]
    except ValueError:
        return kind


def _value(value: Any) -> str:
    """An event's data value, readable."""
    if isinstance(value, bool):
        return "sim" if value else "não"
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_value(v)}" for k, v in value.items())
    if isinstance(value, str) and len(value) == 10 and value[4] == "-" and value[7] == "-":
        return _date(value)
    return "—" if value in (None, "") else str(value)


FILTERS = {"br_date": _date, "br_datetime": _datetime, "money": _money, "actor": _actor,
           "value": _value, "plate": plate_text, "case_code": format_case_code,
           "plural": plural}
GLOBALS: dict[str, Any] = {}
