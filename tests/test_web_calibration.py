"""Calibrating the camera from the table screen: the host clears the table and lays out the dice in front of a camera
(a stand-in sending rendered scenes through the real camera loop), looks at what was learned, and saves it for the
reader, which uses it at once; every refusal changes nothing."""
from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

import calibration
import camera
from calibration.learn import learn
from camera import Frame, FrameSource, LiveSource
from tests.test_calibrate import NEUTRAL, SIZE, frames
from tests.test_web_camera import wait_for
from tests.web_helpers import PIN
from vision import read_dice
from web.app import create_app
from web.camera_loop import CameraLoop
from web.commands.serve import start_camera

LOCKED = {"ExposureTime": 20000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5), "LensPosition": 1.4}


class LiveFeed(LiveSource):
    """A camera run by the real LiveSource machinery above a table the test changes: it sends the table's `picture`
    about 50 times a second, with exposure and white balance locked as the Pi camera locks them: at `locked` when
    given (a calibration's), else at LOCKED (as it settles)."""

    description = "a test camera"

    def __init__(self, table, locked: dict | None) -> None:
        super().__init__()
        self.table = table
        self.locked_controls = locked or LOCKED

    def _open_device(self):
        return object()

    def _read_device(self, device):
        time.sleep(0.02)
        return self.table.picture


class SpyReader:
    """The tracker's reader: sees no dice, and keeps the calibration it was given each time."""

    def __init__(self) -> None:
        self.calibrations: list = []

    def __call__(self, image, known, dice_set=None):
        self.calibrations.append(known)
        return []


@pytest.fixture
def config_home(tmp_path, monkeypatch):
    """The user's config folder, where the calibration is kept unless the settings name a file."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    return tmp_path / "config"


@pytest.fixture
def scene():
    empty, dice, _ = frames(NEUTRAL)
    return {"empty": empty, "dice": dice}


class Served:
    """The app as `serve` starts it, with a camera in front of the empty table and the tracker's reader spied on."""

    def __init__(self, database: str, picture: np.ndarray, monkeypatch, config: dict | None = None) -> None:
        self.app = create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": PIN, **(config or {})})
        self.table = self.app.extensions["qwixx"]
        self.picture = picture
        self.opened: list[dict | None] = []  # the exposure each camera was opened with (None: free to settle)
        self.reader = SpyReader()
        monkeypatch.setattr(camera, "open_source", self._open)
        self.loop = start_camera(self.app, "test camera", read_dice=self.reader)
        self.host = self.app.test_client()
        assert self.host.post("/api/host", json={"pin": PIN}).status_code == 200
        assert wait_for(lambda: self.loop.jpeg() is not None and self.reader.calibrations)

    def _open(self, spec, locked_controls=None, **options):
        self.opened.append(locked_controls)
        return LiveFeed(self, locked_controls)

    def post(self, step: str, client=None):
        return (client or self.host).post(f"/api/calibration/{step}")

    def close(self) -> None:
        self.loop.stop()


@pytest.fixture
def served(database, scene, config_home, monkeypatch):
    served = Served(database, scene["empty"], monkeypatch)
    yield served
    served.close()


def learned(served, scene) -> dict:
    """Calibrates up to the result the host looks at, and returns it."""
    served.post("start")
    served.post("empty")
    served.picture = scene["dice"]
    response = served.post("dice")
    assert response.status_code == 200, response.json
    return response.json["result"]


def test_the_host_calibrates_saves_and_the_reader_uses_it_at_once(served, scene, config_home):
    saved_at = config_home / "qwixx-table" / "calibration.json"
    response = served.post("start")
    assert response.status_code == 200 and response.json["step"] == "empty"
    assert response.json["file"] == str(saved_at) and response.json["in_use"] is None
    assert served.table.state()["camera"]["state"] == "calibrating"
    read_before = len(served.reader.calibrations)
    assert served.post("empty").json["step"] == "dice"
    served.picture = scene["dice"]
    response = served.post("dice")
    assert response.status_code == 200, response.json
    result = response.json["result"]
    assert response.json["step"] == "learned"
    assert result["resolution"] == list(SIZE) and 23 < result["die_size"] < 32
    assert set(result["colours"]) == {"white", "red", "yellow", "green", "blue"}
    assert len(result["play_area"]) >= 3 and result["exposure_locked"] is True
    assert all(die["colour"] and len(die["corners"]) >= 3 for die in result["dice"])
    assert isinstance(result["warnings"], list)
    picture = served.host.get("/api/calibration/picture.jpg")
    decoded = cv2.imdecode(np.frombuffer(picture.data, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape[1::-1] == SIZE
    assert len(served.reader.calibrations) == read_before  # laying the dice out was not read as a roll
    assert not saved_at.exists()  # nothing is written before the host saves

    response = served.post("save")
    assert response.status_code == 200 and response.json["step"] is None
    saved = calibration.Calibration.load(saved_at)
    assert saved.to_json() == served.loop.calibration.to_json()
    assert saved.exposure == calibration.Exposure.from_controls(LOCKED)
    assert response.json["in_use"] == {"created": saved.created, "resolution": list(SIZE)}
    assert served.table.state()["camera"]["state"] == "watching"
    assert wait_for(lambda: served.reader.calibrations[-1] is not None)
    assert served.reader.calibrations[-1].to_json() == saved.to_json()


def test_a_restarted_table_reads_with_the_saved_calibration(served, scene, database, monkeypatch):
    learned(served, scene)
    served.post("save")
    served.close()
    again = Served(database, scene["dice"], monkeypatch)
    try:
        assert again.loop.calibration.to_json() == served.loop.calibration.to_json()
        assert again.reader.calibrations[-1].to_json() == served.loop.calibration.to_json()
    finally:
        again.close()


def test_cancelling_changes_nothing_and_rolls_are_read_again(served, scene, config_home):
    learned(served, scene)
    read_before = len(served.reader.calibrations)
    response = served.post("cancel")
    assert response.status_code == 200 and response.json["step"] is None and response.json["result"] is None
    assert not (config_home / "qwixx-table").exists() and served.loop.calibration is None
    assert served.table.state()["camera"]["state"] == "watching"
    assert wait_for(lambda: len(served.reader.calibrations) > read_before)
    assert served.reader.calibrations[-1] is None


def test_a_table_without_dice_is_not_learned_and_the_step_can_be_taken_again(served, scene, config_home):
    served.post("start")
    served.post("empty")
    response = served.post("dice")  # the dice are not laid out yet
    assert response.status_code == 422 and response.json["error"] == "not-learned"
    assert "found 0 dice, not 6" in response.json["message"]
    state = served.host.get("/api/calibration").json
    assert state["step"] == "dice" and state["result"] is None
    assert served.table.state()["camera"]["state"] == "calibrating"
    served.picture = scene["dice"]
    assert served.post("dice").json["step"] == "learned"
    assert not (config_home / "qwixx-table").exists()


def test_a_calibration_that_cannot_be_written_is_refused_and_saved_once_it_can(database, scene, monkeypatch,
                                                                               config_home, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the settings expect a folder")
    served = Served(database, scene["empty"], monkeypatch, {"CALIBRATION_FILE": str(blocker / "calibration.json")})
    try:
        learned(served, scene)
        response = served.post("save")
        assert response.status_code == 503 and response.json["error"] == "not-saved"
        assert str(blocker / "calibration.json") in response.json["message"]
        assert served.host.get("/api/calibration").json["step"] == "learned"
        assert served.loop.calibration is None and served.table.state()["camera"]["state"] == "calibrating"
        blocker.unlink()
        assert served.post("save").status_code == 200
        assert calibration.Calibration.load(blocker / "calibration.json").to_json() == served.loop.calibration.to_json()
    finally:
        served.close()


def test_a_damaged_calibration_file_keeps_the_camera_on_and_calibrating_mends_it(database, scene, monkeypatch,
                                                                                   config_home):
    saved_at = config_home / "qwixx-table" / "calibration.json"
    saved_at.parent.mkdir(parents=True)
    saved_at.write_text('{"format": "qwixx-calibration/1", "resolu')  # cut short: a power cut while it was written
    served = Served(database, scene["empty"], monkeypatch)
    try:
        assert served.loop.calibration is None and served.reader.calibrations[-1] is None
        assert served.table.state()["camera"]["state"] == "watching"
        notice = served.table.state()["notice"]
        assert "calibration cannot be used" in notice and "damaged calibration file" in notice
        learned(served, scene)
        assert served.post("save").status_code == 200
        assert served.table.state()["notice"] is None
        assert calibration.Calibration.load(saved_at).to_json() == served.loop.calibration.to_json()
    finally:
        served.close()


def test_a_calibration_of_another_picture_shape_is_set_aside_and_said_so(database, scene, monkeypatch, config_home):
    corners = ((0.0, 0.0), (960.0, 0.0), (960.0, 720.0), (0.0, 720.0))
    calibration.Calibration((960, 720), 30.0, {}, corners).save(config_home / "qwixx-table" / "calibration.json")
    served = Served(database, scene["empty"], monkeypatch)  # the camera sends SIZE, 16:9
    try:
        assert served.loop.calibration is None and served.reader.calibrations[-1] is None
        assert "another aspect ratio" in served.table.state()["notice"]
        assert served.host.get("/api/calibration").json["in_use"] is None
    finally:
        served.close()


def test_the_demo_recording_is_not_calibrated_from(database, config_home):
    app = create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": PIN})
    loop = start_camera(app, "demo")
    try:
        host = app.test_client()
        host.post("/api/host", json={"pin": PIN})
        response = host.post("/api/calibration/start")
        assert response.status_code == 409 and response.json["error"] == "demo"
        assert "The demo recording is not your table" in response.json["message"]
        assert app.extensions["qwixx"].state()["camera"]["state"] != "calibrating"
    finally:
        loop.stop()


def test_steps_out_of_order_and_strangers_are_refused(served):
    stranger = served.app.test_client()
    response = served.post("start", stranger)
    assert response.status_code == 403 and response.json["error"] == "host-only"
    assert stranger.get("/api/calibration").status_code == 403
    assert served.table.state()["camera"]["state"] == "watching"
    for step in ("empty", "dice", "save"):
        response = served.post(step)
        assert response.status_code == 409 and response.json["message"] == "No calibration is going on: start one first."
    served.post("start")
    for step, message in (("dice", "Take the empty table first."), ("save", "Take the empty table first.")):
        response = served.post(step)
        assert response.status_code == 409 and response.json["message"] == message
    assert served.host.get("/api/calibration/picture.jpg").status_code == 404
    response = served.host.post("/api/calibration/empty", json={"frames": 3})
    assert response.status_code == 400
    assert served.host.get("/api/calibration").json["step"] == "empty"


def test_the_host_sets_the_play_area_and_it_is_saved(served, scene, config_home):
    result = learned(served, scene)
    width, height = result["resolution"]
    frame = [[0, 0], [width, 0], [width, height], [0, height]]
    response = served.host.post("/api/calibration/play-area", json={"corners": frame})
    assert response.status_code == 200, response.json
    assert response.json["result"]["play_area"] == frame and response.json["step"] == "learned"
    served.post("save")
    saved = calibration.Calibration.load(config_home / "qwixx-table" / "calibration.json")
    assert saved.play_area == tuple((float(x), float(y)) for x, y in frame)
    assert served.loop.calibration.play_area == saved.play_area


@pytest.mark.parametrize("corners, status, says", [
    ("all of it", 400, "corners must be a list"),
    ([[0, 0], [10, 0]], 400, "corners must have 3 to 32 entries"),
    ([[0, 0], [10, 0], [10, "ten"]], 400, "corners[2]'s y must be a number"),
    ([[0, 0], [10, 0], [10, 10, 10]], 400, "corners[2] must be a corner [x, y] in the picture's pixels"),
    ([[0, 0], [2000, 0], [2000, 500], [0, 500]], 422, "must lie in the picture (0 to 960 across, 0 to 540 down)"),
    ([[0, 0], [960, 540], [960, 0], [0, 540]], 422, "edges cross"),
    ([[0, 0], [400, 0], [400, 540], [0, 540]], 422, "must hold the dice laid out for it: the"),
])
def test_a_bad_play_area_is_refused_and_the_learned_one_kept(served, scene, corners, status, says):
    before = learned(served, scene)["play_area"]
    response = served.host.post("/api/calibration/play-area", json={"corners": corners})
    assert response.status_code == status and says in response.json["message"], response.json
    assert served.host.get("/api/calibration").json["result"]["play_area"] == before


def test_the_play_area_is_set_only_on_a_result_and_by_the_host(served, scene):
    square = {"corners": [[0, 0], [960, 0], [960, 540], [0, 540]]}
    response = served.host.post("/api/calibration/play-area", json=square)
    assert response.status_code == 409 and response.json["message"] == "No calibration is going on: start one first."
    learned(served, scene)
    stranger = served.app.test_client()
    assert stranger.post("/api/calibration/play-area", json=square).status_code == 403
    response = served.host.post("/api/calibration/play-area", data="[0, 0]", content_type="application/json")
    assert response.status_code == 400
    response = served.host.post("/api/calibration/play-area", data='{"corners": [[0, 0], [NaN, 0], [5, 5]]}',
                                content_type="application/json")
    assert response.status_code == 400 and "must be a number" in response.json["message"]


def test_calibrating_again_lets_the_camera_settle_its_exposure_under_the_light_of_now(database, scene, monkeypatch,
                                                                                     config_home):
    # The calibration in use was made under another lamp: its exposure fixes the camera until the host calibrates.
    old_lamp = {"ExposureTime": 40000, "AnalogueGain": 4.0, "ColourGains": (2.4, 1.2), "LensPosition": 1.2}
    old = learn(scene["empty"], scene["dice"], read_dice, exposure=calibration.Exposure.from_controls(old_lamp))
    old.save(calibration.default_path())
    served = Served(database, scene["empty"], monkeypatch)
    try:
        assert served.opened == [old.exposure.as_controls()] and served.opened[0]["LensPosition"] == 1.2
        served.post("start")
        assert wait_for(lambda: len(served.opened) == 2) and served.opened[1] is None  # reopened, free to settle
        served.post("cancel")
        assert wait_for(lambda: len(served.opened) == 3) and served.opened[2] == old.exposure.as_controls()
        learned(served, scene)
        assert served.post("save").status_code == 200
        saved = calibration.Calibration.load(calibration.default_path())
        assert saved.exposure == calibration.Exposure.from_controls(LOCKED)  # what the camera settled at
        assert saved.exposure.lens_position == 1.4  # and focused at
        assert len(served.opened) == 4  # and keeps: saving reopens nothing
    finally:
        served.close()


def test_a_roll_being_read_is_not_interrupted(database, scene, monkeypatch, config_home):
    served = Served(database, scene["empty"], monkeypatch)
    try:
        # The loop says nothing from here, the table's camera state is the test's (pausing its reading reopens the
        # camera, which says "calibrating" when it opens, at a moment of its own).
        served.loop.stop()
        served.table.camera_event({"event": "roll-started"})
        response = served.post("start")
        assert response.status_code == 409 and response.json["error"] == "dice-rolling"
        assert served.table.state()["camera"]["state"] == "moving"
        assert served.host.get("/api/calibration").json["step"] is None
        served.table.camera_at_rest([])  # it was a hand passing over the table
        assert served.post("start").status_code == 200
    finally:
        served.close()


def test_without_a_camera_calibration_is_refused(host, table):
    before = table.state()["camera"]
    response = host.post("/api/calibration/start")
    assert response.status_code == 409 and response.json["error"] == "no-camera"
    assert table.state()["camera"] == before
    assert host.get("/api/calibration").json == {"step": None, "file": str(calibration.default_path()),
                                                 "camera": False, "in_use": None, "result": None}


def test_the_camera_loop_averages_the_next_frames_and_keeps_what_it_has_when_they_stop(table):
    images = [np.full((72, 128, 3), value, np.uint8) for value in (10, 20, 30, 40)]

    class Once(FrameSource):
        description = "four frames"

        def frames(self):
            # Half a second apart (a recording is played at its own pace): the test's thread may be slow to ask for
            # them on a busy machine, and a 0.05-second spacing had let three go by first.
            for index, image in enumerate(images):
                yield Frame(index * 0.5, image)

    loop = CameraLoop(table, Once, lambda colours: None)
    loop.pause_reading()
    assert loop.next_frames(2, timeout_s=0.05) == []  # before the first frame
    loop.start()
    try:
        got = loop.next_frames(2, timeout_s=2)
        assert [int(frame[0, 0, 0]) for frame in got] in ([10, 20], [20, 30], [30, 40])
        assert wait_for(lambda: table.state()["camera"]["state"] == "off")  # the four frames were sent
        assert [int(frame[0, 0, 0]) for frame in loop.next_frames(3, timeout_s=0.1)] == [40]
    finally:
        loop.stop()
