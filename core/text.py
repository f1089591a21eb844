"""Text as the database can keep it.

PostgreSQL refuses U+0000 in text and in jsonb (``\\u0000``), and no UTF-8 database takes a
lone surrogate (U+D800–U+DFFF without its pair, which JSON's ``\\ud800`` escapes can carry).
One such character in a typed answer or in a Telegram first name made that step, or every
report of that person, fail for good. Whatever people type or are called is cleaned with
`clean_text` (`clean_data` for a draft or any JSON-like value) before it is stored: NUL is
dropped, a lone surrogate becomes U+FFFD (the replacement character). The other characters
XML 1.0 cannot carry (C0 controls but tab and line breaks, U+FFFE, U+FFFF) are dropped too:
one in an address made the public Open311 requests.xml unparseable for every client.
Everything else is kept as it was, emoji and accents included.
"""
from __future__ import annotations

import re
from typing import Any

_REFUSED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
REPLACEMENT = "\ufffd"


def clean_text(text: str) -> str:
    """`text` without the characters the database refuses (see the module doc)."""
    if not _REFUSED.search(text):
        return text
    return _REFUSED.sub(lambda m: REPLACEMENT if "\ud800" <= m.group() <= "\udfff" else "",
                        text)


def clean_optional(text: str | None) -> str | None:
    return None if text is None else clean_text(text)


def clean_data(value: Any) -> Any:
    """`value` (dicts, lists, strings, numbers… as JSON holds them) with every string, keys
    included, cleaned by `clean_text`. Returns the same object when nothing needed cleaning."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        out = {clean_data(k): clean_data(v) for k, v in value.items()}
        return value if _same(out.items(), value.items()) else out
    if isinstance(value, (list, tuple)):
        out = [clean_data(v) for v in value]
        if all(a is b for a, b in zip(out, value)):
            return value
        return type(value)(out) if isinstance(value, tuple) else out
    return value


def _same(new, old) -> bool:
    return all(k1 is k2 and v1 is v2 for (k1, v1), (k2, v2) in zip(new, old))
