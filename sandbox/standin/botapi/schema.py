"""Every call checked against Telegram's published Bot API, as Telegram checks it.

The reference is ``sandbox/standin/spec/botapi-spec.json`` (the Bot API page in machine-readable
form, MIT, see ``LICENSE-botapi-spec`` beside it): every method and type, each field's types
and whether it is required. ``check_call`` answers what Telegram answers for:

- a method Telegram does not know: 404 "Not Found" (method names are case-insensitive);
- a required parameter or field missing, at any depth (an InputMediaPhoto without ``media``,
  an InlineKeyboardButton without ``text``);
- a value of the wrong type: String, Integer, Float, Boolean, "Array of X", objects, and unions
  ("Integer or String", a reply_markup that is one of four keyboards, an album item that is one
  of the InputMedia types, told apart by ``type``);
- an ``attach://name`` that names no uploaded multipart part;
- an object that must use exactly one of its optional fields (InlineKeyboardButton).

Values are decoded as Telegram decodes them: every top-level parameter of a form or query
string arrives as text (numbers and booleans parsed, objects and arrays JSON-serialized);
nested values are JSON. The decoded parameters are what the stand-in's methods then see.
"""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from sandbox.standin.botapi.errors import bad, not_found

SPEC_PATH = Path(__file__).resolve().parent.parent / "spec" / "botapi-spec.json"

_INT_RE = re.compile(r"[+-]?\d+")
_BOOLEANS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
_SCALARS = ("Integer", "Float", "Boolean", "String", "InputFile")
# How Telegram names the object being parsed in its error descriptions.
_LABELS = {
    "InlineKeyboardButton": "inline keyboard button",
    "KeyboardButton": "keyboard button",
    "InlineKeyboardMarkup": "reply keyboard markup",
    "ReplyKeyboardMarkup": "reply keyboard markup",
    "ReplyKeyboardRemove": "reply keyboard markup",
    "ForceReply": "reply keyboard markup",
}
_PARAM_LABELS = {"reply_markup": "reply keyboard markup", "media": "input media"}
_MUST_BE = re.compile(r"\bmust be ([a-z][a-z_]*)\b")
_EXACTLY_ONE_OTHER = re.compile(r"Exactly one of the fields other than (.+?) must be used")


class Spec:
    """The published Bot API: methods (by lower-case name) and types."""

    def __init__(self, data: dict) -> None:
        self.version = data.get("version", "")
        self.methods = {name.lower(): m for name, m in data["methods"].items()}
        self.types: dict[str, dict] = data["types"]

    @functools.cache  # noqa: B019 (one spec per process)
    def concrete(self, name: str) -> tuple[str, ...]:
        """An abstract type (InputMedia, BotCommandScope) as the concrete types it may be."""
        t = self.types[name]
        if t.get("fields") or not t.get("subtypes"):
            return (name,)
        return tuple(c for sub in t["subtypes"] for c in self.concrete(sub))

    @functools.cache  # noqa: B019 (one spec per process)
    def discriminator(self, name: str) -> str | None:
        """The value its ``type`` field must have ("photo" for InputMediaPhoto), if any."""
        for f in self.types[name].get("fields", []):
            if f["name"] == "type" and (m := _MUST_BE.search(f["description"])):
                return m.group(1) if m.group(1) != "one" else None
        return None

    @functools.cache  # noqa: B019 (one spec per process)
    def exactly_one_of(self, name: str) -> tuple[str, ...]:
        """The fields of which exactly one must be used, when the type's description says so."""
        t = self.types[name]
        text = " ".join(t.get("description", []))
        optional = [f["name"] for f in t.get("fields", []) if not f["required"]]
        if m := _EXACTLY_ONE_OTHER.search(text):
            others = {w for w in re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group(1)) if w}
            return tuple(n for n in optional if n not in others)
        if "exactly one of the optional fields" in text.lower():
            return tuple(optional)
        return ()


@functools.cache
def spec() -> Spec:
    return Spec(json.loads(SPEC_PATH.read_text(encoding="utf-8")))


def check_call(method: str, params: dict, files: dict) -> tuple[str, dict]:
    """(the method's published name, its parameters decoded as Telegram reads them), or the
    ApiError Telegram answers. Parameters the Bot API does not define are kept as given (Telegram
    ignores them)."""
    m = spec().methods.get(method.lower())
    if m is None:
        raise not_found()
    out = dict(params)
    for f in m.get("fields", []):
        name, types = f["name"], f["types"]
        value = params.get(name)
        if value is None or (value == "" and "String" not in types):
            out.pop(name, None)
            if f["required"] and not (name in files and "InputFile" in types):
                raise _missing_parameter(m["name"], name)
            continue
        out[name] = _parameter(name, value, types, files)
    return m["name"], out


def _missing_parameter(method: str, name: str):
    if name == "chat_id":
        return bad("chat_id is empty")
    if name == "text" and method in ("sendMessage", "editMessageText"):
        return bad("message text is empty")
    return bad(f'parameter "{name}" is required')


def _parameter(name: str, value: Any, types: list[str], files: dict) -> Any:
    """A top-level parameter: text from a form, or a JSON body's value."""
    structured = [t for t in types if t not in _SCALARS]
    if isinstance(value, str) and structured and not _scalar_from_text(value, types, files):
        try:
            value = json.loads(value)
        except ValueError:
            raise bad(f"can't parse {_PARAM_LABELS.get(name, name)} JSON object") from None
        if not isinstance(value, (dict, list)):
            raise bad(f"can't parse {_PARAM_LABELS.get(name, name)} JSON object")
    if isinstance(value, str):
        decoded = _scalar_from_text(value, types, files)
        if decoded is None:
            raise bad(f'parameter "{name}" must be of type {_type_names(types)}')
        return decoded[0]
    if isinstance(value, (dict, list)):
        if not structured:
            raise bad(f'parameter "{name}" must be of type {_type_names(types)}')
        return _value(value, structured, name, None, files)
    return _value(value, types, name, None, files)  # a JSON body's number or boolean


def _scalar_from_text(text: str, types: list[str], files: dict) -> tuple[Any] | None:
    """Decode a form value as the first scalar type it can be, as Telegram does; None if none."""
    for t in types:
        if t == "Integer" and _INT_RE.fullmatch(text.strip()):
            return (int(text),)
        if t == "Float":
            try:
                return (float(text),)
            except ValueError:
                pass
        if t == "Boolean" and text.strip().lower() in _BOOLEANS:
            return (_BOOLEANS[text.strip().lower()],)
        if t == "InputFile" and text.startswith("attach://"):
            _attached(text, files, None)
            return (text,)
        if t == "String":
            return (text,)
    return None


def _value(value: Any, types: list[str], field: str, label: str | None, files: dict) -> Any:
    """A JSON value checked against the field's types (any one of them)."""
    arrays = [t[len("Array of "):] for t in types if t.startswith("Array of ")]
    objects = [t for t in types if t not in _SCALARS and not t.startswith("Array of ")]
    if isinstance(value, list) and arrays:
        return [_value(item, arrays, field, label, files) for item in value]
    if isinstance(value, dict) and objects:
        return _object(value, objects, files)
    if isinstance(value, str) and "KeyboardButton" in objects:
        return value  # "String can be used instead of this object to specify the button text"
    for t in types:
        if t == "Integer" and isinstance(value, int) and not isinstance(value, bool):
            return value
        if t == "Float" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if t == "Boolean" and isinstance(value, bool):
            return value
        if t in ("String", "InputFile") and isinstance(value, str):
            if value.startswith("attach://") and ("InputFile" in types or field == "media"):
                _attached(value, files, label)
            return value
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    for t in types:  # the Bot API server reads a number as text and text as a number
        if t == "String" and number:
            return str(value)
        if t == "Integer" and isinstance(value, str) and _INT_RE.fullmatch(value.strip()):
            return int(value)
        if t == "Float" and isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
    expected = _type_names(types)
    if label is None:
        raise bad(f'parameter "{field}" must be of type {expected}')
    raise bad(f'can\'t parse {label}: Field "{field}" must be of type {expected}')


def _object(value: dict, type_names: list[str], files: dict) -> dict:
    """A JSON object that must be one of `type_names` (abstract types expanded)."""
    s = spec()
    candidates = [c for t in type_names for c in s.concrete(t)]
    label = _label(candidates[0])
    if len(candidates) > 1 and all(s.discriminator(c) for c in candidates):
        kind = value.get("type")
        if kind is None:
            raise bad(f'can\'t parse {label}: Can\'t find field "type"')
        by_kind = {s.discriminator(c): c for c in candidates}
        if kind not in by_kind:
            raise bad(f'can\'t parse {label}: type "{kind}" is unsupported')
        return _fields(value, by_kind[kind], files)
    if len(candidates) > 1:  # e.g. reply_markup: the keyboard whose required fields are there

        def present(c: str) -> int:
            required = [f["name"] for f in s.types[c].get("fields", []) if f["required"]]
            return sum(value.get(n) is not None for n in required) - len(required)

        candidates.sort(key=present, reverse=True)
    return _fields(value, candidates[0], files)


def _fields(value: dict, type_name: str, files: dict) -> dict:
    s = spec()
    label = _label(type_name)
    kind = s.discriminator(type_name)
    if kind is not None and value.get("type") not in (None, kind):
        raise bad(f'can\'t parse {label}: type "{value.get("type")}" is unsupported')
    out = dict(value)
    for f in s.types[type_name].get("fields", []):
        name = f["name"]
        if value.get(name) is None:
            if f["required"]:
                if label == "InputMedia" and name == "media":
                    raise bad("can't parse InputMedia: media not found")
                raise bad(f'can\'t parse {label}: Can\'t find field "{name}"')
            continue
        out[name] = _value(value[name], f["types"], name, label, files)
    one_of = s.exactly_one_of(type_name)
    if one_of:
        used = [n for n in one_of if value.get(n) is not None]
        if not used and type_name == "InlineKeyboardButton":
            raise bad("can't parse inline keyboard button: Text buttons are unallowed in the "
                      "inline keyboard")
        if len(used) != 1:
            raise bad(f"can't parse {label}: exactly one of the fields {', '.join(one_of)} "
                      f"must be used, not {len(used)}")
    return out


def _attached(ref: str, files: dict, label: str | None) -> None:
    """An attach://name must name an uploaded multipart part."""
    if ref[len("attach://"):] in files:
        return
    if label == "InputMedia":
        raise bad("can't parse InputMedia: media not found")
    raise bad(f'can\'t find attached file "{ref}"')


def _label(type_name: str) -> str:
    if type_name.startswith("InputMedia"):
        return "InputMedia"
    return _LABELS.get(type_name, type_name)


def _type_names(types: list[str]) -> str:
    return " or ".join(types)
