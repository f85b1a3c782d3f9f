"""`qwixx-table serve`: the product. The web app on the local network, the camera loop, the host PIN."""
from __future__ import annotations

import argparse
import logging
import signal
import socket
import sys
import threading

from web.commands.camera_options import add_camera_options


def configure(parser: argparse.ArgumentParser) -> None:
    add_camera_options(parser)
    parser.epilog = "--source none runs without a camera: the host types the dice on the table screen."
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: 0.0.0.0, every network)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    parser.add_argument("--database", default=None, metavar="FILE",
                        help="where games are kept (default: qwixx.sqlite in the app's instance folder)")


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or loopback when there is none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def start_camera(app, spec: str | None, calibration_file: str | None = None, read_dice=None, speed: float = 1.0):
    """Start the camera loop for a source (`None`: the Pi camera if there is one, else the demo; "none": no
    camera). `read_dice` replaces the reader and `speed` plays a recording faster (tests)."""
    import calibration
    import camera
    from vision.tracker import RollTracker
    from web.camera_loop import CameraLoop

    spec = spec or camera.default_source()
    if spec == "none":
        return None
    found = calibration.find(calibration_file)
    locked = found.exposure.as_controls() if found is not None and found.exposure is not None else None

    def open_source():
        # A recording plays round and round; the loop paces it and holds it between rolls.
        return camera.open_source(spec, loop=True, locked_controls=locked)

    def make_tracker(colours):
        return RollTracker(read_dice=read_dice, calibration=found, colours_in_play=colours)

    loop = CameraLoop(app.extensions["qwixx"], open_source, make_tracker, speed=speed)
    app.extensions["qwixx_camera"] = loop
    loop.start()
    return loop


def run(args: argparse.Namespace) -> int:
    from waitress import create_server

    from web.app import create_app

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    app = create_app({"DATABASE": args.database} if args.database else None)
    table = app.extensions["qwixx"]
    host = lan_address() if args.host in ("0.0.0.0", "::", "") else args.host
    try:
        server = create_server(app, host=args.host, port=args.port, threads=app.config["MAX_STREAMS"] + 8,
                               ident="qwixx-table")
    except OSError as error:
        print(f"qwixx-table: cannot listen on {args.host}:{args.port}: {error.strerror}", file=sys.stderr)
        return 1
    table.set_address(f"http://{host}:{server.effective_port}/")
    try:
        camera_loop = start_camera(app, args.source, args.calibration)
    except Exception as error:  # a calibration or source that cannot be used: say so, serve without it
        print(f"qwixx-table: camera not started: {error}", file=sys.stderr)
        camera_loop = None
    stop = threading.Event()
    threading.Thread(target=table.run_timer, args=(stop,), name="timer", daemon=True).start()

    def leave(signum, frame):
        # Ctrl-C, or systemd's SIGTERM: end the live streams first, so that the server's threads can finish.
        table.live.close()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, leave)
    signal.signal(signal.SIGTERM, leave)
    print(f"qwixx-table is serving the table at {table.address}\n"
          f"  table screen: {table.address}table   (on this machine: http://localhost:{server.effective_port}/table)\n"
          f"  also as http://{socket.gethostname()}.local:{server.effective_port}/ where the network allows\n"
          f"  host PIN: {table.pin}\n"
          f"  games are kept in {app.config['DATABASE']}\n"
          f"  camera: {'none: the host types the dice' if camera_loop is None else args.source or 'automatic'}",
          flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        if camera_loop is not None:
            camera_loop.stop()
        server.close()
        table.store.close()
    return 0
