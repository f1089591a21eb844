"""Text as Telegram reads it: parse_mode (HTML validated, MarkdownV2 checked for unescaped
reserved characters) rendered to the plain text the user sees, and lengths in UTF-16 code
units, which is how Telegram counts its limits."""
from __future__ import annotations

import re
from html.parser import HTMLParser

from sandbox.standin.botapi.errors import bad

_HTML_TAGS = frozenset(
    {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a",
     "code", "pre", "blockquote", "tg-emoji"}
)


class _TelegramHtml(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag not in _HTML_TAGS:
            raise bad(f'can\'t parse entities: Unsupported start tag "{tag}"')
        self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        raise bad(f'can\'t parse entities: Unsupported start tag "{tag}"')

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            raise bad(f'can\'t parse entities: Unmatched end tag "{tag}"')
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.out.append(data)


_MDV2_RESERVED = set("_*[]()~`>#+-=|{}.!")


def render(text: str, parse_mode: str | None) -> str:
    """The plain text Telegram shows for `text` in `parse_mode`; 400 if it cannot parse."""
    mode = (parse_mode or "").lower()
    if mode == "html":
        parser = _TelegramHtml()
        parser.feed(text)
        parser.close()
        if parser.stack:
            raise bad(
                f'can\'t parse entities: Can\'t find end tag corresponding to start tag '
                f'"{parser.stack[-1]}"'
            )
        return "".join(parser.out)
    if mode == "markdownv2":
        return _render_markdown_v2(text)
    return text


def _render_markdown_v2(text: str) -> str:
    out, i, in_code, in_url = [], 0, False, False
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if ch == "`":
            in_code = not in_code
        elif in_code:
            out.append(ch)
        elif ch == "]" and text[i + 1 : i + 2] == "(":
            in_url = True
            i += 1
        elif in_url:
            in_url = ch != ")"
        elif ch in "#+-={}.!":
            raise bad(
                f"can't parse entities: Character '{ch}' is reserved and must be escaped "
                f"with the preceding '\\'"
            )
        elif ch not in _MDV2_RESERVED:
            out.append(ch)
        i += 1
    return "".join(out)


def utf16_len(s: str) -> int:
    """Length in UTF-16 code units (an emoji outside the BMP counts 2), as Telegram counts."""
    return len(s.encode("utf-16-le")) // 2


_COMMAND_RE = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{5,32})?")


def command_entities(text: str) -> list[dict]:
    return [
        {"type": "bot_command", "offset": utf16_len(text[: m.start()]),
         "length": utf16_len(m.group())}
        for m in _COMMAND_RE.finditer(text)
    ]
