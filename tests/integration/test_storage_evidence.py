"""Evidence files: stored once by content, never half-written; public copies carry no GPS."""
from __future__ import annotations

import hashlib
import io

import pytest
from PIL import Image

from core.storage.evidence import EvidenceStore, UnsupportedMedia

GPS_IFD = 0x8825


def _jpeg_with_gps() -> bytes:
    img = Image.new("RGB", (64, 48), (200, 30, 30))
    exif = Image.Exif()
    exif[0x010F] = "CameraMaker"  # Make
    exif[0x0112] = 6  # Orientation: rotate 90° to display
    exif[GPS_IFD] = {1: "S", 2: (19.0, 27.0, 38.0), 3: "W", 4: (45.0, 36.0, 1.0)}
    out = io.BytesIO()
    img.save(out, format="JPEG", exif=exif.tobytes())
    return out.getvalue()


def test_same_bytes_are_stored_once_under_their_hash(data_dir):
    store = EvidenceStore(data_dir)
    data = b"\xff\xd8 not really a photo"
    sha = store.put(data)
    assert sha == hashlib.sha256(data).hexdigest()
    assert store.put(data) == sha
    path = data_dir / "evidence" / sha[:2] / sha[2:4] / sha
    assert store.path_of(sha) == path and path.read_bytes() == data
    assert store.relative_path(sha) == f"evidence/{sha[:2]}/{sha[2:4]}/{sha}"
    files = [p for p in (data_dir / "evidence").rglob("*") if p.is_file()]
    assert files == [path]  # no temporary files left behind
    assert store.get(sha) == data


def test_corrupted_file_is_detected(data_dir):
    store = EvidenceStore(data_dir)
    sha = store.put(b"original")
    store.path_of(sha).write_bytes(b"tampered")
    with pytest.raises(ValueError):
        store.get(sha)


def test_public_copy_has_no_exif_or_gps_and_stays_upright(data_dir):
    store = EvidenceStore(data_dir)
    original = _jpeg_with_gps()
    assert Image.open(io.BytesIO(original)).getexif().get_ifd(GPS_IFD)  # the fixture has GPS
    sha, public = store.put_image(original)
    img = Image.open(io.BytesIO(public.data))
    assert public.mime == "image/jpeg"
    assert len(img.getexif()) == 0 and not img.getexif().get_ifd(GPS_IFD)
    assert "exif" not in img.info and b"Exif" not in public.data
    assert img.size == (48, 64)  # orientation applied before the tag was dropped
    assert public.sha256 == hashlib.sha256(public.data).hexdigest()
    assert store.get(public.sha256) == public.data
    assert store.public_copy(sha) == public  # made once at arrival, then only read
    assert store.make_public_copy(sha) == public
    assert store.get(sha) == original  # the original evidence is untouched


def test_public_copy_of_a_non_image_is_refused(data_dir):
    store = EvidenceStore(data_dir)
    sha = store.put(b"%PDF-1.4 a document")
    with pytest.raises(UnsupportedMedia):
        store.make_public_copy(sha)
    with pytest.raises(UnsupportedMedia):
        store.put_image(b"%PDF-1.4 another document")


def test_reading_a_public_copy_never_makes_one(data_dir):
    """A public request only reads the copy made at upload: an image stored without one (as
    before this rule) has no public copy, and asking for it decodes nothing."""
    store = EvidenceStore(data_dir)
    sha = store.put(_jpeg_with_gps())
    with pytest.raises(UnsupportedMedia):
        store.public_copy(sha)
    assert not store.path_of(sha).with_name(sha + ".public").exists()
    assert store.make_public_copy(sha) == store.public_copy(sha)


async def test_async_wrappers(data_dir):
    store = EvidenceStore(data_dir)
    sha, _ = await store.aput_image(_jpeg_with_gps())
    assert (await store.apublic_copy(sha)).mime == "image/jpeg"
    assert await store.aget(sha)
