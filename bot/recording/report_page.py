"""``report.html``: one page that shows a run at a glance, from ``file://`` with no
network: the numbers, the video with a list of levels that seeks it, a table of levels
and two plots; and two runs side by side. Every text from the run is escaped; every file
is linked relatively (the style, the script and the escaping are in
``bot.recording.report_html``)."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from logo_bot.bot.play.progress import clock
from logo_bot.bot.recording.folder import RunFolder
from logo_bot.bot.recording.report_data import LevelRow, RunData, load
from logo_bot.bot.recording.report_html import e, href, page, rel, target_svg
from logo_bot.bot.recording.report_plots import keys_plot, seconds_plot

log = logging.getLogger(__name__)
REPORT = "report.html"


def write_report(
    folder: RunFolder,
    out: Path | None = None,
    plots: bool = True,
    writing: Callable[[], AbstractContextManager[object]] = contextlib.nullcontext,
) -> Path:
    """Write the run's report (``report.html`` in its folder, or ``out``), whole or not at
    all; returns its path. Without ``plots`` it takes milliseconds (a forced end). The
    page is read and written inside ``writing()`` (the recording's one-writer lock), the
    plots drawn outside it."""
    path = out or folder.path / REPORT
    base = path.parent
    plotted = _plots_html(_plots([load(folder)], base, path.stem), base) if plots else ""
    with writing():
        data = load(folder)
        body = _header(data, base) + _player(data, base, "video") + _levels_table(data, base)
        _write(path, page(f"logo-bot run {data.name}", body + plotted))
    return path


def _write(path: Path, text: str) -> None:
    """``text`` into ``path`` by a rename: a reader never sees half a page."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_compare(first: RunFolder, second: RunFolder, out: Path | None = None) -> Path:
    """Two runs side by side; written into the first run's folder unless ``out``."""
    a, b = load(first), load(second)
    path = out or first.path / f"compare-{second.path.name}.html"
    base = path.parent
    plots = _plots([a, b], base, path.stem)
    cells = "".join(
        f"<div>{_header(d, base, 'h2')}{_player(d, base, f'video{i}')}</div>"
        for i, d in enumerate((a, b))
    )
    body = f"<h1>{e(a.name)} against {e(b.name)}</h1><div class='runs'>{cells}</div>"
    body += _plots_html(plots, base) + _compare_table(a, b)
    _write(path, page(f"logo-bot: {a.name} against {b.name}", body))
    return path


# -- the header ------------------------------------------------------------------------
def _header(data: RunData, base: Path, tag: str = "h1") -> str:
    run, totals = data.run, data.totals
    status = str(run.get("status") or "unknown")
    facts: list[tuple[str, str]] = []
    facts.append(("levels done", f"{totals.get('levels_done', 0)} of {data.requested}"
                  + _levels_span(data)))  # fmt: skip
    seconds = run.get("seconds")
    wall = clock(seconds) if isinstance(seconds, (int, float)) else "-"
    facts.append(("wall time", e(f"{wall} (started {run.get('started') or '-'})")))
    facts.append(("speed", e(f"{data.speed} %") if data.speed else "-"))
    keys = totals.get("keys_sent", 0)
    facts.append(("keys", e(f"{keys} sent, fewest planned {totals.get('fewest_presses', 0)}, "
                            f"lower bound {totals.get('lower_bound', 0)}")))  # fmt: skip
    corrections = totals.get("corrections") or {}
    facts.append(("corrections", _counts(corrections)))
    failures = data.failures_by_kind()
    facts.append(("failures", _counts(failures)))
    facts.append(("restarts of Fuse", e(f"{totals.get('restarts', 0)} "
                                        f"({data.count('crash')} after a crash)")))  # fmt: skip
    facts.append(("versions", _versions(run.get("versions") or {})))
    facts.append(("command", f"<code>{e(' '.join(map(str, run.get('command') or [])))}</code>"))
    error = run.get("error")
    if error:
        facts.append(("stopped because", f"<span class='error'>{e(error)}</span>"))
    rows = "".join(f"<dt>{e(k)}</dt><dd>{v}</dd>" for k, v in facts)
    badge = f"<span class='status {e(status)}'>{e(status)}</span>"
    if data.video is None and video_unfinished(data):
        badge += " <span class='status unfinished'>video unfinished</span>"
    return f"<{tag}>{e(data.name)} {badge}</{tag}><dl class='facts'>{rows}</dl>"


def video_unfinished(data: RunData) -> bool:
    """Whether the run's video was not written because a stop cut its writing short."""
    return bool((data.run.get("video") or {}).get("unfinished"))


def _levels_span(data: RunData) -> str:
    wanted = data.run.get("requested") or {}
    if wanted.get("first") is None:
        return ""
    return e(f" (levels {wanted['first']}-{wanted['last']})")


def _counts(counts: dict) -> str:
    if not counts:
        return "none"
    return e(", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(counts.items())))


def _versions(versions: dict) -> str:
    parts = []
    for name in ("logo_bot", "fuse", "python", "skoolkit"):
        if versions.get(name):
            parts.append(f"{name.replace('_', '-')} {versions[name]}")
    game = versions.get("game") or {}
    if game.get("sha256"):
        parts.append(f"game {Path(str(game.get('path') or '')).name} {game['sha256'][:12]}")
    return e(", ".join(parts) or "-")


# -- the video -------------------------------------------------------------------------
def _player(data: RunData, base: Path, video_id: str) -> str:
    if data.video is None:
        why = (data.run.get("video") or {}).get("error") or "the video is missing"
        later = ""
        if video_unfinished(data):
            return f"<h2>Video</h2><p class='note'>Video {e(why)}.</p>"
        if data.run.get("status") not in ("killed", "running"):
            later = (
                f" <code>logo-bot replay {e(data.folder.name)} --headless</code> "
                "makes one from the run's input recording, when it has one."
            )
        return f"<h2>Video</h2><p class='note'>No video: {e(why)}.{later}</p>"
    items = []
    for row in data.rows:
        if row.video_s is None:
            continue
        items.append(
            f"<li><a class='seek' href='#{e(video_id)}' data-video='{e(video_id)}' "
            f"data-t='{row.video_s:.3f}'>Level {row.level}</a> "
            f"<span class='note'>{e(clock(row.video_s))}</span></li>"
        )
    missing = [str(row.level) for row in data.rows if row.video_s is None]
    if missing:
        items.append(
            f"<li class='note' style='list-style:none'>not in the video: level "
            f"{e(', '.join(missing))} (Fuse's movie of that part is missing)</li>"
        )
    annotated = ""
    if data.annotated:
        annotated = (
            f"<p><a href='{href(rel(data, data.annotated, base))}'>annotated video</a> "
            "(what the bot read, drawn on the frames it grabbed)</p>"
        )
    return (
        "<h2>Video</h2><div class='player'>"
        f"<video id='{e(video_id)}' controls preload='metadata' "
        f"src='{href(rel(data, data.video, base))}'></video>"
        f"<ol class='chapters'>{''.join(items)}</ol></div>{annotated}"
    )


# -- plots -----------------------------------------------------------------------------
def _plots(runs: Sequence[RunData], base: Path, stem: str) -> list[tuple[str, Path]]:
    """The SVG plots next to the page (``<page>-keys.svg``, ``<page>-seconds.svg``)."""
    out = []
    for title, make, suffix in (
        ("Keys over the run (x: corrections, o: failures)", keys_plot, "keys"),
        ("Seconds per level", seconds_plot, "seconds"),
    ):
        path = base / f"{stem}-{suffix}.svg"
        try:
            out.append((title, make(runs, path)))
        except (ImportError, OSError, ValueError) as exc:
            log.warning("no plot %s: %s", path.name, exc)
    return out


def _plots_html(plots: list[tuple[str, Path]], base: Path) -> str:
    figures = "".join(
        f"<figure><h2>{e(title)}</h2><img class='plot' alt='{e(title)}' "
        f"src='{href(path.relative_to(base).as_posix())}'></figure>"
        for title, path in plots
    )
    return f"<div class='plots'>{figures}</div>"


# -- the table of levels ---------------------------------------------------------------
def _levels_table(data: RunData, base: Path) -> str:
    if not data.rows:
        return "<h2>Levels</h2><p class='note'>No level was reached.</p>"
    longest = max((r.get("seconds") or 0 for r in data.rows), default=0) or 1
    head = (
        "<tr><th>level</th><th>target</th><th>status</th><th>keys / fewest (bound)</th>"
        "<th>seconds</th><th>corrections and failures</th><th>end</th></tr>"
    )
    body = "".join(_level_row(data, row, base, longest) for row in data.rows)
    return f"<h2>Levels</h2><table id='levels'><thead>{head}</thead><tbody>{body}</tbody></table>"


def _level_row(data: RunData, row: LevelRow, base: Path, longest: float) -> str:
    level = f"{row.level}"
    if row.video_s is not None and data.video:
        level = f"<a class='seek' href='#video' data-t='{row.video_s:.3f}'>{row.level}</a>"
    status = e(row.get("status"))
    if row.get("reason"):
        status += f"<br><span class='note'>{e(row.get('reason'))}</span>"
    if (row.get("attempts") or 1) > 1:
        status += f"<br><span class='note'>{e(row.get('attempts'))} attempts</span>"
    keys = "-"
    if row.get("keys_sent") is not None:
        keys = e(f"{row.get('keys_sent')} / {row.get('planned_presses', '-')} "
                 f"({row.get('lower_bound', '-')})")  # fmt: skip
    seconds = row.get("seconds")
    timing = "-"
    if isinstance(seconds, (int, float)):
        width = max(1, round(120 * seconds / longest))
        timing = f"<span class='bar' style='width:{width}px'></span> {seconds:.1f}"
    marks = _marks(data, row, base)
    end = "-"
    if row.end_png:
        end = (
            f"<a href='{href(rel(data, row.end_png, base))}'><img class='end' loading='lazy' "
            f"alt='level {row.level} at its end' src='{href(rel(data, row.end_png, base))}'></a>"
        )
    return (
        f"<tr class='level' data-level='{row.level}'><td>{level}</td>"
        f"<td>{target_svg(row.target, data.run)}</td><td>{status}</td>"
        f"<td class='num'>{keys}</td><td>{timing}</td><td>{marks or '-'}</td><td>{end}</td></tr>"
    )


def _marks(data: RunData, row: LevelRow, base: Path) -> str:
    """Corrections and failures by kind, each numbered and linked to its picture."""
    kinds: dict[str, list[str | None]] = {}
    for mark in row.marks:
        kinds.setdefault(mark.kind, []).append(mark.picture)
    parts = []
    for kind, pictures in kinds.items():
        links = " ".join(
            f"<a href='{href(rel(data, picture, base))}'>{n}</a>"
            for n, picture in enumerate(pictures, start=1)
            if picture
        )
        parts.append(f"{e(kind.replace('_', ' '))} &times;{len(pictures)}" + (
            f" <span class='pics'>{links}</span>" if links else ""))  # fmt: skip
    return "<br>".join(parts)


# -- two runs --------------------------------------------------------------------------
def _compare_table(a: RunData, b: RunData) -> str:
    rows_a = {r.level: r for r in a.rows}
    rows_b = {r.level: r for r in b.rows}
    head = (
        "<tr><th>level</th><th>target</th>"
        f"<th>{e(a.name)}: status, keys, seconds</th><th>{e(b.name)}: status, keys, seconds</th>"
        "<th>difference in seconds</th></tr>"
    )
    lines = []
    for level in sorted(set(rows_a) | set(rows_b)):
        ra, rb = rows_a.get(level), rows_b.get(level)
        target = (ra and ra.target) or (rb and rb.target)
        diff = "-"
        if ra and rb and ra.get("seconds") is not None and rb.get("seconds") is not None:
            diff = f"{rb.get('seconds') - ra.get('seconds'):+.1f}"
        lines.append(
            f"<tr class='level' data-level='{level}'><td>{level}</td>"
            f"<td>{target_svg(target, a.run)}</td><td>{_brief(ra, 'video0')}</td>"
            f"<td>{_brief(rb, 'video1')}</td><td class='num'>{e(diff)}</td></tr>"
        )
    return (
        f"<h2>Levels</h2><table id='levels'><thead>{head}</thead>"
        f"<tbody>{''.join(lines)}</tbody></table>"
    )


def _brief(row: LevelRow | None, video_id: str) -> str:
    if row is None:
        return "<span class='note'>not played</span>"
    text = e(f"{row.get('status')}, {row.get('keys_sent', '-')} keys, ")
    seconds = row.get("seconds")
    text += e(f"{seconds:.1f} s" if isinstance(seconds, (int, float)) else "- s")
    if row.marks:
        text += e(f", {len(row.marks)} corrections or failures")
    if row.video_s is not None:
        text += (
            f" <a class='seek' href='#{e(video_id)}' data-video='{e(video_id)}' "
            f"data-t='{row.video_s:.3f}'>watch</a>"
        )
    return text
