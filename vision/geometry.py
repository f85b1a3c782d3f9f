"""What the reader and the training script must agree on (changing one means retraining), and the crop."""
import cv2
import numpy as np


# The classifier sees a CROP_SIZE square crop whose side is CROP_MARGIN times the die's extent; the leaning network
# (vision/training/leaning.py) LEANING_SIZE pixels of LEANING_MARGIN times it, the centring network
# (vision/training/centring.py) CENTRING_SIZE pixels of CENTRING_MARGIN times it, the side-face network
# (vision/training/sideface.py) SIDE_FACE_SIZE pixels of SIDE_FACE_MARGIN times a reading's edge.
CROP_SIZE = 32
CROP_MARGIN = 1.4
LEANING_SIZE = 48
LEANING_MARGIN = 2.0
CENTRING_SIZE = 32
CENTRING_MARGIN = 2.0
SIDE_FACE_SIZE = 40
SIDE_FACE_MARGIN = 3.0
# The detector's size output is log2(extent / DETECTOR_EXTENT), extents in network pixels. Each pyramid
# level answers for the dice whose extent there lies in DETECTOR_BAND (training teaches a little more).
DETECTOR_EXTENT = 12.0
DETECTOR_BAND = (6.0, 20.0)
# Both networks take (pixel - PIXEL_MEAN) * PIXEL_SCALE, BGR order.
PIXEL_MEAN = 128.0
PIXEL_SCALE = 1 / 64


def crop_around(frame: np.ndarray, x: float, y: float, side: float, size: int) -> np.ndarray:
    """A size x size square of the frame centred on (x, y), `side` pixels across; outside is grey."""
    height, width = frame.shape[:2]
    x0, y0 = int(round(x - side / 2)), int(round(y - side / 2))
    x1, y1 = int(round(x + side / 2)), int(round(y + side / 2))
    x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)
    inside = frame[max(y0, 0):min(y1, height), max(x0, 0):min(x1, width)]
    if inside.size == 0:
        return np.full((size, size, 3), 128, np.uint8)
    if (x0, y0, x1, y1) != (max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)):
        inside = cv2.copyMakeBorder(
            inside, max(0, -y0), max(0, y1 - height), max(0, -x0), max(0, x1 - width),
            cv2.BORDER_CONSTANT, value=(128, 128, 128),
        )
    interpolation = cv2.INTER_AREA if inside.shape[0] > size else cv2.INTER_LINEAR
    return cv2.resize(inside, (size, size), interpolation=interpolation)


def side_face_crop(frame: np.ndarray, center: tuple[float, float], edge: float) -> np.ndarray:
    """What the side-face network sees of a die read at `center` with top edges `edge` pixels long: SIDE_FACE_MARGIN
    times the edge round it, upright as the camera took it (which way is up tells a top from a side)."""
    return crop_around(frame, center[0], center[1], edge * SIDE_FACE_MARGIN, SIDE_FACE_SIZE)
