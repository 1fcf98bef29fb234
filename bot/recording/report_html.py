"""The HTML the run pages share: their style and script, escaping and relative links,
the page around a body, and the small picture of a target board."""

from __future__ import annotations

import html
import os
from pathlib import Path
from urllib.parse import quote

from logo_bot.bot.recording.report_data import RunData

STONE = {"1": "#f80000", "2": "#00fc00", "3": "#f800f8", "4": "#f8fc00"}  # the practice game

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;
color:#222}
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.1em;margin:1.4em 0 .4em}
.status{display:inline-block;padding:.1em .6em;border-radius:.3em;color:#fff;background:#777}
.complete{background:#3a7d44}.failed{background:#c0392b}.aborted{background:#888}
.killed{background:#6b2f8a}.running{background:#1f5fa8}.unfinished{background:#b7791f}
dl.facts{display:grid;grid-template-columns:max-content auto;gap:.15em 1em;margin:.5em 0}
dl.facts dt{color:#555}dl.facts dd{margin:0}
.player{display:flex;gap:1em;align-items:flex-start;flex-wrap:wrap}
video{width:640px;max-width:100%;background:#000}
ol.chapters{margin:0;padding-left:2.2em;max-width:16em;max-height:480px;overflow:auto;min-width:9em}
table{border-collapse:collapse;width:100%}th,td{padding:.25em .5em;border-bottom:1px solid #ddd;
text-align:left;vertical-align:middle}th{background:#f2f2f2}td.num{text-align:right}
.bar{display:inline-block;height:.7em;background:#1f5fa8;vertical-align:middle}
img.end{width:120px;image-rendering:pixelated}svg.target{display:block}
.note{color:#666}.error{color:#c0392b}.plots{display:flex;flex-wrap:wrap;gap:1em}
.pics a{padding:0 .15em}.plots figure{margin:0;flex:1 1 480px}.plots img{max-width:100%}
a.seek.now{font-weight:bold}
.runs{display:grid;grid-template-columns:1fr 1fr;gap:1em}
"""

SCRIPT = """
document.querySelectorAll('a.seek').forEach(function (link) {
  link.addEventListener('click', function (event) {
    var video = document.getElementById(link.dataset.video || 'video');
    if (!video) { return; }
    event.preventDefault();
    video.currentTime = parseFloat(link.dataset.t);
    video.scrollIntoView({block: 'nearest'});
  });
});
document.querySelectorAll('video').forEach(function (video) {
  var links = Array.from(document.querySelectorAll('ol.chapters a.seek'))
    .filter(function (link) { return (link.dataset.video || 'video') === video.id; });
  video.addEventListener('timeupdate', function () {
    var now = null;
    links.forEach(function (link) {
      if (parseFloat(link.dataset.t) <= video.currentTime + 0.01) { now = link; }
    });
    links.forEach(function (link) { link.classList.toggle('now', link === now); });
  });
});
"""


def e(value: object) -> str:
    """``value`` as HTML text (quotes too, so it can go into attributes)."""
    return html.escape("" if value is None else str(value), quote=True)


def href(path: str) -> str:
    """A relative link to ``path`` (a POSIX path), percent-encoded and then escaped."""
    return e(quote(path))


def page(title: str, body: str) -> str:
    """A whole HTML page: ``body`` with the style and the script that seeks the videos."""
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{e(title)}</title><meta name='viewport' content='width=device-width'>"
        f"<style>{STYLE}</style></head><body>{body}<script>{SCRIPT}</script></body></html>\n"
    )


def rel(data: RunData, relative: str, base: Path) -> str:
    """A path in ``data``'s folder, relative to the page's folder ``base``."""
    return Path(os.path.relpath(data.folder / relative, base)).as_posix()


def target_svg(target: object, run: dict, cell: int = 6) -> str:
    """A small picture of a target board (rows of '.1234') as inline SVG."""
    if not isinstance(target, list) or not target or not all(isinstance(r, str) for r in target):
        return "-"
    colours = stone_colours(run)
    width, height = max(len(r) for r in target) * cell, len(target) * cell
    rects = [f"<rect width='{width}' height='{height}' fill='#000000'/>"]
    for y, line in enumerate(target):
        for x, char in enumerate(line):
            if char in colours:
                rects.append(
                    f"<rect x='{x * cell}' y='{y * cell}' width='{cell - 1}' height='{cell - 1}' "
                    f"fill='{colours[char]}'/>"
                )
    label = e("target: " + " / ".join(target))
    return (
        f"<svg class='target' width='{width}' height='{height}' role='img' "
        f"aria-label='{label}'>{''.join(rects)}</svg>"
    )


def stone_colours(run: dict) -> dict[str, str]:
    """Stone value -> CSS colour, from the profile recorded in run.json (else the
    practice game's)."""
    settings = (run.get("profile") or {}).get("settings") or {}
    palette = settings.get("palette") or {}
    values = (settings.get("values") or {}).get("preview") or {}
    out = dict(STONE)
    for value, name in values.items():
        rgb = palette.get(name)
        if isinstance(rgb, list) and len(rgb) == 3 and all(isinstance(c, int) for c in rgb):
            out[str(value)] = "#{:02x}{:02x}{:02x}".format(*rgb)
    return out
