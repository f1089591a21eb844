"""The request schemas of Meta's published OpenAPI description, extracted for the stand-in.

``python -m sandbox.standin.whatsapp.extract PATH/business-messaging-api_v23.0.yaml`` writes
``cloudapi-schemas.json`` beside this file (MIT, see ``LICENSE-openapi``): the schemas of
``POST /{Version}/{Phone-Number-ID}/messages`` (every message type, and the mark-as-read body)
with everything they refer to, as one JSON Schema (draft 2020-12, which OpenAPI 3.1 uses).

The published description is taken as it is, but for the few places where it contradicts its own
examples or the platform's documented behaviour; each amendment is listed in ``AMENDMENTS`` and
written into the extract, so the test that re-runs this extraction shows them.
"""
from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
EXTRACT_PATH = HERE / "cloudapi-schemas.json"
YAML_NAME = "business-messaging-api_v23.0.yaml"
ROOTS = ("Message", "MarkMessageRequestPayload")

AMENDMENTS = (
    "allOf of BaseMessageProperties and a message type: the type's additionalProperties: false "
    "becomes unevaluatedProperties: false on the whole (as written, it refuses every message, "
    "messaging_product included)",
    "BaseMessageProperties: recipient_type is optional (the platform's default is individual; "
    "the description's own examples omit it)",
    "LanguageObject: policy is optional (deterministic is the only value; the examples omit it)",
    "TemplateComponent: index is a digit 0-9 (the published pattern is a malformed character "
    "class that refuses index 0)",
    "LocationMessage: latitude and longitude may be numbers (the examples send numbers)",
    "InteractiveObject: type location_request_message, whose action is {name: send_location} "
    "(documented by the platform, absent from the description)",
    "The discriminator keyword (OpenAPI's, not JSON Schema's) is dropped: the stand-in chooses the "
    "schema by type itself",
)


def find_yaml(start: Path = HERE) -> Path | None:
    """The YAML in a ``shared/whatsapp/`` folder beside one of the repository's ancestors."""
    for folder in start.parents:
        candidate = folder / "shared" / "whatsapp" / YAML_NAME
        if candidate.is_file():
            return candidate
    return None


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"].rsplit("/", 1)[-1]} if isinstance(node.get("$ref"), str) else set()
        for value in node.values():
            found |= _refs(value)
        return found
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node)) if node else set()
    return set()


def _closure(schemas: dict[str, Any]) -> dict[str, Any]:
    names: set[str] = set()
    todo = list(ROOTS)
    while todo:
        name = todo.pop()
        if name not in names:
            names.add(name)
            todo.extend(_refs(schemas[name]))
    return {n: copy.deepcopy(schemas[n]) for n in sorted(names)}


def _rewrite_refs(node: Any) -> Any:
    if isinstance(node, dict):
        out = {k: _rewrite_refs(v) for k, v in node.items() if k != "discriminator"}
        if isinstance(out.get("$ref"), str):
            out["$ref"] = "#/$defs/" + out["$ref"].rsplit("/", 1)[-1]
        return out
    if isinstance(node, list):
        return [_rewrite_refs(v) for v in node]
    return node


def _amend(defs: dict[str, Any]) -> None:
    for schema in defs.values():
        branches = schema.get("allOf")
        if branches and any(b.get("additionalProperties") is False for b in branches):
            for b in branches:
                b.pop("additionalProperties", None)
            schema["unevaluatedProperties"] = False
    base = defs["BaseMessageProperties"]
    base["required"] = [r for r in base["required"] if r != "recipient_type"]
    lang = defs["LanguageObject"]
    lang["required"] = [r for r in lang["required"] if r != "policy"]
    defs["TemplateComponent"]["properties"]["index"]["pattern"] = "^[0-9]$"
    location = defs["LocationMessage"]["allOf"][1]["properties"]["location"]["properties"]
    for coordinate in ("latitude", "longitude"):
        location[coordinate]["type"] = ["number", "string"]
    defs["InteractiveObject"]["properties"]["type"]["enum"].append("location_request_message")
    send_location = {"type": "string", "enum": ["send_location"]}
    defs["ActionObject"]["oneOf"].append({"required": ["name"],
                                          "properties": {"name": send_location}})


def extract(yaml_path: Path) -> dict[str, Any]:
    document = yaml.safe_load(yaml_path.read_text(encoding="utf-8"))
    defs = _rewrite_refs(_closure(document["components"]["schemas"]))
    _amend(defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "source": f"{YAML_NAME} ({document['info']['version']}), components/schemas",
        "licence": "MIT, Copyright (c) Meta Platforms, Inc. and affiliates (LICENSE-openapi)",
        "amendments": list(AMENDMENTS),
        "$defs": defs,
    }


def render(data: dict[str, Any]) -> str:
    """One line, as ``spec/botapi-spec.json``: a data file, not one to read."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else find_yaml()
    if path is None:
        print(f"{YAML_NAME} not found: give its path", file=sys.stderr)
        return 2
    EXTRACT_PATH.write_text(render(extract(path)), encoding="utf-8")
    print(f"wrote {EXTRACT_PATH.name} from {path.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
