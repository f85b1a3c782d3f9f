#!/usr/bin/env bash
# Installs qwixx-table on Raspberry Pi OS (Bookworm or newer, Pi 4 or Pi 5) as a service that starts with the Pi:
#
#     sudo deploy/install.sh
#
# picamera2, OpenCV and numpy come from Raspberry Pi OS's packages (picamera2 is built against Debian's numpy;
# a numpy from PyPI in the venv would break it), so the venv sees the system's packages and qwixx-table is
# installed without its `cv` extra (opencv-python). Running it again upgrades in place; games are kept.
set -euo pipefail

PREFIX=/opt/qwixx-table
APT=1
SERVICE=1
DRY_RUN=0
SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APT_PACKAGES=(python3-venv python3-pip python3-picamera2 python3-opencv python3-numpy avahi-daemon)

usage() {
    cat <<EOF
usage: sudo $0 [--prefix DIR] [--no-apt] [--no-service] [--dry-run]

  --prefix DIR   where the venv goes (default: $PREFIX)
  --no-apt       do not install Raspberry Pi OS packages (they are already there)
  --no-service   install the command only; no systemd service
  --dry-run      print every step, change nothing
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || { usage >&2; exit 2; }; PREFIX="$2"; shift 2 ;;
        --prefix=*) PREFIX="${1#--prefix=}"; shift ;;
        --no-apt) APT=0; shift ;;
        --no-service) SERVICE=0; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
done

say() { echo "install.sh: $*"; }
run() {
    echo "+ $*"
    if [ "$DRY_RUN" = 0 ]; then "$@"; fi
}

if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root: sudo $0 $*" >&2
    exit 1
fi
if [ -r /etc/os-release ]; then
    . /etc/os-release
    if [ "${VERSION_ID:-0}" -lt 12 ] 2>/dev/null; then
        say "warning: ${PRETTY_NAME:-this system} is older than Bookworm (12); picamera2 needs Bookworm or newer"
    fi
fi
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "install.sh: qwixx-table needs Python 3.11 or newer (Raspberry Pi OS Bookworm has it)" >&2
    exit 1
fi

VENV="$PREFIX/venv"
if [ "$APT" = 1 ]; then
    run apt-get update
    run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
fi
run python3 -m venv --system-site-packages "$VENV"
# pip builds in the folder it is given: from the clone itself, root's build/ and *.egg-info would stay there, in the
# user's way, and the next upgrade would take files removed since from that build/. So from a copy without them.
COPY="$(mktemp -d)"
trap 'rm -rf "$COPY"' EXIT
run tar -C "$SOURCE_DIR" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='./*.egg-info' \
    --exclude=./out -cf "$COPY/source.tar" .
run mkdir "$COPY/source"
run tar -C "$COPY/source" -xf "$COPY/source.tar"
# Not '.[cv]': OpenCV is python3-opencv, and pip keeps the system's numpy because it satisfies numpy>=1.24.
run "$VENV/bin/python" -m pip install --upgrade "$COPY/source"
run "$VENV/bin/python" -c 'import cv2, numpy; print("OpenCV", cv2.__version__, "and numpy", numpy.__version__, "from", numpy.__file__)'
if [ "$SERVICE" = 1 ]; then
    run "$VENV/bin/qwixx-table" install-service
    say "done: the table starts with the Pi. Address and host PIN: journalctl -u qwixx-table"
else
    say "done: run $VENV/bin/qwixx-table serve"
fi
