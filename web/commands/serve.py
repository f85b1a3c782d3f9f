"""`qwixx-table serve`: the product. The web app on the local network, the camera loop, the host PIN."""
from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import struct
import sys
import threading

from web.commands.camera_options import add_camera_options

log = logging.getLogger(__name__)


def configure(parser: argparse.ArgumentParser) -> None:
    from web.settings import add_flag

    add_camera_options(parser)  # --config, --source, --calibration, --resolution
    parser.epilog = "--source none runs without a camera: the host types the dice on the table screen."
    add_flag(parser, "host", help="address to listen on (default: 0.0.0.0, every network)")
    add_flag(parser, "port", type=int, help="port to listen on (default: 8000)")
    add_flag(parser, "database", metavar="FILE",
             help="where games are kept (default: qwixx.sqlite in the data folder)")


STREAM_BUFFER_BYTES = 256 * 1024
ADDRESS_CHECK_S = 30.0  # how often the address phones join at is looked at again


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or loopback when there is none. The route to
    a far address gives it where there is a default route; a Pi that is its own Wi-Fi hotspot has none, and then its
    network interfaces' addresses give it."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            pass
    return next(iter(interface_addresses()), "127.0.0.1")


def interface_addresses() -> list[str]:
    """The IPv4 addresses of this machine's network interfaces, loopback left out (Linux; elsewhere none)."""
    try:
        import fcntl
    except ImportError:
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in socket.if_nameindex():
            try:  # SIOCGIFADDR: the interface's address, in a struct ifreq
                request = fcntl.ioctl(sock.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))
            except OSError:  # no IPv4 address on it
                continue
            address = socket.inet_ntoa(request[20:24])
            if not address.startswith("127."):
                found.append(address)
    return found


def local_name(timeout_s: float = 2.0) -> str | None:
    """`<hostname>.local` when this machine answers to it (avahi-daemon on Raspberry Pi OS), else None.

    Resolved in a thread: a resolver without mDNS may take seconds to say no, and the start must not wait."""
    name = f"{socket.gethostname().split('.')[0]}.local"
    found: list[str] = []
    lookup = threading.Thread(target=lambda: found.extend(_resolves(name)), daemon=True)
    lookup.start()
    lookup.join(timeout_s)
    return name if found else None


def _resolves(name: str) -> list[str]:
    try:
        return [info[4][0] for info in socket.getaddrinfo(name, None)]
    except OSError:
        return []


def addresses(host: str, port: int) -> tuple[str, str | None]:
    """(the address in the QR code, the short name to type or None). The QR code holds the IP address: every
    phone can open it, while some Android phones cannot resolve `.local` names."""
    if host in ("0.0.0.0", "::", ""):
        name = local_name()
        return f"http://{lan_address()}:{port}/", f"http://{name}:{port}/" if name else None
    return f"http://{host}:{port}/", None


def start_camera(app, spec: str | None, calibration_file=None, size: tuple[int, int] = (1280, 720), read_dice=None,
                 speed: float = 1.0, exposure_ev: float = 0.0):
    """Start the camera loop for a source (`None` or "auto": the Pi camera if there is one, else the demo; "none":
    no camera; `exposure_ev` as camera.open_source takes it). `read_dice` replaces the reader and `speed` plays a
    recording faster (tests)."""
    import calibration
    import camera
    from vision.tracker import RollTracker
    from web.camera_loop import CameraLoop
    from web.commands.camera_options import locked_controls

    if spec in (None, "auto"):
        from camera.picamera import why_no_camera

        missing = why_no_camera()
        # The service is the table's own (systemd's StateDirectory): there the demo's dice would pass for the players'.
        fallback = "none" if os.environ.get("STATE_DIRECTORY") else "demo"
        if missing is not None:
            log.warning("no Pi camera (%s): %s", missing,
                        "the host types the dice" if fallback == "none" else "the demo recording plays")
        spec = "picamera" if missing is None else fallback
    if spec == "none":
        return None
    # The calibration the loop holds now, whose exposure the camera keeps unless the host is calibrating again.
    def open_source():
        # A recording plays round and round; the loop paces it and holds it between rolls.
        return camera.open_source(spec, size=size, loop=True, exposure_ev=exposure_ev,
                                  locked_controls=locked_controls(None if loop.exposure_free else loop.calibration,
                                                                  exposure_ev))

    def make_tracker(colours):
        return RollTracker(read_dice=read_dice, calibration=loop.calibration, colours_in_play=colours)

    try:
        found, trouble = calibration.find(calibration_file), None
    except calibration.CalibrationError as error:
        found, trouble = None, str(error)
    loop = CameraLoop(app.extensions["qwixx"], open_source, make_tracker, speed=speed, calibration=found,
                      demo=spec == "demo")
    if trouble is not None:
        loop.set_aside_calibration(trouble)
    app.extensions["qwixx_camera"] = loop
    loop.start()
    return loop


def run(args: argparse.Namespace) -> int:
    from waitress import create_server

    from web.app import create_app
    from web.settings import for_command
    from web.store import StorageError

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    settings = for_command(args)  # a bad file: the command line says so, with its exit status
    database = settings.database_path()
    try:
        database.parent.mkdir(parents=True, exist_ok=True)
        app = create_app({"DATABASE": str(database), "DATABASE_ALONE": True, "HOST_PIN": settings.host_pin or None,
                          "SPEECH": settings.speech, "TIMER": settings.timer,
                          "CALIBRATION_FILE": str(settings.calibration_file()), "SETTINGS": settings})
    except (OSError, StorageError) as error:
        print(f"qwixx-table: cannot keep games in {database}: {error}", file=sys.stderr)
        return 1
    table = app.extensions["qwixx"]
    try:
        # A live page's stream never ends, and waitress keeps everything written to a response's buffer until
        # the buffer reaches outbuf_high_watermark (16 MB by default, waitress issue #265): 16 MB per open page.
        # A small watermark makes it start a fresh buffer (and free the old one) every 256 KB.
        # max_request_body_size: a body far over the app's limit is refused before it is read (waitress would take
        # in up to 1 GB, into a file, before the app's 413); one a little over it gets the app's 413, which says why.
        server = create_server(app, host=settings.host, port=settings.port, threads=app.config["MAX_STREAMS"] + 8,
                               ident="qwixx-table", outbuf_high_watermark=STREAM_BUFFER_BYTES,
                               max_request_body_size=4 * app.config["MAX_CONTENT_LENGTH"])
    except OSError as error:
        print(f"qwixx-table: cannot listen on {settings.host}:{settings.port}: {error.strerror}", file=sys.stderr)
        return 1
    address, name_address = addresses(settings.host, server.effective_port)
    table.set_address(address, name_address)
    try:
        camera_loop = start_camera(app, settings.source, settings.calibration_path(), settings.size,
                                   exposure_ev=settings.exposure)
    except Exception as error:  # a calibration or source that cannot be used: say so, serve without it
        print(f"qwixx-table: camera not started: {error}", file=sys.stderr)
        table.camera_state("off", f"The camera could not be started ({error}): the host types the dice.")
        camera_loop = None
    stop = threading.Event()
    threading.Thread(target=table.run_timer, args=(stop,), name="timer", daemon=True).start()

    def follow_the_address():
        # The network may come up after the table (a hotspot, Wi-Fi joining late): the QR code follows it.
        while not stop.wait(ADDRESS_CHECK_S):
            now = addresses(settings.host, server.effective_port)
            if now != (table.address, table.name_address):
                table.set_address(*now)

    threading.Thread(target=follow_the_address, name="address", daemon=True).start()

    def leave(signum, frame):
        # Ctrl-C, or systemd's SIGTERM: end the live streams first, so that the server's threads can finish.
        table.live.close()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, leave)
    signal.signal(signal.SIGTERM, leave)
    camera_text = ("none: the host types the dice" if camera_loop is None
                   else "the demo recording, whose dice are not yours" if camera_loop.demo else settings.source)
    print(f"qwixx-table is serving the table at {name_address or address}\n"
          + (f"  or, by address: {address}\n" if name_address else "")
          + f"  table screen: {address}table   (on this machine: http://localhost:{server.effective_port}/table)\n"
          f"  host PIN: {table.pin}\n"
          f"  games are kept in {database}\n"
          f"  settings: {settings.path or 'the defaults (no settings file)'}\n"
          f"  camera: {camera_text}",
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
