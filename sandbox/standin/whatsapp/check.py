"""Every send checked as the Cloud API checks it: against the request schemas of Meta's published
OpenAPI description (``cloudapi-schemas.json``, extracted by ``extract.py``) with ``jsonschema``,
then the rules the schemas cannot say (at most 10 list rows in all sections together, unique
titles and ids), each refusal answered with Graph's error shape and the platform's code."""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from sandbox.standin.whatsapp.errors import GraphError, invalid

# written by extract.py (not imported here, so that `python -m ...extract` runs it once)
EXTRACT_PATH = Path(__file__).resolve().parent / "cloudapi-schemas.json"
MESSAGE_TYPES = {
    "text": "TextMessage", "audio": "AudioMessage", "document": "DocumentMessage",
    "image": "ImageMessage", "location": "LocationMessage", "video": "VideoMessage",
    "sticker": "StickerMessage", "reaction": "ReactionMessage",
    "interactive": "InteractiveMessage", "template": "TemplateMessage",
    "contacts": "ContactsMessage",
}
# interactive.type -> the ActionObject branch that describes its action
_ACTION_BRANCH = {"list": 0, "button": 1, "product": 2, "product_list": 2,
                  "catalog_message": 3, "flow": 4, "call_permission_request": 5,
                  "location_request_message": 6}
MAX_LIST_ROWS = 10
MAX_TEXT, MAX_CAPTION = 4096, 1024
# what the platform says for a length or count out of bounds, by the field's name
_LENGTHS = {"title": "title", "id": "id", "description": "description", "text": "text",
            "button": "button", "body": "body"}


@functools.cache
def schemas() -> dict[str, Any]:
    return json.loads(EXTRACT_PATH.read_text(encoding="utf-8"))


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    root = schemas()
    return Draft202012Validator({"$defs": root["$defs"], "$ref": f"#/$defs/{name}"})


def check_message(body: Any) -> dict:
    """The body of ``POST /{phone_number_id}/messages`` as the platform accepts it, or the
    GraphError it answers. A mark-as-read body (``status: read``) is checked as such."""
    if not isinstance(body, dict):
        raise GraphError(100, "The request body must be a JSON object")
    if body.get("messaging_product") != "whatsapp":
        if "messaging_product" not in body:
            raise GraphError(100, message="(#100) The parameter messaging_product is required.")
        raise GraphError(100, 'Param messaging_product must be "whatsapp"')
    if "status" in body:
        _validate("MarkMessageRequestPayload", body)
        if body["status"] != "read" or set(body) - {"messaging_product", "status",
                                                   "message_id", "typing_indicator"}:
            raise GraphError(100, "Invalid parameter: status must be read")
        return body
    kind = body.get("type", "text")
    if kind not in MESSAGE_TYPES:
        raise GraphError(131051, f"Unsupported message type: {kind}")
    body = {**body, "type": kind}
    _validate(MESSAGE_TYPES[kind], body)
    if kind == "interactive":
        _check_interactive(body["interactive"])
    _check_lengths(body, kind)
    return body


def _check_lengths(body: dict, kind: str) -> None:
    """The platform's lengths the description leaves out: a text of 1 to 4,096 characters, a
    caption of at most 1,024."""
    if kind == "text":
        text = body["text"].get("body")
        if not isinstance(text, str) or not text.strip():
            raise GraphError(131008, 'The parameter text["body"] is required.')
        if len(text) > MAX_TEXT:
            raise GraphError(100, f'Param text["body"] must be at most {MAX_TEXT} characters '
                             "long.")
    media = body.get(kind)
    if kind in ("image", "document", "video") and isinstance(media, dict):
        caption = media.get("caption")
        if isinstance(caption, str) and len(caption) > MAX_CAPTION:
            raise GraphError(100, f'Param {kind}["caption"] must be at most {MAX_CAPTION} '
                             "characters long.")


def _validate(name: str, body: dict) -> None:
    errors = list(_validator(name).iter_errors(body))
    if errors:
        leaf = _leaves(errors, body)[0]
        raise _graph_error(leaf)


def _leaves(errors: list[ValidationError], body: dict) -> list[ValidationError]:
    """The errors that say what is wrong: inside a oneOf, those of the branch the message meant
    (the action branch of its interactive type; else the branch whose required fields are there)."""
    out: list[ValidationError] = []
    for e in errors:
        if e.validator in ("oneOf", "anyOf") and e.context:
            out.extend(_leaves(_branch(e, body), body))
        else:
            out.append(e)
    # a failed branch leaves its properties unevaluated: an "unexpected key" then is an echo of
    # the real error, told only when it is the only one
    real = [e for e in out if e.validator != "unevaluatedProperties"]
    out = real or out
    out.sort(key=lambda e: (e.validator != "required", -len(e.absolute_path)))
    return out or errors


def _branch(e: ValidationError, body: dict) -> list[ValidationError]:
    by_branch: dict[int, list[ValidationError]] = {}
    for sub in e.context or []:
        by_branch.setdefault(sub.schema_path[0], []).append(sub)
    path = list(e.absolute_path)
    if path and path[-1] == "action":
        kind = body.get("interactive", {}).get("type")
        if kind in _ACTION_BRANCH:
            return by_branch.get(_ACTION_BRANCH[kind], [])
    def missing(subs: list[ValidationError]) -> int:
        return sum(s.validator == "required" and s.path == e.path for s in subs)
    return min(by_branch.values(), key=lambda subs: (missing(subs), len(subs)))


def _graph_error(e: ValidationError) -> GraphError:
    where = _param(list(e.absolute_path))
    name = next((str(p) for p in reversed(e.absolute_path) if isinstance(p, str)), "")
    if e.validator == "required":
        field = str(e.message).split("'")[1] if "'" in e.message else "?"
        param = f"{where}[{field!r}]".replace("'", '"') if where else field
        return GraphError(131008, f"The parameter {param} is required.")
    if e.validator in ("additionalProperties", "unevaluatedProperties"):
        extra = sorted(set(e.instance) - set(e.schema.get("properties", {})))
        key = extra[0] if extra else str(e.message)
        return GraphError(100, f'Unexpected key "{key}" on param "{where or "message"}".')
    if e.validator == "maxItems":
        return invalid(_count_details(name, e.validator_value))
    if e.validator == "minItems":
        return invalid(f"{name}: at least {e.validator_value} required")
    if e.validator in ("maxLength", "minLength"):
        label = _LENGTHS.get(name, name)
        owner = _owner(list(e.absolute_path))
        return invalid(f"{owner}{label} length invalid. Min length: 1, "
                       f"Max length: {e.schema.get('maxLength', '?')}")
    if e.validator == "enum":
        return invalid(f"Param {where} must be one of {e.validator_value}")
    if e.validator == "type":
        return GraphError(100, f"Param {where} must be a {e.validator_value}")
    return invalid(f"Param {where}: {e.message}")


def _count_details(name: str, limit: int) -> str:
    if name == "buttons":
        return f"Invalid buttons count. Min allowed buttons: 1, Max allowed buttons: {limit}"
    if name == "rows":
        return f"Invalid rows count. Max allowed rows: {limit}"
    if name == "sections":
        return f"Invalid sections count. Max allowed sections: {limit}"
    return f"Too many {name}: at most {limit}"


def _owner(path: list) -> str:
    if "buttons" in path:
        return "Button "
    if "rows" in path:
        return "Row "
    if "sections" in path:
        return "Section "
    if "header" in path:
        return "Header "
    if "footer" in path:
        return "Footer "
    if "body" in path:
        return "Body "
    return ""


def _param(path: list) -> str:
    if not path:
        return ""
    head, *rest = path
    return str(head) + "".join(f"[{p}]" if isinstance(p, int) else f'["{p}"]' for p in rest)


def _check_interactive(interactive: dict) -> None:
    kind, action = interactive["type"], interactive["action"]
    if kind != "product" and "body" not in interactive:
        raise GraphError(131008, 'The parameter interactive["body"] is required.')
    if kind == "button":
        titles = [b["reply"]["title"] for b in action["buttons"]]
        ids = [b["reply"]["id"] for b in action["buttons"]]
        if any(not t.strip() for t in titles):
            raise invalid("Button title length invalid. Min length: 1, Max length: 20")
        if len(set(titles)) != len(titles):
            raise invalid("Button title is not unique: every reply button needs its own title")
        if len(set(ids)) != len(ids) or any(i != i.strip() or not i for i in ids):
            raise invalid("Button id is not unique, empty or has leading/trailing spaces")
    elif kind == "list":
        sections = action["sections"]
        rows = [r for s in sections for r in s.get("rows", [])]
        if not rows or any("rows" not in s for s in sections):
            raise GraphError(131008, 'The parameter interactive["action"]["sections"][0]'
                             '["rows"] is required.')
        if len(rows) > MAX_LIST_ROWS:
            raise invalid(f"Total row count exceed max allowed count: {MAX_LIST_ROWS}")
        if len(sections) > 1 and any(not s.get("title") for s in sections):
            raise GraphError(131008, "Section title is required when there are several sections")
        if len({r["id"] for r in rows}) != len(rows):
            raise invalid("Row id is not unique")
        if not action["button"].strip():
            raise invalid("Button title length invalid. Min length: 1, Max length: 20")
    elif kind == "location_request_message" and action.get("name") != "send_location":
        raise invalid('Param interactive["action"]["name"] must be send_location')
