"""The look fuse-gtk gets in the tests, whatever the machine has installed.

Every test process pins its fonts with a private fontconfig file (``FONTCONFIG_FILE``):
fuse-gtk's bars are as tall as its font makes them, and a machine with a desktop's
packages (GNOME's, KDE's) has Noto Sans as its ``sans-serif``, where a bare Debian has
only DejaVu Sans. A test that wants a person's desktop serves its settings on its own
display (``desktop_settings``: XSETTINGS, as GNOME's and KDE's settings daemons do): the
UI font and size, the GTK theme, the HiDPI scale.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

FAMILIES = {"dejavu": "DejaVu Sans", "noto": "Noto Sans"}
# the family of every test that does not ask for another (LOGO_TEST_FONT=noto runs the
# whole suite with Noto Sans, as on a machine with GNOME's or KDE's packages)
PINNED = os.environ.get("LOGO_TEST_FONT", "dejavu")
BARS = {"dejavu": 25 + 27, "noto": 27 + 27}  # fuse-gtk's menu and status bars (measured)
GTK_BARS = BARS[PINNED]

FONTS_CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <match target="pattern">
    <edit name="family" mode="prepend_first" binding="strong"><string>{family}</string></edit>
  </match>
</fontconfig>
"""


def fonts_conf(folder: Path, family: str) -> Path:
    """A fontconfig file in ``folder`` that puts ``family`` first for every font asked."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"fonts-{family.replace(' ', '-').lower()}.conf"
    path.write_text(FONTS_CONF.format(family=family))
    return path


def pin_fonts(folder: Path, key: str = PINNED) -> Path:
    """Pin this process's fonts (and those of the programs it starts) to ``key``'s family."""
    path = fonts_conf(folder, FAMILIES[key])
    os.environ["FONTCONFIG_FILE"] = str(path)
    for name in ("GTK_THEME", "GDK_SCALE", "GDK_DPI_SCALE"):  # a person's own, if any
        os.environ.pop(name, None)
    return path


def settings_text(
    font: str | None = None, theme: str | None = None, scale: int | None = None
) -> str:
    """An xsettingsd configuration: ``font`` such as ``"DejaVu Sans 16"``, ``theme`` such
    as ``"Adwaita-dark"``, ``scale`` the HiDPI factor (GNOME's "scale 200 %" is 2)."""
    lines = []
    if font:
        lines.append(f'Gtk/FontName "{font}"')
    if theme:
        lines.append(f'Net/ThemeName "{theme}"')
    if scale:
        lines.append(f"Gdk/WindowScalingFactor {scale}")
        lines.append(f"Gdk/UnscaledDPI {96 * 1024}")
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def desktop_settings(display: str, folder: Path, **settings) -> Iterator[subprocess.Popen]:
    """Serve a desktop's settings on ``display`` (an X client, xsettingsd) until the end of
    the block; GTK programs started meanwhile take them."""
    folder.mkdir(parents=True, exist_ok=True)
    conf = folder / "xsettingsd.conf"
    conf.write_text(settings_text(**settings))
    env = dict(os.environ, DISPLAY=display)
    process = subprocess.Popen(
        ["xsettingsd", "-c", str(conf)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_owned(display, process)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_owned(display: str, process: subprocess.Popen, timeout_s: float = 10) -> None:
    """Until the settings are served: xsettingsd owns the screen's XSETTINGS selection."""
    from Xlib import X
    from Xlib import display as xdisplay

    dpy = xdisplay.Display(display)
    try:
        selection = dpy.intern_atom("_XSETTINGS_S0")
        deadline = time.monotonic() + timeout_s
        while dpy.get_selection_owner(selection) == X.NONE:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"xsettingsd did not serve settings on {display}")
            time.sleep(0.01)
    finally:
        dpy.close()
