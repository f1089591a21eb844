"""Helpers for the public pages' tests (no tests here): the owner's form posted from a client, the
public routes and the paths to probe them with."""
from __future__ import annotations

import re

from aiohttp.web_urldispatcher import DynamicResource, PlainResource

from tests.support.panel import csrf_of


async def owner_post(client, code: str, answer: str, ip: str = "203.0.113.9"):
    form = await client.get("/publico/proprietario", headers={"X-Forwarded-For": ip})
    return await client.post("/publico/proprietario", headers={"X-Forwarded-For": ip},
                             data={"codigo": code, "placa": answer,
                                   "csrf": csrf_of(await form.text())})
QUERIES = ["", "?bbox=-19.47,-45.61,-19.45,-45.59", "?categoria=motor_vehicle",
           "?situacao=abertos", "?situacao=encerrados", "?situacao=notice_affixed",
           "?fields=plate,description,reporter,owner_name,owner_cpf&debug=1&format=json",
           "?q=QWE4R56&plate=QWE4R56", "?status=open", "?status=closed", "?extensions=true",
           "?jurisdiction_id=dores", "?service_code=motor_vehicle", "?page_size=1000",
           "?start_date=2020-01-01T00:00:00Z&end_date=2030-01-01T00:00:00Z",
           "?format=xml", "?next=/casos&protocolo=2026-000001", "?bbox=%00", "?x=" + "a" * 300]
PLACEHOLDER = re.compile(r"\{([^}:]+)(?::[^}]*)?\}")


def public_routes(app) -> list[tuple[str, str]]:
    """(method, path formatter) of every route whose handler needs no login."""
    out = []
    for resource in app.router.resources():
        if not isinstance(resource, (PlainResource, DynamicResource)):
            continue  # /static/: the panel's own CSS/JS/Leaflet files
        info = resource.get_info()
        path = info.get("path") or info.get("formatter")
        for route in resource:
            if route.method in ("HEAD", "OPTIONS"):
                continue
            if getattr(route.handler, "required_role", None) is None:
                out.append((route.method, path))
    return out


def route_paths(formatter: str, values: dict[str, list[str]]) -> list[str]:
    names = PLACEHOLDER.findall(formatter)
    paths = [formatter]
    for name in names:
        options = values.get(name, values["protocol"])  # an unknown parameter: a protocol
        paths = [PLACEHOLDER.sub(lambda m: v, p, count=1) for p in paths for v in options]
    return paths
