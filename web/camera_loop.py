"""The camera loop: one background thread from the frame source through the roll tracker to the table.

It keeps the latest frame for the table screen (encoded to JPEG only when a page asks, once per frame).
A source that fails is reopened with back-off while the game goes on with typed dice; a frame that
breaks the tracker is skipped. A recording (the demo) is played at its own pace, and only while the table
waits for dice: it holds after each settled roll until the players are done, so the demo plays a real game.
While the host calibrates, frames are kept but no roll is read (the dice being laid out are not a roll); a new
calibration is used from the next frame on.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Iterable, Protocol, Sequence

import cv2
import numpy as np

from calibration import Calibration, CalibrationError
from camera import frame_problem

log = logging.getLogger(__name__)

JPEG_WIDTH = 960  # the table screen's camera view; the dice outlines are drawn by the page at full scale
JPEG_QUALITY = 75
BACKOFF_S = (0.5, 1, 2, 5, 10)
SILENT_AFTER_S = 2.0  # a live camera that sends nothing for this long is reported lost on the pages
CALIBRATING = "The host is calibrating the camera: no roll is read until the calibration is saved or cancelled."


class Source(Protocol):
    live: bool
    description: str

    def __iter__(self): ...
    def __enter__(self): ...
    def __exit__(self, *exc_info): ...
    def close(self) -> None: ...


class Tracker(Protocol):
    colours_in_play: tuple[str, ...]
    state: str  # vision.tracker.STATES
    on_table: Sequence  # DieReadings

    def feed(self, t: float, image: np.ndarray) -> list: ...


def event_json(event) -> dict:
    """A tracker event as the table takes it: `watch --json`'s shape, each problem with its sentence."""
    data = event.to_json()
    data["problems"] = [{**problem.to_json(), "message": problem.describe()} for problem in event.problems]
    return data


class CameraLoop:
    def __init__(self, table, open_source: Callable[[], Source], make_tracker: Callable[[Iterable[str]], Tracker],
                 speed: float = 1.0, calibration: Calibration | None = None, demo: bool = False) -> None:
        self.table = table
        self.demo = demo  # the source is the demo recording, which shows no table of the players'
        self.open_source = open_source
        self.make_tracker = make_tracker
        self.speed = speed  # how fast a recording plays (tests play the demo faster than life)
        self.calibration = calibration  # what `open_source` and `make_tracker` are to use
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._source: Source | None = None  # the source open now
        self._reading = True  # False while the host calibrates
        self.exposure_free = False  # True while calibrating: `open_source` lets a camera settle its exposure afresh
        self._reopen = threading.Event()  # set: the source was closed to be opened again, not lost
        self._fresh_tracker = threading.Event()  # set: the next frame goes to a new tracker
        self._frame_lock = threading.Lock()
        self._new_frame = threading.Condition(self._frame_lock)
        self._frame: np.ndarray | None = None
        self._frame_number = 0
        self._jpeg: tuple[int, bytes] | None = None
        self._watching: Source | None = None  # the live source being read, for the watchdog
        self._last_frame_at = time.monotonic()
        self._silent = False  # the pages were told that the camera sends nothing
        self._trouble = ""  # what the source last said was wrong
        self._silence_lock = threading.Lock()  # the watchdog and the frame loop change it in turn
        self._calibration_set_aside = False  # the pages were told the calibration could not be used

    # ----- the thread ---------------------------------------------------------------------------------------

    def start(self) -> None:
        if self.demo:
            self.table.camera_note("The demo recording's dice are not yours. Start the table with a camera (settings "
                                   "key `source`) to read your own.")
        self._thread = threading.Thread(target=self.run, name="camera", daemon=True)
        self._thread.start()
        threading.Thread(target=self._watchdog, name="camera watchdog", daemon=True).start()

    def _watchdog(self, every_s: float = 0.25) -> None:
        """A live camera that stalls, or sends only corrupt frames, reopens itself inside its source while the
        frame loop waits; this tells the pages so, so that the host types the dice meanwhile."""
        while not self._stop.wait(every_s):
            self._check_silence()

    def _check_silence(self) -> None:
        with self._silence_lock:
            source = self._watching
            if source is None:
                return
            status = getattr(source, "status", "running")
            if status != "running":
                self._trouble = status  # the source's own words, kept: it says "running" between reopenings
            if self._silent or time.monotonic() - self._last_frame_at < SILENT_AFTER_S:
                return
            self._silent = True
            why = f" ({self._trouble})" if self._trouble else ""
            self.table.camera_state("lost", f"The camera sends no pictures{why}. Type the dice meanwhile: it is "
                                            "reopened as soon as it answers again.")

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                source = self.open_source()
            except Exception as error:  # no camera yet, or it went away: keep trying, keep playing
                self._wait_after_failure(failures, f"No camera: {error}. Type the dice meanwhile.")
                failures += 1
                continue
            try:
                with source:
                    self._source = source
                    self._say_what_it_does()
                    ended = self._watch(source)
                failures = 0
            except Exception as error:
                log.warning("camera failed: %s", error)
                self._wait_after_failure(failures, f"The camera stopped ({error}). Type the dice meanwhile.")
                failures += 1
                continue
            finally:
                self._watching = self._source = None
            if self._reopen.is_set():
                self._reopen.clear()
                continue
            if ended and not source.live:
                self.table.camera_state("off", "The recording has ended: type the dice.")
                return
            if ended:
                self._wait_after_failure(failures, "The camera stopped sending pictures. Type the dice meanwhile.")
                failures += 1

    def _wait_after_failure(self, failures: int, message: str) -> None:
        self.table.camera_state("lost", message)
        self._stop.wait(BACKOFF_S[min(failures, len(BACKOFF_S) - 1)])

    def _watch(self, source: Source) -> bool:
        """Feed every frame to the tracker; True when the source ran out, False when stopped."""
        tracker = self.make_tracker(self.table.colours_in_play())
        paced = not source.live
        wall_start = frame_start = None
        self._last_frame_at = time.monotonic()
        self._watching = source if source.live else None
        for t, image in source:
            if self._stop.is_set():
                return False
            problem = frame_problem(image)
            if problem:  # a source that let a broken frame through: skip it, keep the last good picture
                log.warning("camera frame skipped: %s", problem)
                continue
            with self._silence_lock:
                self._last_frame_at, self._trouble = time.monotonic(), ""
                if self._silent:
                    self._silent = False
                    self._say_what_it_does(back=True)
            if paced:
                if wall_start is None:
                    wall_start, frame_start = time.monotonic(), t
                delay = wall_start + (t - frame_start) / self.speed - time.monotonic()
                if delay > 0 and self._stop.wait(delay):
                    return False
            self._keep_frame(image)
            if not self._reading:
                continue
            if self._fresh_tracker.is_set():
                self._fresh_tracker.clear()
                tracker = self.make_tracker(self.table.colours_in_play())
            tracker.colours_in_play = self.table.colours_in_play()
            was_moving = tracker.state == "moving"
            try:
                events = tracker.feed(t, image)
            except Exception as error:  # one bad frame must not stop the table
                log.warning("tracker failed on a frame: %s", error)
                continue
            for event in events:
                self.table.camera_event(event_json(event))
            if was_moving and not events and tracker.state != "moving":
                # The motion came to nothing, which no event says: a hand passed over the dice, or they were taken.
                self.table.camera_at_rest([die.to_json() for die in tracker.on_table])
            if paced and not self.table.wants_roll():
                # A recording plays only while the table waits for dice: the demo follows the players.
                if not self._hold_until_roll_wanted():
                    return False
                wall_start = None  # play on from here at the recording's pace
        return True

    def _hold_until_roll_wanted(self) -> bool:
        while not self.table.wants_roll():
            if self._stop.wait(0.05):
                return False
        return True

    # ----- calibrating --------------------------------------------------------------------------------------

    def pause_reading(self) -> None:
        """Keep showing the table but read no roll: the host is calibrating. A camera is reopened with its exposure
        free (`exposure_free`), so that it settles under the light of now, not the last calibration's."""
        self._reading = False
        self.exposure_free = True
        self._reopen_camera()
        self._say_what_it_does()

    def resume_reading(self, calibration: Calibration | None = None) -> None:
        """Read rolls again, from a fresh start, with `calibration` when one was saved (learned at the exposure the
        camera settled at meanwhile, which it keeps); without one (cancelled) a camera goes back to the exposure of
        the calibration in use."""
        self.exposure_free = False
        if calibration is not None:
            self.calibration = calibration
            if self._calibration_set_aside:
                self._calibration_set_aside = False
                self.table.tell(None)
        else:
            self._reopen_camera()
        self._fresh_tracker.set()
        self._reading = True
        self._say_what_it_does()

    def _reopen_camera(self) -> None:
        """Close a live source, for `run` to open it again at once (a recording has no exposure to settle)."""
        source = self._source
        if source is not None and source.live:
            self._reopen.set()
            source.close()

    def _say_what_it_does(self, back: bool = False) -> None:
        """Calibrating, or watching the open source: said when it opens, when reading pauses or resumes, and when
        a silent camera is `back`."""
        source = self._source
        if not self._reading:
            self.table.camera_state("calibrating", CALIBRATING)
        elif self.demo:
            self.table.camera_state("watching", "Playing the demo recording.")
        elif source is not None:
            watched = f"the table ({source.description})."
            self.table.camera_state("watching", f"The camera is back: watching {watched}" if back else f"Watching {watched}")

    def locked_controls(self) -> dict | None:
        """The exposure and white balance the open camera locked itself at (None: a camera that cannot be set)."""
        return getattr(self._source, "locked_controls", None)

    def next_frames(self, count: int, timeout_s: float = 3.0) -> list[np.ndarray]:
        """The next `count` frames of the same size, to average a still scene; fewer when the source sends fewer
        within `timeout_s` (a recording held between rolls), but at least the latest one; none before the first."""
        deadline = time.monotonic() + timeout_s
        frames: list[np.ndarray] = []
        with self._new_frame:
            seen = self._frame_number
            while len(frames) < count:
                if not self._new_frame.wait_for(lambda: self._frame_number > seen, deadline - time.monotonic()):
                    break
                seen = self._frame_number
                frames.append(self._frame)
            if not frames and self._frame is not None:
                frames.append(self._frame)
        return [frame for frame in frames if frame.shape == frames[-1].shape]

    # ----- the picture for the table screen -----------------------------------------------------------------

    def _keep_frame(self, image: np.ndarray) -> None:
        with self._frame_lock:
            first = self._frame is None or self._frame.shape != image.shape
            self._frame = image
            self._frame_number += 1
            self._new_frame.notify_all()
        if first:
            height, width = image.shape[:2]
            self.table.camera_size(width, height)
            if self.calibration is not None:
                try:
                    self.calibration.scaled_to(width, height)
                except CalibrationError as error:  # a camera that now crops otherwise
                    self.set_aside_calibration(str(error))

    def set_aside_calibration(self, why: str) -> None:
        """Read without the calibration, which cannot be used (`why`), and say so on every page until the host
        calibrates again: a missing, damaged or mismatched file must not keep the camera off."""
        log.warning("calibration not used: %s", why)
        self.calibration = None
        self._fresh_tracker.set()
        self._calibration_set_aside = True
        self.table.tell(f"The camera's calibration cannot be used ({why}). The camera reads without it: the host can "
                        "calibrate again from the table screen.")

    def jpeg(self) -> bytes | None:
        """The latest frame as a JPEG (None before the first frame); encoded at most once per frame."""
        with self._frame_lock:
            if self._frame is None:
                return None
            if self._jpeg is not None and self._jpeg[0] == self._frame_number:
                return self._jpeg[1]
            image, number = self._frame, self._frame_number
        height, width = image.shape[:2]
        if width > JPEG_WIDTH:
            image = cv2.resize(image, (JPEG_WIDTH, round(height * JPEG_WIDTH / width)), interpolation=cv2.INTER_AREA)
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            return None
        data = encoded.tobytes()
        with self._frame_lock:
            self._jpeg = (number, data)
        return data
