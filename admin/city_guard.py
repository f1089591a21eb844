"""No city sees another's: before a panel handler runs, an object its URL or form names (a
case, an inspector, a photo, a dead letter) that belongs to another city is refused with
exactly the answer a missing one gets — the same error and words the service itself gives
for an id that does not exist (core.services.staff.scope).

`OBJECTS` maps each panel route with an object in its path (by its canonical path) to how
that object is checked; tests/integration/test_admin_cities.py fails when a route with a
path variable is neither here nor in `NOT_OBJECTS`."""
from __future__ import annotations

from typing import Awaitable, Callable

from aiohttp import web

from admin import params

from core.services.errors import InvalidInput, NotFound
from core.services.messaging import delivery
from core.services.staff import scope

Check = Callable[[web.Request], Awaitable[None]]

#: What a missing inspector is called by each service (the same words for another city's)
GONE = "Fiscal não encontrado."
GONE_OR_OFF = "Fiscal não encontrado ou desativado."
DEAD_LETTER = "Mensagem não encontrada entre as não entregues."
PHOTO = "Foto não encontrada."


def _core(request: web.Request):
    from admin.web import core_of
    return core_of(request)


async def _case(request: web.Request) -> None:
    await scope.case_here(_core(request), request.match_info["protocol"])


def _inspector(words: str, error: type = NotFound, *, in_form: bool = False,
               field: str | None = None) -> Check:
    async def check(request: web.Request) -> None:
        raw = (await request.post()).get("inspector_id") if in_form \
            else request.match_info.get("id")
        try:
            found = params.int_id(raw, "Fiscal")
        except InvalidInput:  # not an id at all: the view's own check answers
            return
        if found is not None and not await scope.inspector_here(_core(request), found):
            raise error(words, field) if field else error(words)
    return check


def _both(*checks: Check) -> Check:
    async def check(request: web.Request) -> None:
        for c in checks:
            await c(request)
    return check


async def _photo(request: web.Request) -> None:
    found = params.int_id(request.match_info["id"], "Foto")
    if found is not None and not await scope.evidence_here(_core(request), found):
        raise NotFound(PHOTO)


def _dead_letter(channel: str) -> Check:
    async def check(request: web.Request) -> None:
        core = _core(request)
        wanted = params.int_id(request.match_info["id"], "Mensagem")
        rows = await visible_dead_letters(request, core)
        if not any(r.id == wanted and r.channel == channel for r in rows):
            raise NotFound(DEAD_LETTER)
    return check


async def visible_dead_letters(request: web.Request, core) -> list:
    """The dead letters this request's city may see (a message tied to no case: only an
    installation administrator, or a single-city installation)."""
    from admin.web import user_of
    user = user_of(request)
    wide = not core.many_cities or (user is not None and user.is_installation_admin)
    return await scope.only_here(core, await delivery.dead_letters(core), unlinked=wide)


OBJECTS: dict[str, Check] = {
    "/casos/{protocol}": _case,
    "/casos/{protocol}/acao/{code}": _case,
    "/casos/{protocol}/atribuir": _both(_case, _inspector(GONE_OR_OFF, in_form=True)),
    "/casos/{protocol}/pagamento": _case,
    "/casos/{protocol}/liberar": _case,
    "/casos/{protocol}/documentos/{kind}": _case,
    "/balcao/avisado/{protocol}": _case,
    "/fiscais/{id}/desativar": _inspector(GONE),
    "/fiscais/{id}/matricula": _inspector(GONE),
    "/fiscais/{id}/notificacoes-do-dia": _inspector("Fiscal não encontrado ou inativo.",
                                                    InvalidInput),
    "/fiscais/{id}/rota": _inspector(GONE_OR_OFF),
    "/fiscais/atribuir-area": _inspector(GONE_OR_OFF, InvalidInput, in_form=True,
                                         field="inspector_id"),
    "/fotos/{id}/publica": _photo,
    "/fotos/{id}/{action}": _photo,
    "/entregas/{id}/reenviar": _dead_letter("telegram"),
    "/entregas/email/{id}/reenviar": _dead_letter("email"),
}

#: Panel routes with a path variable that names no object of a city: the service reads it
#: within the request's city (an edital kind; a file by its hash among the city's cases; a
#: closure or an account the service itself checks).
NOT_OBJECTS = {
    "/evidencias/{sha}": "core.services.staff.case_pages.evidence_of: the city's cases only",
    "/diario-oficial/{kind}.{ext}": "an edital kind; its cases are the city's",
    "/diario-oficial/{kind}/publicar": "an edital kind; each protocol checked (load_here)",
    "/feriados/{id}/remover": "core.services.staff.calendar.remove_closure: the city's only",
    "/feriados/{id}/corrigir": "core.services.staff.calendar.correct_closure: the city's only",
    "/usuarios/{id}/ativo": "core.services.staff.accounts.set_user_active: as missing",
}


async def guard(request: web.Request) -> None:
    """Refuse another city's object as a missing one (nothing when the route has none)."""
    resource = request.match_info.route.resource
    check = OBJECTS.get(resource.canonical) if resource is not None else None
    if check is not None and request.method in ("GET", "POST"):
        if request.method == "GET" and check is OBJECTS.get("/fiscais/atribuir-area"):
            return
        await check(request)
