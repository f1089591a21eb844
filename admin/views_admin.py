"""Admin-only pages: inspectors, tariffs and calendar, panel users."""
from __future__ import annotations

from datetime import date, time
from decimal import Decimal

from aiohttp import web

from admin import params
from admin.files import file_response
from admin.web import city_choices, core_of, redirect, render, require, user_of
from core.formatting import fmt_date
from core.parsing import ParseError, parse_date, parse_money, parse_time
from core.services import staff as pq
from core.services.errors import InvalidInput
from core.services.staff.accounts import ROLE_LABELS, create_user, list_users, set_user_active
from core.services.staff.calendar import (CLOSURE_KINDS, add_closure, add_tariff, closure_of,
                                          correct_closure,
                                          list_closures, moved_by_closures,
                                          remove_closure)
from core.services.inspectors import day_notices as affixed_notices
from core.services.inspectors import accounts as inspectors
from core.services.inspectors import tasks


def _date(raw: str, label: str, field: str) -> date:
    try:
        return parse_date(raw)
    except ParseError as exc:
        raise InvalidInput(f"{label}: {exc.message}", field) from None


def _hour(raw: str, field: str) -> time | None:
    """An optional hh:mm (blank: none)."""
    if not raw.strip():
        return None
    try:
        return parse_time(raw)
    except ParseError as exc:
        raise InvalidInput(exc.message, field) from None


def _money(raw: str, field: str) -> Decimal:
    try:
        return parse_money(raw)
    except ParseError as exc:
        raise InvalidInput(exc.message, field) from None


def _path_id(request: web.Request) -> int:
    found = params.int_id(request.match_info["id"], "Identificador")
    if found is None:
        raise web.HTTPNotFound()
    return found


@require("admin")
async def inspectors_page(request: web.Request) -> web.Response:
    core = core_of(request)
    return render(request, "inspectors.html", {
        "rows": await pq.inspectors(core), "agencies": core.law.agencies.values()})


@require("admin")
async def invite(request: web.Request) -> web.Response:
    core = core_of(request)
    form = await request.post()
    name, agency = str(form.get("name", "")).strip(), str(form.get("agency", ""))
    code = await inspectors.invite_inspector(core, name, agency, user_of(request).username,
                                             registration=str(form.get("matricula", "")))
    return render(request, "invite_done.html", {"code": code, "name": name,
                                                "agency": core.law.agencies.get(agency)})


@require("admin")
async def deactivate(request: web.Request) -> web.StreamResponse:
    await tasks.deactivate_inspector(core_of(request), _path_id(request),
                                     user_of(request).actor())
    raise redirect(request, "/fiscais", "Fiscal desativado.")


@require("admin")
async def registration(request: web.Request) -> web.StreamResponse:
    """Set or correct an inspector's matrícula (a bad one is a 400 with the reason)."""
    form = await request.post()
    value = await inspectors.set_registration(core_of(request), _path_id(request),
                                              str(form.get("matricula", "")))
    raise redirect(request, "/fiscais", f"Matrícula registrada: {value}.")


@require()
async def day_notices(request: web.Request) -> web.StreamResponse:
    """The inspector's notices of the day, one PDF to print before going out (the same
    documents the affixing step records: core.services.inspectors.day_notices)."""
    day = await affixed_notices.prepare_day_notices(core_of(request), _path_id(request),
                                                    user_of(request).actor())
    if not day.notices:
        raise redirect(request, "/fiscais", f"{day.inspector}: nenhuma notificação a afixar "
                       "hoje (nenhum caso com este fiscal está nessa etapa).")
    return file_response(day.blob, day.filename.removesuffix(".pdf"), cache="no-store")


@require("admin")
async def tariffs_page(request: web.Request) -> web.Response:
    core = core_of(request)
    book = await core.tariff_book()
    seeds = {t.code: t for t in core.law.tariffs}
    groups = [(seeds[c].label if c in seeds else c, c, book.history(c)) for c in book.codes()]
    closures = await list_closures(core)
    cal = await core.calendar()
    return render(request, "tariffs.html", {
        "groups": groups, "closures": closures, "kinds": CLOSURE_KINDS,
        "moved": await moved_by_closures(core),
        "today": pq.today(core), "law_holidays": core.law.municipal_holidays,
        "codes": sorted({(t.code, t.label) for t in core.law.tariffs if t.currency == "BRL"}),
        "cal": cal})


@require("admin")
async def tariff_add(request: web.Request) -> web.StreamResponse:
    core = core_of(request)
    form = await request.post()
    await add_tariff(core, str(form.get("code", "")), _money(str(form.get("amount", "")), "amount"),
                     _date(str(form.get("valid_from", "")), "Vigência", "valid_from"),
                     str(form.get("article", "")), str(form.get("source", "")),
                     user_of(request))
    raise redirect(request, "/tarifas", "Novo valor cadastrado. Valores anteriores não mudam.")


def closure_recount_line(moved) -> str:
    """What the new closure changed on running deadlines (Lei 9.784/1999, art. 66, § 1º)."""
    if not moved:
        return "Nenhum prazo em andamento vencia nesse dia."
    cases = ", ".join(f"{m.protocol} (de {fmt_date(m.previous_due)} para {fmt_date(m.due)})"
                      for m in moved[:10])
    more = f" e mais {len(moved) - 10}" if len(moved) > 10 else ""
    word = "prazo prorrogado" if len(moved) == 1 else "prazos prorrogados"
    return (f"{len(moved)} {word} (Lei 9.784/1999, art. 66, § 1º): {cases}{more}; "
            "proprietários e fiscais foram avisados.")


@require("admin")
async def closure_add(request: web.Request) -> web.StreamResponse:
    form = await request.post()
    day = _date(str(form.get("date", "")), "Data", "date")
    moved = await add_closure(core_of(request), day, str(form.get("name", "")),
                              str(form.get("kind", "")), str(form.get("source", "")),
                              user_of(request),
                              closes_at=_hour(str(form.get("closes_at", "")), "closes_at"))
    raise redirect(request, "/tarifas", "Fechamento cadastrado; os próximos prazos o consideram. "
                   + closure_recount_line(moved))


@require("admin")
async def closure_correct(request: web.Request) -> web.StreamResponse:
    form = await request.post()
    closure = await closure_of(core_of(request), _path_id(request))  # this city's, or 404
    day = _date(str(form.get("date", "")), "Data", "date")
    redated, moved = await correct_closure(core_of(request), closure.id, day,
                                           str(form.get("name", "")),
                                           str(form.get("source", "")), user_of(request))
    said = "Fechamento corrigido."
    if redated:
        said += (" Os prazos que a data anterior prorrogou continuam com a nova data. "
                 + closure_recount_line(moved))
    raise redirect(request, "/tarifas", said)


@require("admin")
async def closure_remove(request: web.Request) -> web.StreamResponse:
    await remove_closure(core_of(request), _path_id(request), user_of(request))
    raise redirect(request, "/tarifas", "Fechamento removido. Os prazos que ele já tinha "
                   "prorrogado continuam com a nova data, já informada aos interessados.")


#: The choice of an installation administrator creating an installation administrator
WHOLE = "instalacao"


@require("admin")
async def users_page(request: web.Request) -> web.Response:
    """A city's administrator sees and manages its city's accounts; an installation
    administrator, every account, and may create installation administrators."""
    core, user = core_of(request), user_of(request)
    return render(request, "users.html", {
        "rows": await list_users(core, user), "roles": ROLE_LABELS,
        "city_names": city_choices(core), "city_labels": {c.slug: c.label for c in core.cities},
        "whole": WHOLE, "choose_city": user.is_installation_admin})


@require("admin")
async def user_add(request: web.Request) -> web.StreamResponse:
    core, user = core_of(request), user_of(request)
    form = await request.post()
    if user.is_installation_admin:  # any city, or the whole installation (administrators)
        raw = str(form.get("municipality", "") or core.municipality)
        city = None if raw == WHOLE else raw
        if city is None and form.get("role") != "admin":
            raise InvalidInput("Uma conta de servidor(a) precisa de um município.",
                               "municipality")
    else:
        city = user.municipality
    u = await create_user(core, str(form.get("username", "")),
                          str(form.get("password", "")), str(form.get("role", "")), city,
                          by=user)
    raise redirect(request, "/usuarios", f"Usuário {u.username} criado.")


@require("admin")
async def user_active(request: web.Request) -> web.StreamResponse:
    form = await request.post()
    active = form.get("active") == "1"
    await set_user_active(core_of(request), _path_id(request), active,
                          user_of(request))
    raise redirect(request, "/usuarios", "Usuário ativado." if active else "Usuário desativado.")
