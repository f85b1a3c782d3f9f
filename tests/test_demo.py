"""The demo recording that `serve` plays without a camera: it plays through camera/'s normal video-file
path, is small, and its truth is what `python -m synth.demo` makes."""
import json
import time

import pytest

import camera


def test_demo_plays_through_the_video_file_source_in_real_time_and_loops():
    with camera.open_source("demo", realtime=True, loop=True) as source:
        assert isinstance(source, camera.VideoFileSource)
        started = time.monotonic()
        first, second = [frame for _, frame in zip(range(2), source)]
    assert first.t == 0 and first.image.shape == (720, 1280, 3)
    assert second.t == pytest.approx(1 / 15, abs=0.01)
    assert time.monotonic() - started >= 0.05  # paced to the recording's own clock


def test_demo_is_small_and_its_truth_is_what_the_script_makes():
    from synth.demo import demo_film

    assert camera.DEMO_VIDEO.stat().st_size < 6_000_000
    assert [r.to_json() for r in demo_film().rolls] == json.loads(camera.DEMO_TRUTH.read_text())["rolls"]
