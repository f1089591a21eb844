"""The release at the depot on the case page ("Liberar"): the law's checklist condition by
condition, who collects and with which document, the statement and the payments; POST
/casos/{protocol}/liberar takes the release step and issues the Termo de liberação
(core.services.staff.release). A refusal comes back on the case page with what was typed
(admin.kept_form)."""
from __future__ import annotations

from aiohttp import web

from admin import params
from admin.web import KEPT, core_of, redirect, require, user_of
from core.laws.base import ReleaseSituation
from core.services.staff import release as svc

#: The form's ReleaseSituation ticks (Dores Art. 3º, §3º, I and III, a–b).
FLAGS = ("by_attorney", *svc.SITUATION_FLAGS)


def action_path(protocol: str) -> str:
    return f"/casos/{protocol}/liberar"


def _ticked(values, name: str) -> bool:
    return bool(values.get(name))


def kept_situation(request: web.Request, protocol: str) -> ReleaseSituation | None:
    """The situation the refused release form was sent with (its checklist is shown again for
    it), or None (the form starts from what the owner stated)."""
    kept = request.get(KEPT)
    if kept is None or kept.action != action_path(protocol):
        return None
    return ReleaseSituation(**{f: bool(kept.val(f)) for f in FLAGS})


async def release_panel(request: web.Request, protocol: str) -> dict | None:
    """The release form's context for the case page (None: no release step now)."""
    core = core_of(request)
    form = await svc.release_form(core, protocol, kept_situation(request, protocol))
    if form is None:
        return None
    return {"form": form, "action": action_path(protocol), "id_kinds": svc.ID_KINDS}


@require()
async def release(request: web.Request) -> web.StreamResponse:
    """POST /casos/{protocol}/liberar."""
    form = await request.post()
    protocol = request.match_info["protocol"]
    inp = svc.ReleaseIn(
        ticked=frozenset(k[5:] for k in form if k.startswith("cond_") and form.get(k)),
        name=params.text(form.get("name"), "Nome de quem retira", 200) or "",
        document=params.text(form.get("document"), "CPF/CNPJ", 40) or "",
        id_kind=params.text(form.get("id_kind"), "Documento apresentado", 40) or "",
        id_number=params.text(form.get("id_number"), "Número do documento", 60) or "",
        attorney_ref=params.text(form.get("attorney_ref"), "Procuração", 300) or "",
        **{f: _ticked(form, f) for f in FLAGS})
    done = await svc.release(core_of(request), protocol, inp, user_of(request).actor())
    _sha, filename, _blob = done.document
    raise redirect(request, f"/casos/{protocol}",
                   f"Liberado: {done.result.protocol}. Termo de liberação emitido ({filename}, "
                   "em Documentos): imprima as duas vias e colha as assinaturas. O proprietário "
                   "e quem denunciou foram avisados.")
