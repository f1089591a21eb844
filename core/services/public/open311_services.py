"""Open311 GeoReport v2 services: the law's categories as services, each with its definition
(the questions the bot asks a citizen for that category, as Open311 attributes), and a POST's
fields turned into the core's ReportIn. Reads the law only; never the database."""
from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Mapping
from urllib.parse import urlsplit

from core.parsing import ParseError, parse_text
from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.services.cases.evidence import EvidenceIn
from core.services.citizens.guidance import citizen_signs
from core.services.citizens.reports import MAX_PHOTOS, ReportIn

SPEC_URL = "http://wiki.open311.org/GeoReport_v2"
MAX_URL = 2000
SHORT_TEXT = 120  # colour, make/model, how long: as the bot takes them


@dataclass(frozen=True)
class Attribute:
    code: str
    datatype: str  # string, text, singlevaluelist, multivaluelist (spec's datatypes)
    description: str  # Portuguese: the question
    values: tuple[tuple[str, str], ...] = ()  # (key, name) for the list datatypes
    required: bool = False


def attributes(core: Core, code: str) -> tuple[Attribute, ...]:
    """What the bot asks for this category (core.services.citizens.conversation.states), as Open311 attributes: the
    plate for plated vehicles, colour and make/model for vehicles, how long it has been there,
    the abandonment signs the law lists for citizens (Dores Art. 3º §4º; Dracena Art. 1º) and
    the kind of place (Dores Art. 2º, Art. 7º). None is required: the bot lets each be skipped."""
    law = core.law
    cat = law.categories[code]
    out: list[Attribute] = []
    if cat.has_plate:
        out.append(Attribute("plate", "string", "Placa do veículo (se visível)"))
    if cat.has_plate or cat.has_chassis:
        out += [Attribute("colour", "string", "Cor"),
                Attribute("make_model", "string", "Marca/modelo")]
    if cat.time_in_place:  # not for a street vendor or a loose animal
        out.append(Attribute("time_there", "string", "Há quanto tempo está no local"))
    signs = citizen_signs(law, code)
    if signs:
        out.append(Attribute("signs", "multivaluelist", "Sinais de abandono observados",
                             tuple((c.code, c.label) for c in signs)))
    if law.locations:
        out.append(Attribute("location_kind", "singlevaluelist", "Tipo de local",
                             tuple((loc.code, loc.label) for loc in law.locations)))
    return tuple(out)


def services(core: Core) -> list[dict[str, Any]]:
    """GET services: one per category of the city's law."""
    return [{"service_code": c.code, "service_name": c.label,
             "description": c.examples or c.label, "metadata": bool(attributes(core, c.code)),
             "type": "realtime", "keywords": c.article, "group": core.law.short}
            for c in core.law.categories.values()]


def service_definition(core: Core, code: str) -> dict[str, Any]:
    """GET services/{service_code}: the category's attributes (NotFound when unknown)."""
    if code not in core.law.categories:
        raise NotFound("service_code não encontrado.")
    return {"service_code": code, "attributes": [
        {"variable": True, "code": a.code, "datatype": a.datatype, "required": a.required,
         "datatype_description": None, "order": i, "description": a.description,
         "values": [{"key": k, "name": n} for k, n in a.values]}
        for i, a in enumerate(attributes(core, code), 1)]}


def discovery(core: Core, api_url: str, changeset: str) -> dict[str, Any]:
    """GET discovery: this one production endpoint, in both formats, and one jurisdiction per
    city served (its jurisdiction_id, name, contact and who gives its api_key)."""
    key_service = ("Chave de API (api_key) fornecida pela Prefeitura Municipal de "
                   f"{core.city.name} para o envio de solicitações.")
    if core.many_cities:
        key_service = ("Chave de API (api_key) fornecida pela prefeitura de cada município "
                       "para o envio de solicitações à sua jurisdição (jurisdiction_id).")
    return {"changeset": changeset,
            "contact": "" if core.many_cities else core.city.dpo_contact,
            "key_service": key_service,
            "endpoints": [{"specification": SPEC_URL, "url": api_url, "changeset": changeset,
                           "type": "production",
                           "formats": ["text/xml", "application/json"]}],
            "jurisdictions": [{"jurisdiction_id": c.jurisdiction, "name": c.label,
                               "contact": c.dpo_contact,
                               "key_service": "Chave de API (api_key) fornecida pela "
                                              f"Prefeitura Municipal de {c.name}."}
                              for c in core.cities]}


def check_jurisdiction(core: Core, given: str | None) -> None:
    """A single-jurisdiction API (OPEN311_JURISDICTION_ID empty) accepts any jurisdiction_id;
    with one set, another value is the spec's 404."""
    want = core.city.open311_jurisdiction_id
    if want and given and given != want:
        raise NotFound("jurisdiction_id não encontrado.")


def _valid_ids(core: Core) -> str:
    return ", ".join(sorted(c.jurisdiction for c in core.cities))


def jurisdiction_core(core: Core, given: str | None) -> Core:
    """The installation acting for the city a request's jurisdiction_id names. Serving one
    city, the id stays optional (check_jurisdiction); serving more, it is required, as the
    spec says of an endpoint with several jurisdictions: missing → 400, unknown → 404, each
    naming the valid ids."""
    given = (given or "").strip()
    if not core.many_cities:
        check_jurisdiction(core, given or None)
        return core
    if not given:
        raise InvalidInput("jurisdiction_id é obrigatório: este serviço atende mais de um "
                           f"município. Use: {_valid_ids(core)}.")
    city = next((c for c in core.cities if c.jurisdiction == given), None)
    if city is None:
        raise NotFound(f"jurisdiction_id não encontrado. Use: {_valid_ids(core)}.")
    return core.for_city(city)


def key_opens(core: Core, api_key: str) -> bool:
    """Whether `api_key` may POST to the city `core` is bound to: the city's own key (its
    SHA-256 in open311_key_sha256) or, for the settings' own city (MUNICIPALITY),
    OPEN311_API_KEY. Compared in constant time; a key of another city does not open it."""
    given = (api_key or "").encode("utf-8", "replace")
    if not given:
        return False
    want = core.city.open311_key_sha256.strip().lower()
    ok = bool(want) and hmac.compare_digest(want.encode(), hashlib.sha256(given).hexdigest()
                                            .encode())
    own, home = core.settings.open311_api_key, core.city_named(core.settings.municipality)
    mine = home.jurisdiction == core.city.jurisdiction if home else not core.many_cities
    if own and mine:
        ok = hmac.compare_digest(own.encode(), given) or ok
    return ok


def media_url(raw: str) -> str:
    """A POST's media_url: an absolute http(s) URL (400 otherwise)."""
    url = raw.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = None
    if (parts is None or parts.scheme not in ("http", "https") or not parts.hostname
            or len(url) > MAX_URL or any(ord(ch) < 33 for ch in url)):
        raise InvalidInput("media_url inválida: informe um endereço http(s) completo da foto.")
    return url


def _short(name: str, value: str) -> str | None:
    try:
        return parse_text(value, SHORT_TEXT)
    except ParseError as exc:
        raise InvalidInput(f"Atributo {name}: {exc.message}") from None


def report_in(core: Core, *, service_code: str, lat: str, long: str, address: str,
              description: str, attrs: Mapping[str, list[str]], photos: list[EvidenceIn],
              media_urls: list[str]) -> ReportIn:
    """A POST requests' fields as the core's report (the checks of core.services.citizens.reports run
    when it is submitted). Unknown attribute codes are ignored, as the spec lets a server do;
    a list attribute's value must be one of its keys."""
    if not service_code:
        raise InvalidInput("service_code é obrigatório.")
    if service_code not in core.law.categories:
        raise NotFound("service_code não encontrado.")
    try:
        lat_f, lon_f = float(lat), float(long)
    except ValueError:
        raise InvalidInput("lat e long são obrigatórios (este serviço não localiza endereços "
                           "escritos; address_string é guardado como referência).") from None
    if not photos and not media_urls:
        raise InvalidInput("Envie uma foto do objeto: o arquivo em media ou o endereço em "
                           "media_url.")
    if max(len(photos), len(media_urls)) > MAX_PHOTOS:
        raise InvalidInput(f"Envie de 1 a {MAX_PHOTOS} fotos do objeto.")
    fields: dict[str, Any] = {}
    for a in attributes(core, service_code):
        given = [v for v in attrs.get(a.code, []) if v.strip()]
        if not given:
            continue
        keys = {k for k, _ in a.values}
        if a.datatype in ("singlevaluelist", "multivaluelist"):
            bad = [v for v in given if v not in keys]
            if bad or (a.datatype == "singlevaluelist" and len(given) > 1):
                raise InvalidInput(f"Atributo {a.code}: valor inválido. Use: "
                                   + ", ".join(sorted(keys)) + ".")
            fields[a.code] = tuple(given) if a.datatype == "multivaluelist" else given[0]
        else:
            fields[a.code] = _short(a.code, given[0])
    return ReportIn(category=service_code, lat=lat_f, lon=lon_f, photos=photos,
                    address=address or None, description=description or None,
                    media_urls=tuple(media_urls), **fields)
