#!/usr/bin/env bash
# Sets up logo-bot on a Debian machine: system packages from Debian, a .venv
# at the repository root with the project installed, and the practice game
# built. Safe to run again: it only does what is missing.
#
#   ./scripts/setup.sh            everything: playing, the tests and the benchmarks
#   ./scripts/setup.sh --play     only what playing needs (no test tools, no extras)
#   ./scripts/setup.sh --no-apt   skip the Debian packages (install them yourself)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

play_packages=(
    fuse-emulator-sdl     # the emulator the bot plays in
    opense-basic          # free 48K ROM (the Sinclair ROM cannot be shipped)
    fuse-emulator-utils   # fmfconv: Fuse movie files -> video frames
    xvfb                  # a virtual X display when there is no screen
    pasmo                 # Z80 assembler for the practice game
    ffmpeg                # H.264 video of every run
    python3-venv
)
test_packages=(
    fuse-emulator-gtk     # the GTK build (--fuse gtk), with its menu and status bars
    openbox icewm fluxbox # window managers the desktop tests run Fuse under
    i3-wm                 # a tiling window manager (the tiling tests)
    weston xwayland       # a Wayland desktop (weston on Xvfb) whose XWayland the tests play on
    chromium              # headless browser for the test of the run's report page
    fonts-dejavu-core fonts-noto-core  # the fonts the tests give fuse-gtk (a desktop's look)
    xsettingsd            # a desktop's settings (font, theme) served to fuse-gtk in the tests
)

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

want_apt=1
play_only=0
for arg in "$@"; do
    case "$arg" in
        --no-apt) want_apt=0 ;;
        --play) play_only=1 ;;
        -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
        *) echo "setup.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

apt_packages=("${play_packages[@]}")
[ "$play_only" = 1 ] || apt_packages+=("${test_packages[@]}")
if [ "$want_apt" = 1 ]; then
    missing=()
    for pkg in "${apt_packages[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' \
            || missing+=("$pkg")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        say "installing Debian packages: ${missing[*]}"
        sudo_cmd=()
        if [ "$(id -u)" != 0 ]; then
            command -v sudo >/dev/null || {
                echo "setup.sh: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
            sudo_cmd=(sudo)
        fi
        export DEBIAN_FRONTEND=noninteractive
        "${sudo_cmd[@]}" apt-get update -qq
        "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        say "Debian packages: all present"
    fi
fi

python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    say "creating .venv with $("$python" --version)"
    "$python" -m venv .venv
fi
# One stamp per install: the whole one (with the dev extra) also serves --play.
stamp=.venv/.logo-bot-installed
play_stamp=.venv/.logo-bot-installed-play
current() { [ -f "$1" ] && [ ! pyproject.toml -nt "$1" ] && [ ! setup.py -nt "$1" ]; }
if [ "$play_only" = 1 ] && ! current "$stamp" && ! current "$play_stamp"; then
    say "installing the Python packages that playing needs into .venv"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e .
    touch "$play_stamp"
elif [ "$play_only" = 0 ] && ! current "$stamp"; then
    say "installing Python packages into .venv"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e '.[dev]'
    # '.[dev]' includes the pyautogui key backend, whose declared python3-xlib (an old
    # fork) installs over python-xlib's Xlib package and loses X-Resource: put the real
    # python-xlib back over it.
    .venv/bin/python -m pip install -q --force-reinstall --no-deps "python-xlib>=0.33"
    touch "$stamp"
else
    say "Python packages: up to date"
fi

if [ -f game/build.py ]; then
    say "building the practice game"
    .venv/bin/python -m game.build
fi
say "ready"
