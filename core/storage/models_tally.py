"""The panel's indicators read counts, not rows: `case_tallies` and `event_tallies` hold, per
city, neighbourhood and tally day, how many cases were reported (by category, by current
state and by the reporter's answer after the closing, each apart) and how many timeline
steps were taken (by action). Database triggers on `cases` and `events` keep them (migration
0021), so every writer keeps them right, bulk loads included; core.storage.tallies reads them.

A tally day d counts the instants [d 03:00 UTC, d+1 03:00 UTC): the calendar day in Brasília
time (UTC−3), the legal time of most of Brazil (core.storage.tallies.SHIFT). A period whose
limits fall inside a tally day (another time zone, or the summer time Brazil kept until
2019) counts those hours from the rows themselves, so every figure stays exact."""
from __future__ import annotations

from datetime import date

from sqlalchemy import Date, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from core.storage.models import Base


class CaseTally(Base):
    """Cases reported on `day` in `municipality` and a neighbourhood ('' for none), counted
    along one `dimension` at a time: their `value` of category, current state or followup
    ('' never asked; core.storage.models.Case.followup). One row per value, not per
    combination: a chart reads only its own dimension."""

    __tablename__ = "case_tallies"
    municipality: Mapped[str] = mapped_column(String(60), primary_key=True)
    dimension: Mapped[str] = mapped_column(String(10), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    neighbourhood: Mapped[str] = mapped_column(String(120), primary_key=True)
    value: Mapped[str] = mapped_column(String(60), primary_key=True)
    n: Mapped[int] = mapped_column(Integer)
    __table_args__ = {"sqlite_with_rowid": False}


class EventTally(Base):
    """Timeline steps of `action` taken on `day` on the cases of `municipality` in a
    neighbourhood ('' for none)."""

    __tablename__ = "event_tallies"
    municipality: Mapped[str] = mapped_column(String(60), primary_key=True)
    action: Mapped[str] = mapped_column(String(60), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    neighbourhood: Mapped[str] = mapped_column(String(120), primary_key=True)
    n: Mapped[int] = mapped_column(Integer)
    __table_args__ = {"sqlite_with_rowid": False}
