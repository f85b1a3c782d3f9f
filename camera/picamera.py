"""The Raspberry Pi camera through picamera2: the only module that imports it, and only when chosen.

Frames are asked for as RGB888, which picamera2 lays out in OpenCV's BGR order (its default
4-channel format would swap red and blue). Image and metadata come from one request. Auto exposure
and white balance run for `settle_time` seconds (`exposure_ev` stops above or below what auto exposure would
choose: a dark table makes it expose the dice too long), then `ExposureTime`, `AnalogueGain` and
`ColourGains` are read from the metadata and fixed (`AeEnable`/`AwbEnable` off) so that the dice
colours do not drift while people move about; a calibration's saved settings are applied instead
when given. After a reopen the same settings are applied again.

A camera with a movable lens (Camera Module 3) is focused on the table once, when it opens, and its `LensPosition`
is locked with the exposure: left to focus continuously it would follow the hands that reach over the dice.
"""
from __future__ import annotations

import time

import numpy as np

from camera.sources import LiveSource, SourceError

INSTALL_MESSAGE = (
    "The Raspberry Pi camera needs picamera2, which this Python cannot import. On Raspberry Pi OS "
    "(Bookworm or newer): `sudo apt install python3-picamera2`, then make the virtual environment "
    "with `python3 -m venv --system-site-packages .venv` so that it sees Debian's picamera2 "
    "(a pip install of picamera2 does not match the system's libcamera)."
)
LOCKED_CONTROLS = ("ExposureTime", "AnalogueGain", "ColourGains", "LensPosition")
AF_MODE_MANUAL = 0  # libcamera's AfModeEnum.Manual: the lens stays at LensPosition
# Where a lens that found no focus is put: 70 cm (LensPosition is in dioptres, 1 / metres), the middle of the 60-80 cm
# above the table the camera hangs at; the Module 3's wide lens then keeps about 55 cm to 1 m sharp at 1280x720.
TABLE_DIOPTRES = 1 / 0.7


def _picamera2_class():
    try:
        from picamera2 import Picamera2
    except ImportError as error:
        raise SourceError(INSTALL_MESSAGE) from error
    return Picamera2


def why_no_camera() -> str | None:
    """None when picamera2 is installed and sees a camera, else why not in words; never raises."""
    try:
        return None if _picamera2_class().global_camera_info() else "picamera2 sees no camera"
    except SourceError:
        return "picamera2 cannot be imported"
    except Exception as error:  # libcamera failing: "not here" too
        return f"picamera2 failed: {error}"


class PicameraSource(LiveSource):
    def __init__(
        self,
        size: tuple[int, int] = (1280, 720),
        fps: float = 30.0,
        locked_controls: dict | None = None,
        exposure_ev: float = 0.0,
        settle_time: float = 1.0,
        camera_number: int = 0,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.size = size
        self.fps = fps
        self.settle_time = settle_time
        self.exposure_ev = exposure_ev
        self.camera_number = camera_number
        self.description = f"Pi camera {camera_number}"
        # The exposure the frames are taken with once settled: the calibration's, or what auto found.
        self.locked_controls: dict | None = dict(locked_controls) if locked_controls else None
        _picamera2_class()  # fail now, with the install message, not in the capture thread

    def _open_device(self):
        camera = _picamera2_class()(self.camera_number)
        try:
            frame_time = int(1_000_000 / self.fps)
            controls = self._supported(camera, {"FrameDurationLimits": (frame_time, frame_time)})
            if self.locked_controls:
                controls.update(self._supported(camera, self._lock(self.locked_controls)))
            elif self.exposure_ev:
                # libcamera's exposure compensation, which auto exposure heeds while it settles.
                controls.update(self._supported(camera, {"ExposureValue": float(self.exposure_ev)}))
            camera.configure(
                camera.create_video_configuration(
                    main={"size": tuple(self.size), "format": "RGB888"}, controls=controls
                )
            )
            camera.start()
            if "LensPosition" not in (self.locked_controls or {}):
                self._focus(camera)
            if not self.locked_controls:
                self.locked_controls = self._settle(camera)
                camera.set_controls(self._supported(camera, self._lock(self.locked_controls)))
        except Exception:
            camera.close()
            raise
        return camera

    def _focus(self, camera) -> None:
        """One autofocus cycle, for a camera with a movable lens; the lens then stays where it ended (AfMode Auto
        moves it only when asked) until the lock names its position."""
        if "AfMode" not in self._supported(camera, {"AfMode": AF_MODE_MANUAL}):
            return
        if not camera.autofocus_cycle():
            camera.set_controls({"AfMode": AF_MODE_MANUAL, "LensPosition": TABLE_DIOPTRES})

    def _settle(self, camera) -> dict:
        """Let auto exposure and white balance run, then take what they chose."""
        deadline = time.monotonic() + self.settle_time
        metadata: dict = {}
        while True:
            with camera.captured_request() as request:
                metadata = request.get_metadata()
            if time.monotonic() >= deadline:
                break
        missing = [name for name in ("ExposureTime", "AnalogueGain") if name not in metadata]
        if missing:
            raise SourceError(f"the camera reported no {', '.join(missing)}: cannot lock its exposure")
        chosen = {name: metadata[name] for name in LOCKED_CONTROLS if name in metadata}
        if "ColourGains" in chosen:
            chosen["ColourGains"] = tuple(float(g) for g in chosen["ColourGains"])
        return {**chosen, "ExposureValue": float(self.exposure_ev)}  # how they were found (calibration keeps it)

    @staticmethod
    def _lock(values: dict) -> dict:
        locked = {"AeEnable": False, "AwbEnable": False, **{k: values[k] for k in LOCKED_CONTROLS if k in values}}
        if "LensPosition" in locked:
            locked["AfMode"] = AF_MODE_MANUAL
        return locked

    @staticmethod
    def _supported(camera, controls: dict) -> dict:
        # A mono sensor has no white balance; an old libcamera may lack a control: set what exists.
        available = getattr(camera, "camera_controls", None)
        return dict(controls) if available is None else {k: v for k, v in controls.items() if k in available}

    def _read_device(self, camera) -> np.ndarray:
        with camera.captured_request() as request:
            image = request.make_array("main")
        if image.shape[:2] != (self.size[1], self.size[0]):
            raise SourceError(f"frame of {image.shape[1]}x{image.shape[0]}, asked for {self.size[0]}x{self.size[1]}")
        return image

    def _close_device(self, camera) -> None:
        try:
            camera.stop()
        finally:
            camera.close()
