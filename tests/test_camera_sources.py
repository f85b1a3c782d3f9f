"""Every source through the one interface: iterate for (t, BGR frame), close to stop."""
import sys
import threading
import types

import cv2
import numpy as np
import pytest

import camera
from camera import Frame, SourceError, open_source
from tests.web_helpers import wait_until


def coloured_frames(count, size=(160, 120)):
    return [np.full((size[1], size[0], 3), (10 * i, 200 - 10 * i, 60), np.uint8) for i in range(count)]


def take(source, count, timeout=10.0):
    """Up to `count` frames from a live source, closing it from another thread if it hangs."""
    timer = threading.Timer(timeout, source.close)
    timer.start()
    frames = []
    try:
        for frame in source:
            frames.append(frame)
            if len(frames) == count:
                break
    finally:
        timer.cancel()
        source.close()
    return frames


def motion_jpeg_clip(path, count):
    """A video of `count` coloured frames at 20 a second, each frame a JPEG of its own."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 20, (160, 120))
    for image in coloured_frames(count):
        writer.write(image)
    writer.release()
    return path


def test_video_file_gives_its_own_timestamps_and_ends(tmp_path):
    path = motion_jpeg_clip(tmp_path / "clip.avi", 8)
    with open_source(str(path)) as source:
        frames = list(source)
    assert [round(f.t, 3) for f in frames] == [round(i / 20, 3) for i in range(8)]
    assert all(f.image.shape == (120, 160, 3) and f.image.dtype == np.uint8 for f in frames)
    assert source.status == "ended"


def test_a_video_file_with_a_damaged_frame_plays_on_past_it(tmp_path):
    path = motion_jpeg_clip(tmp_path / "clip.avi", 12)
    data = bytearray(path.read_bytes())
    sixth_frame = [index for index in range(len(data) - 1) if data[index:index + 2] == b"\xff\xd8"][5]
    data[sixth_frame:sixth_frame + 200] = bytes(200)  # its JPEG no longer decodes
    path.write_bytes(bytes(data))
    with open_source(str(path)) as source:
        frames = list(source)
    assert [round(f.t, 3) for f in frames] == [round(i / 20, 3) for i in range(12) if i != 5]
    assert source.frames_dropped == 1 and source.status == "ended"


def test_looped_recording_keeps_time_moving_forward(tmp_path):
    for index, image in enumerate(coloured_frames(3)):
        cv2.imwrite(str(tmp_path / f"f{index}.png"), image)
    source = open_source(str(tmp_path), loop=True)
    times = [frame.t for _, frame in zip(range(7), source)]
    source.close()
    assert times == pytest.approx([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6])


def test_image_folder_in_natural_order_with_manifest_and_unreadable_files(tmp_path):
    images = coloured_frames(3)
    for name, image in zip(["frame2.png", "frame10.png", "frame1.png"], images):
        cv2.imwrite(str(tmp_path / name), image)
    (tmp_path / "frame5.png").write_bytes(b"not really a png")
    with open_source(str(tmp_path)) as source:
        frames = list(source)
    # frame1, frame2, frame10 by name; frame5 dropped, not passed on.
    assert [int(f.image[0, 0, 0]) for f in frames] == [20, 0, 10]
    assert source.frames_dropped == 1

    (tmp_path / "frames.csv").write_text("t,file\n5.0,frame1.png\n5.5,frame5.png\n7.25,frame10.png\n")
    with open_source(str(tmp_path)) as source:
        frames = list(source)
    assert [f.t for f in frames] == [0.0, 2.25]
    # saved by a spreadsheet (a byte-order mark first), its first row a frame that is dropped: t counts from the
    # first frame delivered
    (tmp_path / "frames.csv").write_text("t,file\n4.0,frame5.png\n5.0,frame1.png\n7.25,frame10.png\n",
                                         encoding="utf-8-sig")
    with open_source(str(tmp_path)) as source:
        assert [f.t for f in source] == [0.0, 2.25]


def test_bad_manifest_and_missing_paths_are_clear_errors(tmp_path):
    (tmp_path / "frames.csv").write_text("time,name\n1,a.png\n")
    with pytest.raises(SourceError, match="t,file"):
        open_source(str(tmp_path))
    (tmp_path / "frames.csv").write_text("t,file\nnan,a.png\n")  # float() takes it; no JSON does
    with pytest.raises(SourceError, match="line 2: t must be a number of seconds, not nan"):
        open_source(str(tmp_path))
    with pytest.raises(SourceError, match="no such source"):
        open_source(str(tmp_path / "nowhere"))


def test_a_file_with_no_video_frame_is_refused_when_chosen(tmp_path):
    """OpenCV opens an image or a video cut short as a video, and then finds no frame in it."""
    (tmp_path / "junk.mp4").write_bytes(b"\0" * 100)
    (tmp_path / "cut-short.mp4").write_bytes(camera.DEMO_VIDEO.read_bytes()[:10_000])
    (tmp_path / "text.png").write_text("not an image")
    for name in ("junk.mp4", "cut-short.mp4", "text.png"):
        with pytest.raises(SourceError, match="not a video"):
            open_source(str(tmp_path / name))


# -- webcam through OpenCV, with a stand-in VideoCapture ------------------------------------------


class FlakyCapture:
    """Like cv2.VideoCapture on a webcam that delivers `good` frames per opening, then fails."""

    openings = 0

    def __init__(self, index, backend, good=3, corrupt_at=()):
        assert backend == (cv2.CAP_V4L2 if sys.platform.startswith("linux") else cv2.CAP_ANY)
        type(self).openings += 1
        self.good, self.count, self.corrupt_at = good, 0, corrupt_at

    def isOpened(self):
        return True

    def set(self, prop, value):
        return True

    def read(self):
        self.count += 1
        if self.count > self.good:
            return False, None
        if self.count in self.corrupt_at:
            return True, np.zeros((4, 4), np.uint8)
        return True, np.full((120, 160, 3), self.count, np.uint8)

    def release(self):
        pass


def test_webcam_that_stops_is_reopened_and_frames_keep_coming(monkeypatch):
    FlakyCapture.openings = 0
    monkeypatch.setattr(camera.sources.cv2, "VideoCapture", lambda index, backend: FlakyCapture(index, backend, corrupt_at=(2,)))
    source = open_source("0")
    frames = take(source, 4)
    assert len(frames) == 4
    assert FlakyCapture.openings >= 2
    assert source.frames_dropped >= 1  # the corrupt frame was dropped, not passed on
    assert all(f.image.shape == (120, 160, 3) for f in frames)
    assert [f.t for f in frames] == sorted(f.t for f in frames) and frames[0].t == 0


def test_missing_webcam_keeps_retrying_with_a_status(monkeypatch):
    class Absent(FlakyCapture):
        def isOpened(self):
            return False

    monkeypatch.setattr(camera.sources.cv2, "VideoCapture", Absent)
    source = open_source("3")
    frames = []
    thread = threading.Thread(target=lambda: frames.extend(source))
    thread.start()
    wait_until(lambda: "no camera answers at index 3" in source.status, "the status to say no camera answers")
    source.close()
    thread.join(timeout=3)
    assert not thread.is_alive() and frames == []


def test_a_camera_closed_while_its_capture_thread_starts_closes_cleanly(monkeypatch):
    monkeypatch.setattr(camera.sources.cv2, "VideoCapture", FlakyCapture)
    source = open_source("0")
    start = threading.Thread.start

    def closed_meanwhile(thread):
        if thread.name.startswith("capture"):
            source.close()  # as the camera loop may, from its own thread, at this very moment
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", closed_meanwhile)
    assert take(source, 1) == []


# -- Pi camera, with a stand-in for picamera2 -------------------------------------------------------


class FakeRequest:
    def __init__(self, camera):
        self.camera = camera

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.camera.released += 1

    def make_array(self, name):
        assert name == "main"
        self.camera.frames_made += 1
        if self.camera.frames_made in self.camera.corrupt_at:
            return np.zeros((self.camera.size[1], self.camera.size[0], 4), np.uint8)  # XBGR by mistake
        return np.full((self.camera.size[1], self.camera.size[0], 3), self.camera.frames_made % 256, np.uint8)

    def get_metadata(self):
        return self.camera.metadata()


class FakePicamera2:
    """Behaves like picamera2.Picamera2 as far as PicameraSource uses it."""

    instances: list = []
    fail_after = None  # frames after which captured_request raises, as a lost camera does

    def __init__(self, camera_num=0):
        self.camera_controls = {"AeEnable": 0, "AwbEnable": 0, "ExposureTime": 0, "AnalogueGain": 0,
                                "ColourGains": 0, "FrameDurationLimits": 0, "ExposureValue": 0}
        self.controls_set, self.started, self.closed = [], False, False
        self.frames_made, self.released, self.corrupt_at = 0, 0, (3,)
        self.size = None
        type(self).instances.append(self)

    def create_video_configuration(self, main, controls=None):
        return {"main": dict(main), "controls": dict(controls or {})}

    def configure(self, config):
        assert config["main"]["format"] == "RGB888"
        self.size = config["main"]["size"]
        self.configuration = config

    def start(self):
        self.started = True

    def captured_request(self):
        assert self.started, "capture before start"
        if self.fail_after is not None and self.frames_made >= self.fail_after:
            raise RuntimeError("Camera frontend has timed out!")
        return FakeRequest(self)

    def set_controls(self, controls):
        self.controls_set.append(dict(controls))

    def metadata(self):
        return {"ExposureTime": 9000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5), "SensorTimestamp": 1}

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True


class FakeModule3(FakePicamera2):
    """A camera with a movable lens, which an autofocus cycle moves to 1.5 dioptres when it finds the focus."""

    focus_found = True

    def __init__(self, camera_num=0):
        super().__init__(camera_num)
        self.camera_controls.update(AfMode=0, LensPosition=0)
        self.lens, self.focus_cycles = 1.0, 0

    def autofocus_cycle(self):
        assert self.started, "autofocus before start"
        self.focus_cycles += 1
        if self.focus_found:
            self.lens = 1.5
        return self.focus_found

    def configure(self, config):
        super().configure(config)
        self.lens = config["controls"].get("LensPosition", self.lens)

    def set_controls(self, controls):
        super().set_controls(controls)
        self.lens = controls.get("LensPosition", self.lens)

    def metadata(self):
        return {**super().metadata(), "LensPosition": self.lens}


def install_picamera2(monkeypatch, camera_class):
    camera_class.instances = []
    camera_class.fail_after = None
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=camera_class))
    return camera_class


@pytest.fixture
def fake_picamera2(monkeypatch):
    return install_picamera2(monkeypatch, FakePicamera2)


@pytest.fixture
def fake_module3(monkeypatch):
    FakeModule3.focus_found = True
    return install_picamera2(monkeypatch, FakeModule3)


def test_picamera_settles_then_locks_exposure_and_white_balance(fake_picamera2):
    source = open_source("picamera", size=(320, 240))
    source.settle_time = 0.05
    frames = take(source, 3)
    camera_object = fake_picamera2.instances[0]
    assert camera_object.controls_set[-1] == {
        "AeEnable": False, "AwbEnable": False, "ExposureTime": 9000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5)
    }
    assert source.locked_controls["ColourGains"] == (1.8, 1.5)
    assert [f.image.shape for f in frames] == [(240, 320, 3)] * 3
    assert camera_object.released >= 3 and camera_object.closed


def test_picamera_with_calibrated_exposure_applies_it_from_the_first_frame(fake_picamera2):
    locked = {"AeEnable": False, "AwbEnable": False, "ExposureTime": 15000, "AnalogueGain": 1.5,
              "ColourGains": (2.0, 1.4)}
    frames = take(open_source("picamera", size=(320, 240), locked_controls=locked), 2)
    configured = fake_picamera2.instances[0].configuration["controls"]
    assert configured["ExposureTime"] == 15000 and configured["AeEnable"] is False
    assert fake_picamera2.instances[0].controls_set == []
    assert len(frames) == 2


def test_picamera_settles_the_stops_asked_below_its_auto_exposure(fake_picamera2):
    source = open_source("picamera", size=(320, 240), exposure_ev=-2.0)
    source.settle_time = 0.0
    take(source, 1)
    assert fake_picamera2.instances[0].configuration["controls"]["ExposureValue"] == -2.0
    # A calibration's exposure is taken as it is: no compensation on top of it.
    locked = {"ExposureTime": 15000, "AnalogueGain": 1.5, "ColourGains": (2.0, 1.4)}
    take(open_source("picamera", size=(320, 240), locked_controls=locked, exposure_ev=-2.0), 1)
    assert "ExposureValue" not in fake_picamera2.instances[1].configuration["controls"]


def test_lost_picamera_is_reopened_with_the_same_exposure(fake_picamera2):
    fake_picamera2.fail_after = 4
    source = open_source("picamera", size=(320, 240))
    source.settle_time = 0.0
    frames = take(source, 5)
    assert len(frames) == 5
    first, second = fake_picamera2.instances[:2]
    assert first.closed
    assert second.configuration["controls"]["ExposureTime"] == 9000
    assert source.frames_dropped >= 1  # the 4-channel frame was refused


def test_a_movable_lens_is_focused_once_on_the_table_and_locked_there(fake_module3):
    fake_module3.fail_after = 4
    source = open_source("picamera", size=(320, 240))
    source.settle_time = 0.0
    assert len(take(source, 5)) == 5
    first, second = fake_module3.instances[:2]
    assert first.focus_cycles == 1
    assert first.controls_set[-1]["LensPosition"] == 1.5 and first.controls_set[-1]["AfMode"] == 0  # manual
    assert source.locked_controls["LensPosition"] == 1.5
    # Reopened after the loss: no new focus, which a hand over the table could pull.
    assert second.focus_cycles == 0
    assert second.configuration["controls"]["LensPosition"] == 1.5 and second.configuration["controls"]["AfMode"] == 0


def test_a_lens_that_finds_no_focus_is_put_at_the_tables_distance(fake_module3):
    fake_module3.focus_found = False
    source = open_source("picamera", size=(320, 240))
    source.settle_time = 0.0
    take(source, 1)
    assert fake_module3.instances[0].controls_set[0] == {"AfMode": 0, "LensPosition": pytest.approx(1 / 0.7)}
    assert source.locked_controls["LensPosition"] == pytest.approx(1 / 0.7)


def test_a_calibration_without_a_lens_position_still_focuses(fake_module3):
    locked = {"ExposureTime": 15000, "AnalogueGain": 1.5, "ColourGains": (2.0, 1.4)}  # calibrated before focus was kept
    take(open_source("picamera", size=(320, 240), locked_controls=locked), 1)
    camera_object = fake_module3.instances[0]
    assert camera_object.focus_cycles == 1 and camera_object.lens == 1.5
    assert camera_object.configuration["controls"]["ExposureTime"] == 15000
    # With one, the lens goes there from the first frame.
    take(open_source("picamera", size=(320, 240), locked_controls={**locked, "LensPosition": 2.0}), 1)
    assert fake_module3.instances[1].focus_cycles == 0 and fake_module3.instances[1].lens == 2.0


def test_without_picamera2_the_message_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(SourceError, match="apt install python3-picamera2") as error:
        open_source("picamera")
    assert "--system-site-packages" in str(error.value)


def test_choosing_another_source_never_imports_picamera2(tmp_path, monkeypatch):
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    cv2.imwrite(str(tmp_path / "a.png"), coloured_frames(1)[0])
    list(open_source(str(tmp_path)))
    assert "picamera2" not in sys.modules


def test_frame_is_a_named_pair():
    frame = Frame(1.5, coloured_frames(1)[0])
    t, image = frame
    assert t == 1.5 and image is frame.image
