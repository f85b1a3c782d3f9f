"""Installing on a Raspberry Pi, as far as it can be tried here: the systemd unit and service user, the install
script's steps, a wheel that holds everything, and an install into a venv that sees the system's packages
(numpy and OpenCV from apt, as on Raspberry Pi OS) and must not pull them from PyPI again."""
from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.serve_process import ROOT, free_port
from web import settings
from web.commands import install_service

PACKAGES = ("referee", "vision", "calibration", "camera", "synth", "web")
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")


def unit_entries(text: str) -> dict[str, dict[str, list[str]]]:
    """A unit file as systemd reads it: section -> key -> every value given (keys may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.fixture
def installed_root(tmp_path):
    assert install_service.run(install_service_args(tmp_path)) == 0
    return tmp_path


def install_service_args(root: Path, dry_run: bool = False):
    from web import cli

    extra = ["--dry-run"] if dry_run else []
    return cli.build_parser().parse_args(["install-service", "--root", str(root), *extra])


# ----- the unit and the service user ------------------------------------------------------------------------------

def test_the_unit_runs_serve_as_its_own_user_after_the_network(installed_root):
    unit = unit_entries((installed_root / "etc/systemd/system/qwixx-table.service").read_text())
    service = unit["Service"]
    assert service["ExecStart"] == [f"{sys.executable} -m web.cli serve"]
    assert service["User"] == ["qwixx-table"] and "video" in service["SupplementaryGroups"][0].split()
    assert service["StateDirectory"] == ["qwixx-table"]
    assert service["Restart"] == ["on-failure"]
    assert service["RestartPreventExitStatus"] == [str(settings.EX_CONFIG)]
    assert "network-online.target" in unit["Unit"]["After"][0] and "network-online.target" in unit["Unit"]["Wants"][0]
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]
    # Hardened, but not in the ways that hide the camera or break OpenCV.
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "PrivateTmp": "yes",
                       "ProtectKernelModules": "yes", "RestrictSUIDSGID": "yes"}.items():
        assert service[key] == [value], key
    for breaks_the_camera in ("PrivateDevices", "DevicePolicy", "MemoryDenyWriteExecute", "ProcSubset", "PrivateUsers"):
        assert breaks_the_camera not in service
    assert "AF_NETLINK" in service["RestrictAddressFamilies"][0]


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed (Debian's systemd package)")
def test_systemd_accepts_the_unit_without_a_warning(installed_root):
    unit = installed_root / "etc/systemd/system/qwixx-table.service"
    checked = subprocess.run([SYSTEMD_ANALYZE, "verify", str(unit)], capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stderr.strip() == "", checked.stderr
    exposure = subprocess.run([SYSTEMD_ANALYZE, "security", "--offline=yes", str(unit)], capture_output=True, text=True)
    score = float(exposure.stdout.split("Overall exposure level for qwixx-table.service:")[1].split()[0])
    assert score <= 3.0, exposure.stdout[-2000:]


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="systemd-sysusers is not installed")
def test_the_service_user_is_made_in_the_video_group(installed_root):
    subprocess.run(["systemd-sysusers", f"--root={installed_root}",
                    str(installed_root / "etc/sysusers.d/qwixx-table.conf")], check=True, capture_output=True)
    users = {line.split(":")[0]: line.split(":") for line in (installed_root / "etc/passwd").read_text().splitlines()}
    groups = {line.split(":")[0]: line.split(":") for line in (installed_root / "etc/group").read_text().splitlines()}
    assert users["qwixx-table"][5:] == ["/var/lib/qwixx-table", "/usr/sbin/nologin"]
    assert "qwixx-table" in groups["video"][3].split(",")


def test_install_service_writes_the_unit_the_user_and_a_settings_file_it_never_overwrites(tmp_path, capsys):
    assert install_service.run(install_service_args(tmp_path, dry_run=True)) == 0
    assert list(tmp_path.iterdir()) == []  # a dry run writes nothing
    capsys.readouterr()
    assert install_service.run(install_service_args(tmp_path)) == 0
    written = sorted(str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*") if path.is_file())
    assert written == ["etc/systemd/system/qwixx-table.service", "etc/sysusers.d/qwixx-table.conf",
                       "var/lib/qwixx-table/settings.toml"]
    # enabled as `systemctl enable` does it: the image's first boot starts the table
    wants = tmp_path / "etc/systemd/system/multi-user.target.wants/qwixx-table.service"
    assert os.readlink(wants) == "/etc/systemd/system/qwixx-table.service"
    assert "WantedBy=multi-user.target" in (tmp_path / "etc/systemd/system/qwixx-table.service").read_text()
    settings_file = tmp_path / "var/lib/qwixx-table/settings.toml"
    assert settings.load(settings_file) == settings.Settings()  # every line commented: the defaults
    assert settings_file.stat().st_mode & 0o777 == 0o640  # it may hold the host PIN
    settings_file.write_text("port = 80\n")
    assert install_service.run(install_service_args(tmp_path)) == 0
    assert settings_file.read_text() == "port = 80\n"
    out = capsys.readouterr().out
    assert "kept" in out and "link     " in out and "would run" not in out  # an image runs nothing


def test_a_dry_run_under_root_says_what_the_real_run_then_does(tmp_path, capsys):
    assert install_service.run(install_service_args(tmp_path, dry_run=True)) == 0
    planned = [line.removeprefix("would ").split() for line in capsys.readouterr().out.splitlines()]
    assert install_service.run(install_service_args(tmp_path)) == 0
    assert planned == [line.split() for line in capsys.readouterr().out.splitlines()]
    assert planned[-1][0] == "link"  # enabled in the image; nothing is run there


def test_a_root_that_is_a_file_is_refused_in_one_line(tmp_path, capsys):
    (tmp_path / "afile").touch()
    for dry_run in (True, False):
        assert install_service.run(install_service_args(tmp_path / "afile", dry_run)) == 1
        assert capsys.readouterr().err.splitlines()[-1] == f"qwixx-table: --root {tmp_path / 'afile'} is not a folder"


# ----- the install script -----------------------------------------------------------------------------------------

def run_install_script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(ROOT / "deploy/install.sh"), *args], capture_output=True, text=True)


def test_the_install_script_takes_the_camera_stack_from_apt_and_installs_without_opencv_python(tmp_path):
    prefix = tmp_path / "opt"
    done = run_install_script("--dry-run", "--prefix", str(prefix))
    assert done.returncode == 0, done.stderr
    steps = [line[2:] for line in done.stdout.splitlines() if line.startswith("+ ")]
    apt = next(step for step in steps if step.startswith("apt-get install"))
    assert {"python3-picamera2", "python3-opencv", "python3-numpy", "python3-venv"} <= set(apt.split())
    assert f"python3 -m venv --system-site-packages {prefix}/venv" in steps
    copy = next(step for step in steps if step.startswith(f"tar -C {ROOT} "))  # no build/ left in the clone
    assert "--exclude=./build" in copy and "--exclude=./*.egg-info" in copy
    pip = next(step for step in steps if " -m pip install" in step)
    assert re.search(r"install --upgrade \S+/source$", pip)  # the product alone, not '.[cv]', from the copy
    assert steps[-1] == f"{prefix}/venv/bin/qwixx-table install-service"
    assert not prefix.exists()  # a dry run changes nothing
    assert "install-service" not in run_install_script("--dry-run", "--no-service", "--no-apt").stdout
    refused = run_install_script("--dry-run", "--frobnicate")
    assert refused.returncode == 2 and "unknown option: --frobnicate" in refused.stderr


# ----- the package as pip installs it ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("build")
    # From a copy of the tracked files, so that the checkout gets no build/ or egg-info folder.
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True)
    for name in tracked.stdout.split("\0"):
        if name and (ROOT / name).is_file():
            (build / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, build / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", str(build), "-w", str(folder)], check=True, capture_output=True)
    return next(folder.glob("qwixx_table-*.whl"))


def test_the_wheel_holds_every_file_of_the_packages(wheel):
    tracked = subprocess.run(["git", "ls-files", *PACKAGES], cwd=ROOT, capture_output=True, text=True, check=True)
    wanted = {name for name in tracked.stdout.splitlines() if (ROOT / name).is_file()}
    with zipfile.ZipFile(wheel) as archive:
        missing = wanted - set(archive.namelist())
    assert not missing, f"pyproject.toml's package-data leaves out: {sorted(missing)[:10]}"


def system_site_packages(folder: Path, with_metadata: tuple[str, ...], without_metadata: tuple[str, ...] = ()) -> Path:
    """A stand-in for Raspberry Pi OS's /usr/lib/python3/dist-packages, made of this venv's installed packages:
    those in `without_metadata` have no dist-info, as Debian's python3-opencv has none that pip knows."""
    folder.mkdir()
    for name in with_metadata + without_metadata:
        distribution = importlib.metadata.distribution(name)
        for top in {file.parts[0] for file in distribution.files if file.parts[0] != ".."}:
            if name in without_metadata and top.endswith(".dist-info"):
                continue
            source = Path(distribution.locate_file(top))
            if source.exists() and not (folder / top).exists():
                (folder / top).symlink_to(source)
    return folder


def venv_seeing(folder: Path, system: Path) -> Path:
    """A venv made with --system-site-packages whose system packages are `system` (through a .pth file)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(folder)], check=True)
    site = next(folder.glob("lib/python3*/site-packages"))
    (site / "raspberry-pi-os-packages.pth").write_text(f"{system}\n")
    return folder / "bin" / "python"


def pip(python: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check",
                           *args], capture_output=True, text=True)


# Whichever OpenCV wheel this venv has (opencv-python here, -headless in some), standing in for Debian's python3-opencv.
OPENCV = importlib.metadata.packages_distributions()["cv2"][0]
WEB_DEPENDENCIES = ("flask", "werkzeug", "jinja2", "markupsafe", "itsdangerous", "click", "blinker", "waitress", "segno")


def test_a_pi_install_takes_numpy_and_opencv_from_the_system(tmp_path, wheel):
    system = system_site_packages(tmp_path / "dist-packages", ("numpy", *WEB_DEPENDENCIES), (OPENCV,))
    python = venv_seeing(tmp_path / "venv", system)
    offline = ("--no-index", "--find-links", str(wheel.parent))
    planned = pip(python, "install", "--dry-run", "--report", str(tmp_path / "plan.json"), *offline, "qwixx-table")
    assert planned.returncode == 0, planned.stderr
    to_install = [item["metadata"]["name"] for item in json.loads((tmp_path / "plan.json").read_text())["install"]]
    assert to_install == ["qwixx-table"]
    # The `cv` extra would pull opencv-python (and its own numpy) over the system's, which is why the Pi skips it.
    with_cv = pip(python, "install", "--dry-run", *offline, "qwixx-table[cv]")
    assert with_cv.returncode != 0 and "opencv-python" in with_cv.stderr


def test_the_installed_package_serves_the_pages_from_anywhere(tmp_path, wheel):
    system = system_site_packages(tmp_path / "dist-packages", ("numpy", *WEB_DEPENDENCIES), (OPENCV,))
    python = venv_seeing(tmp_path / "venv", system)
    installed = pip(python, "install", "--no-index", "--no-deps", str(wheel))
    assert installed.returncode == 0, installed.stderr
    port = free_port()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with open(tmp_path / "serve.log", "w") as log:
        server = subprocess.Popen([str(python.parent / "qwixx-table"), "serve", "--source", "none", "--host",
                                   "127.0.0.1", "--port", str(port), "--database", str(tmp_path / "q.sqlite")],
                                  cwd=elsewhere, stdout=log, stderr=subprocess.STDOUT,
                                  env={**os.environ, "XDG_CONFIG_HOME": str(tmp_path)})
    try:
        for path in ("/table", "/static/table.js", "/qr.svg", "/rules"):
            body = _get_when_up(f"http://127.0.0.1:{port}{path}", server)
            assert len(body) > 200, path
    except OSError:
        raise AssertionError("the installed qwixx-table did not serve:\n" + (tmp_path / "serve.log").read_text())
    finally:
        server.terminate()
        server.wait(10)
    assert "site-packages/web" in _where_web_is(python)


def _get_when_up(url: str, server: subprocess.Popen) -> bytes:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read()
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _where_web_is(python: Path) -> str:
    found = subprocess.run([str(python), "-c", "import web; print(web.__file__)"], cwd="/",
                           capture_output=True, text=True, check=True)
    return found.stdout
