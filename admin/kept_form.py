"""A refused form comes back as it was typed, with its error beside the field.

When a panel form is refused (bad input, a rule of the law, a service's refusal), the page the
form was sent from is rendered again in the same response (status 400) instead of an error page
or a redirect that drops what was typed: every field keeps its value, the error shows beside
the field it concerns (`FieldError`'s `field`, or the form's top when it concerns the whole
form), and the page's other forms are as they were. Templates read the kept form through the
macros of `_fields.html` (`val`, `checked`, `err`, `form_error`). A page that cannot be
rendered again (no Referer, another site, a page that fails) falls back to the error page."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

from aiohttp import web

from admin.security import local_referer
from admin.web import BOUND, KEPT, PLACEHOLDERS, SESSION, USER, core_of
from core.services.papers import placeholders

log = logging.getLogger(__name__)


@dataclass
class KeptForm:
    action: str  # the path the form was posted to: only that form takes the values back
    values: dict[str, list[str]]
    errors: dict[str, str] = field(default_factory=dict)  # field → message; "" the whole form

    def val(self, name: str, default: str = "") -> str:
        got = self.values.get(name)
        return got[0] if got else default

    def has(self, name: str, value: str) -> bool:
        return value in self.values.get(name, [])


def field_of(exc: Exception) -> str:
    return getattr(exc, "field", None) or ""


async def render_back(request: web.Request, exc: Exception, message: str
                      ) -> web.StreamResponse | None:
    """The referring panel page rendered again with the posted form kept and `message`
    beside its field; None when that page cannot be rendered again."""
    path = local_referer(request)
    if request.method != "POST" or path is None or request.get(USER) is None:
        return None  # a public page is answered by the redirect back, with the message
    shown = "<page>"  # logged: the page's route pattern, never its path and query (typed)
    try:
        post = await request.post()
        values: dict[str, list[str]] = {}
        for key, value in post.items():
            if key != "csrf" and isinstance(value, str):
                values.setdefault(key, []).append(value)
        # the body is read (the form); the page's GET never reads one: aiohttp's guard off
        read, request._read_bytes = request._read_bytes, None
        try:
            page = request.clone(method="GET", rel_url=path)
        finally:
            request._read_bytes = read
        match = await request.app.router.resolve(page)
        if match.route.resource is not None:
            shown = match.route.resource.canonical
        if match.http_exception is not None or match.route.method not in ("GET", "*"):
            return None
        match.add_app(request.app)
        page._match_info = match  # as the application's own dispatch sets it
        for key in (SESSION, USER, BOUND):
            if key in request:
                page[key] = request[key]
        page[PLACEHOLDERS] = await placeholders.warnings(core_of(request))
        page[KEPT] = KeptForm(request.path, values, {field_of(exc): message})
        resp = await match.handler(page)
    except web.HTTPException:
        return None
    except Exception:  # the page itself failed: the plain error page is better than nothing
        log.exception("could not render %s again after a refused form", shown)
        return None
    if not isinstance(resp, web.Response) or resp.status != 200:
        return None
    resp.set_status(400)
    return resp
