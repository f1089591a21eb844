"""Files: uploads (multipart parts, attach:// names), file_ids and URLs, getFile and downloads,
Telegram-like PhotoSize arrays."""
from __future__ import annotations

import io
import re
from typing import Any

from sandbox.standin.botapi.errors import ApiError, bad
from sandbox.standin.botapi.limits import MAX_DOWNLOAD, MAX_PHOTO_UPLOAD, MAX_UPLOAD
from sandbox.standin.botapi.values import StoredFile


class FilesMixin:
    """getFile and the files the bot uploads or names."""

    async def _m_getfile(self, params: dict, files: dict) -> dict:
        f = self.files.get(str(params.get("file_id") or ""))
        if f is None:
            raise bad("invalid file_id")
        if len(f.data) > MAX_DOWNLOAD:
            raise bad("file is too big")
        return {"file_id": f.file_id, "file_unique_id": f.file_unique_id,
                "file_size": len(f.data), "file_path": f.file_path}

    def _register_file(self, data: bytes, folder: str, ext: str, mime: str | None = None,
                       name: str | None = None, source_url: str | None = None) -> StoredFile:
        n = next(self._ids)
        prefix = {"photos": "AgACAgEAAxkBAAI", "documents": "BQACAgEAAxkBAAI",
                  "videos": "BAACAgEAAxkBAAI", "stickers": "CAACAgEAAxkBAAI"}.get(
            folder, "CQACAgEAAxkBAAI")
        f = StoredFile(file_id=f"{prefix}{n:07d}StandIn", file_unique_id=f"AQAD{n:07d}",
                       data=data, file_path=f"{folder}/file_{n}{ext}", mime_type=mime,
                       file_name=name, source_url=source_url)
        self.files[f.file_id] = f
        return f

    def _photo_sizes(self, data: bytes) -> list[dict]:
        """Telegram-like PhotoSize array, smallest first; the last one holds the exact bytes."""
        image, (w, h) = None, (1280, 960)
        try:
            from PIL import Image

            image = Image.open(io.BytesIO(data))
            w, h = image.size
        except Exception:  # not an image Pillow can read: keep plausible sizes
            image = None
        sizes = []
        for side in (90, 320, 800):
            if max(w, h) <= side:
                break
            scale = side / max(w, h)
            tw, th = max(1, round(w * scale)), max(1, round(h * scale))
            thumb = data
            if image is not None:
                try:
                    buf = io.BytesIO()
                    image.convert("RGB").resize((tw, th)).save(buf, "JPEG", quality=80)
                    thumb = buf.getvalue()
                except Exception:
                    thumb = data
            f = self._register_file(thumb, "photos", ".jpg", "image/jpeg")
            sizes.append({**file_fields(f), "width": tw, "height": th})
        f = self._register_file(data, "photos", ".jpg", "image/jpeg")
        sizes.append({**file_fields(f), "width": w, "height": h})
        return sizes

    def _media_param(self, params: dict, files: dict, name: str, kind: str | None = None) -> Any:
        kind = kind or name
        ref = params.get(name)
        upload = files.get(name)
        if isinstance(ref, str) and ref.startswith("attach://"):
            upload = files.get(ref[len("attach://"):])
            if upload is None:
                raise bad(f"can't find attached file \"{ref}\"")
        limit = MAX_PHOTO_UPLOAD if kind == "photo" else MAX_UPLOAD
        if upload is not None:
            if len(upload.data) > limit:
                raise ApiError(413, "Request Entity Too Large")
            if kind == "photo":
                return self._photo_sizes(upload.data)
            folder = {"video": "videos", "sticker": "stickers"}.get(kind, "documents")
            f = self._register_file(upload.data, folder, ext_of(upload.filename or ""),
                                    upload.content_type, upload.filename)
        elif isinstance(ref, str) and ref in self.files:
            f = self.files[ref]
        elif isinstance(ref, str) and ref.startswith(("http://", "https://")):
            f = self._register_file(b"", "documents", ext_of(ref), None, None, source_url=ref)
        else:
            raise bad("wrong file identifier/HTTP URL specified")
        if kind == "photo":
            return [{**file_fields(f), "width": 1280, "height": 960}]
        out = file_fields(f)
        if f.file_name:
            out["file_name"] = f.file_name
        if f.mime_type:
            out["mime_type"] = f.mime_type
        return out


def file_fields(f: StoredFile) -> dict:
    return {"file_id": f.file_id, "file_unique_id": f.file_unique_id, "file_size": len(f.data)}


def ext_of(name: str) -> str:
    m = re.search(r"(\.[A-Za-z0-9]{1,5})$", name.split("?")[0])
    return m.group(1).lower() if m else ""
