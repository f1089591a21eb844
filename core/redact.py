"""Faces and number plates blurred in the public copy of a photo (LGPD, Lei 13.709/2018,
art. 6º, III — necessity: a passer-by's face or a plate on a public page identifies a person).

The detector is OpenCV's Haar cascades, whose models ship inside the `opencv-python-headless`
package (cv2.data.haarcascades: frontal and profile faces, number plates); nothing is
downloaded at run time. OpenCV is loaded on the first photo (in the upload's thread), not at
start-up. It runs once, when the photo arrives (core.storage.evidence makes the
public copy then), on a copy at most DETECT_SIDE pixels wide, on one thread (about 0.3 s a photo on one idle core). A Haar cascade
misses many faces and most Brazilian (Mercosul) plates, so it is only the first pass: no photo
is shown outside the city's staff until a staff member reviewed its public copy, and they may
blur more areas by hand (core.services.public.photos). Without OpenCV installed nothing is
blurred automatically and the review alone stands.

The blur is a coarse pixelation followed by a Gaussian blur, over the area grown by MARGIN on
every side: no letter or feature survives it.
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageFilter

log = logging.getLogger(__name__)
# numpy (under OpenCV) would start a BLAS thread per core: none is needed for a cascade, and
# on a small shared machine they only compete with the bot's event loop.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

DETECT_SIDE = 960  # the detector looks at a copy this wide at most (speed)
MARGIN = 0.15  # each blurred area grows by this fraction of its size on every side
#: cascade file → (what it finds, minNeighbors): more neighbours, fewer false alarms.
CASCADES = {"haarcascade_frontalface_default.xml": ("rosto", 5),
            "haarcascade_profileface.xml": ("rosto", 5),
            "haarcascade_russian_plate_number.xml": ("placa", 3),
            "haarcascade_license_plate_rus_16stages.xml": ("placa", 3)}


@dataclass(frozen=True)
class Box:
    """An area of the image in pixels (x, y from the top left corner)."""
    x: int
    y: int
    w: int
    h: int
    what: str = "manual"  # rosto / placa / manual

    def grown(self, width: int, height: int, margin: float = MARGIN) -> "Box":
        dx, dy = int(self.w * margin), int(self.h * margin)
        x0, y0 = max(0, self.x - dx), max(0, self.y - dy)
        x1, y1 = min(width, self.x + self.w + dx), min(height, self.y + self.h + dy)
        return Box(x0, y0, max(0, x1 - x0), max(0, y1 - y0), self.what)

    def fraction(self, width: int, height: int) -> list[float]:
        return [round(self.x / width, 4), round(self.y / height, 4),
                round(self.w / width, 4), round(self.h / height, 4)]


def from_fraction(f: list[float], width: int, height: int, what: str = "manual") -> Box:
    """A box given in fractions of the image ([x, y, w, h], each 0..1) in this image's pixels."""
    x, y, w, h = (min(1.0, max(0.0, float(v))) for v in f)
    x0, y0 = int(x * width), int(y * height)
    x1, y1 = min(width, int(round((x + w) * width))), min(height, int(round((y + h) * height)))
    return Box(x0, y0, max(0, x1 - x0), max(0, y1 - y0), what)


@lru_cache(maxsize=1)
def _classifiers() -> tuple:
    """The cascades, loaded once per process; () without OpenCV (logged once)."""
    try:
        import cv2
    except ImportError:  # pragma: no cover - the package is a dependency
        log.warning("OpenCV is not installed: public photos are not blurred automatically "
                    "(staff review still decides what is shown)")
        return ()
    cv2.setNumThreads(1)
    out = []
    for name, (what, neighbours) in CASCADES.items():
        clf = cv2.CascadeClassifier(cv2.data.haarcascades + name)
        if not clf.empty():
            out.append((clf, what, neighbours))
    return tuple(out)


def available() -> bool:
    return bool(_classifiers())


def detect(img: Image.Image) -> list[Box]:
    """Faces and plates the cascades find in `img` (in its pixels)."""
    classifiers = _classifiers()
    if not classifiers:
        return []
    import cv2
    import numpy as np
    gray = img.convert("L")
    scale = min(1.0, DETECT_SIDE / max(gray.size))
    if scale < 1.0:
        gray = gray.resize((max(1, int(gray.width * scale)), max(1, int(gray.height * scale))),
                           Image.Resampling.BILINEAR)
    arr = cv2.equalizeHist(np.asarray(gray, dtype=np.uint8))
    found = []
    for clf, what, neighbours in classifiers:
        for (x, y, w, h) in clf.detectMultiScale(arr, scaleFactor=1.15, minNeighbors=neighbours,
                                                 minSize=(20, 20)):
            found.append(Box(int(x / scale), int(y / scale), int(w / scale), int(h / scale),
                             what))
    return found


def blur(img: Image.Image, boxes: list[Box]) -> Image.Image:
    """`img` with every box (grown by MARGIN) pixelated and blurred, in place."""
    for box in boxes:
        b = box.grown(img.width, img.height)
        if b.w < 2 or b.h < 2:
            continue
        area = (b.x, b.y, b.x + b.w, b.y + b.h)
        region = img.crop(area)
        cells = (max(1, b.w // 12), max(1, b.h // 12))
        region = region.resize(cells, Image.Resampling.BILINEAR).resize(
            (b.w, b.h), Image.Resampling.NEAREST)
        region = region.filter(ImageFilter.GaussianBlur(max(2, min(b.w, b.h) // 8)))
        img.paste(region, area[:2])
    return img


def blur_detected(img: Image.Image) -> tuple[Image.Image, list[Box]]:
    """The image with what the detector found blurred, and what it found."""
    boxes = detect(img)
    return (blur(img, boxes) if boxes else img), boxes
