"""An upload costs bounded memory: an image just under the pixel limit that would take 200 MB
once decoded (a ~160 KB PNG of 7070 × 7070) is refused by that memory, never decoded; a 48 MP
phone JPEG is decoded already reduced (its public copy is at most 2560 pixels on a side); and
uploads arriving together are decoded one at a time. Memory is measured as the peak resident
size of a separate Python process, which sees Pillow's own allocations."""
from __future__ import annotations

import functools
import io
import os
import struct
import subprocess
import sys
import zlib

import pytest
from PIL import Image

from core import media
from core.services.cases.evidence import store_upload
from core.storage.evidence import PUBLIC_SIDE
from tests.support.hostile_media import png_chunk

MB = 1024 * 1024


@functools.lru_cache(maxsize=2)
def heavy_png(side: int = 7070) -> bytes:
    """A valid RGB PNG of side × side (49.98 megapixels: under the limit), built row by row."""
    z = zlib.compressobj(9)
    row = bytes(side * 3 + 1)
    idat = b"".join(z.compress(row) for _ in range(side)) + z.flush()
    ihdr = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", idat)
            + png_chunk(b"IEND", b""))


@functools.lru_cache(maxsize=1)
def phone_jpeg() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8000, 6000), (90, 120, 30)).save(buf, "JPEG", quality=70)
    return buf.getvalue()


PROBE = """
import resource, sys, threading
from core.storage.evidence import strip_metadata
files = [open(p, 'rb').read() for p in sys.argv[1:]]
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
out = []
def run(data):
    try:
        out.append(len(strip_metadata(data)[0]))
    except Exception as exc:
        out.append(type(exc).__name__)
threads = [threading.Thread(target=run, args=(d,)) for d in files]
[t.start() for t in threads]
[t.join() for t in threads]
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) * 1024, *out)
"""


def _peak(tmp_path, *blobs: bytes) -> tuple[int, list[str]]:
    """The growth of a fresh process's peak memory while it makes the public copies."""
    paths = []
    for i, blob in enumerate(blobs):
        path = tmp_path / f"upload-{i}"
        path.write_bytes(blob)
        paths.append(str(path))
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    done = subprocess.run([sys.executable, "-c", PROBE, *paths], capture_output=True,
                          text=True, env=env, timeout=120, check=True)
    grown, *results = done.stdout.split()
    return int(grown), results


def test_an_image_heavy_in_memory_is_refused_with_a_clear_reason_before_decoding(tmp_path):
    data = heavy_png()
    assert len(data) < 300 * 1024 and media.MAX_PIXELS > 7070 * 7070
    with pytest.raises(media.MediaRefused) as refused:
        media.identify(data)
    assert "grande demais (7070 × 7070 pixels)" in refused.value.message
    assert "64 MB" in refused.value.message and "JPEG" in refused.value.message
    grown, results = _peak(tmp_path, data)
    assert results == ["UnsupportedMedia"] and grown < 20 * MB  # never decoded (~200 MB)


def test_a_phone_photo_is_decoded_reduced(tmp_path):
    """A 48 MP JPEG is decoded at half scale: well under what one full decode took before
    (~370 MB with its copy)."""
    data = phone_jpeg()
    assert media.identify(data).width == 8000
    grown, results = _peak(tmp_path, data)
    assert len(results) == 1 and results[0].isdigit()
    assert grown < 150 * MB, grown // MB


def test_uploads_arriving_together_are_decoded_one_at_a_time(tmp_path):
    """Three 16 MP PNGs (each just under the memory bound) at once: the peak is about one
    decode's (~125 MB), not three (~370 MB)."""
    data = heavy_png(4000)
    assert not media.identify(data).heavy
    grown, results = _peak(tmp_path, data, data, data)
    assert len(results) == 3 and all(r.isdigit() for r in results)
    assert grown < 200 * MB, grown // MB


async def test_the_public_copy_is_at_most_the_public_side(core):
    stored = await store_upload(core, phone_jpeg())
    copy = core.evidence.public_copy(stored.sha256)
    with Image.open(io.BytesIO(copy.data)) as img:
        assert max(img.size) == PUBLIC_SIDE and img.size == (2560, 1920)
    assert len(core.evidence.get(stored.sha256)) == len(phone_jpeg())  # the original kept
    with pytest.raises(media.MediaRefused, match="64 MB"):
        await store_upload(core, heavy_png())
