"""Frame sources: each is an iterable of `Frame(t, image)` and a context manager.

`t` is seconds since the source's first frame (a file's own timestamps); `image` is an 8-bit BGR
array. File sources run as fast as they can and end at the end of the file, unless asked to play in
real time and loop (the demo in `serve`). Live sources (cameras) keep going: a camera that stops
delivering frames or errors is closed and reopened with back-off while `status` says what happened,
and a corrupt frame is dropped, never passed on.
"""
from __future__ import annotations

import csv
import logging
import math
import re
import sys
import threading
import time
from pathlib import Path
from typing import Iterator, NamedTuple

import cv2
import numpy as np

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
# A folder's optional manifest: one row per image, `t,file`, t in seconds.
MANIFEST = "frames.csv"
# Frames in a row that fail to decode before a video file is taken to have ended: damage that long is no longer a
# frame or two, and a file cut short fails for ever.
UNDECODED_AT_THE_END = 25


class Frame(NamedTuple):
    t: float  # seconds since the source's first frame
    image: np.ndarray  # BGR, uint8, height x width x 3


class SourceError(RuntimeError):
    """A source that cannot be opened or read; the message says what to do about it."""


def frame_problem(image) -> str | None:
    """Why `image` is not a usable BGR frame, or None when it is."""
    if not isinstance(image, np.ndarray):
        return f"not an image ({type(image).__name__})"
    if image.dtype != np.uint8:
        return f"pixels are {image.dtype}, not uint8"
    if image.ndim != 3 or image.shape[2] != 3:
        return f"shape {image.shape} is not height x width x 3"
    if image.shape[0] < 16 or image.shape[1] < 16:
        return f"frame of {image.shape[1]}x{image.shape[0]} is too small"
    return None


class FrameSource:
    """The interface every source has: iterate for frames, `close()` (or `with`) to stop."""

    live = False  # a camera (frames are dropped when the consumer is slow) rather than a file
    description = "frame source"

    def __init__(self) -> None:
        self.status = "not started"
        self.frames_dropped = 0  # corrupt or unreadable frames left out
        self._closed = threading.Event()

    def __iter__(self) -> Iterator[Frame]:
        return self.frames()

    def frames(self) -> Iterator[Frame]:
        raise NotImplementedError

    def close(self) -> None:
        """Stop: the iteration ends soon after, also when called from another thread."""
        self._closed.set()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def _drop(self, reason: str) -> None:
        self.frames_dropped += 1
        log.warning("%s: frame dropped: %s", self.description, reason)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.description}: {self.status}>"


class _PlayedSource(FrameSource):
    """A recording: as fast as possible by default, or paced to its own timestamps and looped."""

    def __init__(self, realtime: bool = False, loop: bool = False) -> None:
        super().__init__()
        self.realtime = realtime
        self.loop = loop

    def _timed_frames(self) -> Iterator[Frame]:
        """One pass over the recording, `t` from the recording, corrupt frames already dropped."""
        raise NotImplementedError

    def frames(self) -> Iterator[Frame]:
        offset = 0.0
        wall_start = time.monotonic()
        self.status = "playing"
        while not self._closed.is_set():
            last_t = None
            step = 0.1
            for frame in self._timed_frames():
                if self._closed.is_set():
                    break
                if last_t is not None and frame.t > last_t:
                    step = frame.t - last_t
                last_t = frame.t
                t = frame.t + offset
                if self.realtime and self._closed.wait(max(0.0, wall_start + t - time.monotonic())):
                    break
                yield Frame(t, frame.image)
            if not self.loop or last_t is None:
                break
            offset += last_t + step
        self.status = "ended"


class VideoFileSource(_PlayedSource):
    def __init__(self, path: str | Path, realtime: bool = False, loop: bool = False) -> None:
        super().__init__(realtime, loop)
        self.path = Path(path)
        self.description = str(self.path)
        if not self.path.is_file():
            raise SourceError(f"{self.path}: no such video file")
        # Opened and a frame read now, so that what is no video is refused where the source is chosen: OpenCV opens
        # many a file (an image, a video cut short) in which it then finds no frame.
        capture = cv2.VideoCapture(str(self.path))
        try:
            if not (capture.isOpened() and capture.read()[0]):
                raise SourceError(f"{self.path}: not a video that OpenCV can read")
        finally:
            capture.release()

    def _timed_frames(self) -> Iterator[Frame]:
        capture = cv2.VideoCapture(str(self.path))
        try:
            fps = capture.get(cv2.CAP_PROP_FPS)
            fps = fps if 1 <= fps <= 1000 else 30.0
            index = 0
            last_t = -1.0
            undecoded = 0  # frames in a row that failed to decode
            while True:
                ok, image = capture.read()
                if not ok:
                    # A damaged frame fails alone and the video goes on after it; only at the end do they all fail.
                    undecoded += 1
                    index += 1
                    if undecoded > UNDECODED_AT_THE_END:
                        break
                    continue
                for _ in range(undecoded):
                    self._drop("the video file's frame could not be decoded")
                undecoded = 0
                t = capture.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
                if not t > last_t:  # containers without timestamps: the nominal frame rate
                    t = index / fps
                index += 1
                problem = frame_problem(image)
                if problem:
                    self._drop(problem)
                    continue
                last_t = t
                yield Frame(t, image)
        finally:
            capture.release()


class ImageFolderSource(_PlayedSource):
    """Every image in a folder in name order (frame2 before frame10). Timestamps come from the
    folder's frames.csv (`t,file` rows) when it has one, else one frame every 1/fps seconds.
    Files that are not readable images are dropped with a warning."""

    def __init__(self, path: str | Path, fps: float = 10.0, realtime: bool = False, loop: bool = False) -> None:
        super().__init__(realtime, loop)
        self.path = Path(path)
        self.description = str(self.path)
        if not self.path.is_dir():
            raise SourceError(f"{self.path}: no such folder")
        self.timeline = self._manifest() if (self.path / MANIFEST).exists() else self._by_name(fps)
        if not self.timeline:
            raise SourceError(f"{self.path}: no images in this folder")

    def _by_name(self, fps: float) -> list[tuple[float, Path]]:
        def natural(path: Path):
            return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name)]

        files = sorted((p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES), key=natural)
        return [(index / fps, file) for index, file in enumerate(files)]

    def _manifest(self) -> list[tuple[float, Path]]:
        timeline = []
        # utf-8-sig: a spreadsheet's CSV starts with a byte-order mark, which would be taken into the first column's name.
        with open(self.path / MANIFEST, newline="", encoding="utf-8-sig") as handle:
            for line, row in enumerate(csv.DictReader(handle), start=2):
                try:
                    t = float(row["t"])
                    timeline.append((t, self.path / row["file"]))
                except (KeyError, TypeError, ValueError) as error:
                    raise SourceError(f"{self.path / MANIFEST} line {line}: needs `t,file` columns ({error})") from None
                if not math.isfinite(t):
                    raise SourceError(f"{self.path / MANIFEST} line {line}: t must be a number of seconds, not {t}")
        if any(b[0] < a[0] for a, b in zip(timeline, timeline[1:])):
            raise SourceError(f"{self.path / MANIFEST}: timestamps go backwards")
        return timeline

    def _timed_frames(self) -> Iterator[Frame]:
        first_t = None  # the first frame delivered is the source's first: a dropped one before it does not count
        for t, file in self.timeline:
            image = cv2.imread(str(file), cv2.IMREAD_COLOR)
            problem = "not a readable image" if image is None else frame_problem(image)
            if problem:
                self._drop(f"{file.name}: {problem}")
                continue
            first_t = t if first_t is None else first_t
            yield Frame(t - first_t, image)


class LiveSource(FrameSource):
    """A camera: one capture thread keeps the latest frame; the iterator hands out each new one.

    When the device errors, delivers only corrupt frames, or delivers nothing for `stall_after`
    seconds, it is closed and reopened, waiting 0.5 s, 1 s, 2 s ... up to `max_backoff` between tries,
    for as long as it takes. Meanwhile the iterator waits and `status` says what is wrong.
    """

    live = True
    corrupt_in_a_row_limit = 10

    def __init__(self, stall_after: float = 3.0, max_backoff: float = 10.0) -> None:
        super().__init__()
        self.stall_after = stall_after
        self.max_backoff = max_backoff
        self.reopens = 0
        self._latest: tuple[int, float, np.ndarray] | None = None  # (sequence number, monotonic time, image)
        self._new_frame = threading.Condition()
        self._generation = 0
        self._thread: threading.Thread | None = None
        self._first_time: float | None = None

    # What a camera implements.
    def _open_device(self):
        raise NotImplementedError

    def _read_device(self, device) -> np.ndarray:
        """The next frame; raises when the device has failed."""
        raise NotImplementedError

    def _close_device(self, device) -> None:
        raise NotImplementedError

    def frames(self) -> Iterator[Frame]:
        self._start_capture()
        seen = 0
        waiting_since = time.monotonic()
        try:
            while not self._closed.is_set():
                with self._new_frame:
                    self._new_frame.wait_for(
                        lambda: self._closed.is_set() or (self._latest is not None and self._latest[0] > seen),
                        timeout=0.25,
                    )
                    latest = self._latest
                if self._closed.is_set():
                    break
                if latest is None or latest[0] <= seen:
                    if time.monotonic() - waiting_since > self.stall_after and self.status == "running":
                        self.status = f"no frame for {self.stall_after:g} s: reopening"
                        log.warning("%s: %s", self.description, self.status)
                        self._start_capture()  # the stuck thread is left to notice it was replaced
                        waiting_since = time.monotonic()
                    continue
                seen, taken, image = latest
                waiting_since = time.monotonic()
                if self._first_time is None:
                    self._first_time = taken
                yield Frame(taken - self._first_time, image)
        finally:
            self.close()

    def close(self) -> None:
        super().close()
        with self._new_frame:
            self._new_frame.notify_all()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)

    def _start_capture(self) -> None:
        self._generation += 1
        if self._thread is not None:
            self.reopens += 1
        thread = threading.Thread(
            target=self._capture, args=(self._generation,), name=f"capture {self.description}", daemon=True
        )
        # Started before it is shown to close(), which another thread (the camera loop's) may call at any time: a
        # thread not yet started cannot be joined.
        thread.start()
        self._thread = thread

    def _capture(self, generation: int) -> None:
        delay = 0.5

        def current() -> bool:
            return generation == self._generation and not self._closed.is_set()

        while current():
            try:
                device = self._open_device()
            except Exception as error:  # a camera can fail in many ways; all mean "try again later"
                self.status = f"cannot open: {error}; retrying in {delay:g} s"
                log.warning("%s: %s", self.description, self.status)
                self._closed.wait(delay)
                delay = min(delay * 2, self.max_backoff)
                continue
            self.status = "running"
            corrupt_in_a_row = 0
            try:
                while current():
                    image = self._read_device(device)
                    problem = frame_problem(image)
                    if problem:
                        self._drop(problem)
                        corrupt_in_a_row += 1
                        if corrupt_in_a_row >= self.corrupt_in_a_row_limit:
                            raise SourceError(f"{corrupt_in_a_row} corrupt frames in a row ({problem})")
                        continue
                    corrupt_in_a_row = 0
                    delay = 0.5
                    with self._new_frame:
                        if generation == self._generation:
                            sequence = self._latest[0] + 1 if self._latest else 1
                            self._latest = (sequence, time.monotonic(), image)
                            self._new_frame.notify_all()
            except Exception as error:
                if current():
                    self.status = f"lost: {error}; reopening in {delay:g} s"
                    log.warning("%s: %s", self.description, self.status)
            finally:
                try:
                    self._close_device(device)
                except Exception as error:
                    log.debug("%s: closing failed: %s", self.description, error)
            if current():
                self.reopens += 1
                self._closed.wait(delay)
                delay = min(delay * 2, self.max_backoff)


class WebcamSource(LiveSource):
    """A USB webcam (or any V4L2 device) through OpenCV, by index."""

    def __init__(self, index: int, size: tuple[int, int] = (1280, 720), **kwargs) -> None:
        super().__init__(**kwargs)
        self.index = index
        self.size = size
        self.description = f"webcam {index}"

    def _open_device(self):
        # On Linux OpenCV tries V4L2 first anyway; naming it spares a missing camera's retries the failed attempts of
        # every other backend, each of which prints lines of its own (ten rather than two per retry with OpenCV 5).
        capture = cv2.VideoCapture(self.index, cv2.CAP_V4L2 if sys.platform.startswith("linux") else cv2.CAP_ANY)
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"no camera answers at index {self.index}")
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        return capture

    def _read_device(self, capture) -> np.ndarray:
        ok, image = capture.read()
        if not ok:
            raise SourceError("the webcam stopped delivering frames")
        return image

    def _close_device(self, capture) -> None:
        capture.release()
