"""`qwixx-table read IMAGE...`: read the dice in photos, as text or one JSON object per line."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photos of the table")
    parser.add_argument("--json", action="store_true", help="one JSON object per image and line")
    parser.add_argument("--annotate", metavar="DIR", type=Path,
                        help="write a copy of each image with every die's outline, colour and value drawn")
    parser.add_argument("--calibration", metavar="FILE", help="calibration file (default: the saved one, if any)")
    parser.add_argument("--qwixx-roll", action="store_true",
                        help="each image shows one roll of the six Qwixx dice: name their colours together, "
                             "as the table does")


def run(args: argparse.Namespace) -> int:
    import cv2

    import calibration
    from vision.annotate import annotate
    from vision.reader import DiceReader, FrameError
    from vision.readings import QWIXX_ROLL

    try:
        known = calibration.find(args.calibration)
    except calibration.CalibrationError as error:
        print(f"qwixx-table read: {error}", file=sys.stderr)
        return 2
    reader = DiceReader()
    if args.annotate:
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # a file in the way, no permission: nothing read, so nothing annotated is lost
            print(f"qwixx-table read: cannot write the annotated copies to {args.annotate}: "
                  f"{error.strerror or error}", file=sys.stderr)
            return 2
    failures = 0
    annotated: set[str] = set()
    for path in args.images:
        image, error = _load(path)
        if image is not None:
            started = time.perf_counter()
            try:
                readings = reader.read(image, known, QWIXX_ROLL if args.qwixx_roll else None)
            except (FrameError, calibration.CalibrationError) as problem:
                error = str(problem)
            milliseconds = (time.perf_counter() - started) * 1000
        if error is not None:
            failures += 1
            if args.json:
                print(json.dumps({"file": path, "error": error}), flush=True)
            else:
                print(f"{path}: error: {error}", file=sys.stderr, flush=True)
            continue
        if args.annotate:
            copy = args.annotate / _unused_name(Path(path).stem, annotated)
            if not cv2.imwrite(str(copy), annotate(image, readings)):
                failures += 1
                print(f"{path}: error: the annotated copy could not be written to {copy}", file=sys.stderr, flush=True)
        if args.json:
            line = {"file": path, "dice": [r.to_json() for r in readings], "ms": round(milliseconds, 1)}
            print(json.dumps(line), flush=True)
        else:
            print(f"{path}: {len(readings)} dice ({milliseconds:.0f} ms)")
            for r in readings:
                value = r.value if r.value is not None else f"? ({r.problem})"
                print(f"  {r.colour:6} {value}  confidence {r.confidence:.2f}  at {r.center[0]:.0f},{r.center[1]:.0f}")
    return 1 if failures else 0


def _load(path: str):
    """(the image, None), or (None, why it cannot be read). A path that is not a file is not handed to OpenCV, which
    would warn on the terminal besides."""
    import cv2

    file = Path(path)
    if file.is_dir():
        return None, "a folder, not an image"
    if not file.is_file():
        return None, "no such file"
    image = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if image is None:
        return None, "not a readable image"
    if _cut_short(file):
        return None, "a JPEG cut short (its end is missing): copy the photo again"
    if image.ndim == 2 or image.shape[2] == 1:  # made colour, every die would be named black or white with no doubt
        return None, "a grey-scale image: the dice's colours cannot be told in it"
    return cv2.imread(path, cv2.IMREAD_COLOR), None


def _cut_short(file: Path) -> bool:
    """Whether a JPEG ends before its end-of-image marker: a copy broken off, which OpenCV decodes as far as it goes,
    greying the rest and saying so only on the terminal. Its segments are walked from the start (a trailer a camera
    appends after the image is never looked at); a 0xFF byte in a scan's data is followed by 0x00 or a restart
    marker."""
    data = file.read_bytes()
    if data[:2] != b"\xff\xd8":
        return False
    at = 2
    while at + 1 < len(data):
        if data[at] != 0xFF:
            return False  # not laid out as this walk expects: OpenCV's reading stands
        marker = data[at + 1]
        if marker == 0xD9:
            return False
        if marker == 0xFF or 0xD0 <= marker <= 0xD7 or marker == 0x01:  # fill byte, restart, TEM: no length
            at += 1 if marker == 0xFF else 2
            continue
        at += 2 + int.from_bytes(data[at + 2:at + 4], "big")
        if marker == 0xDA:
            at = data.find(b"\xff", at)
            while 0 <= at < len(data) - 1 and (data[at + 1] == 0x00 or 0xD0 <= data[at + 1] <= 0xD7):
                at = data.find(b"\xff", at + 2)
            if at < 0:
                return True
    return True


def _unused_name(stem: str, used: set[str]) -> str:
    """A .png name for `stem` not in `used` (which it joins): photos of one name from two folders keep a copy each."""
    name, count = f"{stem}.png", 1
    while name in used:
        count += 1
        name = f"{stem}-{count}.png"
    used.add(name)
    return name
