"""Injecting updates as Telegram would deliver them: messages, photos and albums, documents,
locations, button presses."""
from __future__ import annotations

import time
from typing import Any

from sandbox.standin.botapi.errors import bad
from sandbox.standin.botapi.files import ext_of, file_fields
from sandbox.standin.botapi.formatting import command_entities, utf16_len
from sandbox.standin.botapi.values import BotMessage, Call, Pending, User


class InjectMixin:
    """What a test does as a Telegram user: updates injected as Telegram delivers them."""

    def add_user(self, user: User) -> None:
        """Make a user known (as if they had started the bot earlier) without an update."""
        self._users[user.id] = user

    async def inject(self, update: dict) -> dict:
        """Deliver a raw update dict (kept as is; an update_id is added if missing).

        Injecting the same dict twice re-delivers the same update_id."""
        if "update_id" not in update:
            update["update_id"] = self._next_update_id
        self._next_update_id = max(self._next_update_id, update["update_id"] + 1)
        self._mark = len(self.calls)
        if self.webhook is not None:
            await self._deliver_webhook(update)
        else:
            self._pending.append(Pending(update))
            self._wake_pollers()
        return update

    async def send_text(self, user: User, text: str, *, update_id: int | None = None,
                        reply_to: int | None = None) -> dict:
        content: dict[str, Any] = {"text": text}
        entities = command_entities(text)
        if entities:
            content["entities"] = entities
        if reply_to is not None:
            content["reply_to_message"] = self._find_raw(user.id, reply_to)
        return await self._inject_message(user, content, update_id)

    async def send_command(self, user: User, command: str, args: str | list[str] | None = None,
                           *, update_id: int | None = None) -> dict:
        command = command if command.startswith("/") else f"/{command}"
        if isinstance(args, (list, tuple)):
            args = " ".join(args)
        text = f"{command} {args}" if args else command
        content = {
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": utf16_len(command)}],
        }
        return await self._inject_message(user, content, update_id)

    async def send_photo(self, user: User, image: bytes, caption: str | None = None,
                         media_group_id: str | None = None, *,
                         update_id: int | None = None) -> dict:
        content: dict[str, Any] = {"photo": self._photo_sizes(image)}
        if caption is not None:
            content["caption"] = caption
        if media_group_id is not None:
            content["media_group_id"] = media_group_id
        return await self._inject_message(user, content, update_id)

    async def send_album(self, user: User, images: list[bytes],
                         caption: str | None = None) -> list[dict]:
        """2–10 photos sharing one media_group_id, each its own update (caption on the first)."""
        group = str(13_000_000_000_000_000 + next(self._ids))
        return [
            await self.send_photo(user, img, caption if i == 0 else None, media_group_id=group)
            for i, img in enumerate(images)
        ]

    async def send_document(self, user: User, data: bytes, file_name: str,
                            mime_type: str = "application/octet-stream",
                            caption: str | None = None, *,
                            update_id: int | None = None) -> dict:
        f = self._register_file(data, "documents", ext_of(file_name), mime_type, file_name)
        doc = {"file_name": file_name, "mime_type": mime_type, **file_fields(f)}
        content: dict[str, Any] = {"document": doc}
        if caption is not None:
            content["caption"] = caption
        return await self._inject_message(user, content, update_id)

    async def send_video(self, user: User, data: bytes, *, duration: int = 5,
                         width: int = 1280, height: int = 720, caption: str | None = None,
                         update_id: int | None = None) -> dict:
        f = self._register_file(data, "videos", ".mp4", "video/mp4", "video.mp4")
        video = {"duration": duration, "width": width, "height": height,
                 "file_name": "video.mp4", "mime_type": "video/mp4", **file_fields(f)}
        content: dict[str, Any] = {"video": video}
        if caption is not None:
            content["caption"] = caption
        return await self._inject_message(user, content, update_id)

    async def send_sticker(self, user: User, data: bytes = b"RIFF\x00\x00\x00\x00WEBP",
                           emoji: str = "👍", *, update_id: int | None = None) -> dict:
        f = self._register_file(data, "stickers", ".webp", "image/webp")
        sticker = {"width": 512, "height": 512, "emoji": emoji, "set_name": "StandInStickers",
                   "is_animated": False, "is_video": False, "type": "regular", **file_fields(f)}
        return await self._inject_message(user, {"sticker": sticker}, update_id)

    async def send_location(self, user: User, latitude: float, longitude: float, *,
                            horizontal_accuracy: float | None = None,
                            update_id: int | None = None) -> dict:
        loc: dict[str, Any] = {"latitude": latitude, "longitude": longitude}
        if horizontal_accuracy is not None:
            loc["horizontal_accuracy"] = horizontal_accuracy
        return await self._inject_message(user, {"location": loc}, update_id)

    async def press_button(self, user: User, message: BotMessage | Call | dict | int,
                           callback_data: str | None = None, *, text: str | None = None,
                           update_id: int | None = None, check: bool = True) -> dict:
        """The user taps an inline button of a bot message (by callback_data or button text).

        With check=True the button must exist on the message's current keyboard."""
        msg = self._resolve_message(user.id, message)
        buttons = [b for b in msg.flat_buttons() if b.callback_data is not None]
        if text is not None:
            found = [b for b in buttons if text in b.text]
            if not found:
                raise LookupError(f"no inline button with text {text!r}: {buttons}")
            callback_data = found[0].callback_data
        if check and not any(b.callback_data == callback_data for b in buttons):
            raise LookupError(f"no inline button with callback_data {callback_data!r}: {buttons}")
        query_id = str(4_000_000_000_000_000_000 + next(self._ids))
        self._callback_queries[query_id] = False
        update = {
            "callback_query": {
                "id": query_id, "from": user.to_dict(), "message": dict(msg.raw),
                "chat_instance": str(-(user.id * 7919 % 10**18)), "data": callback_data,
            }
        }
        if update_id is not None:
            update["update_id"] = update_id
        self._users.setdefault(user.id, user)
        return await self.inject(update)

    def _find_raw(self, chat_id: int, message_id: int) -> dict:
        if (chat_id, message_id) in self._user_messages:
            return self._user_messages[(chat_id, message_id)]
        msg = self._messages.get((chat_id, message_id))
        if msg is None:
            raise bad("message to be replied not found")
        return dict(msg.raw)

    def _resolve_message(self, chat_id: int, message: Any) -> BotMessage:
        if isinstance(message, (BotMessage, Call)):
            mid = message.message_id
        elif isinstance(message, dict):
            mid = message.get("message_id")
        else:
            mid = int(message)
        msg = self._messages.get((chat_id, mid))
        if msg is None or msg.deleted:
            raise LookupError(f"bot message {mid} not found (or deleted) in chat {chat_id}")
        return msg

    async def _inject_message(self, user: User, content: dict, update_id: int | None) -> dict:
        self._users.setdefault(user.id, user)
        if user.id in self.blocked:
            self.blocked.discard(user.id)  # writing to the bot again unblocks it
        mid = self._new_message_id(user.id)
        message = {"message_id": mid, "from": user.to_dict(), "chat": user.chat(),
                   "date": int(time.time()), **content}
        self._user_messages[(user.id, mid)] = message
        update: dict[str, Any] = {"message": message}
        if update_id is not None:
            update["update_id"] = update_id
        return await self.inject(update)
