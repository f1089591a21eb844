"""Dores do Indaiá: municipal holidays (not in the `holidays` package).

The city sets them by law (README "Counting deadlines": "Dores do Indaiá sets them by yearly
law, e.g. 17/08, 15/09, 08/10"). Seed data only: staff confirm and edit them (and add decreed
closures, pontos facultativos) in the admin panel. Days without office hours move deadlines
(Lei 9.784/1999 art. 66, §1º).
"""
from __future__ import annotations

from datetime import date

from core.laws.base import MunicipalHoliday

_SOURCE = "lei municipal anual; confirmar"
_FROM = date(2022, 1, 1)

MUNICIPAL_HOLIDAYS: tuple[MunicipalHoliday, ...] = (
    MunicipalHoliday(8, 17, "Feriado municipal (17/08)", _FROM, _SOURCE),
    MunicipalHoliday(9, 15, "Nossa Senhora das Dores, padroeira (15/09)", _FROM, _SOURCE),
    MunicipalHoliday(10, 8, "Feriado municipal (08/10)", _FROM, _SOURCE),
)
