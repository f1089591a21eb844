"""The panel's one validation layer for query and form parameters: bad input is a 400 with a
clear Portuguese message, never a 500.

`params_middleware` refuses, for every route, any parameter name or value that holds U+0000
(PostgreSQL cannot store it), another control character (tab, line breaks allowed in form
text) or a character XML cannot carry (U+FFFE, U+FFFF, a lone surrogate), or that is longer
than MAX_VALUE; the typed readers below (`int_id`, `date_br`, `cursor`, `text`) are what the handlers use to turn the rest into values. Each raises
InvalidInput, which the errors middleware shows as a 400 page (or JSON under /open311/).
"""
from __future__ import annotations

import re
from datetime import date

from aiohttp import web

from core.parsing import ParseError, parse_date
from core.services import staff as pq
from core.services.errors import InvalidInput

MAX_VALUE = 10_000  # characters in one parameter (a long textarea fits)
MAX_ID = 2 ** 31 - 1  # the tables' integer primary keys
_ID_RE = re.compile(r"^[0-9]{1,10}$")  # ASCII digits only: "²" or "٣" are not ids
# Controls, and what XML cannot carry (U+FFFE, U+FFFF, lone surrogates): the Open311 feed is XML
_QUERY_BAD = re.compile("[\x00-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
_FORM_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


def _check(items, bad: re.Pattern, where: str) -> None:
    for key, value in items:
        if not isinstance(value, str):  # an uploaded file: core.media checks it
            value = ""
        if bad.search(key) or bad.search(value):
            raise InvalidInput(f"Parâmetro inválido ({where}): contém caracteres inválidos "
                               "(caracteres de controle, como o nulo, ou U+FFFE/U+FFFF). "
                               "Corrija o valor e tente de novo.")
        if len(key) > 100 or len(value) > MAX_VALUE:
            raise InvalidInput(f"Parâmetro inválido ({where}): valor longo demais (máximo de "
                               f"{MAX_VALUE} caracteres).")


@web.middleware
async def params_middleware(request: web.Request, handler) -> web.StreamResponse:
    _check(request.query.items(), _QUERY_BAD, "endereço")
    _check(request.match_info.items(), _QUERY_BAD, "endereço")
    if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        _check((await request.post()).items(), _FORM_BAD, "formulário")
    return await handler(request)


def int_id(raw: object, label: str) -> int | None:
    """An id typed or chosen in a list: None when empty; ASCII digits within the tables'
    range, else InvalidInput."""
    value = str(raw or "").strip()
    if not value:
        return None
    if not _ID_RE.match(value) or int(value) > MAX_ID:
        raise InvalidInput(f"{label}: valor inválido (“{value[:40]}”). Escolha uma opção da "
                           "lista.")
    return int(value)


def date_br(raw: object, label: str) -> date | None:
    """A dd/mm/aaaa date, or None when empty."""
    value = str(raw or "").strip()
    if not value:
        return None
    try:
        return parse_date(value)
    except ParseError as exc:
        raise InvalidInput(f"{label}: {exc.message}") from None


def cursor(raw: object) -> str | None:
    """The case list's page cursor, checked before it reaches the database."""
    value = str(raw or "").strip()
    if not value:
        return None
    _, case_id = pq.decode_cursor(value)  # InvalidInput if it is not one
    if not 0 < case_id <= MAX_ID:
        raise InvalidInput("Página inválida: volte para a primeira página da lista.")
    return value


def text(raw: object, label: str, max_len: int = 200) -> str:
    value = str(raw or "").strip()
    if len(value) > max_len:
        raise InvalidInput(f"{label}: no máximo {max_len} caracteres.")
    return value
