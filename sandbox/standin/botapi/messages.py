"""The bot's own methods: identity and commands, sending, editing and deleting messages."""
from __future__ import annotations

import re
import time
from typing import Any

from sandbox.standin.botapi.errors import ApiError, bad
from sandbox.standin.botapi.formatting import render
from sandbox.standin.botapi.values import BotMessage, User, chat_id_of, commands_key


class MessagesMixin:
    """The Bot API methods of the bot's identity, commands and messages."""

    async def _m_getme(self, params: dict, files: dict) -> dict:
        return self.me

    async def _m_setmycommands(self, params: dict, files: dict) -> bool:
        commands = params.get("commands")
        if len(commands) > 100:
            raise bad("too many commands")
        for c in commands:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", str(c.get("command", ""))):
                raise bad("BOT_COMMAND_INVALID")
            if not 1 <= len(str(c.get("description", ""))) <= 256:
                raise bad("command description is empty")
        key = commands_key(params.get("scope"), params.get("language_code") or "")
        self.commands[key] = commands
        return True

    async def _m_getmycommands(self, params: dict, files: dict) -> list[dict]:
        return self.my_commands(params.get("scope"), params.get("language_code") or "")

    async def _m_deletemycommands(self, params: dict, files: dict) -> bool:
        self.commands.pop(commands_key(params.get("scope"), params.get("language_code") or ""),
                          None)
        return True

    async def _m_getchat(self, params: dict, files: dict) -> dict:
        user = self._user_for(params)
        return {**user.chat(), "accent_color_id": 0, "max_reaction_count": 11}

    async def _m_sendchataction(self, params: dict, files: dict) -> bool:
        self._user_for(params)
        return True

    async def _m_answercallbackquery(self, params: dict, files: dict) -> bool:
        qid = str(params.get("callback_query_id"))
        if self._callback_queries.get(qid) is not False:
            raise bad("query is too old and response timeout expired or query ID is invalid")
        self._callback_queries[qid] = True
        return True

    # ------------------------------------------------------------ sending

    async def _m_sendmessage(self, params: dict, files: dict) -> dict:
        user = self._user_for(params)
        text = str(params.get("text") or "")
        plain = render(text, params.get("parse_mode"))  # limits checked in limits.py
        return self._store_sent(user, "sendMessage", params, {"text": plain})

    async def _m_sendphoto(self, params: dict, files: dict) -> dict:
        user = self._user_for(params)
        content = self._caption(params)
        content["photo"] = self._media_param(params, files, "photo")
        return self._store_sent(user, "sendPhoto", params, content)

    async def _m_senddocument(self, params: dict, files: dict) -> dict:
        return await self._send_file_kind(params, files, "document")

    async def _m_sendvideo(self, params: dict, files: dict) -> dict:
        return await self._send_file_kind(params, files, "video")

    async def _m_sendanimation(self, params: dict, files: dict) -> dict:
        return await self._send_file_kind(params, files, "animation")

    async def _m_sendaudio(self, params: dict, files: dict) -> dict:
        return await self._send_file_kind(params, files, "audio")

    async def _m_sendvoice(self, params: dict, files: dict) -> dict:
        return await self._send_file_kind(params, files, "voice")

    async def _m_sendsticker(self, params: dict, files: dict) -> dict:
        return await self._send_file_kind(params, files, "sticker")

    async def _send_file_kind(self, params: dict, files: dict, kind: str) -> dict:
        user = self._user_for(params)
        content = self._caption(params) if kind != "sticker" else {}
        content[kind] = self._media_param(params, files, kind)
        return self._store_sent(user, f"send{kind.capitalize()}", params, content)

    async def _m_sendmediagroup(self, params: dict, files: dict) -> list[dict]:
        user = self._user_for(params)
        media = params["media"]  # 2-10 items: limits.py
        group = str(13_500_000_000_000_000 + next(self._ids))
        results = []
        for item in media:
            kind = item.get("type", "photo")
            ref = item.get("media", "")
            part = {"media": ref}
            content = self._caption(item)
            content[kind] = self._media_param(part, files, "media", kind=kind)
            content["media_group_id"] = group
            item_params = {"chat_id": params.get("chat_id"), **item}
            results.append(self._store_sent(user, "sendMediaGroup", item_params, content))
        return results

    async def _m_sendlocation(self, params: dict, files: dict) -> dict:
        user = self._user_for(params)
        loc = location_of(params)
        return self._store_sent(user, "sendLocation", params, {"location": loc})

    async def _m_sendvenue(self, params: dict, files: dict) -> dict:
        user = self._user_for(params)
        loc = location_of(params)
        venue = {"location": loc, "title": str(params.get("title") or ""),
                 "address": str(params.get("address") or "")}
        if not venue["title"] or not venue["address"]:
            raise bad("title and address must be non-empty")
        return self._store_sent(user, "sendVenue", params, {"venue": venue, "location": loc})

    async def _m_sendcontact(self, params: dict, files: dict) -> dict:
        user = self._user_for(params)
        contact = {"phone_number": str(params.get("phone_number") or ""),
                   "first_name": str(params.get("first_name") or "")}
        return self._store_sent(user, "sendContact", params, {"contact": contact})

    # ------------------------------------------------------------ editing / deleting

    async def _m_editmessagetext(self, params: dict, files: dict) -> Any:
        msg = self._editable(params)
        if "text" not in msg.raw:
            raise bad("there is no text in the message to edit")
        plain = render(str(params.get("text") or ""), params.get("parse_mode"))
        return self._apply_edit(msg, "text", plain, params)

    async def _m_editmessagecaption(self, params: dict, files: dict) -> Any:
        msg = self._editable(params)
        caption = self._caption(params).get("caption")
        return self._apply_edit(msg, "caption", caption, params)

    async def _m_editmessagereplymarkup(self, params: dict, files: dict) -> Any:
        msg = self._editable(params)
        return self._apply_edit(msg, None, None, params)

    async def _m_deletemessage(self, params: dict, files: dict) -> bool:
        key = (chat_id_of(params.get("chat_id")), int(params.get("message_id") or 0))
        msg = self._messages.get(key)
        if key in self._user_messages:
            del self._user_messages[key]
            return True
        if msg is None or msg.deleted:
            raise bad("message to delete not found")
        msg.deleted = True
        return True

    def _editable(self, params: dict) -> BotMessage:
        if params.get("inline_message_id"):
            raise bad("inline messages are not supported by the stand-in")
        key = (chat_id_of(params.get("chat_id")), int(params.get("message_id") or 0))
        msg = self._messages.get(key)
        if msg is None or msg.deleted:
            raise bad("message to edit not found")
        return msg

    def _apply_edit(self, msg: BotMessage, key: str | None, value: Any, params: dict) -> dict:
        markup = params.get("reply_markup")
        if markup is not None and "inline_keyboard" not in markup:
            raise bad("inline keyboard expected")
        same_content = key is None or msg.raw.get(key) == value
        if same_content and msg.raw.get("reply_markup") == (markup or None):
            raise bad("message is not modified: specified new message content and reply "
                       "markup are exactly the same as a current content and reply markup "
                       "of the message")
        if key is not None:
            if value is None:
                msg.raw.pop(key, None)
            else:
                msg.raw[key] = value
        msg.reply_markup = markup
        if markup:
            msg.raw["reply_markup"] = markup
        else:
            msg.raw.pop("reply_markup", None)
        msg.raw["edit_date"] = int(time.time())
        msg.edits += 1
        return dict(msg.raw)

    # ------------------------------------------------------------ helpers

    def _user_for(self, params: dict) -> User:
        raw = params.get("chat_id")
        if raw is None or raw == "":
            raise bad("chat_id is empty")
        cid = chat_id_of(raw)
        if cid in self.blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        user = self._users.get(cid)
        if user is None:
            raise bad("chat not found")
        return user

    def _caption(self, params: dict) -> dict:
        caption = params.get("caption")
        if caption is None or caption == "":
            return {}
        return {"caption": render(str(caption), params.get("parse_mode"))}

    def _new_message_id(self, chat_id: int) -> int:
        n = self._next_message_id.get(chat_id, 1)
        self._next_message_id[chat_id] = n + 1
        return n

    def _store_sent(self, user: User, method: str, params: dict, content: dict) -> dict:
        markup = params.get("reply_markup")
        mid = self._new_message_id(user.id)
        raw: dict[str, Any] = {"message_id": mid, "from": self.me, "chat": user.chat(),
                               "date": int(time.time()), **content}
        reply_to = params.get("reply_to_message_id") or (
            (params.get("reply_parameters") or {}).get("message_id"))
        if reply_to:
            raw["reply_to_message"] = self._find_raw(user.id, int(reply_to))
        if markup and "inline_keyboard" in markup:
            raw["reply_markup"] = markup
        if markup and ("keyboard" in markup or markup.get("remove_keyboard")):
            self._reply_keyboard[user.id] = markup if "keyboard" in markup else None
        self._messages[(user.id, mid)] = BotMessage(user.id, mid, method, raw, markup)
        return dict(raw)


def location_of(params: dict) -> dict:
    try:
        lat, lon = float(params["latitude"]), float(params["longitude"])
    except (KeyError, TypeError, ValueError):
        raise bad("latitude and longitude are required") from None
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise bad("wrong latitude/longitude")
    return {"latitude": lat, "longitude": lon}
