"""Frame sources behind one interface: Raspberry Pi camera, USB webcam, video file, image folder, demo.

    with camera.open_source("demo") as source:
        for t, image in source:       # t: seconds since the first frame; image: BGR uint8
            ...

Knows nothing of dice. picamera2 is imported only when the Pi camera is chosen.
"""
from __future__ import annotations

from pathlib import Path

from camera.sources import (
    Frame,
    FrameSource,
    ImageFolderSource,
    LiveSource,
    SourceError,
    VideoFileSource,
    WebcamSource,
    frame_problem,
)

DEMO_DIR = Path(__file__).resolve().parent / "demo"
DEMO_VIDEO = DEMO_DIR / "demo.mp4"
DEMO_TRUTH = DEMO_DIR / "demo.json"

SOURCE_HELP = ("picamera, a webcam index (0, 1, ...), a video file, a folder of images (10 a second, or timed by its "
               "frames.csv), or demo")


def default_source() -> str:
    """The Pi camera when one is connected, else the demo recording."""
    from camera.picamera import why_no_camera

    return "picamera" if why_no_camera() is None else "demo"


def open_source(
    spec: str,
    size: tuple[int, int] = (1280, 720),
    realtime: bool = False,
    loop: bool = False,
    locked_controls: dict | None = None,
    exposure_ev: float = 0.0,
) -> FrameSource:
    """The source that `spec` names (see SOURCE_HELP).

    `size` is asked of cameras; recordings keep their own. `realtime` and `loop` apply to
    recordings (the demo in the web app plays in real time, round and round). `locked_controls`
    are the Pi camera's exposure settings to fix (a calibration's `Exposure.as_controls()`); without them it
    settles `exposure_ev` stops above or below its auto exposure before locking.
    """
    spec = str(spec).strip()
    if spec == "picamera":
        from camera.picamera import PicameraSource

        return PicameraSource(size=size, locked_controls=locked_controls, exposure_ev=exposure_ev)
    if spec.isdigit():
        return WebcamSource(int(spec), size=size)
    if spec == "demo":
        if not DEMO_VIDEO.is_file():
            raise SourceError(f"the demo recording is missing from {DEMO_DIR}: reinstall qwixx-table")
        return VideoFileSource(DEMO_VIDEO, realtime=realtime, loop=loop)
    path = Path(spec).expanduser()
    if path.is_dir():
        return ImageFolderSource(path, realtime=realtime, loop=loop)
    if path.is_file():
        return VideoFileSource(path, realtime=realtime, loop=loop)
    raise SourceError(f"no such source {spec!r}: give {SOURCE_HELP}")


__all__ = [
    "DEMO_TRUTH",
    "DEMO_VIDEO",
    "Frame",
    "FrameSource",
    "ImageFolderSource",
    "LiveSource",
    "SOURCE_HELP",
    "SourceError",
    "VideoFileSource",
    "WebcamSource",
    "default_source",
    "frame_problem",
    "open_source",
]
