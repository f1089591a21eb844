"""Deadline cases as data (tests/cases/calendar_*.yaml: the calendar is generic, not one law's), each naming the article whose
deadline it counts. Counting: Lei 9.784/1999 art. 66 (days), Código Civil art. 132 §4º (hours)."""
from __future__ import annotations

from datetime import date, datetime, time
from pathlib import Path

import pytest
import yaml

from core.laws.base import MunicipalHoliday
from core.legal_calendar import Closure, LegalCalendar

CASES = Path(__file__).parents[1] / "cases"


def load(name: str) -> list[dict]:
    return yaml.safe_load((CASES / name).read_text(encoding="utf-8"))


def case_id(case: dict) -> str:
    law = f" {case['law']}" if "law" in case else ""
    return f"{case['article']}{law} - {case['id']}"


def calendar(case: dict) -> LegalCalendar:
    closures = [
        Closure(
            day=date.fromisoformat(c["day"]),
            name=c["name"],
            kind=c["kind"],
            source=c.get("source", ""),
            closes_at=time.fromisoformat(c["closes_at"]) if "closes_at" in c else None,
        )
        for c in case.get("closures", [])
    ]
    municipal = [
        MunicipalHoliday(h["month"], h["day"], h["name"], date.fromisoformat(h["valid_from"]), "")
        for h in case.get("municipal_holidays", [])
    ]
    return LegalCalendar(
        case["uf"], municipal, closures, hours_end_of_day=case.get("hours_end_of_day", False)
    )


def parse_start(text: str) -> date | datetime:
    return datetime.fromisoformat(text) if "T" in text else date.fromisoformat(text)


def expected_skipped(case: dict) -> tuple[tuple[date, str], ...]:
    return tuple((date.fromisoformat(d), why) for d, why in case["expected_skipped"].items())


@pytest.mark.parametrize("case", load("calendar_days.yaml"), ids=case_id)
def test_deadline_in_days(case: dict) -> None:
    deadline = calendar(case).count_days(
        parse_start(case["start"]), case["amount"], article=case["article"], event="notificação"
    )
    assert deadline.due == date.fromisoformat(case["expected_due"])
    assert deadline.skipped == expected_skipped(case)
    assert deadline.article == case["article"]
    # The deadline lasts the whole due day, São Paulo time.
    assert deadline.due_at.isoformat() == f"{case['expected_due']}T23:59:59-03:00"


@pytest.mark.parametrize("case", load("calendar_hours.yaml"), ids=case_id)
def test_deadline_in_hours(case: dict) -> None:
    deadline = calendar(case).count_hours(
        datetime.fromisoformat(case["start"]), case["amount"], article=case["article"],
        event="apreensão",
    )
    assert deadline.due_at == datetime.fromisoformat(case["expected_due_at"])
    assert deadline.due_at.utcoffset() == datetime.fromisoformat(case["expected_due_at"]).utcoffset()
    assert deadline.skipped == expected_skipped(case)
