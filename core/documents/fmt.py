"""Formatting helpers shared by the documents (money with babel, dates dd/mm/aaaa)."""
from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal

from babel.numbers import format_currency, format_decimal


def money(value: Decimal) -> str:
    """R$ 1.234,56 (pt_BR, via babel; the no-break space after R$ is kept: the embedded
    DejaVu font has the glyph)."""
    return format_currency(value, "BRL", locale="pt_BR")


def quantity(value: Decimal) -> str:
    return format_decimal(value, locale="pt_BR")


def stamp(moment: datetime) -> str:
    """dd/mm/aaaa HH:MM for the footer's generation time."""
    return moment.strftime("%d/%m/%Y %H:%M")


def short_hash(sha256: str, n: int = 12) -> str:
    return sha256[:n]


_CPF_FORMATTED = re.compile(r"\b\d{3}\.\d{3}\.\d{3}-\d{2}\b")
_CNPJ_FORMATTED = re.compile(r"\b\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}\b")


def scrub_personal(text: str) -> str:
    """Remove CPF/CNPJ numbers typed into free text before it goes into an edital
    (LGPD: editais carry only what the law requires)."""
    text = _CPF_FORMATTED.sub("[removido]", text)
    return _CNPJ_FORMATTED.sub("[removido]", text)
