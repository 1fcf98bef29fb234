"""``logo-bot replay RUN``: play a recorded run (or one level of it) back in Fuse, exactly.

One piece over 300 lines: the three ways to replay (a whole run, one level, an attached
run's video) share one ``ReplayOptions``, the display, and the checks of what was played.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logo_bot.bot.commands import required
from logo_bot.bot.commands.common import add_output_options, setup_logging
from logo_bot.bot.commands.game_options import checked_speed
from logo_bot.bot.commands.recording_options import add_runs_option
from logo_bot.bot.errors import BotError, InputError, UsageError, exit_codes_help
from logo_bot.bot.fuse.builds import OPENSE_ROM
from logo_bot.bot.fuse.session_parts import Segment
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording import video_replay
from logo_bot.bot.recording.chapters import Piece, Timeline, chapters, write_chapters
from logo_bot.bot.recording.encode import encode
from logo_bot.bot.recording.events import read_events
from logo_bot.bot.recording.folder import RunFolder, default_root, find_run
from logo_bot.bot.recording.manifest import sha256
from logo_bot.bot.recording.playback import compare_movies, play
from logo_bot.bot.recording.report_data import REPLAY
from logo_bot.bot.recording.report_page import write_report
from logo_bot.bot.recording.rzx import cut, frame_count, truncate
from logo_bot.bot.see.vision import Vision
from logo_bot.bot.x11.display import XServer, runs_headless
from logo_bot.bot.x11.lost import LostDisplay
from logo_bot.solvers.board import Board

LEAD_IN = 50  # frames shown before a level appears (one emulated second)
LEAD_OUT = 25  # and after it is done: the finished board shows for at least 50 frames
FLASH_PERIOD = 32  # Fuse's FLASH phase repeats every 32 frames: keep it, pixel for pixel

log = logging.getLogger(__name__)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="logo-bot replay",
        description=textwrap.fill(
            "Play a recorded run back in Fuse from its input recording (run.rzx): "
            "the same emulated frames with the same keys, so exactly what happened, faster if "
            "you like. Fuse stops by itself at the end, and the board at the end is checked "
            "against the one recorded. With --level N only that level is shown: the machine "
            "state just before it began is rebuilt from the recording (skoolkit's rzxplay) and "
            "the level's part of the recording is played from there. Every frame is also "
            "compared with the run's own movie (movie.fmf). Exit status: 0 when the replay "
            "matches the recording, 1 when not.",
            79,
        ),
        epilog="RUN is a run folder, a folder name under the recordings directory (or the\n"
        "start of one), or 'last'. Examples:\n"
        "  logo-bot replay last                       watch the latest run on your display\n"
        "  logo-bot replay last --level 2 --speed 50  level 2 in slow motion\n"
        "  logo-bot replay RUN --headless             write RUN/replay.mp4 (no display)\n"
        "  logo-bot replay RUN --level 7 --video l7.mp4 --headless" + "\n\n" + exit_codes_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run", metavar="RUN", help="the run to replay")
    p.add_argument("--level", type=int, metavar="N", help="replay level N alone")
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--headless",
        action="store_true",
        default=None,
        help="play on a private virtual display and write a video (the default when "
        "DISPLAY is unset)",
    )
    where.add_argument("--display", metavar=":N", help="X display to show Fuse on")
    p.add_argument(
        "--speed",
        type=int,
        metavar="PERCENT",
        help="playback speed in percent (default: 100 on a display, 1000 headless)",
    )
    p.add_argument("--scale", type=int, choices=(1, 2, 3), default=1, help="Fuse window scale")
    p.add_argument(
        "--rom",
        type=Path,
        metavar="FILE",
        help="the 48K ROM the run was played with, when it is no longer where run.json says",
    )
    p.add_argument(
        "--video",
        nargs="?",
        const="",
        metavar="MP4",
        help="write the replay as a video (default file: RUN/replay.mp4, or "
        "RUN/levels/NNN/replay.mp4 with --level); on by default when headless",
    )
    add_runs_option(p)
    add_output_options(p)
    return p


@dataclass(frozen=True)
class ReplayOptions:
    """What ``replay`` needs, parsed and checked once."""

    folder: RunFolder  # the run to replay
    level: int | None  # replay this level alone
    headless: bool
    display: str | None
    speed: int
    scale: int
    video: str | None  # --video: None when not given, "" for the default file, else the file
    want_video: bool  # write a video: asked for, or headless
    rom: Path | None = None  # --rom: the run's ROM, found elsewhere


def options_from(args: argparse.Namespace) -> ReplayOptions:
    """The run asked for and how to play it, checked."""
    folder = find_run(args.run, args.runs_dir or default_root())
    headless = runs_headless(args.headless, args.display)
    speed = checked_speed(args.speed or (1000 if headless else 100))
    want_video = args.video is not None or headless
    if args.rom is not None and not args.rom.is_file():
        raise InputError(f"--rom {args.rom}: no such file")
    return ReplayOptions(
        folder,
        args.level,
        headless,
        args.display,
        speed,
        args.scale,
        args.video,
        want_video,
        args.rom,
    )


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    setup_logging(args.verbose)
    options = options_from(args)
    required.for_replay(options)  # a missing part refuses the replay before Fuse starts
    run = options.folder.read()
    if (run.get("fuse") or {}).get("attached"):
        return replay_video(run, options)
    rom = run_rom(run, options.rom)  # before any Fuse: a ROM that is gone is said first
    if options.level is not None:
        return replay_level(run, options, rom)
    return replay_run(run, options, rom)


def replay_video(run: dict[str, Any], options: ReplayOptions) -> int:
    """An attached run: its video, or a level of it, played or cut."""
    folder, headless = options.folder, options.headless
    print(f"logo-bot replay: {folder.name}: {video_replay.EXACT}", file=sys.stderr, flush=True)
    video = folder.path / "video.mp4"
    if not video.is_file():
        raise InputError(f"{folder.name} has no video.mp4 to play", hint="it ran with --no-video")
    start, end = 0.0, None
    out = (
        _video_path(options.video, folder.path / "replay.mp4")
        if options.video is not None
        else None
    )
    if options.level is not None:
        start, end = video_replay.level_stretch(run, options.level)
        level_dir = folder.level_dir(options.level)
        level_dir.mkdir(parents=True, exist_ok=True)
        if out is not None or headless:
            out = _video_path(options.video or "", level_dir / "replay.mp4")
    if out is not None:
        video_replay.cut(video, out, start, end)
        print(f"video: {out}")
    if not headless:
        display = options.display or os.environ["DISPLAY"]
        video_replay.show(video, display, start, end)
    elif out is None:
        print(f"video: {video}")
    return 0


def run_rom(run: dict[str, Any], given: Path | None = None) -> Path:
    """The ROM to replay ``run`` with: ``given`` (--rom), else the one run.json names, else
    (none named) OpenSE BASIC, the default. A named ROM that is gone is an ``InputError``
    unless it was OpenSE BASIC (the same file, found where Debian puts it); a ROM that is
    not the one recorded is replayed all the same, with a warning: the replay may differ."""
    recorded = (run.get("versions") or {}).get("rom") or {}
    path, digest = recorded.get("path"), recorded.get("sha256")
    rom = given
    if rom is None and path and Path(path).is_file():
        rom = Path(path)
    if rom is None and path and digest and digest == sha256(OPENSE_ROM):
        rom = OPENSE_ROM
    if rom is None and path:
        raise InputError(
            f"the run was played with the ROM {path}, which is no longer there",
            hint="give that ROM with --rom FILE",
        )
    rom = rom or OPENSE_ROM
    if digest and sha256(rom) != digest:
        log.warning("%s is not the ROM the run was played with: the replay may differ", rom)
    return rom


def _vision(run: dict[str, Any]) -> Vision:
    name = (run.get("profile") or {}).get("name") or "practice"
    try:
        return Vision(load_profile(name), 1)
    except BotError:
        return Vision(load_profile("practice"), 1)


def _board(rows: list[str] | None) -> Board | None:
    return Board.from_rows(rows) if rows else None


def _server(options: ReplayOptions) -> XServer:
    return XServer.start() if options.headless else XServer.existing(options.display)


def replay_run(run: dict[str, Any], options: ReplayOptions, rom: Path) -> int:
    folder, speed = options.folder, options.speed
    segments = [s for s in run.get("segments", []) if s.get("rzx")]
    if not segments:
        raise UsageError(
            f"{folder.name} has no input recording (run.rzx) to replay",
            hint="Fuse wrote none: it was killed, or the run was made with --no-record",
        )
    for seg in segments:  # before any program starts
        if not (folder.path / seg["rzx"]).is_file():
            raise InputError(
                f"{folder.path / seg['rzx']} is missing: the run cannot be replayed",
                hint=f"put the run's {seg['rzx']} back, or play its video.mp4 instead",
            )
    played: list[Segment] = []
    identical = True
    with LostDisplay() as lost, _server(options) as server:
        lost.watch(server)
        for seg in segments:
            source = folder.path / seg["rzx"]
            number = seg["number"]
            rzx = folder.path / f"replay-{number}.rzx"
            truncate(source, frame_count(source), rzx, pad=1)  # see truncate: the last frame
            movie = folder.path / f"replay-{number}.fmf"
            print(f"playing {source.name} ({frame_count(source)} frames) at {speed} %", flush=True)
            playback = play(rzx, server, speed, options.scale, rom, movie)
            lost.check()  # Fuse ends with its display: the replay did not end by itself
            rzx.unlink(missing_ok=True)
            played.append(Segment(number, 0.0, 0.0, speed, source, playback.movie))
            identical &= _same_pictures(folder, number, movie, 0, 0, _vision(run))
    video = _video_path(options.video, folder.path / REPLAY) if options.want_video else None
    encoded = encode(played, _vision(run), video)
    for seg in played:
        if seg.movie:
            seg.movie.unlink(missing_ok=True)
    if video and encoded.video:
        _chapters(folder, run, encoded.video, Timeline.of_segments(encoded.frames))
        print(f"video: {video} ({encoded.video_frames} frames)")
        if video == folder.path / REPLAY and not (run.get("video") or {}).get("path"):
            report = write_report(folder)  # the run had no video: its page shows this one
            print(f"report: {report.resolve().as_uri()}")
    last = segments[-1]
    want = _board(last.get("final_board"))
    if want is None and run.get("status") == "complete" and run.get("levels"):
        want = _board(run["levels"][-1].get("end_board"))  # recorded without a movie
    seen = encoded.final_boards.get(last["number"])
    return max(_verdict("the run's end", want, seen), 0 if identical else 1)


def replay_level(run: dict[str, Any], options: ReplayOptions, rom: Path) -> int:
    folder, speed = options.folder, options.speed
    number = options.level
    assert number is not None  # called for a level only
    entry = next((e for e in run.get("levels", []) if e["level"] == number), None)
    if entry is None:
        played = ", ".join(str(e["level"]) for e in run.get("levels", [])) or "none"
        raise UsageError(f"level {number} is not in {folder.name} (levels played: {played})")
    segment, start, end = _level_frames(folder, run, entry)
    seg = next(s for s in run["segments"] if s["number"] == segment)
    if not seg.get("rzx"):
        raise UsageError(f"segment {segment} of {folder.name} has no input recording")
    source = folder.path / seg["rzx"]
    total = frame_count(source)
    first = max(0, (start - LEAD_IN) // FLASH_PERIOD * FLASH_PERIOD)
    last = min(total, (end if end is not None else total - 1) + LEAD_OUT)
    level_dir = folder.level_dir(number)
    level_dir.mkdir(parents=True, exist_ok=True)
    rzx = level_dir / "replay.rzx"
    cut(source, first, last, rzx, pad=1)
    print(f"level {number}: frames {first}..{last} of {source.name}, at {speed} %", flush=True)
    movie = level_dir / "replay.fmf"
    with LostDisplay() as lost, _server(options) as server:
        lost.watch(server)
        playback = play(rzx, server, speed, options.scale, rom, movie)
        lost.check()  # Fuse ends with its display: the replay did not end by itself
    video = _video_path(options.video, level_dir / "replay.mp4") if options.want_video else None
    encoded = encode([Segment(1, 0.0, 0.0, speed, rzx, playback.movie)], _vision(run), video)
    identical = _same_pictures(folder, segment, movie, first, 1, _vision(run))
    movie.unlink(missing_ok=True)
    if video and encoded.video:
        timeline = Timeline([Piece(segment, encoded.frames.get(1, 0), first)])
        _chapters(folder, run, encoded.video, timeline)
        print(f"video: {video} ({encoded.video_frames} frames)")
    want = _board(entry.get("movie_end_board") or entry.get("end_board"))
    verdict = _verdict(f"level {number}'s end", want, encoded.final_boards.get(1))
    return max(verdict, 0 if identical else 1)


def _same_pictures(
    folder: RunFolder, segment: int, movie: Path, offset: int, skip: int, vision: Vision
) -> bool:
    """Compare the replay's movie with the run's own, frame by frame, when it was kept."""
    original = folder.path / ("movie.fmf" if segment == 1 else f"movie-{segment}.fmf")
    if not original.is_file() or not movie.is_file():
        return True
    result = compare_movies(original, movie, offset, vision, skip)
    line = f"pictures: {result.identical} of {result.compared} frames identical to the run's movie"
    if result.same_game:
        line += f", {result.same_game} more show the same game (FLASH or raster timing)"
    differ = result.compared - result.identical - result.same_game
    print(line + (f"; {differ} show another game" if differ else ""))
    return result.matches


def _chapters(folder: RunFolder, run: dict[str, Any], video: Path, timeline: Timeline) -> None:
    """The run's chapters (levels, menus, recoveries) in the replay's video."""
    events = read_events(folder.events) if folder.events.is_file() else []
    write_chapters(video, chapters(timeline, run.get("levels", []), events))


def _level_frames(folder: RunFolder, run: dict[str, Any], entry: dict[str, Any]):
    """(segment, first frame, end frame) of a level: exact from the movie when the run
    had one, else estimated from its events."""
    if entry.get("start_frame") is not None:
        return entry["segment"], entry["start_frame"], entry.get("end_frame")
    shown = done = None
    for event in read_events(folder.events):
        if event.get("level") != entry["level"] or event.get("frame") is None:
            continue
        if event["event"] == "level_shown":
            shown, done = event, None
        elif event["event"] == "level_done" and shown is not None:
            done = event
    if shown is None:
        raise UsageError(f"{folder.name} does not say when level {entry['level']} began")
    end = done["frame"] if done else None  # seen a little after the last stone
    return shown["segment"], max(0, shown["frame"] - 25), end


def _video_path(option: str | None, default: Path) -> Path:
    path = Path(option) if option else default
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _verdict(what: str, want: Board | None, seen: Board | None) -> int:
    if want is None:
        print(f"{what}: no board was recorded to compare with")
        return 0 if seen is not None else 1
    if seen == want:
        print(f"{what}: the board matches the recording")
        return 0
    shown = "unreadable" if seen is None else "\n" + str(seen)
    print(f"{what}: the board differs from the recording\nrecorded:\n{want}\nreplayed: {shown}")
    return 1
