"""Open311 GeoReport v2 responses in the spec's two formats: XML (its default) and JSON, with
errors in the spec's shape (`[{"code", "description"}]` / `<errors><error>…`)."""
from __future__ import annotations

import re
from typing import Any
from xml.etree import ElementTree as ET

from aiohttp import web

from core.services.errors import Forbidden, NotFound, ServiceError

XML_TYPE = "text/xml"
#: A list's element name → the name of each item's element (the spec's XML).
ITEM_TAG = {"services": "service", "service_requests": "request", "attributes": "attribute",
            "values": "value", "endpoints": "endpoint", "formats": "format", "errors": "error",
            "jurisdictions": "jurisdiction"}


def fmt_of(request: web.Request) -> str:
    """The format a path asks for: `.json` → json; anything else → xml (the spec's default)."""
    return "json" if request.path.endswith(".json") else "xml"


#: What XML 1.0 cannot carry (refused at input: core.services.public.open311_post.NOT_XML); dropped
#: here too, so text stored before that check cannot make a whole document unparseable.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else _NOT_XML.sub("", str(value))


def _fill(parent: ET.Element, key: str, value: Any) -> None:
    el = ET.SubElement(parent, key)
    if isinstance(value, dict):
        for k, v in value.items():
            _fill(el, k, v)
    elif isinstance(value, list):
        for item in value:
            _fill(el, ITEM_TAG.get(key, "item"), item)
    else:
        el.text = _text(value)


def to_xml(root: str, body: Any) -> bytes:
    """`body` (a list of items or a dict) under the element `root`."""
    el = ET.Element(root)
    if isinstance(body, list):
        for item in body:
            _fill(el, ITEM_TAG.get(root, "item"), item)
    else:
        for k, v in body.items():
            _fill(el, k, v)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(el, encoding="utf-8",
                                                                      xml_declaration=False)


def respond(request: web.Request, root: str, body: Any, status: int = 200) -> web.Response:
    """`body` in the format the path asks for; `root` names the XML document element."""
    if fmt_of(request) == "json":
        return web.json_response(body, status=status)
    return web.Response(body=to_xml(root, body), status=status,
                        content_type=XML_TYPE, charset="utf-8")


def error(request: web.Request, status: int, description: str) -> web.Response:
    """The spec's error list, in the path's format."""
    return respond(request, "errors", [{"code": status, "description": description}], status)


def status_of(exc: ServiceError | Exception) -> int:
    if getattr(exc, "http_status", None):  # e.g. 429: an API key's rate limit
        return exc.http_status
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, Forbidden):
        return 403
    return 400


def http_error(request: web.Request, exc: web.HTTPException) -> web.Response:
    """aiohttp's own 404/405/413… under /open311/, in the spec's shape."""
    texts = {404: "Recurso não encontrado.", 405: "Método não permitido.",
             413: "Envio grande demais."}
    resp = error(request, exc.status, texts.get(exc.status, "Requisição recusada."))
    if exc.status == 405 and "Allow" in exc.headers:
        resp.headers["Allow"] = exc.headers["Allow"]
    return resp
